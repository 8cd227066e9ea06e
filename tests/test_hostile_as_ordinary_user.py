"""The sandbox tests as an ordinary user, as users run the app: `.ci/as-ordinary-user` copies the tree
for uid 65534 (nobody) and runs pytest there under `setpriv` (see the script). The full run (every
sandbox and hostile test file) is that command with no arguments; here a few of the answers whose
containment differs most between root and an ordinary user run that way, so the script itself
stays working. As an ordinary user there is nothing to drop: the other sandbox tests already run
unprivileged."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not (shutil.which("setpriv") and shutil.which("unshare")),
    reason="dropping to an ordinary uid needs root and setpriv/unshare; as an ordinary user the sandbox "
           "tests in this folder already run unprivileged")


def test_hostile_answers_fail_and_right_answers_pass_as_an_ordinary_user():
    selection = ("kill_parent or write_files or close_descriptor or setsid or fork_bomb or "
                 "signal_owner or next_check_works or writes_to_home or fork_loop")
    proc = subprocess.run([str(ROOT / ".ci" / "as-ordinary-user"),
                           "tests/test_sandbox_hostile.py", "-k", selection, "-rs"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PPO_DRILL_VENV": sys.prefix})  # the environment running this
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    passed = re.search(r"(\d+) passed", out)
    assert passed and int(passed.group(1)) >= 9 and "failed" not in out, out[-2000:]
    assert "degraded sandbox" not in out, out[-2000:]  # user namespaces are allowed here: nothing skipped for that


def test_a_missing_virtualenv_is_said_not_silent(tmp_path):
    proc = subprocess.run([str(ROOT / ".ci" / "as-ordinary-user")], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PPO_DRILL_VENV": str(tmp_path / "nowhere")})
    assert proc.returncode == 2 and "no virtualenv at" in proc.stderr and "PPO_DRILL_VENV" in proc.stderr
