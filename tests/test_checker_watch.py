"""`ppo-drill watch`: a verdict at start and a fresh one on every save, from one warm process."""
from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from drills import get_drill


def read_until(proc, needle: str, timeout: float) -> str:
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    seen = ""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        if sel.select(timeout=0.2):
            chunk = os.read(proc.stdout.fileno(), 65536).decode()
            if not chunk:
                break
            seen += chunk
    return seen


@contextlib.contextmanager
def watching(path: Path, home: Path):
    """`ppo-drill watch PATH` running, its output piped; stopped with Ctrl-C (SIGINT) at the end."""
    exe = Path(sys.executable).with_name("ppo-drill")
    proc = subprocess.Popen([str(exe), "--data-dir", str(home), "watch", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _atomic_save(path: Path, text: str) -> None:
    """Save the way many editors do: write a temporary file beside it, then rename it over the file."""
    tmp = path.with_name(f".{path.name}.swp-new")
    tmp.write_text(text)
    os.replace(tmp, path)


def test_watch_follows_the_name_across_atomic_saves_and_recreation(tmp_path):
    path = tmp_path / "gae.py"
    bug = next(m for m in get_drill("gae").mistakes if m.id == "gae-forward-scan")
    path.write_text(bug.source("numpy"))
    with watching(path, tmp_path / "home") as proc:
        assert "FAIL" in read_until(proc, "watching", 60)
        time.sleep(0.3)
        _atomic_save(path, get_drill("gae").solution("numpy"))
        assert "PASS" in read_until(proc, "watching", 60)
        time.sleep(0.3)
        _atomic_save(path, bug.source("numpy"))  # a second rename: the new file is followed too
        assert "gae-forward-scan" in read_until(proc, "watching", 60)
        time.sleep(0.3)
        path.unlink()
        assert "waiting for it to come back" in read_until(proc, "come back", 30)
        time.sleep(0.3)
        path.write_text(get_drill("gae").solution("numpy"))
        assert "PASS" in read_until(proc, "watching", 60)
        time.sleep(0.3)
        _atomic_save(path, "import numpy as np\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95:\n")
        broken = read_until(proc, "Ctrl-C to stop\n", 60)  # the whole report, its last line included
        assert f'File "{path}", line 2' in broken and "answer.py" not in broken  # the user's file, named
        # a file beside it changing is not a save of this one
        time.sleep(0.3)
        (tmp_path / "other.py").write_text("x = 1\n")
        assert read_until(proc, "watching", 1.5) == ""


def _children(pid: int) -> list[int]:
    """The pids of `pid`'s children (none once it is gone)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def test_a_save_while_the_first_check_runs_is_checked_once_the_watch_begins(tmp_path):
    """The watcher starts after the first check, which takes seconds in a fresh process: a fix saved while
    that check runs (a user who starts watching, then saves at once) is checked when the watch begins,
    not left unseen until the next save; and a save in place once the watch is up is checked too."""
    path = tmp_path / "gae.py"
    bug = next(m for m in get_drill("gae").mistakes if m.id == "gae-forward-scan")
    path.write_text("import time\ntime.sleep(1.5)  # a slow first check\n" + bug.source("numpy"))
    with watching(path, tmp_path / "home") as proc:
        deadline = time.monotonic() + 60
        running: list[int] = []  # a child of the sandbox's zygote: the file has been read and the check runs
        while not running and time.monotonic() < deadline and proc.poll() is None:
            zygotes = [pid for pid in _children(proc.pid) if _name(pid).startswith("ppo-drill-zyg")]
            running = [child for z in zygotes for child in _children(z)]
            time.sleep(0.02)
        assert running, "the first check never ran"
        path.write_text(get_drill("gae").solution("numpy"))  # saved while the first check runs
        first = read_until(proc, "watching", 60)
        assert "FAIL" in first and "gae-forward-scan" in first, first
        assert "PASS" in read_until(proc, "watching", 30)
        time.sleep(0.3)  # the watch is up: a save in place is seen by it
        path.write_text(bug.source("numpy"))
        again = read_until(proc, "watching", 60)
        assert "FAIL" in again and "gae-forward-scan" in again, again
