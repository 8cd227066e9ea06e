"""`ppo-drill mock [--minutes 45] [--seed N] [--framework F] [--plan]`: a timed mock interview.

`--plan` prints the session's composition and exits (no app, no torch, no Textual); otherwise
the app opens straight on the mock screen. Registered by `tui.cli`; imports are lazy.
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
    p.set_defaults(handler=run_mock)


def run_mock(args: argparse.Namespace) -> int:
    """Plan the session; print it (`--plan`) or open the app on the mock screen."""
    import secrets

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
