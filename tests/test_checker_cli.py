"""`ppo-drill check` and friends as a user calls them: exit codes 0/1/2, one JSON object with --json,
stdin for pasted code, starters written without clobbering, hints and solutions."""
from __future__ import annotations

import io
import json

import pytest

from drills import get_drill
from tests.warm_checker import main  # `ppo-drill` in-process, its checks by the warm checker


def run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_passes_with_exit_0(tmp_path, capsys):
    path = tmp_path / "a.py"
    path.write_text(get_drill("gae").solution("numpy"))
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 0 and out.startswith("PASS")


def test_check_fails_with_exit_1_and_names_the_mistake(tmp_path, capsys):
    m = next(m for m in get_drill("policy-loss").mistakes if m.id == "policy-max-instead-of-min")
    path = tmp_path / "a.py"
    path.write_text(m.source("torch"))
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 1 and "FAIL" in out and "policy-max-instead-of-min" in out


def test_json_is_exactly_one_object(tmp_path, capsys):
    path = tmp_path / "a.py"
    path.write_text("import numpy as np\n\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):\n"
                    "    while True:\n        pass\n")
    code, out, _ = run(["check", str(path), "--json", "--timeout", "1"], capsys)
    data = json.loads(out)
    assert code == 1 and data["passed"] is False and data["error"]["kind"] == "timeout"


def test_pasted_code_on_stdin(capsys, monkeypatch):
    code, out, _ = run(["check", "-", "--json"], capsys, stdin=get_drill("value-loss").solution("torch"),
                       monkeypatch=monkeypatch)
    data = json.loads(out)
    assert code == 0 and data["drill"] == "value-loss" and data["framework"] == "torch"


@pytest.mark.parametrize("argv, needle", [
    (["check", "/nonexistent/answer.py"], "cannot read"),
    (["check", "-", "--drill", "no-such-drill"], "unknown drill"),
])
def test_usage_problems_exit_2_with_one_line(argv, needle, capsys, monkeypatch):
    code, out, err = run(argv, capsys, stdin="x = 1\n", monkeypatch=monkeypatch)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_a_binary_file_or_an_unknown_drill_line_says_what_to_fix(tmp_path, capsys):
    binary = tmp_path / "bin.py"
    binary.write_bytes(b"\xc0\xc1 not text")
    code, _, err = run(["check", str(binary)], capsys)
    assert code == 2 and "not UTF-8 text (byte 0xc0 at offset 0)" in err and "codec" not in err
    header = tmp_path / "bogus.py"
    header.write_text("# ppo-drill drill: bogus\ndef f():\n    pass\n")
    code, _, err = run(["check", str(header)], capsys)
    assert code == 2 and "`# ppo-drill drill: bogus` line names an unknown drill 'bogus'" in err


def test_ids_typed_with_underscores_name_the_kebab_case_drill(tmp_path, capsys, monkeypatch):
    """Drill ids are kebab-case; what a user types, or what an older version wrote in a file's drill
    line, may spell them with _: a check by either finds and records the catalogue's id."""
    older = tmp_path / "policy_loss_numpy.py"
    older.write_text("# ppo-drill drill: policy_loss\n" + get_drill("policy-loss").solution("numpy"))
    code, out, _ = run(["check", str(older), "--json"], capsys)
    assert code == 0 and json.loads(out)["drill"] == "policy-loss"
    code, out, _ = run(["check", "-", "--json", "--drill", "Value_Loss"], capsys,
                       stdin=get_drill("value-loss").solution("torch"), monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["drill"] == "value-loss"
    code, _, err = run(["hint", "polcy_loss"], capsys)
    assert code == 2 and "did you mean policy-loss" in err


def test_the_drill_list_keeps_its_columns():
    """Each column starts at the same place on every line, whatever the kind or the topic."""
    from drills import load_drills

    drills = load_drills()
    import contextlib
    import io as _io

    buf = _io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["drills"]) == 0
    lines = buf.getvalue().splitlines()
    assert len(lines) == len(drills)
    for d, line in zip(drills, lines):
        assert line.index(" min ") == lines[0].index(" min "), line
        assert line.index(d.title) == lines[0].index(drills[0].title), line


def test_code_without_a_drill_function_is_a_usage_problem(capsys, monkeypatch):
    code, _, err = run(["check", "-"], capsys, stdin="def foo():\n    pass\n", monkeypatch=monkeypatch)
    assert code == 2 and "--drill" in err


def test_start_writes_the_starter_and_never_overwrites(tmp_path, capsys):
    path = tmp_path / "mine.py"
    code, out, _ = run(["start", "gae", str(path), "--framework", "torch"], capsys)
    text = path.read_text()
    assert code == 0 and text.startswith("# ppo-drill drill: gae\n#\n# # GAE")
    assert text.endswith("\n\n" + get_drill("gae").starter("torch")), "the prompt, as comments, then the starter"
    path.write_text("my precious work")
    code, _, err = run(["start", "gae", str(path)], capsys)
    assert code == 2 and "not overwriting" in err and path.read_text() == "my precious work"


def test_start_of_a_pitfall_drill_writes_the_buggy_code(tmp_path, capsys):
    path = tmp_path / "fix.py"
    run(["start", "fix-gae-direction", str(path)], capsys)
    d = get_drill("fix-gae-direction")
    text = path.read_text()
    assert text.startswith("# ppo-drill drill: fix-gae-direction\n#\n# This code has one bug.")
    assert text.endswith("\n\n" + d.starter("numpy"))


def test_hint_and_solution(capsys):
    code, out, _ = run(["hint", "gae", "2"], capsys)
    assert code == 0 and "Hint 2 of 3" in out
    code, _, err = run(["hint", "gae", "4"], capsys)
    assert code == 2
    code, out, _ = run(["solution", "policy-loss", "--framework", "torch"], capsys)
    assert code == 0 and "def ppo_policy_loss" in out


def test_drills_json_lists_every_drill(capsys):
    code, out, _ = run(["drills", "--json"], capsys)
    rows = json.loads(out)
    assert code == 0 and {r["id"] for r in rows} >= {"gae", "policy-loss", "value-loss", "total-loss", "actor-loss"}
    assert all({"id", "title", "kind", "frameworks", "target_minutes", "topic"} <= set(r) for r in rows)


def test_an_answer_path_that_is_no_file_is_a_usage_error_not_a_hang(tmp_path, capsys):
    """A device never ends (/dev/zero read whole was a MemoryError), a FIFO may never be written (the
    check blocked for good), a folder is no answer: each is one message and exit status 2."""
    import os

    fifo = tmp_path / "answer.py"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path)):
        assert main(["--data-dir", str(tmp_path / "d"), "check", path]) == 2
        err = capsys.readouterr().err
        assert "is not a file" in err and "Traceback" not in err, err
    big = tmp_path / "big.py"
    with open(big, "wb") as f:
        f.truncate(17 * 1024 * 1024)
    assert main(["--data-dir", str(tmp_path / "d"), "check", str(big)]) == 2
    assert "over 16 MiB" in capsys.readouterr().err
