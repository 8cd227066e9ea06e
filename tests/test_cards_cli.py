"""The cards' sub-commands: review with piped stdin, `cards` listing, export-anki, export/import
progress, refusal of a bad store with exit 1, --data-dir, and light imports."""
from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import genanki
import pytest

from cards.progress.store import ProgressStore
from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]

DECK_A = """\
deck: alpha
title: "Alpha deck"
title_zh: "阿尔法"
cards:
  - id: a-one
    kind: qa
    front: "What is **A1**?"
    back: "It is A1."
    tags: [gae, "two words"]
    source: "seed 004 §GAE"
    zh: {front: "A1 是什么？", back: "是 A1。"}
  - id: a-two
    kind: code
    front: |
      What is wrong here?

      ```python
      ratio = new_logp / old_logp
      ```
    back: "Divide probabilities, not log-probs: `ratio = exp(new_logp - old_logp)`."
    source: "seed 004 §mistakes"
  - id: a-three
    kind: number
    front: "Typical vf_coef?"
    back: "0.5"
    source: "seed 004"
"""
DECK_B = """\
deck: beta
title: "Beta deck"
cards:
  - id: b-one
    kind: qa
    front: "B1 front"
    back: "B1 back"
    source: "seed 000"
"""


@pytest.fixture
def decks(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "alpha.yaml").write_text(DECK_A, encoding="utf-8")
    (folder / "beta.yaml").write_text(DECK_B, encoding="utf-8")
    return folder


def run_cli(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def store_of(home: Path) -> ProgressStore:
    return ProgressStore(home / "progress.sqlite3")


def test_review_loop_with_piped_stdin(monkeypatch, capsys, decks, _private_data_dir):
    # reveal+Good, reveal+junk+Again, reveal then undo, reveal+Easy, then quit
    stdin = "\n3\n\nx\n1\n\nu\n\n4\nq\n"
    code, out, err = run_cli(monkeypatch, capsys, ["review", "--decks", str(decks)], stdin)
    assert code == 0, err
    assert "What is **A1**?" in out and "It is A1." in out
    assert "1 Again (1m)  2 Hard (6m)  3 Good (10m)  4 Easy (8d)" in out
    assert "Type 1, 2, 3 or 4" in out
    assert "Undone: a-two" in out
    assert out.rstrip().endswith("Reviewed 2 cards.")
    with store_of(_private_data_dir) as store:
        assert [(r.card_id, r.rating) for r in store.reviews()] == [("a-one", 3), ("a-two", 4)]
        assert all(r.duration_ms >= 0 and r.source == "user" for r in store.reviews())


def test_review_language_limit_and_deck(monkeypatch, capsys, decks, _private_data_dir):
    with store_of(_private_data_dir) as store:
        store.set_setting("language", "zh")
    code, out, _ = run_cli(monkeypatch, capsys, ["review", "--decks", str(decks), "--limit", "1"],
                           "\n2\n\n2\n")
    assert code == 0 and "A1 是什么？" in out and "是 A1。" in out and "阿尔法" in out
    assert out.rstrip().endswith("Reviewed 1 card.")
    code, out, _ = run_cli(monkeypatch, capsys, ["review", "--decks", str(decks), "--deck", "beta",
                                                 "--lang", "en"], "\n4\n")
    assert "B1 front" in out and "No more cards due." in out and "A1" not in out
    code, _, err = run_cli(monkeypatch, capsys, ["review", "--decks", str(decks), "--deck", "nope"])
    assert code == 2 and "no deck 'nope'; decks: alpha, beta" in err


def test_review_as_a_real_process_with_piped_stdin(decks, _private_data_dir):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "tui.cli", "--data-dir", str(_private_data_dir),
                           "review", "--decks", str(decks)], input="\n3\n", capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "What is **A1**?" in proc.stdout and "Reviewed 1 card." in proc.stdout
    with store_of(_private_data_dir) as store:
        assert [r.card_id for r in store.reviews()] == ["a-one"]


def test_cards_listing_table_and_json(monkeypatch, capsys, decks, _private_data_dir):
    run_cli(monkeypatch, capsys, ["review", "--decks", str(decks)], "\n1\n\n4\nq\n")
    code, out, _ = run_cli(monkeypatch, capsys, ["cards", "--decks", str(decks)])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["deck", "unseen", "learn", "due", "cards"]
    assert lines[2].split() == ["alpha", "1", "0", "0", "3"]  # a-one learning (not yet due), a-two review
    assert lines[3].split() == ["beta", "1", "0", "0", "1"]
    assert lines[5].split() == ["total", "2", "0", "0", "4"]
    assert lines[6] == "due now: 0 (learn + due); new cards today: 2 of the 2 unseen (daily limit 20, 18 left today)"
    code, out, _ = run_cli(monkeypatch, capsys, ["cards", "--json", "--decks", str(decks)])
    data = json.loads(out)
    assert [d["deck"] for d in data["decks"]] == ["alpha", "beta"]
    assert data["decks"][0] == {"deck": "alpha", "title": "Alpha deck", "title_zh": "阿尔法", "new": 1, "learning": 0,
                                "review": 0, "unseen": 1, "total": 3}
    assert data["totals"] == {"learning": 0, "review": 0, "unseen": 2, "total": 4, "new": 2}
    assert data["errors"] == []


