"""The app stays light: importing every screen (and the checker client the app starts) loads
neither torch nor numpy, so the first screen paints fast; `ppo-drill --help` loads no Textual."""
from __future__ import annotations

import subprocess
import sys

HEAVY = ("torch", "numpy", "hypothesis")


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_the_app_imports_no_torch_or_numpy():
    loaded = _modules_after(
        "import tui.app, checker.service\n"
        "from tui.screens import dashboard, review, drill_list, workspace, paste, help, confirm, code_view\n"
        "from tui.session import Session\n"
        "from tui.app import PpoDrillApp\n"
        "from cards.progress.paths import data_dir\n"
        "Session.open(data_dir())")  # the test's private PPO_DRILL_HOME, inherited
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_command_front_imports_no_textual():
    loaded = _modules_after("from tui.cli import build_parser\nbuild_parser()")
    assert "textual" not in loaded and "torch" not in loaded
