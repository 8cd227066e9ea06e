"""A fix-the-bug drill's code as given: checking it untouched names no mistake, explains no fix, sends no
card back and enters no pitfall profile; the candidate's own edits are diagnosed as usual."""
from __future__ import annotations

import json

import pytest

from checker.given_code import is_given_code, withhold_planted
from checker.report import Diagnosis, Report, report_from_json
from drills import get_drill, load_drills
from tests.warm_checker import main  # `ppo-drill` in-process, its checks by the warm checker

PITFALLS = [d for d in load_drills() if d.is_pitfall]


@pytest.mark.parametrize("drill", PITFALLS, ids=lambda d: d.id)
def test_every_pitfall_starter_is_recognised_as_given(drill):
    for fw in drill.frameworks:
        starter = drill.starter(fw)
        assert is_given_code(starter, drill.id, fw)
        # the `start` command's drill line, comments and blank lines do not make it the candidate's code
        assert is_given_code(f"# ppo-drill drill: {drill.id}\n# my notes\n\n{starter}\n\n", drill.id, fw)
        assert not is_given_code(drill.solution(fw), drill.id, fw)
        assert not is_given_code(starter, drill.base, fw), "a core drill has no code as given"


def test_an_edit_that_changes_the_program_is_the_candidates_code():
    drill = get_drill("fix-gae-direction")
    starter = drill.starter("numpy")
    edited = starter.replace("return advantages, returns", "return advantages, returns + 0.0")
    assert edited != starter and not is_given_code(edited, drill.id, "numpy")
    assert not is_given_code("def compute_gae(:", drill.id, "numpy")
    assert not is_given_code(starter, "no-such-drill", "numpy")


def test_withholding_keeps_what_differs_and_drops_the_names():
    drill = get_drill("fix-rloo-baseline")
    named = Diagnosis("rloo-baseline-includes-self", "title", "the fix", "rloo-leave-one-out")
    report = Report(drill.id, "numpy", passed=False, diagnoses=[named])
    out = withhold_planted(report, drill.starter("numpy"))
    assert out.diagnoses == [] and out.given_code
    text = out.render()
    assert "the fix" not in text and "code as given" in text and "No catalogued mistake" not in text
    assert report_from_json(json.loads(json.dumps(out.to_json()))).given_code
    other = Report(drill.id, "numpy", passed=False, diagnoses=[named])
    assert withhold_planted(other, drill.solution("numpy").replace("k - 1", "k")).diagnoses == [named]


def test_checking_the_starter_records_no_mistake(tmp_path, capsys, _private_data_dir):
    path = tmp_path / "fix.py"
    assert main(["start", "fix-gae-direction", str(path)]) == 0
    capsys.readouterr()
    assert main(["check", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is False and data["diagnoses"] == [] and data["given_code"] is True
    assert any(not c["passed"] for c in data["checks"]) and data["counterexample"]
    from cards.progress.store import open_store

    with open_store() as store:
        (attempt,) = store.attempts("fix-gae-direction")
        assert attempt.mistakes == [] and not attempt.passed
        assert not [r for r in store.reviews() if r.source == "checker"], "no card is sent back"
    # the same bug typed in by the candidate (here: the planted line kept, a variable renamed) is theirs
    path.write_text(path.read_text().replace("last_adv", "carry"))
    assert main(["check", str(path), "--json"]) == 1
    assert "gae-forward-scan" in [d["id"] for d in json.loads(capsys.readouterr().out)["diagnoses"]]
