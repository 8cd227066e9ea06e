"""Read-the-run drills: each log is what its seed gives, each planted bug shows in the statistic its
drill says gives it away, the model sheet passes and the starter fails (through the engine and the CLI),
and a wrong choice is named with what rules it out."""
from __future__ import annotations

import json
import math

import pytest

from tests.warm_checker import check
from checker.runs.generate import dumps, log_for_folder
from checker.runs.trainer import BUGS, RunConfig, run
from drills import get_drill, load_drills
from drills.runlog import LETTERS, parse_sheet, resolve_cause
from tui.cli import main

RUNS = [d for d in load_drills() if d.is_run]


def test_there_are_at_least_eight_runs_each_with_its_own_bug_and_seed():
    assert len(RUNS) >= 8
    assert len({d.answer for d in RUNS}) == len(RUNS)
    assert len({d.run_log["config"]["seed"] for d in RUNS}) == len(RUNS)
    for d in RUNS:
        assert d.answer in BUGS and d.answer in d.choices and d.frameworks == ("run",)


@pytest.mark.parametrize("drill", RUNS, ids=lambda d: d.id)
def test_the_log_is_what_its_seed_gives(drill):
    assert (drill.path / "run.json").read_text(encoding="utf-8") == dumps(log_for_folder(drill.path))


def test_a_run_is_a_function_of_its_config():
    cfg = RunConfig(seed=5, iterations=3)
    assert run(cfg) == run(cfg)
    assert run(cfg) != run(RunConfig(seed=6, iterations=3))
    with pytest.raises(ValueError, match="unknown bug"):
        RunConfig(bug="nonsense")


def _epochs(log):
    return [(it, ep) for it in log["iterations"] for ep in it["epochs"]]


# What each planted bug does to the log, checked on the log itself (the drill's give-away, as behaviour).
def _frozen(log):
    return all(ep["approx_kl"] == 0 and ep["clip_frac"] == 0 for _, ep in _epochs(log))


def _entropy(log):
    return log["config"]["ent_coef"] >= 0.5 and log["iterations"][-1]["epochs"][-1]["entropy"] < 0.1


def _adv(log):
    return all(it["adv_std"] < 0.5 for it in log["iterations"])


def _early_stop(log):
    target = log["config"]["target_kl"]
    stopped = [it for it in log["iterations"] if it["epochs_run"] < log["config"]["epochs"]]
    return stopped and all(it["epochs"][-1]["approx_kl"] <= target < it["epochs"][-1]["old_approx_kl"]
                           for it in stopped)


def _value(log):
    return max(it["value_change"] for it in log["iterations"]) > 2 * log["config"]["clip_eps"]


def _sampler(log):
    return log["iterations"][0]["kl_first_minibatch"] < 1e-4 and \
        all(it["kl_first_minibatch"] > 1e-3 for it in log["iterations"][1:])


def _band(log):
    return all(it["epochs"][0]["pg_clipfrac"] > it["epochs"][0]["clip_frac"] + 0.1 for it in log["iterations"])


def _dones(log):
    its = log["iterations"]
    return max(it["explained_variance"] for it in its) < 0.2 and its[-1]["epochs"][-1]["value_loss"] > \
        3 * its[0]["epochs"][-1]["value_loss"]


SHOWS = {"old-logp-recomputed": _frozen, "entropy-sign": _entropy, "adv-not-normalised": _adv,
         "kl-stop-k1": _early_stop, "value-unclipped": _value, "rollout-mismatch": _sampler,
         "clip-around-zero": _band, "gae-ignores-dones": _dones}


@pytest.mark.parametrize("drill", RUNS, ids=lambda d: d.id)
def test_the_planted_bug_shows_where_the_drill_says(drill):
    shows = SHOWS[drill.answer]
    assert shows(drill.run_log)
    healthy = log_for_folder.__globals__["make_log"](drill.run_log["config"]["seed"],
                                                     {k: v for k, v in drill.run_log["config"].items()
                                                      if k not in ("seed", "bug")}, "none")
    assert not shows(healthy), "the same run without the bug does not show it"


@pytest.mark.parametrize("drill", RUNS, ids=lambda d: d.id)
def test_the_model_sheet_passes_and_the_starter_fails(drill):
    assert check(drill.solution("run"), drill.id).passed
    report = check(drill.starter("run"), drill.id)
    assert not report.passed and not report.diagnoses and not report.notes


