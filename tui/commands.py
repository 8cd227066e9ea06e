"""Sub-commands of `ppo-drill` that join the checker to your progress: `next` (the first drill of the
track not passed yet, started like `start`, as rustlings goes through its exercises), and the hooks that
start a drill's solve clock at `ppo-drill start`, record `ppo-drill check` / `watch` verdicts as attempts
with their solve time, so work done outside the app counts, and give `ppo-drill drills` its status column."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    """Add the app's sub-commands to the `ppo-drill` parser (and its progress hook to `start`)."""
    from checker import cli as checker_cli

    if start_cli_clock not in checker_cli.START_HOOKS:
        checker_cli.START_HOOKS.append(start_cli_clock)
    p = sub.add_parser("next", help="start the next drill of the track you have not passed yet",
                       description="Go through the drills in track order (as `ppo-drill drills` lists them): "
                                   "find the first one you have not passed and write its starter like "
                                   "`ppo-drill start` (never over your file: if it is there, say how to check "
                                   "it). Check it with `ppo-drill check FILE` or `watch FILE`; once it "
                                   "passes, `ppo-drill next` moves on.")
    p.add_argument("path", metavar="PATH", nargs="?", help="default: ./<drill>_<framework>.py")
    p.add_argument("--framework", choices=("numpy", "torch"),
                   help="write it in this framework where the drill has it (default: its first)")
    p.set_defaults(handler=cmd_next)


def drill_statuses_for_cli(drill_ids: list[str]) -> dict:
    """A `checker.cli.STATUS_SOURCES` entry: each drill's status and best passing time from the progress
    store ({} with a warning on stderr when progress cannot be read: the list still prints)."""
    try:
        from cards.plan.progress_summary import drill_statuses
        from cards.progress.store import open_store

        with open_store() as store:
            found = drill_statuses(store, drill_ids)
    except Exception as exc:  # noqa: BLE001 - StoreError and anything else: the list without statuses
        print(f"ppo-drill: warning: your progress could not be read, so no status is shown: {exc}",
              file=sys.stderr)
        return {}
    return {i: {"status": st.status, "best_s": st.best_s} for i, st in found.items()}


def cmd_next(args: argparse.Namespace) -> int:
    """`ppo-drill next`: the first drill in track order not passed yet, started like `start`."""
    from checker import cli as checker_cli
    from drills import load_drills
    from cards.plan.progress_summary import PASSED

    drills = load_drills()
    statuses = drill_statuses_for_cli([d.id for d in drills])
    passed = sum(1 for d in drills if (statuses.get(d.id) or {}).get("status") == PASSED)
    drill = next((d for d in drills if (statuses.get(d.id) or {}).get("status") != PASSED), None)
    if drill is None:
        print(f"Every drill is passed ({passed} of {len(drills)}). Keep them fresh: ppo-drill review, "
              "ppo-drill mock, and the drills the plan brings back (ppo-drill plan).")
        return 0
    framework = args.framework if args.framework in drill.frameworks else drill.frameworks[0]
    status = (statuses.get(drill.id) or {}).get("status", "never tried")
    print(f"Next in the track: {drill.id} — {drill.title} ({status}; {passed} of {len(drills)} drills passed)")
    if args.framework and args.framework != framework:
        print(f"{drill.id} has no {args.framework} version; it is written in {framework}.")
    path = Path(args.path) if args.path else checker_cli.default_path(drill, framework)
    if path.exists():
        print(f"{path} is already there (your answer so far): check it with ppo-drill check {path}, "
              f"or re-check on every save with ppo-drill watch {path}")
        return 0
    return checker_cli.cmd_start(argparse.Namespace(drill=drill.id, path=str(path), framework=framework,
                                                    force=False, no_prompt=False, lang="en"))


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
                         code=source, source="cli", caught_share=report.tests.caught_share if report.tests is not None else None,
                         preview=preview)
    except Exception as exc:  # noqa: BLE001 - StoreError and anything else: warn, never break the check
        print(f"ppo-drill: warning: this attempt was not recorded in your progress: {exc}",
              file=sys.stderr)
