"""Sub-commands of `ppo-drill` for the training plan: `stats [--json] [--days N]` and
`plan [--interview YYYY-MM-DD | --clear] [--json] [--days N]`.

Registered by `tui.cli`; handlers import what they need only when they run. The `mock` command
opens the app, so it lives in `tui/mock_command.py`.
"""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add the training plan's sub-commands to the `ppo-drill` parser."""
    p = sub.add_parser("stats", help="your numbers: reviews, retention, due forecast, drill times, "
                       "mock scores, pitfall profile",
                       description="Print progress statistics (the stats screen's numbers).")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    p.add_argument("--days", type=int, default=30, metavar="N",
                   help="history window for reviews and retention (default 30)")
    p.set_defaults(handler=run_stats)

    p = sub.add_parser("plan", help="the study plan to your interview date: today's cards, reviews, drills "
                       "and mock, readiness per topic",
                       description="Show the study plan that counts down to the interview date; set the "
                                   "date with --interview. After the date the plan is plain spaced review.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--interview", metavar="YYYY-MM-DD", help="set (or change) the interview date")
    which.add_argument("--clear", action="store_true", help="forget the interview date")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    p.add_argument("--days", type=int, default=14, metavar="N", help="forecast days to print (default 14)")
    p.set_defaults(handler=run_plan)


def run_stats(args: argparse.Namespace) -> int:
    """Print `cards.plan.stats.summary()` as text or as one JSON object."""
    import json
    from datetime import datetime, timezone

    from cards.plan.stats import format_summary, summary
    from cards.progress.store import StoreError, open_store

    if args.days < 1 or args.days > 3650:
        print(f"ppo-drill stats: --days must be from 1 to 3650, got {args.days}", file=sys.stderr)
        return 2
    try:
        with open_store() as store:
            data = summary(store, datetime.now(timezone.utc), args.days)
    except StoreError as exc:
        print(f"ppo-drill stats: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(format_summary(data))
    return 0


def run_plan(args: argparse.Namespace) -> int:
    """Set or clear the interview date, then print `cards.plan.interview.study_plan()`."""
    import json
    from datetime import datetime, timezone

    from cards.decks.loader import load_decks
    from cards.plan.interview import format_study_plan, parse_day, set_interview_date, study_plan
    from cards.progress.store import StoreError, open_store
    from drills import load_drills

    now = datetime.now(timezone.utc)
    day = None
    if args.interview is not None:
        try:
            day = parse_day(args.interview)
        except ValueError as exc:
            print(f"ppo-drill plan: --interview: {exc}", file=sys.stderr)
            return 2
        if day < now.date():
            print(f"ppo-drill plan: --interview: {day.isoformat()} has passed (today is "
                  f"{now.date().isoformat()} UTC)", file=sys.stderr)
            return 2
    try:
        with open_store() as store:
            if day is not None or args.clear:
                set_interview_date(store, day)
            lang = store.get_setting("language", "en")
            plan = study_plan(store, load_decks(), load_drills(), now, lang=lang if lang in ("en", "zh") else "en")
    except StoreError as exc:
        print(f"ppo-drill plan: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(plan.to_json(), ensure_ascii=False))
    else:
        print(format_study_plan(plan, max(0, args.days)))
    return 0
