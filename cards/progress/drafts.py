"""Saved answers: the code a candidate is typing for a drill, kept on disk as they type, and the time
already spent on the current attempt, so the drill's clock carries on when it is reopened.

One plain file per drill and framework, `<data_dir>/answers/<drill>/<framework>.py`, so an answer
can also be opened in any editor or handed to `ppo-drill check`; the clock is
`<data_dir>/answers/<drill>/clock.json`. A drill's folder follows its id when the drill is renamed
(`follow_renames`, run when the progress store opens). Every write goes to a temporary file in the same folder and
is then `os.replace`d over the old one: a crash mid-write leaves either the old content or the new
one, never half of each. No Textual, no torch.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from cards.progress.paths import data_dir

ANSWERS = "answers"
PRACTICE = "practice-ahead"
_SAFE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def _checked(name: str, what: str) -> str:
    """Drill ids and framework names become path parts; refuse anything that could escape the folder."""
    if not _SAFE.match(name or "") or ".." in name:
        raise ValueError(f"invalid {what} for a saved answer: {name!r}")
    return name


def draft_path(drill_id: str, framework: str, root: Path | str | None = None) -> Path:
    """Where the answer for (`drill_id`, `framework`) lives; `root` defaults to `data_dir()`."""
    base = Path(root) if root is not None else data_dir()
    return base / ANSWERS / _checked(drill_id, "drill id") / f"{_checked(framework, 'framework')}.py"


def load_draft(drill_id: str, framework: str, root: Path | str | None = None) -> str | None:
    """The saved answer, or None when there is none yet. An unreadable file raises OSError (with
    its path) rather than being treated as absent, so it is never silently overwritten."""
    path = draft_path(drill_id, framework, root)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise OSError(f"saved answer {path} is not UTF-8 text ({exc.reason}); it was left untouched") from exc


def save_draft(drill_id: str, framework: str, code: str, root: Path | str | None = None) -> Path:
    """Write the answer atomically (temp file + fsync + os.replace); returns its path."""
    return _write_atomically(draft_path(drill_id, framework, root), code)


def practice_root(root: Path | str | None = None) -> Path:
    """Where practising ahead keeps its answers (`draft_path(..., root=practice_root())`): a preview of
    a drill starts from a fresh starter, not from the saved answer that passed (re-running that is
    reading, not recall), and never overwrites it. The practice answer is kept while it is unfinished
    and discarded once it passes, so the next practice starts fresh again."""
    return (Path(root) if root is not None else data_dir()) / PRACTICE


def clock_path(drill_id: str, root: Path | str | None = None) -> Path:
    base = Path(root) if root is not None else data_dir()
    return base / ANSWERS / _checked(drill_id, "drill id") / "clock.json"


def load_clock(drill_id: str, root: Path | str | None = None) -> float:
    """Seconds already spent on the drill's current attempt (0 when none, or when the file is damaged:
    a clock is not worth blocking a drill for)."""
    try:
        seconds = float(json.loads(clock_path(drill_id, root).read_text(encoding="utf-8"))["elapsed_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0.0
    return seconds if seconds >= 0 else 0.0


def save_clock(drill_id: str, elapsed_s: float, root: Path | str | None = None) -> Path:
    """Remember the time spent on the current attempt (0 starts the next attempt afresh)."""
    return _write_atomically(clock_path(drill_id, root), json.dumps({"elapsed_s": round(float(elapsed_s), 1)}))


def follow_renames(root: Path | str, renames: dict[str, str]) -> int:
    """Move the saved answers kept under a renamed drill's old id (`cards.progress.renames.renamed_drills`)
    to its new id, in every `answers/` folder of data folder `root` (the drill workspace's, practising
    ahead's, each mock's); returns how many files moved. Where the new id's folder already holds a file of
    the same name (work saved after the rename), that file is kept and the old one is left where it is:
    nothing is overwritten. A file that cannot be moved is left as it is too."""
    base = Path(root)
    moved = 0
    for answers in [base / ANSWERS, *base.glob(f"*/{ANSWERS}"), *base.glob(f"*/*/{ANSWERS}")]:
        try:
            olds = [Path(e.path) for e in os.scandir(answers) if e.name in renames and e.is_dir()]
        except OSError:  # no such folder (most data folders have none), or one that cannot be read
            continue
        for old in olds:
            new = answers / renames[old.name]
            if not new.exists():
                try:
                    os.rename(old, new)
                    moved += sum(1 for p in new.iterdir() if p.is_file())
                    continue
                except OSError:
                    pass
            for path in sorted(old.iterdir()):
                target = new / path.name
                if target.exists():
                    continue
                try:
                    new.mkdir(exist_ok=True)
                    os.rename(path, target)
                    moved += 1
                except OSError:
                    pass
            try:
                old.rmdir()  # only once empty: a kept conflict stays in it
            except OSError:
                pass
    return moved


def _write_atomically(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o777  # keep the file's permissions across the replace
    except FileNotFoundError:
        mode = 0o644  # mkstemp's 0600 would hide the answer from the user's other tools
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def set_aside(drill_id: str, framework: str, root: Path | str | None = None) -> Path:
    """Rename an unreadable answer to `<framework>.py.unreadable[-N]` (bytes untouched) so a fresh
    one can be saved; returns the new name."""
    path = draft_path(drill_id, framework, root)
    target = path.with_name(path.name + ".unreadable")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.unreadable-{n}")
    os.replace(path, target)
    return target


def delete_draft(drill_id: str, framework: str, root: Path | str | None = None) -> bool:
    """Forget a saved answer (reset to the starter); True if there was one."""
    try:
        draft_path(drill_id, framework, root).unlink()
        return True
    except FileNotFoundError:
        return False


def saved_frameworks(drill_id: str, root: Path | str | None = None) -> list[str]:
    """Frameworks that have a saved answer for `drill_id`, sorted."""
    folder = (Path(root) if root is not None else data_dir()) / ANSWERS / _checked(drill_id, "drill id")
    return sorted(p.stem for p in folder.glob("*.py")) if folder.is_dir() else []
