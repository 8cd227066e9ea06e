"""Sub-commands of `ppo-drill` that belong to the checker: check, drills, start, prompt, hint, solution, watch.

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

from checker.answer_check import DRILL_LINE, UsageError, drill_or_usage_error as _get_drill, run_check

#: Called with (report, args, source) after every `check` / `watch` verdict; `tui.cli` uses it to
#: record attempts in the progress store, which the checker itself knows nothing about.
REPORT_HOOKS: list[Callable] = []
#: Called with the drill ids; returns {id: {"status": ..., "best_s": ...}} for those with progress.
#: `tui.cli` registers one that reads the progress store, so `ppo-drill drills` can show where you stand.
STATUS_SOURCES: list[Callable[[list[str]], dict]] = []
#: Called with the drill id after `start` wrote a drill's file; `tui.commands` starts its solve clock.
START_HOOKS: list[Callable] = []


def register(sub: argparse._SubParsersAction) -> None:
    """Add the checker's sub-commands to the `ppo-drill` parser."""
    p = sub.add_parser("check", help="check an answer (a file, or - for pasted code on stdin)",
                       description="Check an answer against the reference PPO core. Exit 0 when it passes, "
                                   "1 when it does not, 2 for a usage problem.")
    p.add_argument("file", metavar="FILE|-", help="the answer file, or - to paste the code on stdin")
    p.add_argument("--drill", metavar="ID", help="drill id (default: the file's drill line written by `start`, "
                                                 "else inferred from the function name)")
    p.add_argument("--framework", choices=("numpy", "torch", "run"), help="default: inferred from the imports (run: a read-the-run sheet)")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    p.add_argument("--seed", type=int, default=0, help="seed of the random examples (default 0)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help="wall-clock limit for running your code, in seconds (default 10)")
    p.add_argument("--preview", action="store_true",
                   help="practising ahead: the verdict is logged as a preview and changes no schedule")
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("drills", help="list the drills, with where you stand on each",
                       description="List every drill in track order: id, fix-the-bug or test mark, target "
                                   "minutes, your status (never tried, failed, passed with your best time), "
                                   "frameworks, topic and title. An id can be typed with _ for - "
                                   "(policy_loss is policy-loss). `ppo-drill next` starts the first one not "
                                   "passed yet.")
    p.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    p.set_defaults(handler=cmd_drills)

    p = sub.add_parser("start", help="write a drill's prompt and starter to a file to edit",
                       description="Write the drill's whole prompt (as comments) and its starter code (for a "
                                   "fix-the-bug drill: the buggy code) to PATH, ready to edit and then `check` or "
                                   "`watch`. The file's first line names the drill, so a later check records it "
                                   "under that drill; the drill's solve clock starts now, and each later check "
                                   "records the time spent.")
    p.add_argument("drill", metavar="ID", help="a drill id from `ppo-drill drills` (- or _ both work)")
    p.add_argument("path", metavar="PATH", nargs="?", help="default: ./<drill>_<framework>.py")
    p.add_argument("--framework", choices=("numpy", "torch", "run"), help="default: the drill's first framework")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="the prompt's language (default en)")
    p.add_argument("--no-prompt", action="store_true", help="write the starter only, without the prompt")
    p.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    p.set_defaults(handler=cmd_start)

    p = sub.add_parser("prompt", help="print a drill's whole prompt",
                       description="Print the drill's prompt as the app shows it: the task, its signature, shapes "
                                   "and conventions, and the worked example.")
    p.add_argument("drill", metavar="ID", help="a drill id from `ppo-drill drills` (- or _ both work)")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="the prompt's language (default en)")
    p.set_defaults(handler=cmd_prompt)

    p = sub.add_parser("hint", help="show a drill's hint (1 a question, 2 the concept, 3 shows the answer)",
                       description="Print one of the drill's hints: level 1 asks a question, level 2 gives the "
                                   "concept, level 3 shows the answer (it says so first).")
    p.add_argument("drill", metavar="ID", help="a drill id from `ppo-drill drills`")
    p.add_argument("level", metavar="LEVEL", nargs="?", type=int, default=1, help="hint level (default 1)")
    p.set_defaults(handler=cmd_hint)

    p = sub.add_parser("solution", help="show a drill's model answer",
                       description="Print the drill's model answer (for a fix-the-bug drill: the fixed code).")
    p.add_argument("drill", metavar="ID", help="a drill id from `ppo-drill drills`")
    p.add_argument("--framework", choices=("numpy", "torch", "run"), help="default: the drill's first framework")
    p.set_defaults(handler=cmd_solution)

    p = sub.add_parser("watch", help="re-check a file every time you save it",
                       description="Check FILE, then again each time it is saved (however the editor saves: "
                                   "in place, or by renaming a new file over it; a deleted file is checked "
                                   "again once it is back). Each verdict is recorded like `check`. Ctrl-C stops.")
    p.add_argument("file", metavar="FILE", help="the answer file to check on every save")
    p.add_argument("--drill", metavar="ID", help="drill id (default: the file's drill line, else inferred "
                                                 "from the function name)")
    p.add_argument("--framework", choices=("numpy", "torch", "run"), help="default: inferred from the imports (run: a read-the-run sheet)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random examples (default 0)")
    p.add_argument("--preview", action="store_true",
                   help="practising ahead: each verdict is logged as a preview and changes no schedule")
    p.set_defaults(handler=cmd_watch)


