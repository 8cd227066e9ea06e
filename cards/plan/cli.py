"""Sub-commands of `ppo-drill` for the training plan: `stats [--json] [--days N]`.

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
