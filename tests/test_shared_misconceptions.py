"""The shared misconceptions (drills/_common/misconceptions.yaml, checker/misconceptions.py): each is inherited
by exactly the drills whose specs declare the roles it needs, and is named in every one of them: each
planted form (the drill's own model answer with the misconception planted) is rejected and named, alone,
by the drill's own name for it where its catalogue has one; a misconception the drill's model answer has
no place to plant is proved by a hand-written form of it (the drill's own catalogue, or its corpus)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from checker import misconceptions
from tests.warm_checker import check
from checker.misconceptions import PLANTS, RECOGNISE, inheriting, local_name, planted, recognisers
from checker.specs import spec_for
from drills import get_drill, load_drills, shared_misconceptions

CORPUS = Path(__file__).parent / "diagnosis"
CORE = [d.id for d in load_drills() if d.kind == "core"]

#: Who inherits what. A drill that gains or loses the roles of a misconception must say so here.
INHERITED = {
    "grad-into-old-logp": {"policy-loss", "total-loss", "actor-loss", "policy-loss-full", "kl-penalty",
                           "rollout-correction", "dapo-loss"},
    "grad-into-advantages": {"policy-loss", "total-loss", "actor-loss", "policy-loss-full", "kl-penalty",
                             "rollout-correction", "gspo-loss", "cispo-loss"},
    "grad-into-old-values": {"value-loss", "total-loss"},
    "grad-into-returns": {"value-loss", "total-loss"},
    "grad-into-reference": {"dpo-loss", "kl-loss"},
    "ratio-inverted": {"policy-loss", "total-loss", "actor-loss", "policy-loss-full", "kl-penalty", "trajectory-is"},
    "ratio-division": {"policy-loss", "total-loss", "actor-loss", "policy-loss-full", "kl-penalty"},
    "mask-multiplied": {"actor-loss", "policy-loss-full", "token-logprobs", "token-kl", "kl-reward", "token-gae",
                        "masked-whiten", "loss-aggregation", "explained-variance", "rollout-correction", "gspo-loss",
                        "dapo-loss", "critic-free-advantages", "cispo-loss", "kl-loss", "grad-accumulation"},
    "padding-not-zeroed": {"token-logprobs", "token-kl", "kl-reward", "token-gae", "masked-whiten"},
    "log-of-probability": {"bt-loss", "dpo-loss", "token-logprobs"},
    "std-bessel-correction": {"masked-whiten", "grpo-advantages", "explained-variance", "ppo-update"},
    "strict-comparison": {"actor-loss", "policy-loss-full", "kl-penalty", "dpo-loss", "ppo-update"},
    "mc-return-for-lambda-return": {"gae", "token-gae"},
    "whiten-mean-handling": {"masked-whiten", "ppo-update"},
}


def test_the_library_is_well_formed():
    shared = shared_misconceptions()
    assert set(shared) == set(INHERITED)
    declared = {r for d in CORE for r in spec_for(d).roles}
    for m in shared.values():
        assert m.plant is not None or m.recognise is not None, m.id
        assert m.plant is None or m.plant[0] in PLANTS, m.id
        assert m.recognise is None or m.recognise[0] in RECOGNISE, m.id
        assert set(m.needs) <= declared, (m.id, set(m.needs) - declared)


@pytest.mark.parametrize("mid", sorted(INHERITED))
def test_each_misconception_is_inherited_by_exactly_the_drills_with_its_roles(mid):
    got = {d for d in CORE if any(m.id == mid for m in inheriting(d))}
    assert got == INHERITED[mid]


def _frameworks(mid: str, drill: str) -> list[str]:
    return [fw for fw in get_drill(drill).frameworks if fw in shared_misconceptions()[mid].frameworks]


CASES = [(mid, d, fw) for mid, drills in sorted(INHERITED.items()) for d in sorted(drills)
         for fw in _frameworks(mid, d)]


def _corpus_forms(drill: str, name: str) -> list[Path]:
    """Corpus answers of the drill that expect exactly this name."""
    out = []
    for path in sorted((CORPUS / drill).glob("*.py")):
        for line in path.read_text(encoding="utf-8").splitlines()[:5]:
            if line.startswith("# expect:") and line.split(":", 1)[1].split() == [name]:
                out.append(path)
    return out


def _hand_written(mid: str, drill: str, fw: str) -> list[tuple[str, str]]:
    """(label, source) of forms written by hand: the drill's own catalogue entry for the misconception, or
    its corpus answers naming it (for a model answer with no place to plant it)."""
    d = get_drill(drill)
    mine = [m for m in d.mistakes if m.id == mid or mid in m.concepts]
    if mine and fw in mine[0].frameworks:
        return mine[0].forms(fw)[:1]
    name = local_name(d, mid)
    out = []
    for path in _corpus_forms(drill, name):
        text = path.read_text(encoding="utf-8")
        framework = next((ln.split(":", 1)[1].strip() for ln in text.splitlines()[:8] if ln.startswith("# framework:")),
                         None)
        if framework in (None, fw):
            out.append((path.name, text))
    return out[:1]


@pytest.mark.parametrize("mid, drill, fw", CASES)
def test_each_shared_misconception_is_named_in_every_drill_that_inherits_it(mid, drill, fw):
    d = get_drill(drill)
    name = local_name(d, mid)
    plants = [(p.label, p.source) for p in planted(drill, fw) if p.misconception == mid]
    if not plants:  # no place for it in the model answer: the property recognises it
        assert any(r.misconception == mid for r in recognisers(drill, fw)), (mid, drill, fw)
    # the form planting it everywhere it applies (the last), else the first place alone (two places can
    # cancel: the same std correction switched in both variances of the explained variance)
    forms = plants[-1:] + plants[:1] if len(plants) > 1 else plants or _hand_written(mid, drill, fw)
    assert forms, f"{mid} has no planted or hand-written form in {drill} ({fw})"
    named_once = False
    for label, source in forms:
        report = check(source, drill, fw, shrink_failure=False)
        if report.passed and label in dict(plants) and len(forms) > 1:
            continue
        assert not report.passed, label
        groups = {x.alternative_to or x.id for x in report.diagnoses}
        assert name in report.mistake_ids and len(groups) == 1, (label, report.render())
        named = next(x for x in report.diagnoses if x.id == name)
        assert named.explanation and "{" not in named.explanation, named.explanation  # in the drill's own words
        named_once = True
        break
    assert named_once, (mid, drill, fw)


def test_explanations_speak_of_the_drills_own_inputs():
    roles = spec_for("actor-loss").roles
    text = misconceptions.explanation(shared_misconceptions()["grad-into-old-logp"].explanation, roles)
    assert "log_probs_old" in text and "{" not in text


def test_a_planted_edit_keeps_every_other_line():
    """So the catalogue can merge it with the drill's own mistakes, line by line."""
    d = get_drill("kl-penalty")
    solution = d.solution("torch").splitlines()
    for p in planted("kl-penalty", "torch"):
        if p.misconception != "strict-comparison":
            continue
        lines = p.source.splitlines()
        assert len(lines) == len(solution)
        changed = [(a, b) for a, b in zip(solution, lines) if a != b]
        assert changed and all(">=" in b or "<=" in b for _, b in changed)
        ast.parse(p.source)