def _fail(message: str) -> int:
    print(f"ppo-drill: {message}", file=sys.stderr)
    return 2


def _drill_and_framework(args: argparse.Namespace):
    """The drill named on the command line and the framework asked for (default: its first)."""
    drill = _get_drill(args.drill)
    framework = args.framework or drill.frameworks[0]
    if framework not in drill.frameworks:
        raise UsageError(f"drill {drill.id!r} has no {framework} version ({', '.join(drill.frameworks)})")
    return drill, framework


#: The largest answer file read (a whole drill answer is a few KB; the check runs on all of it).
MAX_ANSWER_BYTES = 16 * 1024 * 1024


def read_source(path: str) -> str:
    """The answer at `path` ("-": stdin) as text: only a regular file (a device such as /dev/zero never
    ends, a FIFO may never be written), at most `MAX_ANSWER_BYTES`, UTF-8."""
    import os
    import stat

    if path == "-":
        if sys.stdin.isatty():
            print("paste your code, then Ctrl-D (Ctrl-Z then Enter on Windows)", file=sys.stderr, flush=True)
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in its place (tests, an embedding program)
            return sys.stdin.read(MAX_ANSWER_BYTES + 1)
        data = stream.read(MAX_ANSWER_BYTES + 1)
    else:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, and is refused
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise UsageError(f"cannot read {path}: it is not a file (a folder, a device or a FIFO); "
                                     "give the path of your answer's .py file")
                os.set_blocking(fd, True)
                with os.fdopen(fd, "rb", closefd=False) as f:
                    data = f.read(MAX_ANSWER_BYTES + 1)
            finally:
                os.close(fd)
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_ANSWER_BYTES:
        raise UsageError(f"{path} is over {MAX_ANSWER_BYTES // 2 ** 20} MiB: not an answer file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"cannot read {path}: it is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at "
                         f"offset {exc.start}); save the answer as a plain-text .py file") from None


def _start_sandbox() -> None:
    """Start the sandbox's zygote before anything of the drills or the checker is loaded, so that it is
    forked from this process (milliseconds) rather than started afresh (a second import of torch)."""
    from checker.sandbox import prepare_parent

    prepare_parent()


def _checker(args: argparse.Namespace):
    """The checker of this command: the one the caller gave (`args.checker`: a test session's warm one),
    else a new one, made after the sandbox is up."""
    given = getattr(args, "checker", None)
    if given is not None:
        return given
    _start_sandbox()
    from checker.engine import Checker

    return Checker()


