"""Content tested like code: every model solution passes, every catalogued mistake is rejected AND named,
two mistakes at once are both named, each pitfall drill's starter shows its planted mistake, and correct
answers written in other styles pass."""
from __future__ import annotations

from pathlib import Path

import pytest

from checker.catalogue import merge_edits
from checker.evaluation import all_checks
from checker.specs import spec_for
from drills import get_drill, load_drills
from tests.content_sample import JUDGE_ALL
from tests.warm_checker import check

ANSWERS = Path(__file__).parent / "answers"
CORE = [d for d in load_drills() if d.kind == "core"]
PITFALLS = [d for d in load_drills() if d.kind == "pitfall"]


@pytest.mark.parametrize("drill, framework", [(d.id, fw) for d in CORE for fw in d.frameworks])
def test_model_solution_passes(drill, framework):
    report = check(get_drill(drill).solution(framework), drill, framework)
    assert report.passed, report.render()
    assert report.error is None and report.diagnoses == []
    assert all(c.passed for c in report.checks)


IMPLIED_FAILS = {"matches-reference", "output-type", "output-shape", "output-nonfinite"}
MISTAKES = [(d.id, m.id) for d in CORE for m in d.mistakes]


@pytest.mark.parametrize("drill, mistake", MISTAKES)
def test_every_form_of_a_mistake_is_rejected_named_and_fails_exactly_its_declared_checks(drill, mistake):
    """Each form (every framework): rejected, named alone, failing no check outside `fails:`; and every
    entry of `fails:` is failed by some form, so `fails:` is exactly what the mistake breaks (a check that
    blames a property the answer has shows up as an undeclared failure or as an entry no form needs).
    By default one canonical form (the mistake's own file) is judged: a drill's mistakes take their
    frameworks in turn (the first numpy, the next torch, ...), so each framework's forms are judged for
    half the mistakes; the entries of `fails:` that form does not show are left to the full run.
    `PPO_DRILL_CORPUS=all` (CI's second step) judges every form in every framework and asserts that the
    forms together fail every entry."""
    d = get_drill(drill)
    m = next(x for x in d.mistakes if x.id == mistake)
    seen: set[str] = set()
    turn = [x.id for x in d.mistakes].index(mistake)
    for fw in (m.frameworks if JUDGE_ALL else [m.frameworks[turn % len(m.frameworks)]]):
        for label, source in (m.forms(fw) if JUDGE_ALL else m.forms(fw)[:1]):
            report = check(source, drill, fw, shrink_failure=False)
            where = f"{fw} form {label!r}"
            assert not report.passed, where
            groups = {d.alternative_to or d.id for d in report.diagnoses}  # indistinguishable: one group
            assert mistake in report.mistake_ids and len(groups) == 1 and not report.unexplained, (
                where, report.render())
            named = next(d for d in report.diagnoses if d.id == mistake)
            assert named.explanation and named.card and named.explains == [], where
            failed = {c.id for c in report.checks if not c.passed} - IMPLIED_FAILS
            assert failed <= set(m.fails), (where, sorted(failed - set(m.fails)), report.render())
            seen |= failed
    if JUDGE_ALL:
        assert seen >= set(m.fails), f"no form fails {sorted(set(m.fails) - seen)}; drop them from fails:"


def test_every_mistake_declares_the_checks_it_may_fail():
    for d in CORE:
        for m in d.mistakes:
            assert m.fails, f"{d.id}/{m.id}: mistake.yaml needs fails: [...]"
            ids = {c.id for fw in ("numpy", "torch") for c in all_checks(spec_for(d.id), fw)}
            assert set(m.fails) <= ids, (d.id, m.id, sorted(set(m.fails) - ids))


def test_two_slips_get_a_name_and_what_differs():
    """The reductions swapped, and valid_tokens counting the padding (not catalogued): one name, and what
    differs for the rest."""
    src = (ANSWERS / "actor_torch_swapped_and_padded_count.py").read_text()
    report = check(src, "actor-loss", "torch")
    assert not report.passed
    assert report.mistake_ids == ["reduction-swapped"], report.render()
    assert [u.axis for u in report.unexplained] == ["metrics['valid_tokens']"], report.render()
    assert report.diagnoses[0].explains  # it says which part it explains


def test_a_catalogued_slip_and_a_gradient_into_the_targets_are_both_named():
    """min where the value loss takes the max, and gradient reaching the returns (a shared misconception)."""
    src = (ANSWERS / "value_torch_min_and_grad_returns.py").read_text()
    report = check(src, "value-loss", "torch")
    assert set(report.mistake_ids) == {"value-min-instead-of-max", "grad-into-returns"}, report.render()
    assert not report.unexplained, report.render()


