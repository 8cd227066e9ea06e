"""Sub-commands of `ppo-drill` that belong to the app (none yet besides opening it), and the hook
that records `ppo-drill check` / `watch` verdicts as attempts, so work done outside the app counts."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add the app's sub-commands to the `ppo-drill` parser."""


def run_app(args: argparse.Namespace) -> int:
    """Open the Textual app (the default when no sub-command is given)."""
    from tui.app import run

    return run(args)


def record_cli_check(report, args, source: str) -> None:
    """A `checker.cli.REPORT_HOOKS` entry: record the verdict through `cards.schedule.training.record_check`
    (source "cli"; with `--preview` a practise-ahead preview that changes no schedule). A file that never
    ran (`Report.code_ran`) is not an attempt. Progress problems never spoil the check's output: one
    warning line on stderr."""
    from datetime import datetime, timezone

    try:
        from cards.progress.store import open_store
        from cards.schedule.training import record_check
        from drills import get_drill

        try:
            target = get_drill(report.drill).target_minutes
        except KeyError:
            return  # not a drill of ours (nothing to record against)
        if not report.code_ran:  # as in the app's paste screen: a file that never ran is no attempt
            print(f"ppo-drill: not counted as an attempt at {report.drill}: the code did not run",
                  file=sys.stderr)
            return
        from cards.progress.json_io import MAX_STORED_CODE

        if len(source) > MAX_STORED_CODE:
            print(f"ppo-drill: note: the check ran on all {len(source):,} characters; your progress keeps "
                  f"the first {MAX_STORED_CODE:,} of them with this attempt", file=sys.stderr)
        now = datetime.now(timezone.utc)
        preview = bool(getattr(args, "preview", False))
        if preview:
            print(f"ppo-drill: practising ahead: a preview, {report.drill}'s schedule is unchanged",
                  file=sys.stderr)
        with open_store() as store:
            record_check(store, drill_id=report.drill, framework=report.framework,
                         passed=report.passed, mistakes=[(d.id, d.card) for d in report.diagnoses],
                         started_at=now, finished_at=now, elapsed_s=None, target_minutes=target,
                         code=source, source="cli", tests=report.tests,
                         preview=preview)
    except Exception as exc:  # noqa: BLE001 - StoreError and anything else: warn, never break the check
        print(f"ppo-drill: warning: this attempt was not recorded in your progress: {exc}",
              file=sys.stderr)
