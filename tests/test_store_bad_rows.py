"""Bad rows in the user's progress: an import names and skips them, and a row already in the database
(written by an older version, a hand edit, a damaged file) is named and skipped by every command, never
a traceback, and left in the database as it was."""
from __future__ import annotations

import copy
import json
import sqlite3

import pytest

from cards.progress.store import DB_NAME, open_store
from tui.cli import main

STATE = {"card_id": 1, "state": 2, "step": None, "stability": 3.0, "difficulty": 5.0,
         "due": "2026-12-01T10:00:00+00:00", "last_review": "2026-11-28T10:00:00+00:00"}
COMMANDS = (["cards"], ["stats"], ["stats", "--json"], ["plan"], ["mock", "--history"], ["review"])


def _review(**fields) -> dict:
    return {"uid": "u1", "card_id": "gae-purpose", "rating": 3, "reviewed_at": "2026-12-01T10:00:00+00:00",
            "duration_ms": 1, "source": "user", "state_before": None, "state_after": STATE, **fields}


IMPORTS = {
    "new_per_day is a word": (lambda d: d["settings"].update(new_per_day="many"), "new_per_day"),
    "new_per_day is null": (lambda d: d["settings"].update(new_per_day=None), "new_per_day"),
    "an fsrs card_id that is not a number": (
        lambda d: d["card_states"].append({"card_id": "gae-purpose", "fsrs": {**STATE, "card_id": "abc"}}), "card_id"),
    "a card in review with stability 0": (
        lambda d: d["card_states"].append({"card_id": "gae-purpose", "fsrs": {**STATE, "stability": 0}}), "stability"),
    "a card in review with no stability": (
        lambda d: d["card_states"].append({"card_id": "gae-purpose", "fsrs": {**STATE, "stability": None}}), "stability"),
    "plan_extra.at a number": (lambda d: d["settings"].update(plan_extra={"day": "2026-12-03", "at": 3}), "plan_extra"),
    "plan_extra.at garbage": (lambda d: d["settings"].update(plan_extra={"day": "2026-12-03", "at": "garbage"}),
                              "plan_extra"),
    "a date before year 1 in UTC": (lambda d: d["reviews"].append(_review(reviewed_at="0001-01-01T00:00:00+14:00")),
                                    "reviewed_at"),
    "naive dates": (lambda d: d["reviews"].append(_review(
        uid="u2", reviewed_at="2026-12-01T10:00:00", state_after={**STATE, "due": "2026-12-04T10:00:00"})),
        "time zone"),
    "a naive card state": (lambda d: d["card_states"].append(
        {"card_id": "gae-purpose", "fsrs": {**STATE, "last_review": "2026-11-28T10:00:00"}}), "time zone"),
}


@pytest.fixture
def export(tmp_path, capsys):
    home = tmp_path / "origin"
    assert main(["--data-dir", str(home), "plan", "--interview", "2026-12-20"]) == 0
    assert main(["--data-dir", str(home), "export-progress", str(tmp_path / "x.json")]) == 0
    capsys.readouterr()
    good = json.loads((tmp_path / "x.json").read_text())
    good["reviews"].append(_review(uid="good-one"))  # a good row beside the bad one, imported
    return good


def _commands_run(home, capsys) -> str:
    said = ""
    for command in COMMANDS:
        code = main(["--data-dir", str(home), *command])
        out = capsys.readouterr()
        assert code in (0, 1), (command, out.err)
        assert "Traceback" not in out.out + out.err, (command, out.err)
        said += out.err
    return said


@pytest.mark.parametrize("case", list(IMPORTS))
def test_an_import_skips_and_names_a_bad_row_and_every_command_runs_after(case, export, tmp_path, capsys,
                                                                          monkeypatch):
    monkeypatch.setattr("sys.stdin", open("/dev/null"))
    change, field = IMPORTS[case]
    doc = copy.deepcopy(export)
    change(doc)
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc))
    home = tmp_path / "home"
    assert main(["--data-dir", str(home), "import-progress", str(path)]) == 0
    out = capsys.readouterr()
    assert "skipped 1" in out.err and field in out.err, out.err
    with open_store(home) as store:
        assert any(r.uid == "good-one" for r in store.reviews())  # the rest of the file was imported
    _commands_run(home, capsys)


@pytest.mark.parametrize("text,why", ids=["deep", "long-integer"], argvalues=[
    ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    ('{"format": "ppo-drill-progress", "version": ' + "9" * 5000 + "}", "thousands of digits"),
])
def test_an_import_of_a_hostile_document_is_a_message(text, why, tmp_path, capsys):
    path = tmp_path / "in.json"
    path.write_text(text)
    assert main(["--data-dir", str(tmp_path / "home"), "import-progress", str(path)]) in (1, 2)
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err