def test_a_forward_mistake_and_a_missing_detach_are_both_named():
    policy = get_drill("policy-loss")
    src = next(m for m in policy.mistakes if m.id == "policy-max-instead-of-min").source("torch")
    src = src.replace("    old_logp = old_logp.detach()\n", "")
    report = check(src, "policy-loss", "torch")
    assert set(report.mistake_ids) == {"policy-max-instead-of-min", "grad-into-old-logp"}, report.render()


def test_min_max_value_clipping_passes_at_the_kink():
    """torch.max(torch.min(x, hi), lo) picks another subgradient than clamp where |V - V_old| == eps."""
    report = check((ANSWERS / "value_torch_min_max_clip.py").read_text(), "value-loss", "torch")
    assert report.passed, report.render()


@pytest.mark.parametrize("drill, a, b", [
    ("gae", "gae-forward-scan", "gae-missing-lambda"),
    ("policy-loss", "policy-max-instead-of-min", "reduction-sum"),
    ("value-loss", "value-missing-half", "value-min-instead-of-max"),
])
@pytest.mark.parametrize("framework", ["numpy", "torch"])
def test_two_mistakes_at_once_are_both_named(drill, a, b, framework):
    d = get_drill(drill)
    mistakes = {m.id: m for m in d.mistakes}
    merged = merge_edits(d.solution(framework), mistakes[a].source(framework), mistakes[b].source(framework))
    assert merged is not None
    report = check(merged, drill, framework)
    assert not report.passed and {a, b} <= set(report.mistake_ids), report.render()


@pytest.mark.parametrize("framework", ["numpy", "torch"])
@pytest.mark.parametrize("mistake", ["ratio-inverted", "value-min-instead-of-max"])
def test_a_policy_or_value_mistake_inside_the_total_is_named(framework, mistake):
    """The candidate writes the total with a helper that carries a policy or value mistake."""
    policy, value = get_drill("policy-loss"), get_drill("value-loss")
    p_src = next((m.source(framework) for m in policy.mistakes if m.id == mistake), None) or policy.solution(framework)
    v_src = next((m.source(framework) for m in value.mistakes if m.id == mistake), None) or value.solution(framework)
    mean = "entropy.mean()"
    source = (p_src + "\n\n" + v_src + "\n\n"
              "def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,\n"
              "                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):\n"
              "    return (ppo_policy_loss(new_logp, old_logp, advantages, clip_eps)\n"
              "            + vf_coef * ppo_value_loss(values, old_values, returns, clip_eps)\n"
              f"            - ent_coef * {mean})\n")
    report = check(source, "total-loss", framework)
    assert not report.passed and mistake in report.mistake_ids, report.render()


@pytest.mark.parametrize("drill", [d.id for d in PITFALLS])
def test_pitfall_starter_shows_its_planted_mistake_and_the_fix_passes(drill):
    d = get_drill(drill)
    framework = d.frameworks[0]
    starter = check(d.starter(framework), drill, framework, shrink_failure=False)  # the names do not shrink
    assert not starter.passed and d.mistake_id in starter.mistake_ids, starter.render()
    assert starter.drill == drill
    assert check(d.solution(framework), drill, framework).passed


@pytest.mark.parametrize("name, drill", [
    ("gae_numpy_vectorised_helpers", "gae"), ("gae_torch_list_stack", "gae"),
    ("policy_numpy_max_of_negatives", "policy-loss"), ("policy_torch_where_piecewise", "policy-loss"),
    ("value_numpy_loop", "value-loss"), ("total_torch_functional", "total-loss"),
    ("actor_torch_alternative", "actor-loss"),
])
def test_correct_answers_in_other_styles_pass(name, drill):
    report = check((ANSWERS / f"{name}.py").read_text(), drill)
    assert report.passed, report.render()


def test_merge_edits_refuses_overlapping_edits():
    base = "a\nb\nc\nd\n"
    assert merge_edits(base, "a\nB\nc\nd\n", "a\nb\nc\nD\n") == "a\nB\nc\nD\n"
    assert merge_edits(base, "a\nB\nc\nd\n", "a\nb\nC\nd\n") == "a\nB\nC\nd\n"  # adjacent lines
    assert merge_edits(base, "a\nB\nc\nd\n", "a\nB2\nc\nd\n") is None  # the same line
    assert merge_edits(base, "a\nx\nb\nc\nd\n", "a\nB\nc\nd\n") is None  # insertion at the other's edge
    assert merge_edits(base, base, "a\nb\nc\nD\n") is None
