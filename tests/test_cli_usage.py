"""`ppo-drill` as a user types it: an unusable data folder is one message and exit 2 for every command
(the app and stats included), arguments in any order, drill ids in either spelling, a fix-the-bug
drill's file recorded under that drill, the user's own file named in syntax errors, export-anki refusing
folders, `check -` on a terminal saying what to do, and --help describing every command.

Most commands run in this process through the entry point's `main` (a fresh process imports torch each
time, seconds on a loaded machine); the installed `ppo-drill` executable itself runs where the process
is the point: a terminal as stdin, an environment variable, an exit status and stderr from a real exit."""
from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cards.progress.store import open_store
from drills import get_drill

EXE = str(Path(sys.executable).with_name("ppo-drill"))


def ppo_process(*args, cwd=None, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """The installed executable in a process of its own."""
    return subprocess.run([EXE, *map(str, args)], cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def ppo(*args, cwd=None, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`ppo-drill ARGS` in this process: the `main` the executable calls, with its own working folder,
    stdin (empty unless given; never a terminal), stdout and stderr, and the environment put back after
    (`--data-dir` sets PPO_DRILL_HOME). Usage errors exit through argparse as they would in a process."""
    from tests.warm_checker import main  # `ppo-drill` in-process, its checks by the warm checker

    out, err = io.StringIO(), io.StringIO()
    saved_cwd, saved_env, saved_stdin = os.getcwd(), dict(os.environ), sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


@pytest.mark.parametrize("command", [[], ["stats"], ["stats", "--json"], ["cards"], ["review"],
                                     ["export-progress"], ["check", "-"], ["mock"]])
def test_a_data_folder_that_is_a_file_is_one_message_and_exit_2(tmp_path, command):
    target = tmp_path / "some_file.py"
    target.write_text("x = 1\n")
    run = ppo_process if command == [] else ppo  # the app itself from the real executable
    result = run("--data-dir", target, *command, stdin="")
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (f"ppo-drill: data folder {target} is a file, not a folder; "
                                      "pass --data-dir with a folder")
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert target.read_text() == "x = 1\n"


def test_a_data_folder_that_cannot_be_created_names_it(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = ppo("--data-dir", blocker / "inside", "stats")
    assert result.returncode == 2
    assert result.stderr.strip() == f"ppo-drill: cannot create data folder {blocker / 'inside'}: Not a directory"
    env_result = subprocess.run([EXE, "cards"], capture_output=True, text=True,
                                env={**os.environ, "PPO_DRILL_HOME": str(blocker)})
    assert env_result.returncode == 2 and f"data folder {blocker} is a file" in env_result.stderr


def test_arguments_in_any_order_and_either_spelling(tmp_path):
    result = ppo("start", "gae", "--framework", "torch", "my_gae.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "import torch" in (tmp_path / "my_gae.py").read_text()
    result = ppo("start", "--framework", "numpy", "policy_loss", cwd=tmp_path)  # the id is policy-loss
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "policy_loss_numpy.py").read_text().splitlines()[0] == "# ppo-drill drill: policy-loss"
    assert ppo("hint", "value_loss", "2").returncode == 0
    assert ppo("solution", "--framework", "torch", "fix_gae_direction").stdout == \
        get_drill("fix-gae-direction").solution("torch")


def test_a_pitfall_drills_file_is_checked_and_recorded_as_that_drill(tmp_path):
    home = tmp_path / "home"
    assert ppo("--data-dir", home, "start", "fix-gae-direction", cwd=tmp_path).returncode == 0
    path = tmp_path / "fix_gae_direction_numpy.py"
    assert path.read_text().splitlines()[0] == "# ppo-drill drill: fix-gae-direction"
    result = ppo("--data-dir", home, "check", path.name, "--json", cwd=tmp_path)
    assert json.loads(result.stdout)["drill"] == "fix-gae-direction"
    path.write_text("# ppo-drill drill: fix-gae-direction\n" + get_drill("gae").solution("numpy"))
    result = ppo("--data-dir", home, "check", path.name, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    with open_store(home) as store:
        assert [(a.drill_id, a.passed) for a in store.attempts()] == [("fix-gae-direction", False),
                                                                       ("fix-gae-direction", True)]


def test_a_syntax_error_names_the_users_file(tmp_path):
    path = tmp_path / "my_gae.py"
    path.write_text("import numpy as np\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95:\n    pass\n")
    result = ppo("check", path)
    assert result.returncode == 1
    assert "answer.py" not in result.stdout and f'File "{path}", line 2' in result.stdout


def test_check_dash_on_a_terminal_says_to_paste_then_ctrl_d(tmp_path):
    pid, fd = pty.fork()
    if pid == 0:  # the child: ppo-drill with the terminal as stdin
        os.execv(EXE, [EXE, "--data-dir", str(tmp_path / "home"), "check", "-"])
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"Ctrl-D" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
    assert b"paste your code, then Ctrl-D" in seen


@pytest.mark.parametrize("target", ["missing/dir/x.apkg", ".", "out/"])
def test_export_anki_refuses_a_folder_or_a_missing_folder(tmp_path, target):
    result = ppo("--data-dir", tmp_path / "home", "export-anki", target, cwd=tmp_path)
    assert result.returncode == 2  # a usage problem, as in every other command
    assert result.stderr.startswith(f"ppo-drill export-anki: {target}") or \
        result.stderr.startswith(f"ppo-drill export-anki: cannot write {target}")
    assert not (tmp_path / "missing").exists() and not (tmp_path / "out").exists()
    assert ".tmp" not in result.stderr


def test_export_anki_to_an_unwritable_place_names_the_path_given(tmp_path):
    result = ppo("--data-dir", tmp_path / "home", "export-anki", "/proc/x.apkg")
    assert result.returncode == 2
    assert result.stderr.startswith("ppo-drill export-anki: cannot write /proc/x.apkg:")
    assert ".tmp" not in result.stderr


def test_import_progress_of_a_binary_file_is_a_message(tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(range(256)) * 4)
    result = ppo("--data-dir", tmp_path / "home", "import-progress", blob)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"ppo-drill import-progress: {blob} is not a progress export")
    assert "nothing was imported" in result.stderr


def test_every_command_has_a_description_in_its_help():
    from tui.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        assert command.description, f"`ppo-drill {name} --help` has no description"
        for action in command._actions:
            if action.dest != "help":
                assert action.help, f"`ppo-drill {name}`: {action.option_strings or action.dest} has no help"


def test_mock_minutes_out_of_range_names_the_range():
    result = ppo("mock", "--minutes", "500", "--plan")
    assert result.returncode == 2
    assert "15 to 180" in result.stderr and "500" in result.stderr and "at least" not in result.stderr
    assert "at least 15 minutes" in ppo("mock", "--minutes", "5", "--plan").stderr


def test_import_progress_reports_what_it_skipped_and_why(tmp_path):
    home = tmp_path / "home"
    solution = tmp_path / "gae.py"
    solution.write_text(get_drill("gae").solution("numpy"))
    assert ppo("--data-dir", home, "check", solution).returncode == 0
    export = tmp_path / "progress.json"
    assert ppo("--data-dir", home, "export-progress", export).returncode == 0
    doc = json.loads(export.read_text())
    attempt = doc["drill_attempts"][0]
    doc["drill_attempts"].append({**attempt, "uid": "bad", "drill_id": "nope", "elapsed_s": -50})
    assert doc["reviews"] == []  # a pass sends no card back
    doc["reviews"].append({"uid": "r", "card_id": "gae-td-error", "rating": 7, "reviewed_at": attempt["started_at"],
                           "source": "user", "state_after": None})
    export.write_text(json.dumps(doc))
    result = ppo("--data-dir", tmp_path / "other", "import-progress", export)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("imported: ") and "1 drill attempts" in result.stdout
    assert "skipped 2:" in result.stderr
    assert f"{export}: drill_attempts[1]: unknown drill 'nope'" in result.stderr
    assert f"{export}: reviews[0]: field 'rating' must be a whole number from 1 to 4, got 7" in result.stderr


def test_import_progress_of_json_that_is_not_progress_imports_nothing(tmp_path):
    other = tmp_path / "package.json"
    other.write_text(json.dumps({"name": "x", "reviews": [{"rating": 3}]}))
    result = ppo("--data-dir", tmp_path / "home", "import-progress", other)
    assert result.returncode == 2 and "not a ppo-drill progress export" in result.stderr
    with open_store(tmp_path / "home") as store:
        assert store.reviews() == [] and store.attempts() == []


def test_saved_answers_travel_with_export_and_import(tmp_path):
    from cards.progress import drafts

    home, other = tmp_path / "home", tmp_path / "other"
    drafts.save_draft("gae", "numpy", "# my half-written gae\n", home)
    drafts.save_draft("policy-loss", "torch", "# policy\n", home)
    drafts.save_draft("value-loss", "numpy", "x = 1\n" * 40_000, home)  # over the cap: left out, said
    drafts.save_draft("policy-loss", "torch", "# mine on the other machine\n", other)
    export = tmp_path / "p.json"
    result = ppo("--data-dir", home, "export-progress", export)
    assert result.returncode == 0 and "2 saved answers" in result.stderr
    assert "left out saved answers over 100,000 characters or unreadable: value-loss/numpy" in result.stderr
    result = ppo("--data-dir", other, "import-progress", export)
    assert result.returncode == 0 and "1 drafts" in result.stdout
    assert "already has a different saved answer here; kept it" in result.stderr
    assert drafts.load_draft("gae", "numpy", other) == "# my half-written gae\n"
    assert drafts.load_draft("policy-loss", "torch", other) == "# mine on the other machine\n"
    assert drafts.load_draft("value-loss", "numpy", other) is None


def test_a_huge_answer_is_checked_whole_and_stored_capped(tmp_path):
    home = tmp_path / "home"
    path = tmp_path / "gae.py"
    path.write_text(get_drill("gae").solution("numpy") + "\n" + "# padding\n" * 30_000)
    result = ppo("--data-dir", home, "check", path)
    assert result.returncode == 0
    assert "the check ran on all" in result.stderr and "keeps the first 100,000" in result.stderr
    with open_store(home) as store:
        [attempt] = store.attempts()
        assert len(attempt.code) < 100_200 and "kept the first 100,000" in attempt.code


def test_data_dir_goes_before_or_after_the_command_and_every_command_lists_it(tmp_path):
    home = tmp_path / "home"
    answer = tmp_path / "gae_numpy.py"
    answer.write_text(get_drill("gae").solution("numpy"))
    result = ppo("check", "--data-dir", home, answer)  # not taken for the file
    assert result.returncode == 0, result.stderr
    with open_store(home) as store:  # recorded in that folder
        assert [a.drill_id for a in store.attempts()] == ["gae"]
    after = ppo("stats", "--json", "--data-dir", home)
    before = ppo("--data-dir", home, "stats", "--json")
    assert after.returncode == before.returncode == 0, after.stderr
    assert json.loads(after.stdout)["pitfalls"] == json.loads(before.stdout)["pitfalls"]
    assert json.loads(after.stdout)["drills_due"] == json.loads(before.stdout)["drills_due"]
    other = tmp_path / "other"
    assert ppo("cards", "--data-dir", other).returncode == 0 and (other / "progress.sqlite3").exists()
    from tui.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name, command in sub.choices.items():
        assert "--data-dir" in command.format_help(), f"`ppo-drill {name} --help` does not list --data-dir"


@pytest.mark.parametrize("where", ["before", "after"])
def test_an_empty_data_dir_is_a_usage_error_not_the_current_folder(tmp_path, where):
    args = ["--data-dir", "", "stats"] if where == "before" else ["stats", "--data-dir", ""]
    result = ppo(*args, cwd=tmp_path)
    assert result.returncode == 2 and "--data-dir needs a folder" in result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written where the command ran


def test_an_unknown_drill_suggests_the_close_one(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    result = ppo("start", "gea", cwd=work)
    assert result.returncode == 2
    assert result.stderr.strip() == "ppo-drill: unknown drill 'gea'; did you mean gae? (`ppo-drill drills` lists every drill)"
    assert list(work.iterdir()) == []
    far = ppo("hint", "zzzz")
    assert far.returncode == 2 and "did you mean" not in far.stderr and "policy-loss" not in far.stderr


def test_drills_shows_where_you_stand_and_next_goes_through_the_track_in_order(tmp_path):
    home = tmp_path / "home"
    work = tmp_path / "work"
    work.mkdir()
    listed = ppo("--data-dir", home, "drills", "--json")
    assert {r["status"] for r in json.loads(listed.stdout)} == {"never tried"}
    first = ppo("next", "--data-dir", home, cwd=work)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("Next in the track: gae — ") and (work / "gae_numpy.py").exists()
    again = ppo("next", "--data-dir", home, cwd=work)  # never over your file: says how to check it
    assert again.returncode == 0 and "gae_numpy.py is already there" in again.stdout
    (work / "gae_numpy.py").write_text(get_drill("gae").solution("numpy"))
    assert ppo("check", "--data-dir", home, "gae_numpy.py", cwd=work).returncode == 0
    failing = work / "policy_loss_numpy.py"
    nxt = ppo("next", "--data-dir", home, cwd=work)
    assert nxt.stdout.startswith("Next in the track: policy-loss — ") and "1 of " in nxt.stdout
    assert failing.exists()
    assert ppo("check", "--data-dir", home, failing, cwd=work).returncode == 1  # the starter fails
    table = ppo("drills", "--data-dir", home).stdout.splitlines()
    row = {line.split()[0]: line for line in table}
    assert " passed " in row["gae"] and " failed " in row["policy-loss"] and " never tried " in row["value-loss"]
    data = {r["id"]: r for r in json.loads(ppo("drills", "--json", "--data-dir", home).stdout)}
    assert data["gae"]["status"] == "passed" and data["policy-loss"]["status"] == "failed"
    stay = ppo("next", "--data-dir", home, cwd=work)  # failed, not passed: still the next one
    assert stay.stdout.startswith("Next in the track: policy-loss — ") and "(failed;" in stay.stdout
