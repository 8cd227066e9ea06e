"""Sub-commands of `ppo-drill` that belong to the checker: check, drills, start, hint, solution, watch.

Registered by `tui.cli`; handlers import heavy modules (numpy, torch) only when they run. Exit codes of
`check`: 0 the answer passes, 1 it does not (a wrong answer or an error in the answer), 2 a usage problem
(unknown drill, unreadable file) with a one-line message.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

#: Called with (report, args, source) after every `check` / `watch` verdict; `tui.cli` uses it to
#: record attempts in the progress store, which the checker itself knows nothing about.
REPORT_HOOKS: list[Callable] = []


class UsageError(Exception):
    """A problem with how the command was called (exit 2)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the checker's sub-commands to the `ppo-drill` parser."""
    p = sub.add_parser("check", help="check an answer (a file, or - for pasted code on stdin)",
                       description="Check an answer against the reference PPO core. Exit 0 when it passes, "
                                   "1 when it does not, 2 for a usage problem.")
    p.add_argument("file", metavar="FILE|-")
    p.add_argument("--drill", metavar="ID", help="drill id (default: inferred from the function name)")
    p.add_argument("--framework", choices=("numpy", "torch"), help="default: inferred from the imports")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    p.add_argument("--seed", type=int, default=0, help="seed of the random examples (default 0)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help="wall-clock limit for running your code, in seconds (default 10)")
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("drills", help="list the drills")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_drills)

    p = sub.add_parser("start", help="write a drill's starter to a file to edit")
    p.add_argument("drill", metavar="ID")
    p.add_argument("path", metavar="PATH", nargs="?", help="default: ./<drill>_<framework>.py")
    p.add_argument("--framework", choices=("numpy", "torch"))
    p.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    p.set_defaults(handler=cmd_start)

    p = sub.add_parser("hint", help="show a drill's hint (levels 1-3, from a nudge to nearly the answer)")
    p.add_argument("drill", metavar="ID")
    p.add_argument("level", metavar="LEVEL", nargs="?", type=int, default=1)
    p.set_defaults(handler=cmd_hint)

    p = sub.add_parser("solution", help="show a drill's model answer")
    p.add_argument("drill", metavar="ID")
    p.add_argument("--framework", choices=("numpy", "torch"))
    p.set_defaults(handler=cmd_solution)

    p = sub.add_parser("watch", help="re-check a file every time you save it")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--drill", metavar="ID")
    p.add_argument("--framework", choices=("numpy", "torch"))
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(handler=cmd_watch)


def _fail(message: str) -> int:
    print(f"ppo-drill: {message}", file=sys.stderr)
    return 2


def _get_drill(drill_id: str):
    from drills import get_drill

    try:
        return get_drill(drill_id)
    except KeyError:
        from drills import load_drills

        raise UsageError(f"unknown drill {drill_id!r}; known: {', '.join(d.id for d in load_drills())}") from None


def _drill_and_framework(args: argparse.Namespace):
    """The drill named on the command line and the framework asked for (default: its first)."""
    drill = _get_drill(args.drill)
    framework = args.framework or drill.frameworks[0]
    if framework not in drill.frameworks:
        raise UsageError(f"drill {drill.id!r} has no {framework} version ({', '.join(drill.frameworks)})")
    return drill, framework


def read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror if isinstance(exc, OSError) else exc}") from None


def run_check(source: str, drill: str | None, framework: str | None, seed: int, timeout: float | None = None):
    """The check behind `ppo-drill check` and `watch` (and the app's worker): detect, then check."""
    from checker.detect import DetectError
    from checker.engine import check

    if drill is not None:
        _get_drill(drill)
    limits = None
    if timeout is not None:
        from checker.sandbox import Limits

        if timeout <= 0:
            raise UsageError("--timeout must be positive")
        limits = Limits(wall_s=timeout, cpu_s=max(1, int(timeout + 0.999)))
    try:
        return check(source, drill, framework, seed, limits=limits)
    except DetectError as exc:
        raise UsageError(str(exc)) from None


def cmd_check(args: argparse.Namespace) -> int:
    try:
        source = read_source(args.file)
        report = run_check(source, args.drill, args.framework, args.seed, args.timeout)
    except UsageError as exc:
        return _fail(str(exc))
    for hook in REPORT_HOOKS:
        hook(report, args, source)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(report.render(color=sys.stdout.isatty()))
    return 0 if report.passed else 1


def cmd_drills(args: argparse.Namespace) -> int:
    from drills import load_drills

    drills = load_drills()
    rows = [{"id": d.id, "title": d.title, "kind": d.kind, "frameworks": list(d.frameworks),
             "target_minutes": d.target_minutes, "topic": d.topic, "difficulty": d.difficulty} for d in drills]
    if args.json:
        print(json.dumps(rows))
        return 0
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        mark = {"pitfall": "fix ", "test": "test"}.get(r["kind"], "    ")
        print(f"{r['id']:<{width}}  {mark}{r['target_minutes']:>2} min  {'/'.join(r['frameworks']):<11} "
              f"{r['topic']:<16} {r['title']}")
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    try:
        drill, framework = _drill_and_framework(args)
    except UsageError as exc:
        return _fail(str(exc))
    path = Path(args.path or f"{drill.id.replace('-', '_')}_{framework}.py")
    if path.exists() and not args.force:
        return _fail(f"{path} already exists; not overwriting your code (use --force, or another PATH)")
    path.write_text(drill.starter(framework), encoding="utf-8")
    print(f"wrote {path} — {drill.title} ({framework}, target {drill.target_minutes} min)")
    print(f"check it with: ppo-drill check {path} --drill {drill.id}")
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    try:
        drill = _get_drill(args.drill)
    except UsageError as exc:
        return _fail(str(exc))
    if not 1 <= args.level <= len(drill.hints):
        return _fail(f"hint levels are 1 to {len(drill.hints)}")
    print(f"Hint {args.level} of {len(drill.hints)} — {drill.title}\n")
    print(drill.hints[args.level - 1].strip())
    return 0


def cmd_solution(args: argparse.Namespace) -> int:
    try:
        drill, framework = _drill_and_framework(args)
    except UsageError as exc:
        return _fail(str(exc))
    print(drill.solution(framework), end="")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    """Re-check FILE on every save, in this process: torch is imported once and each check forks a fresh
    sandboxed child, so after the first check a verdict takes tens of milliseconds."""
    path = Path(args.file)
    if not path.exists():
        return _fail(f"{path} does not exist (create it with `ppo-drill start ID {path}`)")
    from watchfiles import watch

    def once() -> None:
        try:
            source = read_source(str(path))
            report = run_check(source, args.drill, args.framework, args.seed)
        except UsageError as exc:
            print(f"ppo-drill: {exc}", file=sys.stderr)
            return
        for hook in REPORT_HOOKS:
            hook(report, args, source)
        print("\033[2J\033[H" if sys.stdout.isatty() else "", end="")
        print(report.render(color=sys.stdout.isatty()))
        print(f"\nwatching {path} — save to re-check, Ctrl-C to stop", flush=True)

    once()
    try:
        for _changes in watch(path, debounce=200, raise_interrupt=False):
            once()
    except KeyboardInterrupt:
        pass
    return 0