def test_cards_columns_add_up_when_the_daily_limit_caps_new_cards(monkeypatch, capsys, decks, _private_data_dir):
    """Per-deck columns are unseen cards (never capped), so they add up to the total; the daily
    allowance is said once."""
    with store_of(_private_data_dir) as store:
        store.set_setting("new_per_day", 1)
    code, out, _ = run_cli(monkeypatch, capsys, ["cards", "--decks", str(decks)])
    lines = out.splitlines()
    assert lines[2].split()[:2] == ["alpha", "3"] and lines[3].split()[:2] == ["beta", "1"]
    assert lines[5].split()[:2] == ["total", "4"]
    assert "new cards today: 1 of the 4 unseen (daily limit 1, 1 left today)" in lines[6]


def test_cards_reports_deck_errors_as_warnings(monkeypatch, capsys, decks):
    (decks / "broken.yaml").write_text("deck: broken\ntitle: B\ncards:\n  - id: x\n    kind: qa\n", encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, ["cards", "--decks", str(decks)])
    assert code == 0 and "alpha" in out
    assert f"warning: {decks / 'broken.yaml'}:4: card 'x': field 'front': missing required field" in err


def test_bad_store_exits_1_and_is_left_alone(monkeypatch, capsys, decks, _private_data_dir):
    _private_data_dir.mkdir(parents=True, exist_ok=True)
    path = _private_data_dir / "progress.sqlite3"
    path.write_bytes(b"\x00garbage" * 64)
    before = path.read_bytes()
    for argv, stdin in ((["cards", "--decks", str(decks)], ""), (["review", "--decks", str(decks)], "\n3\n"),
                        (["export-progress"], "")):
        code, out, err = run_cli(monkeypatch, capsys, argv, stdin)
        assert code == 1 and str(path) in err and "left untouched" in err, (argv, err)
    assert path.read_bytes() == before


def test_data_dir_option_is_honoured(monkeypatch, capsys, decks, tmp_path):
    other = tmp_path / "elsewhere"
    monkeypatch.setenv("PPO_DRILL_HOME", str(tmp_path / "unused"))
    code, _, _ = run_cli(monkeypatch, capsys, ["--data-dir", str(other), "review", "--decks", str(decks)], "\n3\n")
    assert code == 0
    assert (other / "progress.sqlite3").exists() and not (tmp_path / "unused" / "progress.sqlite3").exists()


def test_export_and_import_progress(monkeypatch, capsys, decks, tmp_path, _private_data_dir):
    run_cli(monkeypatch, capsys, ["review", "--decks", str(decks)], "\n3\n\n1\n")
    out_file = tmp_path / "progress.json"
    code, _, err = run_cli(monkeypatch, capsys, ["export-progress", str(out_file)])
    assert code == 0 and "exported 2 reviews" in err
    code, out, _ = run_cli(monkeypatch, capsys, ["export-progress", "-"])
    assert json.loads(out)["reviews"] == json.loads(out_file.read_text())["reviews"]
    new_home = tmp_path / "new-machine"
    code, out, _ = run_cli(monkeypatch, capsys, ["--data-dir", str(new_home), "import-progress", str(out_file)])
    assert code == 0 and "2 reviews" in out
    code, out, _ = run_cli(monkeypatch, capsys, ["--data-dir", str(new_home), "import-progress", str(out_file)])
    assert code == 0 and "0 reviews" in out
    with ProgressStore(new_home / "progress.sqlite3") as store:
        assert [r.card_id for r in store.reviews()] == ["a-one", "a-two"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ppo-drill-progress",\n "version": 1,\n oops}', encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, ["import-progress", str(bad)])
    assert code == 2 and f"{bad}:3: not valid JSON" in err
    code, _, err = run_cli(monkeypatch, capsys, ["import-progress", str(tmp_path / "missing.json")])
    assert code == 2 and "cannot read" in err
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"format": "something-else"}', encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, ["import-progress", str(wrong)])
    assert code == 2 and "not a ppo-drill progress export" in err


def read_apkg(path: Path, tmp_path: Path) -> list[tuple]:
    with zipfile.ZipFile(path) as zf:
        assert "collection.anki2" in zf.namelist()
        target = tmp_path / f"{path.stem}-collection.anki2"
        target.write_bytes(zf.read("collection.anki2"))
    db = sqlite3.connect(target)
    try:
        return db.execute("SELECT guid, flds, tags, mid FROM notes ORDER BY guid").fetchall()
    finally:
        db.close()


