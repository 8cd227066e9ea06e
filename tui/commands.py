"""Sub-commands of `ppo-drill` that belong to the app (none yet besides opening it), and the hooks
that start a drill's solve clock at `ppo-drill start` and record `ppo-drill check` / `watch` verdicts as
attempts with their solve time, so work done outside the app counts."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add the app's sub-commands to the `ppo-drill` parser (and its progress hook to `start`)."""
    from checker import cli as checker_cli

    if start_cli_clock not in checker_cli.START_HOOKS:
        checker_cli.START_HOOKS.append(start_cli_clock)


def start_cli_clock(drill_id: str) -> None:
    """A `checker.cli.START_HOOKS` entry: `ppo-drill start` wrote a drill's file, so its solve clock
    (`cards.schedule.solve_clock`) starts now. A progress problem is one warning line, never a failed start."""
    from datetime import datetime, timezone

    try:
        from cards.progress.store import open_store
        from cards.schedule import solve_clock

        with open_store() as store:
            solve_clock.start(store, drill_id, datetime.now(timezone.utc))
    except Exception as exc:  # noqa: BLE001 - StoreError and anything else: warn, the file is written
        print(f"ppo-drill: warning: the solve clock was not started in your progress: {exc}", file=sys.stderr)


def run_app(args: argparse.Namespace) -> int:
    """Open the Textual app (the default when no sub-command is given)."""
    from tui.app import run

    return run(args)


def record_cli_check(report, args, source: str) -> None:
    """A `checker.cli.REPORT_HOOKS` entry: record the verdict through `cards.schedule.training.record_check`
    (source "cli"; with `--preview` a practise-ahead preview that changes no schedule), with the solve time
    `cards.schedule.solve_clock` measured since `start` or the drill's last check. A file that never
    ran (`Report.code_ran`) is not an attempt. Progress problems never spoil the check's output: one
    warning line on stderr."""
    from datetime import datetime, timedelta, timezone

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
        from cards.schedule import solve_clock

        with open_store() as store:
            elapsed = solve_clock.tick(store, report.drill, now, report.passed)
            started = now - timedelta(seconds=elapsed) if elapsed is not None else now
            record_check(store, drill_id=report.drill, framework=report.framework,
                         passed=report.passed, mistakes=[(d.id, d.card) for d in report.diagnoses],
                         started_at=started, finished_at=now, elapsed_s=elapsed, target_minutes=target,
                         code=source, source="cli", tests=report.tests,
                         preview=preview)
    except Exception as exc:  # noqa: BLE001 - StoreError and anything else: warn, never break the check
        print(f"ppo-drill: warning: this attempt was not recorded in your progress: {exc}",
              file=sys.stderr)
