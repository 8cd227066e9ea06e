"""SVG snapshots of the main screens at 100x30 (dashboard, review, drill list, workspace, results),
stored in tests/snapshots/. Deterministic: temp data folder, fixed clock, canned checker report, no
animations or cursor blink, and content of their own (two small decks and three drills written
here), so editing the shipped cards or drills never breaks them. Update after a deliberate change
with `pytest tests/test_tui_snapshots.py --snapshot-update`, and look at the SVGs before committing.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from pytest_textual_snapshot import SVGImageExtension
from textual._doc import take_svg_screenshot
from textual.widgets import TextArea

from cards.decks.loader import Card, Deck, DeckSet
from checker.report import CheckResult, Counterexample, Diagnosis, Report
from drills.model import Drill
from tui.app import PpoDrillApp
from tui.screens.workspace import WorkspaceScreen
from tui.testing import FixedClock

SIZE = (100, 30)

DECKS = DeckSet((
    Deck("objective", "The PPO objective", None, "", (
        Card("clip-why-min", "objective", "qa", "Why does PPO take the **min** of the two surrogates?",
             "The min makes the objective a *pessimistic* bound:\n\n```python\n"
             "loss = -np.minimum(ratio * adv, np.clip(ratio, 1 - eps, 1 + eps) * adv).mean()\n```\n"
             "Improvements beyond the band earn nothing; losses are never clipped away."),
        Card("clip-band", "objective", "qa", "What band is the ratio clipped to?", "[1 - eps, 1 + eps]"),
    )),
    Deck("gae", "GAE", None, "", (
        Card("gae-direction", "gae", "qa", "Which way does the GAE scan run?", "Backwards, from T-1 to 0."),
    )),
))

PROMPT = """# Clipped surrogate

Write `clipped(ratio, adv, eps=0.2)` returning the PPO policy loss.

- `ratio`, `adv`: float arrays `[N]`
- return a float: `-mean(min(ratio * adv, clip(ratio, 1 - eps, 1 + eps) * adv))`
"""
STARTER = '''import numpy as np


def clipped(ratio, adv, eps=0.2):
    """The PPO clipped policy loss (a float)."""
    raise NotImplementedError
'''
WRONG = STARTER.replace("raise NotImplementedError",
                        "return -np.maximum(ratio * adv, np.clip(ratio, 1 - eps, 1 + eps) * adv).mean()")

REPORT = Report(
    "clip", "numpy", False,
    checks=[CheckResult("type", "returns a float", True),
            CheckResult("pessimism", "takes the smaller surrogate", False,
                        "With adv > 0 and ratio above the band the loss must stop improving; "
                        "yours keeps rewarding it: expected -1.2, got -1.5.")],
    diagnoses=[Diagnosis("max-not-min", "max instead of min",
                         "The max is optimistic: it rewards moves outside the trust region.",
                         "clip-why-min")],
    counterexample=Counterexample("pessimism", "edge", {"ratio": [1.5], "adv": [1.0], "eps": 0.2},
                                  {"loss": -1.2}, {"loss": -1.5}, where="index 0"),
    elapsed_ms=17.0)


class CannedChecker:
    def check(self, source, drill=None, framework=None, seed=0):
        return REPORT

    def close(self):
        pass


class SnapshotsHere(SVGImageExtension):
    """Keep the SVGs in tests/snapshots/<test module>/ rather than syrupy's __snapshots__."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(Path(test_location.filepath).parent / "snapshots" / test_location.basename)


@pytest.fixture
def svg(snapshot):
    return snapshot.use_extension(SnapshotsHere)


def _drill(root: Path, drill_id: str, kind: str, title: str, minutes: int) -> Drill:
    folder = root / drill_id
    for sub, text in (("starter", STARTER if kind == "core" else WRONG), ("solution", STARTER)):
        (folder / sub).mkdir(parents=True)
        (folder / sub / "numpy.py").write_text(text, encoding="utf-8")
    return Drill(id=drill_id, title=title, kind="core", function="clipped", signature="clipped(ratio, adv, eps=0.2)",
                 frameworks=("numpy",), target_minutes=minutes, topic="policy-loss", difficulty="easy",
                 cards=("clip-why-min",), path=folder, prompt=PROMPT, prompt_zh=None,
                 hints=["Which surrogate is the pessimistic one?", "np.minimum", "Negate the mean."])


@pytest.fixture
def app(tmp_path) -> PpoDrillApp:
    drills = [_drill(tmp_path, "clip", "core", "Clipped surrogate", 5),
              _drill(tmp_path, "value", "core", "Clipped value loss", 6)]
    application = PpoDrillApp(clock=FixedClock(), checker_factory=CannedChecker, fuzz=False,
                              deckset=DECKS, drills=drills)
    application.animation_level = "none"  # no tab underline caught mid-slide
    return application


async def _open_clip(pilot) -> None:
    await _settled(pilot)
    pilot.app.push_screen(WorkspaceScreen(pilot.app.session.drill("clip")))
    await pilot.pause()
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False


async def _settled(pilot) -> None:
    """The session loaded (right after the first frame) and the dashboard's numbers shown."""
    for _ in range(500):
        if pilot.app.session is not None:
            break
        await pilot.pause(0.01)
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()  # the dashboard gathers its numbers in a worker
    await pilot.pause()


def _then(*keys):
    async def run_before(pilot) -> None:
        await _settled(pilot)
        await pilot.press(*keys)
        await pilot.pause()
    return run_before


def test_dashboard(svg, app):
    assert svg == take_svg_screenshot(app, terminal_size=SIZE, run_before=_settled)


def test_review_revealed(svg, app):
    assert svg == take_svg_screenshot(app, terminal_size=SIZE, run_before=_then("r", "space"))


def test_drill_list(svg, app):
    assert svg == take_svg_screenshot(app, terminal_size=SIZE, run_before=_then("d"))


def test_workspace(svg, app):
    assert svg == take_svg_screenshot(app, terminal_size=SIZE, run_before=_open_clip)


def test_results_with_named_mistake(svg, app):
    async def run_before(pilot):
        await _open_clip(pilot)
        pilot.app.screen.editor.load_text(WRONG)
        await pilot.press("ctrl+r")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()

    assert svg == take_svg_screenshot(app, terminal_size=SIZE, run_before=run_before)