def test_export_anki_has_stable_guids_html_and_tags(monkeypatch, capsys, decks, tmp_path):
    first, second = tmp_path / "one.apkg", tmp_path / "two.apkg"
    code, out, _ = run_cli(monkeypatch, capsys, ["export-anki", str(first), "--decks", str(decks)])
    assert code == 0 and "wrote 4 notes in 2 decks" in out
    run_cli(monkeypatch, capsys, ["export-anki", str(second), "--decks", str(decks)])
    notes1, notes2 = read_apkg(first, tmp_path), read_apkg(second, tmp_path)
    assert [n[0] for n in notes1] == [n[0] for n in notes2]
    assert {n[0] for n in notes1} == {genanki.guid_for(c) for c in ("a-one", "a-two", "a-three", "b-one")}
    assert [n[1] for n in notes1] == [n[1] for n in notes2] and len({n[3] for n in notes1}) == 1
    by_guid = {n[0]: n for n in notes1}
    front, back = by_guid[genanki.guid_for("a-two")][1].split("\x1f")
    assert '<pre><code class="language-python">ratio = new_logp / old_logp' in front
    assert "<code>ratio = exp(new_logp - old_logp)</code>" in back
    a_one = by_guid[genanki.guid_for("a-one")]
    assert "<strong>A1</strong>" in a_one[1]
    assert set(a_one[2].split()) == {"gae", "two_words", "ppo-drill::alpha", "kind::qa"}
    both = tmp_path / "both.apkg"
    run_cli(monkeypatch, capsys, ["export-anki", str(both), "--lang", "both", "--decks", str(decks)])
    notes = {n[0]: n for n in read_apkg(both, tmp_path)}
    assert "A1 是什么？" in notes[genanki.guid_for("a-one")][1] and "What is" in notes[genanki.guid_for("a-one")][1]


def test_help_does_not_import_heavy_modules():
    code = ("import sys; from tui.cli import build_parser; build_parser().format_help(); "
            "import cards.cli, cards.decks.loader, cards.progress.store; "
            "heavy = [m for m in ('fsrs', 'genanki', 'torch', 'textual', 'cards.schedule.scheduler') if m in sys.modules]; "
            "print(heavy)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_cards_package_never_imports_torch_or_textual():
    code = ("import sys, cards.decks.loader, cards.progress.store, cards.schedule.scheduler, cards.review_cli, cards.decks.anki_export, "
            "cards.schedule.intervals, cards.cli; print([m for m in ('torch', 'textual', 'tui') if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_run_review_records_each_answer_time_and_stops_at_the_limit(decks, tmp_path):
    from datetime import datetime, timezone

    from cards.decks.loader import load_decks
    from cards.review_cli import run_review
    from cards.schedule.scheduler import Scheduler

    ticks = iter([10.0, 12.5, 20.0, 20.75, 30.0])
    now = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        sched = Scheduler(store, load_decks(decks), clock=lambda: now, fuzz=False)
        out = io.StringIO()
        done = run_review(sched, stdin=io.StringIO("\n3\n\n2\n\n4\n"), stdout=out, limit=2,
                          monotonic=lambda: next(ticks))
        assert done == 2
        assert [(r.card_id, r.rating, r.duration_ms) for r in store.reviews()] == [
            ("a-one", 3, 2500), ("a-two", 2, 750)]
        assert "> 3\n" in out.getvalue()  # piped answers are echoed so transcripts read well
        assert out.getvalue().rstrip().endswith("Reviewed 2 cards.")


def test_unwritable_output_is_a_message_not_a_traceback(monkeypatch, capsys, decks, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code, _, err = run_cli(monkeypatch, capsys, ["export-progress", str(blocker / "out.json")])
    assert code == 1 and "ppo-drill export-progress:" in err and "Traceback" not in err
    code, _, err = run_cli(monkeypatch, capsys, ["export-anki", str(blocker / "x.apkg"), "--decks", str(decks)])
    assert code == 2 and "ppo-drill export-anki:" in err


def test_review_draws_card_markdown_on_a_terminal_and_keeps_pipes_plain():
    import io
    import re

    from cards.cli import _card_text_for

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    text = "The last step has **no bootstrap**: use `values[t + 1]` only while `t + 1 < T`."
    assert _card_text_for(io.StringIO())(text) == text  # a pipe or a file: as written
    drawn = re.sub(r"\x1b\[[0-9;]*m", "", _card_text_for(Terminal())(text))
    assert "**" not in drawn and "`" not in drawn
    assert "no bootstrap" in drawn and "values[t + 1]" in drawn


def test_mock_show_on_a_terminal_draws_the_cards_markdown():
    """`ppo-drill mock --show` prints a question's card as `review` does: drawn on a terminal, as
    written into a pipe."""
    import io
    import re

    from cards.cli import _card_text_for
    from cards.decks.loader import load_decks
    from cards.plan.mock_review import ItemReview, format_review, unwrap

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    front, back = load_decks().by_id["numbers-epochs"].text("en")
    items = [ItemReview(0, "question", "numbers-epochs", front.splitlines()[0], "missed", 30.0, 60,
                        question=unwrap(front), typed="", card_answer=unwrap(back))]
    piped = format_review(items)
    assert "**10**" in piped  # a pipe or a file: as written
    drawn = re.sub(r"\x1b\[[0-9;]*m", "", format_review(items, shown=_card_text_for(Terminal())))
    assert "**" not in drawn and "10 epochs on MuJoCo" in re.sub(r"\s+", " ", drawn)
