"""Working in one's own editor: `ppo-drill start` writes the whole prompt above the starter, `ppo-drill prompt`
prints it, and CLI / watch checks record the time spent since `start` (idle gaps capped), so solve times
count as in the app."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from cards.progress.store import open_store
from cards.schedule import solve_clock
from checker.answer_check import drill_from_source
from drills import get_drill, load_drills
from tests.warm_checker import main  # `ppo-drill` in-process, its checks by the warm checker

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_prompt_prints_the_whole_prompt(capsys, lang):
    drill = get_drill("gae")
    assert main(["prompt", "gae", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out.strip() == (drill.prompt_zh if lang == "zh" else drill.prompt).strip()


def test_start_writes_the_prompt_as_comments_above_the_starter(tmp_path, capsys):
    for drill in load_drills():
        path = tmp_path / f"{drill.id}.py"
        fw = drill.frameworks[0]
        assert main(["start", drill.id, str(path), "--framework", fw]) == 0
        text = path.read_text()
        assert drill_from_source(text) == drill.id, "the drill line stays first"
        head, starter = text[:len(text) - len(drill.starter(fw))], text[len(text) - len(drill.starter(fw)):]
        assert starter == drill.starter(fw)
        body = "\n".join(line[2:] if line.startswith("# ") else line[1:] for line in head.splitlines()[1:])
        for line in drill.prompt.strip().splitlines():
            assert line.rstrip() in body, (drill.id, line)
        assert all(line.startswith("#") or not line for line in head.splitlines()), "the prompt changes no code"
    capsys.readouterr()
    bare = tmp_path / "bare.py"
    assert main(["start", "gae", str(bare), "--no-prompt"]) == 0
    assert bare.read_text() == "# ppo-drill drill: gae\n" + get_drill("gae").starter("numpy")


def test_solve_clock_counts_from_start_with_idle_gaps_capped(_private_data_dir):
    with open_store() as store:
        assert solve_clock.tick(store, "gae", T0, passed=False) is None, "no start: the time is unknown"
        assert solve_clock.tick(store, "gae", T0 + timedelta(minutes=4), passed=False) == 240.0
        solve_clock.start(store, "gae", T0 + timedelta(minutes=10))
        assert solve_clock.tick(store, "gae", T0 + timedelta(minutes=13), passed=False) == 180.0
        # two hours away from the file count as IDLE_S, then three more minutes of work
        later = T0 + timedelta(minutes=13, hours=2)
        assert solve_clock.tick(store, "gae", later, passed=False) == 180.0 + solve_clock.IDLE_S
        assert solve_clock.tick(store, "gae", later + timedelta(minutes=3), passed=True) == \
            360.0 + solve_clock.IDLE_S
        assert solve_clock.tick(store, "gae", later + timedelta(minutes=5), passed=False) is None, \
            "a pass ends the attempt"
        assert solve_clock.tick(store, "policy-loss", T0, passed=False) is None, "one clock per drill"


def test_cli_checks_record_the_time_since_start(tmp_path, capsys, monkeypatch, _private_data_dir):
    path = tmp_path / "gae.py"
    assert main(["start", "gae", str(path)]) == 0
    with open_store() as store:   # as if `start` had run five minutes ago
        solve_clock.start(store, "gae", datetime.now(timezone.utc) - timedelta(minutes=5))
    path.write_text(path.read_text() + "\n" + get_drill("gae").solution("numpy"))
    assert main(["check", str(path)]) == 0
    capsys.readouterr()
    with open_store() as store:
        (attempt,) = store.attempts("gae")
    assert attempt.passed and attempt.source == "cli"
    assert 299 <= attempt.elapsed_s <= 330 and attempt.finished_at - attempt.started_at >= timedelta(seconds=299)


def test_record_cli_check_uses_the_clock_for_watch_too(_private_data_dir):
    from tui.commands import record_cli_check

    report = SimpleNamespace(drill="rloo", framework="numpy", passed=False, diagnoses=[], tests=None,
                             code_ran=True)
    with open_store() as store:
        solve_clock.start(store, "rloo", datetime.now(timezone.utc) - timedelta(minutes=2))
    record_cli_check(report, SimpleNamespace(preview=False, command="watch"), "def rloo_advantages(r): pass\n")
    with open_store() as store:
        (attempt,) = store.attempts("rloo")
    assert 119 <= attempt.elapsed_s <= 150