@pytest.mark.parametrize("drill", RUNS, ids=lambda d: d.id)
def test_a_wrong_choice_is_named_with_what_rules_it_out(drill):
    wrong = next(c for c in drill.choices if c != drill.answer)
    sheet = drill.starter("run").replace("cause: \n", f"cause: {LETTERS[drill.choices.index(wrong)]}\n") \
        .replace("why: \n", f"why: {drill.giveaway['line']}\n")
    report = check(sheet, drill.id)
    assert not report.passed
    (named,) = report.diagnoses
    assert named.id == wrong and named.card == drill.causes[wrong].card
    assert named.explanation == drill.why_not[wrong]
    assert drill.giveaway["en"] in report.notes[0], "the grade says which statistic gives the cause away"


def test_the_why_line_must_name_a_statistic():
    d = get_drill("run-01")
    letter = LETTERS[d.choices.index(d.answer)]
    vague = d.starter("run").replace("cause: \n", f"cause: {letter}\n").replace("why: \n", "why: it looks off\n")
    report = check(vague, d.id)
    assert not report.passed and [c.id for c in report.checks if not c.passed] == ["why-statistic"]
    named = vague.replace("why: it looks off", "why: Clip_frac is 0 in every epoch")
    assert check(named, d.id).passed


def test_sheets_are_read_leniently():
    d = get_drill("run-04")
    right = LETTERS[d.choices.index(d.answer)]
    for written in (right, right.lower(), f"({right})", f"{right}. the early stop", d.answer):
        assert resolve_cause(d, written) == d.answer, written
    assert resolve_cause(d, "Z") is None and resolve_cause(d, "") is None
    assert parse_sheet("# cause: A\ncause: B\nwhy: x\n") == ("B", "x")
    assert parse_sheet("nothing") == (None, "")


def test_start_writes_the_sheet_and_check_grades_it(tmp_path, capsys):
    d = get_drill("run-06")
    path = tmp_path / "sheet.txt"
    assert main(["start", d.id, str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    assert "kl_first_mb" in text and "cause: " in text and d.prompt.splitlines()[0][2:] in text
    capsys.readouterr()
    assert main(["check", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["passed"] is False
    letter = LETTERS[d.choices.index(d.answer)]
    path.write_text(text.replace("cause: \n", f"cause: {letter}\n").replace(
        "why: \n", "why: kl_first_mb is 0.0024 to 0.0376 before any step\n"), encoding="utf-8")
    assert main(["check", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] and data["framework"] == "run"
    from cards.progress.store import open_store

    with open_store() as store:
        attempts = store.attempts(d.id)
        assert [a.passed for a in attempts] == [False, True], "CLI checks are recorded as attempts"


def test_the_sheet_shows_every_statistic_the_issue_names():
    text = get_drill("run-07").starter("run")
    for name in ("approx_kl", "clip_frac", "entropy", "expl_var", "v_loss"):
        assert name in text
    assert all(math.isfinite(ep["approx_kl"]) for _, ep in _epochs(get_drill("run-07").run_log))


def test_the_mock_draws_them_and_the_plan_counts_them():
    from datetime import datetime, timezone

    from cards.decks.loader import load_decks
    from cards.plan.interview import readiness
    from cards.plan.mock_plan import plan_mock
    from cards.progress.store import open_store

    drawn = {item.ref for seed in range(60) for item in plan_mock(seed, 45).items}
    assert {d.id for d in RUNS} <= drawn, "every read-the-run drill is drawn by some mock"
    item = next(i for seed in range(60) for i in plan_mock(seed, 45).items if i.ref in {d.id for d in RUNS})
    assert item.framework == "run"
    drills = load_drills()
    with open_store() as store:
        rows = readiness(store, load_decks(), drills, datetime(2026, 12, 20, 12, tzinfo=timezone.utc))
    assert sum(r.drills for r in rows) == len(drills), "readiness counts every drill, the runs included"


def test_the_chinese_sheet_fits_the_terminal_and_is_graded_alike(tmp_path, capsys):
    import unicodedata

    d = get_drill("run-07")
    path = tmp_path / "zh.txt"
    assert main(["start", d.id, str(path), "--lang", "zh"]) == 0
    text = path.read_text(encoding="utf-8")
    assert d.causes[d.answer].zh in text
    from drills.runlog import answer_sheet

    for lines in (answer_sheet(d, lang="zh").splitlines(), d.prompt_zh.splitlines()):
        assert max(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line) for line in lines) <= 80
    letter = LETTERS[d.choices.index(d.answer)]
    path.write_text(text.replace("cause: \n", f"cause: {letter}\n").replace("why: \n", "why: pg_clipfrac 远高于 clip_frac\n"),
                    encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(path)]) == 0
    assert d.giveaway["zh"] in capsys.readouterr().out, "a Chinese sheet is explained in Chinese"
