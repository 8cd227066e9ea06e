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
        "from tui.screens import mock, stats, mock_history, plan_settings\n"
        "from tui.session import Session\n"
        "from tui.app import PpoDrillApp\n"
        "from cards.progress.paths import data_dir\n"
        "Session.open(data_dir())")  # the test's private PPO_DRILL_HOME, inherited
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_command_front_imports_no_textual():
    loaded = _modules_after("from tui.cli import build_parser\nbuild_parser()")
    assert "textual" not in loaded and "torch" not in loaded


def test_a_screen_that_cannot_be_made_is_an_error_not_coming_soon(monkeypatch):
    """The mock and stats screens are imported like every other: a failure in one (here an ImportError
    from inside it) reaches the user as the error it is, never as a "coming soon" notice."""
    import pytest

    from tui.app import PpoDrillApp
    from tui.screens import mock, stats

    class Broken:
        def __init__(self, *args, **kwargs):
            raise ImportError("a module the screen needs is missing")

    app = PpoDrillApp()
    for module, name in ((mock, "MockScreen"), (stats, "StatsScreen")):
        with monkeypatch.context() as m:
            m.setattr(module, name, Broken)
            with pytest.raises(ImportError, match="module the screen needs"):
                app.make_screen("mock" if module is mock else "stats")
    assert type(app.make_screen("stats")).__name__ == "StatsScreen"
    assert type(app.make_screen("mock")).__name__ == "MockScreen"