def cmd_check(args: argparse.Namespace) -> int:
    checker = _checker(args)
    try:
        source = read_source(args.file)
        report = run_check(checker, source, args.drill, args.framework, args.seed, args.timeout,
                           filename="<stdin>" if args.file == "-" else args.file)
    except UsageError as exc:
        return _fail(str(exc))
    for hook in REPORT_HOOKS:
        hook(report, args, source)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(report.render(color=sys.stdout.isatty()))
    return 0 if report.passed else 1


def _status_text(entry: dict | None) -> str:
    if not entry:
        return "never tried"
    best = entry.get("best_s")
    if entry["status"] == "passed" and best is not None:
        return f"passed {int(best) // 60}:{int(best) % 60:02d}"
    return entry["status"]


def cmd_drills(args: argparse.Namespace) -> int:
    from drills import load_drills

    drills = load_drills()
    statuses: dict = {}
    for source in STATUS_SOURCES:
        statuses.update(source([d.id for d in drills]))
    rows = [{"id": d.id, "title": d.title, "kind": d.kind, "frameworks": list(d.frameworks),
             "target_minutes": d.target_minutes, "topic": d.topic, "difficulty": d.difficulty,
             "status": (statuses.get(d.id) or {}).get("status", "never tried"),
             "best_s": (statuses.get(d.id) or {}).get("best_s")} for d in drills]
    if args.json:
        print(json.dumps(rows))
        return 0
    width = max(len(r["id"]) for r in rows)
    topic_width = max(len(r["topic"]) for r in rows)
    status_width = max(len(_status_text(statuses.get(r["id"]))) for r in rows)
    for r in rows:
        mark = {"pitfall": "fix  ", "test": "test "}.get(r["kind"], "     ")
        status = _status_text(statuses.get(r["id"]))
        print(f"{r['id']:<{width}}  {mark}{r['target_minutes']:>2} min  {status:<{status_width}}  "
              f"{'/'.join(r['frameworks']):<11} {r['topic']:<{topic_width}} {r['title']}")
    return 0


def default_path(drill, framework: str) -> Path:
    """Where `start` writes a drill's starter without a PATH: ./<drill>_<framework>.py (a read-the-run
    drill's answer sheet: ./<drill>.txt)."""
    if drill.is_run:
        return Path(f"{drill.id.replace('-', '_')}.txt")
    return Path(f"{drill.id.replace('-', '_')}_{framework}.py")