def test_an_import_of_a_device_or_a_fifo_is_refused(tmp_path, capsys):
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        assert main(["--data-dir", str(tmp_path / "home"), "import-progress", path]) in (1, 2)
        assert "is not a file" in capsys.readouterr().err


BAD_ROWS = {
    "a setting the app reads, of the wrong type": "INSERT OR REPLACE INTO setting (key, value) "
                                                  "VALUES ('new_per_day', '\"many\"')",
    "a setting that is not JSON": "INSERT OR REPLACE INTO setting (key, value) VALUES ('language', '{oops')",
    "plan extras with a bad time": "INSERT OR REPLACE INTO setting (key, value) VALUES "
                                   "('plan_extra', '{\"day\": \"2026-12-03\", \"at\": 3}')",
    "a card in review with stability 0": (
        "INSERT OR REPLACE INTO card_state (card_id, fsrs, due, state, last_review) VALUES "
        f"('gae-purpose', '{json.dumps({**STATE, 'stability': 0})}', '2026-12-01T10:00:00.000000+00:00', 2, NULL)"),
    "a card state due at a date that is not one": (
        "INSERT OR REPLACE INTO card_state (card_id, fsrs, due, state, last_review) VALUES "
        f"('gae-purpose', '{json.dumps(STATE)}', 'garbage', 2, NULL)"),
    "a drill state that is not JSON": (
        "INSERT OR REPLACE INTO drill_state (drill_id, fsrs, due, state, last_review) VALUES "
        "('gae', '{x', '2026-12-01T10:00:00.000000+00:00', 2, NULL)"),
    "a review with a bad date": (
        "INSERT INTO review_log (uid, card_id, rating, reviewed_at, duration_ms, source, state_before, "
        "state_after) VALUES ('u', 'gae-purpose', 3, 'nope', 0, 'user', NULL, '{}')"),
    "an attempt with bad mistakes": (
        "INSERT INTO drill_attempt (uid, drill_id, framework, started_at, finished_at, elapsed_s, passed, "
        "mistakes, code, source) VALUES ('a', 'gae', 'numpy', '2026-12-01T10:00:00.000000+00:00', NULL, "
        "'x', 1, '{', '', 'cli')"),
    "a mock with a bad start": ("INSERT INTO mock_session (id, seed, started_at, finished_at, payload) "
                                "VALUES ('m', 1, 'x', NULL, '[]')"),
}


@pytest.mark.parametrize("case", list(BAD_ROWS))
def test_every_command_survives_a_bad_row_already_in_the_database(case, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", open("/dev/null"))
    home = tmp_path / "home"
    assert main(["--data-dir", str(home), "cards"]) == 0
    db = sqlite3.connect(home / DB_NAME)
    db.execute(BAD_ROWS[case])
    db.commit()
    before = db.execute("SELECT * FROM setting UNION ALL SELECT card_id, fsrs FROM card_state").fetchall()
    db.close()
    capsys.readouterr()
    said = _commands_run(home, capsys)
    assert "could not be read and were skipped" in said, said
    assert main(["--data-dir", str(home), "export-progress", str(tmp_path / "e.json")]) == 0
    db = sqlite3.connect(home / DB_NAME)
    after = db.execute("SELECT * FROM setting UNION ALL SELECT card_id, fsrs FROM card_state").fetchall()
    db.close()
    assert sorted(map(str, after)) == sorted(map(str, before))  # left as it was


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
async def test_the_app_reviews_cards_beside_bad_rows(tmp_path):
    """The app's dashboard and review screen open over a bad setting and a bad card state."""
    from tui.app import PpoDrillApp
    from tui.screens.review import ReviewScreen
    from tui.testing import FixedClock, ScriptedChecker

    home = tmp_path / "home"
    assert main(["--data-dir", str(home), "cards"]) == 0
    db = sqlite3.connect(home / DB_NAME)
    for case in ("a setting the app reads, of the wrong type", "a card in review with stability 0"):
        db.execute(BAD_ROWS[case])
    db.commit()
    db.close()
    app = PpoDrillApp(data_dir=home, clock=FixedClock(), checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(500):
            if app.session is not None:
                break
            await pilot.pause(0.01)
        await pilot.pause()
        assert any("could not be read" in n.title for n in app._notifications), list(app._notifications)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("space", "3")
        await pilot.pause()
