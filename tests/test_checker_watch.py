"""`ppo-drill watch`: a verdict at start and a fresh one on every save, from one warm process."""
from __future__ import annotations

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


def test_watch_rechecks_on_save(tmp_path):
    path = tmp_path / "gae.py"
    bug = next(m for m in get_drill("gae").mistakes if m.id == "gae-forward-scan")
    path.write_text(bug.source("numpy"))
    exe = Path(sys.executable).with_name("ppo-drill")
    proc = subprocess.Popen([str(exe), "--data-dir", str(tmp_path / "home"), "watch", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        first = read_until(proc, "watching", 60)
        assert "FAIL" in first and "gae-forward-scan" in first
        time.sleep(0.3)
        path.write_text(get_drill("gae").solution("numpy"))
        second = read_until(proc, "watching", 60)
        assert "PASS" in second
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
