"""`ppo-drill mock [--minutes 45] [--seed N] [--framework F] [--plan]`: a timed mock interview; and
`ppo-drill mock --history | --show ID | --compare ID ID`: past mocks, one scorecard with everything
revealed, two runs of a seed side by side.

`--plan` and the history options print and exit (no app, no torch, no Textual); otherwise the app
opens straight on the mock screen. Registered by `tui.cli`; imports are lazy.
"""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add `mock` to the `ppo-drill` parser."""
    p = sub.add_parser("mock", help="a timed mock interview: 2-3 coding drills and 6-10 follow-up questions",
                       description="Run a timed mock interview in the app, or print its plan. The same "
                                   "seed gives the same session.")
    p.add_argument("--minutes", type=int, default=45, help="overall clock in minutes (15-180, default 45)")
    p.add_argument("--seed", type=int, default=None, help="session seed (default: a new random one, shown)")
    p.add_argument("--framework", choices=("numpy", "torch"), default=None,
                   help="write the drills in this framework where the drill supports it")
    p.add_argument("--plan", action="store_true", help="print the session's composition and exit")
    past = p.add_mutually_exclusive_group()
    past.add_argument("--history", action="store_true", help="list finished mocks, newest first")
    past.add_argument("--show", metavar="ID", help="print a finished mock's scorecard with everything revealed")
    past.add_argument("--compare", nargs=2, metavar="ID", help="two runs of the same seed side by side")
    p.set_defaults(handler=run_mock)


def _resolve(store, prefix: str) -> str:
    """A finished mock's id from a unique prefix of it (as `--history` prints)."""
    from cards.plan.mock_review import mock_history

    ids = [m.mock_id for m in mock_history(store) if m.mock_id.startswith(prefix)]
    if len(ids) != 1:
        raise ValueError(f"{'no' if not ids else 'more than one'} finished mock matches {prefix!r} "
                         f"(see ppo-drill mock --history)")
    return ids[0]


def run_history(args: argparse.Namespace) -> int:
    """`--history`, `--show`, `--compare`: print from the progress store."""
    from cards.plan.mock import format_scorecard, score_session
    from cards.plan.mock_review import (compare_runs, format_comparison, format_review, load_finished,
                                        mock_history, review_items)
    from cards.progress.store import StoreError, open_store

    try:
        with open_store() as store:
            if args.history:
                rows = mock_history(store)
                if not rows:
                    print("No finished mock yet (ppo-drill mock).")
                for m in rows:
                    print(f"{m.mock_id[:8]}  {m.finished_at:%Y-%m-%d %H:%M}  seed {m.seed:<7} {m.minutes:>3} min  "
                          f"score {m.score:5.1f}  correctness {m.correctness:.0f}%")
            elif args.show:
                session = load_finished(store, _resolve(store, args.show))
                print(format_scorecard(score_session(session)))
                print()
                from cards.cli import _card_text_for  # on a terminal, cards drawn as `review` draws them

                print(format_review(review_items(session), shown=_card_text_for(sys.stdout)))
            else:
                a, b = (_resolve(store, x) for x in args.compare)
                print(format_comparison(compare_runs(store, a, b)))
    except (ValueError, KeyError) as exc:
        print(f"ppo-drill mock: {exc}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"ppo-drill mock: {exc}", file=sys.stderr)
        return 1
    return 0


def run_mock(args: argparse.Namespace) -> int:
    """Plan the session; print it (`--plan`) or open the app on the mock screen."""
    import secrets

    if args.history or args.show or args.compare:
        return run_history(args)
    from cards.plan.mock import format_plan, plan_mock

    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    try:
        plan = plan_mock(seed, args.minutes, framework=args.framework)
    except ValueError as exc:
        print(f"ppo-drill mock: --minutes: {exc}", file=sys.stderr)
        return 2
    if args.plan:
        print(format_plan(plan))
        return 0
    return open_app_on_mock(args, plan)


def mock_app(plan, framework: str | None = None, **app_kwargs):
    """The main app, opening on a `MockScreen` for `plan` pushed over the dashboard (whose `m`
    key opens a fresh mock screen later)."""
    from tui.app import PpoDrillApp
    from tui.screens.mock import MockScreen

    return PpoDrillApp(initial_screen=lambda: MockScreen(plan, framework=framework), **app_kwargs)


def open_app_on_mock(args: argparse.Namespace, plan) -> int:
    """Open the app on the mock screen (its start panel: the clock starts on enter)."""
    app = mock_app(plan, framework=args.framework)
    app.run()
    return app.return_code or 0