def cmd_start(args: argparse.Namespace) -> int:
    try:
        drill, framework = _drill_and_framework(args)
    except UsageError as exc:
        return _fail(str(exc))
    path = Path(args.path) if args.path else default_path(drill, framework)
    if path.is_dir():
        return _fail(f"{path} is a folder; give a file name (e.g. {path / (drill.id.replace('-', '_') + '.py')})")
    if path.exists() and not args.force:
        return _fail(f"{path} already exists; not overwriting your code (use --force, or another PATH)")
    head = DRILL_LINE.format(id=drill.id) + "\n"
    if not args.no_prompt:
        head += prompt_as_comments(drill, args.lang)
    try:
        if drill.is_run:  # the answer sheet, its log and causes in the prompt's language
            from drills.runlog import answer_sheet

            body = answer_sheet(drill, lang=args.lang)
        else:
            body = drill.starter(framework)
        path.write_text(head + body, encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {path}: {exc.strerror or exc}")
    for hook in START_HOOKS:
        hook(drill.id)
    print(f"wrote {path} — {drill.title} ({framework}, target {drill.target_minutes} min)")
    print(f"check it with: ppo-drill check {path}   (or re-check on every save: ppo-drill watch {path})")
    return 0


def prompt_text(drill, lang: str = "en") -> str:
    """The drill's prompt in `lang` (English where it has no Chinese one)."""
    return (drill.prompt_zh if lang == "zh" and drill.prompt_zh else drill.prompt).strip() + "\n"


def prompt_as_comments(drill, lang: str = "en") -> str:
    """The whole prompt as a block of `#` lines, to stand above the starter in the file `start` writes
    (comments change nothing the checker sees)."""
    lines = [f"# {line}".rstrip() for line in prompt_text(drill, lang).splitlines()]
    return "\n".join(["#", *lines, f"# (ppo-drill prompt {drill.id} prints this again; "
                       f"ppo-drill hint {drill.id} 1 gives the first hint)", ""]) + "\n"


def cmd_prompt(args: argparse.Namespace) -> int:
    try:
        drill = _get_drill(args.drill)
    except UsageError as exc:
        return _fail(str(exc))
    print(prompt_text(drill, args.lang), end="")
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
    sandboxed child, so after the first check a verdict takes tens of milliseconds.

    The folder is watched, not the file: many editors save by writing a new file and renaming it over
    the old one (and some delete and recreate it), which replaces the file a file watch would follow.
    Watching the folder for FILE's name sees every way of saving.

    The watcher starts once the first check is over (the first check of a process takes seconds), so a
    save made while that check ran is looked for when the watcher is up: the file checked again if it
    changed since that check read it (`_ChangedBeforeTheWatch`)."""
    path = Path(args.file)
    if path.is_dir():
        return _fail(f"{path} is a folder; watch one answer file")
    if not path.exists():
        return _fail(f"{path} does not exist (create it with `ppo-drill start ID {path}`)")
    checker = _checker(args)  # before watchfiles starts its thread: a zygote is forked from one thread only
    from watchfiles import watch

    tty = sys.stdout.isatty()
    name = path.name
    folder = path.parent.resolve()

    def once() -> None:
        try:
            source = read_source(str(path))
            report = run_check(checker, source, args.drill, args.framework, args.seed, filename=str(path))
        except UsageError as exc:
            print(f"ppo-drill: {exc}", file=sys.stderr, flush=True)
            print(f"watching {path} — save to re-check, Ctrl-C to stop", flush=True)
            return
        for hook in REPORT_HOOKS:
            hook(report, args, source)
        # one write, so that a reader never sees the verdict without the line that ends it
        sys.stdout.write(("\033[2J\033[H" if tty else "") + report.render(color=tty)
                         + f"\n\nwatching {path} — save to re-check, Ctrl-C to stop\n")
        sys.stdout.flush()
        try:  # the next save's check forks nothing: its sandbox child waits ready
            checker.keep_warm()
        except Exception as exc:  # noqa: BLE001 - a spare is an optimisation: the next check forks afresh
            print(f"ppo-drill: could not fork a spare sandbox child: {exc}", file=sys.stderr, flush=True)

    def check_or_wait() -> None:
        if path.is_file():
            once()
        else:
            print(f"{path} is gone; waiting for it to come back (Ctrl-C to stop)", flush=True)

    try:
        while True:  # once, unless the file changed while the check before the watch ran
            missed = _ChangedBeforeTheWatch(path)  # the file as it is before the check reads it
            check_or_wait()
            for _changes in watch(folder, watch_filter=lambda _change, changed: Path(changed).name == name,
                                  recursive=False, debounce=200, stop_event=missed):
                check_or_wait()
    except KeyboardInterrupt:  # Ctrl-C: the way to stop (watchfiles would log a warning of its own)
        print(f"\nstopped watching {path}", flush=True)
    return 0


def _file_state(path: Path) -> tuple[int, int, int] | None:
    """What changes when the file is saved in any way (written, replaced by a rename, recreated): its
    inode, size and modification time; None while there is no file."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


class _ChangedBeforeTheWatch:
    """The `stop_event` of a watch: watchfiles asks `is_set()` after each step of its wait, its watcher up.
    Made before the check that precedes the watch reads the file, its first answer is whether the file
    has changed since (a save while that check ran, which no watcher saw): then the watch stops and the
    file is checked again. Every later answer is no."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._before: tuple[int, int, int] | None = _file_state(path)
        self._asked = False

    def is_set(self) -> bool:
        if self._asked:
            return False
        self._asked = True
        return _file_state(self._path) != self._before
