"""Drill content and its loader (drills/): strictness on broken fixture folders, the shipped catalogue,
the shape of every starter, solution and buggy copy, and the numbers every model solution must give.

The model solutions are run here in-process on the seeds' worked examples and on hand-computed probes,
and every catalogued buggy copy is run on probes where it must differ from the solution, so a content
error shows up here without the checker.
"""
from __future__ import annotations

import ast
import difflib
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import torch

from drills import (DrillContentError, all_mistakes, clear_cache, common_mistakes, get_drill, load_drills,
                    shared_misconceptions, typed_drill_id)

ROOT = Path(__file__).resolve().parents[1]
DRILLS_DIR = ROOT / "drills"
CARDS_DIR = ROOT / "cards" / "decks"

CORE_ORDER = ["gae", "policy-loss", "value-loss", "total-loss", "actor-loss"]
PITFALLS = {  # id -> (base drill, planted mistake, frameworks)
    "fix-ratio-division": ("policy-loss", "ratio-division", ("numpy", "torch")),
    "fix-ratio-denominator": ("policy-loss", "ratio-wrong-denominator", ("numpy", "torch")),
    "fix-clip-range": ("policy-loss", "clip-around-zero", ("numpy", "torch")),
    "fix-policy-min-max": ("policy-loss", "policy-max-instead-of-min", ("numpy", "torch")),
    "fix-value-min-max": ("value-loss", "value-min-instead-of-max", ("numpy", "torch")),
    "fix-missing-detach": ("policy-loss", "grad-into-old-logp", ("torch",)),
    "fix-gae-direction": ("gae", "gae-forward-scan", ("numpy", "torch")),
    "fix-gae-done-mask": ("gae", "gae-done-recursion", ("numpy", "torch")),
    "fix-value-bootstrap": ("gae", "gae-no-bootstrap", ("numpy", "torch")),
    "fix-entropy-sign": ("total-loss", "entropy-sign", ("numpy", "torch")),
}
SIGNATURES = {
    "gae": "compute_gae(rewards, values, dones, gamma=0.99, lam=0.95)",
    "policy-loss": "ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2)",
    "value-loss": "ppo_value_loss(values, old_values, returns, clip_eps=0.2)",
    "total-loss": "ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy, "
                  "clip_eps=0.2, vf_coef=0.5, ent_coef=0.01)",
    "actor-loss": 'compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, '
                  'clip_range=0.2, reduction="token_mean")',
}
TORCH_ONLY = {"grad-into-old-logp", "grad-into-advantages", "grad-into-old-values"}
REQUIRED_MISTAKES = {
    "gae": ["gae-forward-scan", "gae-done-bootstrap", "gae-done-recursion", "gae-missing-lambda",
            "gae-missing-gamma", "gae-no-bootstrap", "gae-returns-offset", "gae-done-shift",
            "gae-last-step-stale-bootstrap"],
    "policy-loss": ["ratio-division", "ratio-inverted", "ratio-wrong-denominator", "clip-around-zero",
                    "clip-eps-ignored", "policy-max-instead-of-min", "policy-missing-negation", "policy-no-clip",
                    "policy-clipped-only", "policy-clip-advantage", "reduction-sum", "grad-into-old-logp",
                    "grad-into-advantages", "policy-dual-clip", "policy-advantages-normalised"],
    "value-loss": ["value-min-instead-of-max", "value-clip-absolute", "value-clip-ratio-style",
                   "value-clip-around-returns", "value-missing-half", "value-no-clip", "value-abs-error",
                   "grad-into-old-values"],
    "total-loss": ["entropy-sign", "total-coefs-swapped", "total-value-sign"],
    "actor-loss": ["mask-ignored", "reduction-swapped", "kl-wrong-estimator", "clip-fraction-one-sided",
                   "metrics-include-padding", "actor-dual-clip", "clip-fraction-active-branch", "kl-minus-ratio-mean",
                   "actor-advantages-normalised", "actor-mask-multiplied"],
}
# The token-level drills' catalogues (their own tests: tests/test_drills_llm_losses.py).
REQUIRED_MISTAKES_LLM = {
    "grpo-advantages": ["grpo-batch-stats", "grpo-no-eps", "grpo-sample-major", "grpo-std-in-dr-variant",
                        "grpo-population-std", "grpo-padding-not-zeroed", "grpo-singleton-raw-score"],
    "loss-aggregation": ["agg-seq-sum-as-seq-mean", "agg-nan-leak", "agg-token-mean-per-row",
                         "agg-sum-norm-no-batch-mean", "agg-padding-in-count"],
    "policy-loss-full": ["policy-dual-clip-positive", "policy-dual-clip-as-min", "policy-clip-bounds-swapped",
                         "policy-stats-over-padding", "clip-fraction-outside-band", "policy-kl-k1",
                         "policy-padding-nan"],
    "explained-variance": ["ev-ratio-inverted", "ev-unmasked", "ev-var-values", "ev-r2-not-ev",
                           "ev-zero-variance-eps", "ev-one-pass-variance"],
}
COMMON_IDS = {"output-type", "output-shape", "output-nonfinite", "input-contract"}
# The card ids drill content may link to before their cards exist; ids found in cards/decks/ are allowed too.
KNOWN_CARDS = {
    "pitfall-ratio-division", "pitfall-ratio-denominator", "pitfall-clip-range", "pitfall-min-max",
    "pitfall-stop-gradient", "pitfall-advantage-normalisation", "pitfall-gae-direction", "pitfall-gae-done-mask",
    "pitfall-value-bootstrap", "pitfall-entropy-sign", "gae-td-error", "gae-backward-recursion",
    "gae-lambda-extremes", "gae-done-mask", "gae-bootstrap-value", "gae-returns", "ppo-ratio-log-space",
    "ppo-clipped-objective", "ppo-clip-positive-advantage", "ppo-clip-negative-advantage", "value-clipped-loss",
    "value-half-factor", "total-loss-formula", "diag-clip-fraction-definitions", "diag-approx-kl-k3",
    "agg-token-vs-sequence-mean", "rlhf-actor-loss-input-contract", "numbers-typical-coefficients",
}
# The rows of the table of common mistakes that a function can show, each covered by a pitfall drill.
PITFALL_ROWS_WITH_DRILL = {"ratio-division", "ratio-denominator", "clip-range", "min-max", "stop-gradient",
                          "gae-direction", "gae-done-mask", "value-bootstrap", "entropy-sign"}


def load_function(source: str, name: str, filename: str = "<drill>"):
    """Execute one content file in a fresh namespace and return its function."""
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own content files
    return namespace[name]


# --------------------------------------------------------------------------------------------------
# Loader strictness on a tiny fixture tree
# --------------------------------------------------------------------------------------------------

TOY_SOLUTION = '''import numpy as np


def double(x, k=2):
    """k times x."""
    return k * np.asarray(x)
'''
TOY_FILES = {
    "index.yaml": "core: [toy]\npitfall: [fix-toy]\n",
    "_common/mistakes.yaml": ("- id: output-type\n  title: Wrong type\n  explanation: It is wrong. Fix it.\n"
                              "  card: ppo-clipped-objective\n"),
    "toy/drill.yaml": ('id: toy\ntitle: "Toy"\nkind: core\nfunction: double\nsignature: "double(x, k=2) -> array"\n'
                       "frameworks: [numpy]\ntarget_minutes: 3\ntopic: gae\ndifficulty: easy\ncards: [gae-returns]\n"),
    "toy/prompt.md": "Double it.\n",
    "toy/hints.md": "# Hints\n\n## Hint 1\nMultiply?\n\n## Hint 2\nBy k.\n\n## Hint 3\n**Shows the answer.** k * x\n",
    "toy/starter/numpy.py": 'def double(x, k=2):\n    raise NotImplementedError\n',
    "toy/solution/numpy.py": TOY_SOLUTION,
    "toy/mistakes/toy-triple/mistake.yaml": ("id: toy-triple\ntitle: Triples\nexplanation: Uses 3. Use k.\n"
                                             "card: gae-returns\npitfall_row: min-max\n"),
    "toy/mistakes/toy-triple/numpy.py": TOY_SOLUTION.replace("return k *", "return 3 *"),
    "fix-toy/drill.yaml": ('id: fix-toy\ntitle: "Fix toy"\nkind: pitfall\nframeworks: [numpy]\ntarget_minutes: 2\n'
                           "topic: gae\ndifficulty: easy\ncards: []\nbase: toy\nmistake: toy-triple\n"),
    "fix-toy/prompt.md": "This code has one bug. Fix it.\n",
    "fix-toy/hints.md": "## Hint 1\na?\n## Hint 2\nb\n## Hint 3\n**Shows the answer.** c\n",
}


@pytest.fixture
def toy(tmp_path) -> Path:
    """A valid content root named drills/, so messages read "drills/toy/drill.yaml"."""
    clear_cache()
    root = tmp_path / "drills"
    for rel, text in TOY_FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def broken(root: Path) -> DrillContentError:
    clear_cache()
    with pytest.raises(DrillContentError) as info:
        load_drills(root)
    return info.value


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text()
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new))


def test_toy_fixture_loads(toy):
    drills = load_drills(toy)
    assert [d.id for d in drills] == ["toy", "fix-toy"]
    core, pitfall = drills
    assert core.hints == ["Multiply?", "By k.", "**Shows the answer.** k * x"]
    assert core.prompt_zh is None
    assert [m.id for m in core.mistakes] == ["toy-triple"]
    assert pitfall.starter("numpy") == core.mistakes[0].source("numpy")
    assert pitfall.solution("numpy") == TOY_SOLUTION
    assert pitfall.planted_mistake.pitfall_row == "min-max"


def test_unknown_key_names_file_field_and_line(toy):
    edit(toy, "toy/drill.yaml", "difficulty: easy\n", "difficulty: easy\ncolour: red\n")
    err = broken(toy)
    assert str(err).startswith("drills/toy/drill.yaml: field 'colour': unknown key")
    assert err.field == "colour" and err.line == 10


def test_missing_required_key(toy):
    edit(toy, "toy/drill.yaml", "topic: gae\n", "")
    assert str(broken(toy)) == "drills/toy/drill.yaml: field 'topic': is required"


def test_bad_target_minutes_message_matches_the_documented_form(toy):
    edit(toy, "toy/drill.yaml", "target_minutes: 3", "target_minutes: ten")
    assert str(broken(toy)) == "drills/toy/drill.yaml: field 'target_minutes': must be a positive integer (line 7)"


def test_bad_framework(toy):
    edit(toy, "toy/drill.yaml", "frameworks: [numpy]", "frameworks: [numpy, jax]")
    err = broken(toy)
    assert "drills/toy/drill.yaml: field 'frameworks': unknown framework 'jax'" in str(err)


def test_missing_hint(toy):
    edit(toy, "toy/hints.md", "\n## Hint 3\n**Shows the answer.** k * x\n", "\n")
    err = broken(toy)
    assert str(err).startswith("drills/toy/hints.md: field 'hints': must have exactly three hints")


def test_hints_escalate_to_a_marked_reveal(toy):
    edit(toy, "toy/hints.md", "Multiply?", "Multiply.")
    assert "Hint 1 must ask a question" in str(broken(toy))
    edit(toy, "toy/hints.md", "Multiply.", "Multiply?")
    edit(toy, "toy/hints.md", "**Shows the answer.** k * x", "k * x")
    assert "Hint 3 must start with '**Shows the answer.**'" in str(broken(toy))


def test_hints_out_of_order(toy):
    edit(toy, "toy/hints.md", "## Hint 2", "## Hint 3")
    err = broken(toy)
    assert "drills/toy/hints.md" in str(err) and "expected '## Hint 2' here" in str(err)


def test_missing_solution_file(toy):
    (toy / "toy/solution/numpy.py").unlink()
    err = broken(toy)
    assert str(err).startswith("drills/toy/solution/numpy.py: field 'frameworks': file is missing")


def test_solution_for_an_undeclared_framework(toy):
    (toy / "toy/solution/torch.py").write_text("")
    assert str(broken(toy)).startswith("drills/toy/solution/torch.py: unexpected")


def test_missing_mistake_file(toy):
    (toy / "toy/mistakes/toy-triple/numpy.py").unlink()
    assert str(broken(toy)).startswith("drills/toy/mistakes/toy-triple/numpy.py: field 'frameworks': file is missing")


def test_stray_file_in_drill_folder(toy):
    (toy / "toy/hint.md").write_text("typo")
    assert str(broken(toy)).startswith("drills/toy/hint.md: unexpected in a core drill folder")


def test_duplicate_yaml_key(toy):
    edit(toy, "toy/drill.yaml", "topic: gae\n", "topic: gae\ntopic: gae\n")
    err = broken(toy)
    assert "drills/toy/drill.yaml" in str(err) and "duplicate key 'topic'" in str(err) and err.line == 9


def test_yaml_syntax_error_names_line(toy):
    edit(toy, "toy/drill.yaml", "cards: [gae-returns]", "cards: [gae-returns")
    err = broken(toy)
    assert str(err).startswith("drills/toy/drill.yaml: invalid YAML") and err.line is not None


def test_malformed_card_id(toy):
    edit(toy, "toy/drill.yaml", "cards: [gae-returns]", "cards: [GAE_returns]")
    assert "field 'cards': 'GAE_returns' is not a card id" in str(broken(toy))


def test_mistake_card_and_pitfall_row(toy):
    edit(toy, "toy/mistakes/toy-triple/mistake.yaml", "pitfall_row: min-max", "pitfall_row: min-maxx")
    assert "drills/toy/mistakes/toy-triple/mistake.yaml: field 'pitfall_row': must be one of" in str(broken(toy))


def test_mistake_id_must_match_folder(toy):
    edit(toy, "toy/mistakes/toy-triple/mistake.yaml", "id: toy-triple", "id: toy-quadruple")
    assert "field 'id': must match the folder name 'toy-triple'" in str(broken(toy))


def test_pitfall_base_must_exist(toy):
    edit(toy, "fix-toy/drill.yaml", "base: toy", "base: gae")
    assert str(broken(toy)).startswith("drills/fix-toy/drill.yaml: field 'base': 'gae' is not a core drill")


def test_pitfall_mistake_must_exist(toy):
    edit(toy, "fix-toy/drill.yaml", "mistake: toy-triple", "mistake: toy-halve")
    assert "field 'mistake': 'toy-halve' is not in toy/mistakes/" in str(broken(toy))


def test_pitfall_mistake_must_support_its_frameworks(toy):
    edit(toy, "toy/drill.yaml", "frameworks: [numpy]", "frameworks: [numpy, torch]")
    (toy / "toy/starter/torch.py").write_text("def double(x, k=2):\n    raise NotImplementedError\n")
    (toy / "toy/solution/torch.py").write_text(TOY_SOLUTION)
    edit(toy, "toy/mistakes/toy-triple/mistake.yaml", "card:", "frameworks: [numpy]\ncard:")
    edit(toy, "fix-toy/drill.yaml", "frameworks: [numpy]", "frameworks: [numpy, torch]")
    assert "field 'frameworks': mistake 'toy-triple' has no 'torch' file" in str(broken(toy))


def test_a_pitfall_drill_takes_its_function_and_signature_from_its_base(toy):
    pitfall = get_drill("fix-toy", toy)
    assert (pitfall.function, pitfall.signature) == ("double", "double(x, k=2) -> array")


@pytest.mark.parametrize("line", ["function: double", 'signature: "double(x, k=2) -> array"'])
def test_a_pitfall_drill_stating_its_bases_function_or_signature_is_an_error(toy, line):
    edit(toy, "fix-toy/drill.yaml", "kind: pitfall\n", f"kind: pitfall\n{line}\n")
    key = line.split(":")[0]
    assert str(broken(toy)) == (f"drills/fix-toy/drill.yaml: field {key!r}: a pitfall drill takes its base drill's "
                                f"{key}: remove this key (line 4)")


def _toy_test_drill(root: Path, extra: str = "") -> None:
    """A test-writing drill of the toy drill, listed under `test:`."""
    files = {
        "test-toy/drill.yaml": ('id: test-toy\ntitle: "Test it: toy"\nkind: test\nbase: toy\n' + extra +
                                "frameworks: [numpy]\ntarget_minutes: 5\ntopic: gae\ndifficulty: easy\ncards: []\n"),
        "test-toy/prompt.md": "Write tests of double.\n",
        "test-toy/hints.md": "## Hint 1\na?\n## Hint 2\nb\n## Hint 3\n**Shows the answer.** c\n",
        "test-toy/starter/numpy.py": "def test_one():\n    assert True\n",
        "test-toy/solution/numpy.py": "def test_one():\n    assert True\n",
        "test-toy/nudges.yaml": "toy-triple: x = 1 shows it\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    edit(root, "index.yaml", "pitfall: [fix-toy]\n", "pitfall: [fix-toy]\ntest: [test-toy]\n")


def test_a_test_drill_takes_the_function_it_tests_from_its_base(toy):
    _toy_test_drill(toy)
    clear_cache()
    drill = get_drill("test-toy", toy)
    assert (drill.function, drill.signature) == ("double", "double(x, k=2) -> array")


def test_a_test_drill_stating_its_bases_signature_is_an_error(toy):
    _toy_test_drill(toy, 'signature: "double(x, k=2) -> array"\n')
    assert str(broken(toy)) == ("drills/test-toy/drill.yaml: field 'signature': a test drill takes its base drill's "
                                "signature: remove this key (line 5)")


def test_a_core_drill_states_its_function_and_signature(toy):
    edit(toy, "toy/drill.yaml", "function: double\n", "")
    assert str(broken(toy)) == "drills/toy/drill.yaml: field 'function': is required"


def test_pitfall_keys_are_not_allowed_on_core_drills(toy):
    edit(toy, "toy/drill.yaml", "cards: [gae-returns]\n", "cards: [gae-returns]\nbase: toy\n")
    assert "drills/toy/drill.yaml: field 'base': unknown key" in str(broken(toy))


def test_pitfall_prompt_must_announce_the_bug(toy):
    (toy / "fix-toy/prompt.md").write_text("Fix it.\n")
    assert str(broken(toy)).startswith("drills/fix-toy/prompt.md: a pitfall prompt must start with")


def test_pitfall_folder_holds_no_code(toy):
    (toy / "fix-toy/starter").mkdir()
    assert str(broken(toy)).startswith("drills/fix-toy/starter: unexpected in a pitfall drill folder")


def test_folder_missing_from_index(toy):
    (toy / "extra").mkdir()
    assert str(broken(toy)) == "drills/index.yaml: drill folder 'extra' is not listed"


def test_index_entry_without_folder(toy):
    edit(toy, "index.yaml", "core: [toy]", "core: [toy, ghost]")
    assert "drill 'ghost' is listed but ghost/ does not exist" in str(broken(toy))


def test_kind_must_match_index(toy):
    edit(toy, "index.yaml", "core: [toy]\npitfall: [fix-toy]", "core: [toy, fix-toy]\npitfall: []")
    assert "drills/fix-toy/drill.yaml: field 'base': unknown key" in str(broken(toy))


def test_duplicate_mistake_id_across_drills(toy):
    edit(toy, "_common/mistakes.yaml", "id: output-type", "id: toy-triple")
    assert "field 'id': mistake id 'toy-triple' is already used" in str(broken(toy))


def test_get_drill_unknown_lists_known_ids(toy):
    with pytest.raises(KeyError) as info:
        get_drill("nope", toy)
    assert "toy, fix-toy" in str(info.value)


def test_a_drill_id_in_the_index_is_kebab_case(toy):
    (toy / "toy").rename(toy / "toy_core")
    edit(toy, "index.yaml", "core: [toy]", "core: [toy_core]")
    assert str(broken(toy)) == ("drills/index.yaml: field 'core': 'toy_core' is not a drill id (lowercase words "
                                "joined by '-', like policy-loss) (line 1)")


def test_a_drill_yaml_base_is_kebab_case(toy):
    edit(toy, "fix-toy/drill.yaml", "base: toy", "base: toy_core")
    assert str(broken(toy)).startswith("drills/fix-toy/drill.yaml: field 'base': must be a core drill id: lowercase "
                                       "words joined by '-' (got 'toy_core')")


def test_get_drill_takes_the_catalogues_spelling_and_typed_ids_are_spelled_so_first(toy):
    with pytest.raises(KeyError):
        get_drill("fix_toy", toy)
    assert typed_drill_id(" Fix_Toy ") == "fix-toy" and get_drill(typed_drill_id("fix_toy"), toy).id == "fix-toy"


def test_unsupported_framework_is_a_clear_error(toy):
    drill = get_drill("toy", toy)
    with pytest.raises(ValueError, match="no 'torch' version"):
        drill.starter_path("torch")
    assert drill.mistakes[0].source("torch") is None
    assert common_mistakes(toy)["output-type"].path("numpy") is None


# --------------------------------------------------------------------------------------------------
# The shipped catalogue
# --------------------------------------------------------------------------------------------------

def test_shipped_content_loads_in_order():
    drills = load_drills()
    ids = [d.id for d in drills]
    assert ids[:len(CORE_ORDER)] == CORE_ORDER, "the crib-sheet drills come first"
    assert [i for i in ids if i in PITFALLS] == list(PITFALLS)
    kinds = [d.kind for d in drills]
    assert kinds == sorted(kinds, key=["core", "pitfall", "test", "run"].index), "core, pitfall, test, then run drills"
    assert load_drills()[0] is drills[0], "parsing is cached"


KEBAB_CASE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def test_every_drill_id_is_kebab_case_wherever_it_is_named():
    """One spelling of drill ids, the cards' and the mistakes' (policy-loss, fix-gae-direction, test-gae,
    run-01): the drills and their bases, the content folders, the diagnosis corpus, the checker specs and
    the follow-up questions' keys. Python names built from an id (a spec module, a starter file) keep `_`."""
    from cards.plan.followups import load_followups
    from checker.specs import spec_for

    drills = load_drills()
    ids = {d.id for d in drills}
    named = {f"drill {d.id}": d.id for d in drills}
    named.update({f"base of {d.id}": d.base for d in drills if d.base})
    named.update({f"drills/{p.name}/": p.name for p in DRILLS_DIR.iterdir() if p.is_dir() and p.name not in
                  ("_common", "__pycache__")})
    named.update({f"tests/diagnosis/{p.name}/": p.name for p in (ROOT / "tests" / "diagnosis").iterdir() if p.is_dir()})
    named.update({f"spec of {d.id}": spec_for(d.id).drill_id for d in drills if d.kind == "core"})
    named.update({f"followups.yaml stated_by_prompt: {k}": k for k in load_followups().stated_by_prompt})
    bad = {where: drill_id for where, drill_id in named.items() if not KEBAB_CASE.fullmatch(drill_id)}
    assert not bad, f"drill ids must be kebab-case: {bad}"
    assert all(drill_id in ids for drill_id in named.values()), "every id named is a drill's"
    assert all(typed_drill_id(drill_id.replace("-", "_")) == drill_id for drill_id in ids)


def test_loader_stays_light():
    code = ("import sys, drills; drills.load_drills(); "
            "heavy = [m for m in ('torch', 'numpy', 'textual', 'cards', 'checker', 'tui') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("drill_id", CORE_ORDER)
def test_core_drill_metadata(drill_id):
    drill = get_drill(drill_id)
    assert drill.kind == "core" and drill.base is None and drill.mistake_id is None
    assert drill.signature.startswith(SIGNATURES[drill_id])
    expected = {"gae": 10, "policy-loss": 6, "value-loss": 6, "total-loss": 8, "actor-loss": 15}
    assert drill.target_minutes == expected[drill_id]
    assert drill.frameworks == (("torch",) if drill_id == "actor-loss" else ("numpy", "torch"))
    assert len(drill.hints) == 3 and all(drill.hints)
    assert not re.search(r"[\u4e00-\u9fff]", drill.prompt), "prompt.md is English; Chinese goes in prompt.zh.md"
    assert drill.prompt_zh and re.search(r"[\u4e00-\u9fff]", drill.prompt_zh)
    # The Chinese prompt states the same signature and the same worked numbers as the English one.
    assert SIGNATURES[drill_id].split("(")[0] in drill.prompt_zh
    numbers = set(re.findall(r"-?\d+\.\d+", drill.prompt))
    assert numbers == set(re.findall(r"-?\d+\.\d+", drill.prompt_zh)), drill_id


@pytest.mark.parametrize("pitfall_id", list(PITFALLS))
def test_pitfall_drill_metadata(pitfall_id):
    base_id, mistake_id, frameworks = PITFALLS[pitfall_id]
    drill = get_drill(pitfall_id)
    base = get_drill(base_id)
    assert (drill.kind, drill.base, drill.mistake_id, drill.frameworks) == ("pitfall", base_id, mistake_id, frameworks)
    assert 2 <= drill.target_minutes <= 4
    assert drill.prompt.startswith("This code has one bug.")
    assert drill.prompt_zh and drill.prompt_zh.startswith("这段代码有一个 bug。")
    assert drill.function == base.function and drill.signature == base.signature
    assert [m.id for m in drill.mistakes] == [m.id for m in base.mistakes]
    assert set(p.name for p in drill.path.iterdir()) <= {"drill.yaml", "prompt.md", "prompt.zh.md", "hints.md"}
    for fw in frameworks:
        assert drill.starter(fw) == drill.planted_mistake.source(fw)
        assert drill.solution(fw) == base.solution(fw)


def test_pitfalls_cover_the_seed_table():
    rows = {get_drill(p).planted_mistake.pitfall_row for p in PITFALLS}
    assert rows == PITFALL_ROWS_WITH_DRILL


@pytest.mark.parametrize("drill_id", CORE_ORDER)
def test_required_mistakes_exist(drill_id):
    drill = get_drill(drill_id)
    ids = [m.id for m in drill.mistakes]
    assert sorted(ids) == sorted(REQUIRED_MISTAKES[drill_id])
    for mistake in drill.mistakes:
        torch_only = drill_id == "actor-loss" or mistake.id in TORCH_ONLY
        assert mistake.frameworks == (("torch",) if torch_only else ("numpy", "torch")), mistake.id
        assert mistake.drill_id == drill_id


def test_common_mistakes_and_global_ids():
    common = common_mistakes()
    assert set(common) == COMMON_IDS
    assert all(m.folder is None and m.source("numpy") is None for m in common.values())
    everything = all_mistakes()
    shared = shared_misconceptions()
    catalogues = {**REQUIRED_MISTAKES, **REQUIRED_MISTAKES_LLM}
    listed = [m for m in everything.values() if m.drill_id in catalogues or m.drill_id is None]
    # a drill's folder named after a shared misconception holds that one's forms: listed once, as the shared one
    own_ids = {i for ids in catalogues.values() for i in ids}
    assert len(listed) == len(own_ids - set(shared)) + len(shared) + len(COMMON_IDS)
    assert all(everything[i].drill_id is None for i in shared)


def _deck_card_ids() -> set[str]:
    ids: set[str] = set()
    for deck in CARDS_DIR.glob("*.yaml") if CARDS_DIR.is_dir() else []:
        ids.update(re.findall(r"^\s*-?\s*id:\s*([a-z0-9-]+)\s*$", deck.read_text(), flags=re.M))
    return ids


def test_referenced_cards_are_known():
    allowed = KNOWN_CARDS | _deck_card_ids()
    for drill in load_drills():
        assert set(drill.cards) <= allowed, (drill.id, set(drill.cards) - allowed)
        assert drill.cards, drill.id
    for mistake in all_mistakes().values():
        assert mistake.card in allowed, (mistake.id, mistake.card)


def test_mistake_explanations_are_two_or_three_sentences():
    for mistake in all_mistakes().values():
        sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(`])", mistake.explanation) if s]
        assert 2 <= len(sentences) <= 3, (mistake.id, sentences)
        assert len(mistake.title) <= 45, mistake.id


# --------------------------------------------------------------------------------------------------
# Code files: starters, solutions, buggy copies
# --------------------------------------------------------------------------------------------------

def _signature_args(signature: str, function: str) -> tuple[list[str], list]:
    tree = ast.parse(f"def {signature.split(' -> ')[0]}: pass")
    fn = tree.body[0]
    return _args_of(fn)


def _args_of(fn: ast.FunctionDef) -> tuple[list[str], list]:
    names = [a.arg for a in fn.args.args]
    defaults = [ast.literal_eval(d) for d in fn.args.defaults]
    return names, defaults


def _function_def(source: str, name: str) -> ast.FunctionDef:
    tree = ast.parse(source)
    defs = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == name]
    assert len(defs) == 1, f"{name} must be defined once at top level"
    return defs[0]


CORE_FW = [(d, fw) for d in CORE_ORDER for fw in (("torch",) if d == "actor-loss" else ("numpy", "torch"))]


@pytest.mark.parametrize("drill_id,fw", CORE_FW)
def test_starter_has_the_exact_signature_and_is_unfinished(drill_id, fw):
    drill = get_drill(drill_id)
    source = drill.starter(fw)
    fn = _function_def(source, drill.function)
    assert _args_of(fn) == _signature_args(drill.signature, drill.function)
    assert ast.get_docstring(fn), "the starter documents the task"
    function = load_function(source, drill.function, str(drill.starter_path(fw)))
    n_required = len(fn.args.args) - len(fn.args.defaults)
    with pytest.raises(NotImplementedError):
        function(*([None] * n_required))
    assert ("import torch" in source) == (fw == "torch")


@pytest.mark.parametrize("drill_id,fw", CORE_FW)
def test_solution_compiles_with_the_exact_signature(drill_id, fw):
    drill = get_drill(drill_id)
    source = drill.solution(fw)
    fn = _function_def(source, drill.function)
    assert _args_of(fn) == _signature_args(drill.signature, drill.function)
    assert "NotImplementedError" not in source


MISTAKE_FILES = [(d.id, m.id, fw) for d in load_drills() if d.kind == "core" for m in d.mistakes
                 for fw in m.frameworks] if DRILLS_DIR.is_dir() else []
REVEALING = re.compile(r"\b(bug|buggy|wrong|mistake|fixme|todo|xxx|oops|should|model answer|solution)\b", re.I)


@pytest.mark.parametrize("drill_id,mistake_id,fw", MISTAKE_FILES)
def test_mistake_file_is_a_small_edit_of_the_solution(drill_id, mistake_id, fw):
    drill = get_drill(drill_id)
    mistake = _mistake(drill_id, mistake_id)
    solution = drill.solution(fw).splitlines()
    buggy = mistake.source(fw).splitlines()
    diff = [line for line in difflib.unified_diff(solution, buggy, lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    # a line moved elsewhere (statistics measured after the step instead of before) counts once, not twice
    removed, added = Counter(x[1:] for x in diff if x[0] == "-"), Counter(x[1:] for x in diff if x[0] == "+")
    moved = sum(min(n, added[x]) for x, n in removed.items())
    assert 1 <= len(diff) - moved <= 6, diff
    added = [line[1:] for line in diff if line.startswith("+")]
    assert not any("#" in line for line in added), "a planted line must not carry a comment"
    assert not REVEALING.search(mistake.source(fw)), "nothing in a buggy file may hint at the bug"
    fn = _function_def(mistake.source(fw), drill.function)
    assert _args_of(fn) == _signature_args(drill.signature, drill.function)


# --------------------------------------------------------------------------------------------------
# Model solutions on worked examples and hand-computed probes
# --------------------------------------------------------------------------------------------------

def solution_fn(drill_id: str, fw: str):
    drill = get_drill(drill_id)
    return load_function(drill.solution(fw), drill.function, str(drill.solution_path(fw)))


def _mistake(drill_id: str, mistake_id: str):
    """The drill's own catalogued mistake (a shared misconception's id may have a folder in several drills)."""
    return next(m for m in get_drill(drill_id).mistakes if m.id == mistake_id)


def mistake_fn(drill_id: str, mistake_id: str, fw: str):
    mistake = _mistake(drill_id, mistake_id)
    return load_function(mistake.source(fw), get_drill(drill_id).function, str(mistake.path(fw)))


P_GAE = dict(rewards=[1.0, 2.0, 3.0, 4.0], values=[0.5, 0.4, 0.3, 0.2, 0.7], gamma=0.9, lam=0.8)
P_GAE_1 = [5.35288, 6.24011, 6.0696, 4.43]          # notes §3.1, no end
P_GAE_2 = [2.012, 1.6, 6.0696, 4.43]                # notes §3.1, terminated at t = 1


def test_gae_numpy_worked_examples():
    gae = solution_fn("gae", "numpy")
    adv, ret = gae(np.array(P_GAE["rewards"]), np.array(P_GAE["values"]), np.zeros(4), P_GAE["gamma"], P_GAE["lam"])
    np.testing.assert_allclose(adv, P_GAE_1, atol=1e-5)
    np.testing.assert_allclose(ret, np.array(P_GAE_1) + [0.5, 0.4, 0.3, 0.2], atol=1e-5)
    adv, _ = gae(np.array(P_GAE["rewards"]), np.array(P_GAE["values"]), np.array([0.0, 1.0, 0.0, 0.0]), 0.9, 0.8)
    np.testing.assert_allclose(adv, P_GAE_2, atol=1e-5)


def test_gae_torch_batches_the_worked_examples():
    gae = solution_fn("gae", "torch")
    rewards = torch.tensor([P_GAE["rewards"]] * 2, dtype=torch.float64)
    values = torch.tensor([P_GAE["values"]] * 2, dtype=torch.float64)
    dones = torch.tensor([[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]], dtype=torch.float64)
    adv, ret = gae(rewards, values, dones, 0.9, 0.8)
    torch.testing.assert_close(adv, torch.tensor([P_GAE_1, P_GAE_2], dtype=torch.float64), atol=1e-5, rtol=0)
    torch.testing.assert_close(ret, adv + values[:, :4])
    assert adv.shape == (2, 4)


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_gae_lambda_and_gamma_extremes(fw):
    gae = solution_fn("gae", fw)
    r, v, d = [1.0, -2.0, 0.5], [0.3, -0.1, 0.8, 2.0], [0.0, 1.0, 0.0]
    wrap = (lambda x: np.array(x)) if fw == "numpy" else (lambda x: torch.tensor([x], dtype=torch.float64))
    unwrap = (lambda x: np.asarray(x)) if fw == "numpy" else (lambda x: x[0].numpy())
    td = [1.0 + 0.9 * -0.1 - 0.3, -2.0 - (-0.1), 0.5 + 0.9 * 2.0 - 0.8]   # lam = 0: one-step TD errors
    np.testing.assert_allclose(unwrap(gae(wrap(r), wrap(v), wrap(d), 0.9, 0.0)[0]), td, atol=1e-12)
    np.testing.assert_allclose(unwrap(gae(wrap(r), wrap(v), wrap(d), 0.0, 0.95)[0]),
                               [1.0 - 0.3, -2.0 + 0.1, 0.5 - 0.8], atol=1e-12)   # gamma = 0: r - V
    mc = [1.0 - 2.0 - 0.3, -2.0 + 0.1, 0.5 + 2.0 - 0.8]            # gamma = lam = 1: cut at the done
    np.testing.assert_allclose(unwrap(gae(wrap(r), wrap(v), wrap(d), 1.0, 1.0)[0]), mc, atol=1e-12)


POLICY_RATIO = [1.5, 1.5, 0.5, 0.5, 5.0, 1.0]
POLICY_ADV = [1.0, -1.0, 1.0, -1.0, -1.0, 2.0]


def test_policy_loss_numpy_probe():
    loss = solution_fn("policy-loss", "numpy")
    out = loss(np.log(POLICY_RATIO), np.zeros(6), np.array(POLICY_ADV), 0.2)
    assert np.ndim(out) == 0 and math.isclose(float(out), 0.6, abs_tol=1e-12)   # notes §3.3


def test_policy_loss_torch_probe_and_gradients():
    loss_fn = solution_fn("policy-loss", "torch")
    new = torch.log(torch.tensor([POLICY_RATIO], dtype=torch.float64)).requires_grad_()
    old = torch.zeros(1, 6, dtype=torch.float64, requires_grad=True)
    adv = torch.tensor([POLICY_ADV], dtype=torch.float64, requires_grad=True)
    loss = loss_fn(new, old, adv, 0.2)
    assert loss.shape == () and math.isclose(loss.item(), 0.6, abs_tol=1e-12)
    loss.backward()
    assert old.grad is None and adv.grad is None
    # d loss / d new_logp = -r A / N where the unclipped branch is active, 0 where the clip holds.
    expected = [0.0, 1.5 / 6, -0.5 / 6, 0.0, 5.0 / 6, -2.0 / 6]
    torch.testing.assert_close(new.grad, torch.tensor([expected], dtype=torch.float64))


def test_policy_loss_stays_finite_where_exp_underflows():
    new = np.array([-1000.0, -1000.5, -999.0])
    old = np.array([-1000.0, -1000.0, -1000.0])
    adv = np.array([1.0, -1.0, 0.5])
    # ratios 1, e^-0.5 (below the band, A < 0: clipped to 0.8), e (above the band, A > 0: clipped to 1.2)
    expected = -np.mean([1.0, -0.8, 0.5 * 1.2])
    out = solution_fn("policy-loss", "numpy")(new, old, adv)
    assert math.isclose(float(out), expected, rel_tol=1e-12)
    out_t = solution_fn("policy-loss", "torch")(*(torch.from_numpy(x[None]) for x in (new, old, adv)))
    assert math.isclose(out_t.item(), expected, rel_tol=1e-12)


def test_value_loss_probe_and_gradients():
    out = solution_fn("value-loss", "numpy")(np.array([1.0, 1.0]), np.zeros(2), np.array([2.0, 0.5]), 0.2)
    assert math.isclose(float(out), 0.8725, abs_tol=1e-12)                       # notes §3.4
    values = torch.tensor([[1.0, 1.0]], dtype=torch.float64, requires_grad=True)
    old = torch.zeros(1, 2, dtype=torch.float64, requires_grad=True)
    ret = torch.tensor([[2.0, 0.5]], dtype=torch.float64, requires_grad=True)
    loss = solution_fn("value-loss", "torch")(values, old, ret, 0.2)
    assert math.isclose(loss.item(), 0.8725, abs_tol=1e-12)
    loss.backward()
    assert old.grad is None and ret.grad is None
    # Element 0: the clipped error wins (V_clip = 0.2 is constant in V), so no gradient; element 1:
    # the unclipped error wins, gradient 0.5 * 2 * (1 - 0.5) / 2.
    torch.testing.assert_close(values.grad, torch.tensor([[0.0, 0.25]], dtype=torch.float64))


TOTAL_INPUTS = dict(
    new_logp=np.log(POLICY_RATIO), old_logp=np.zeros(6), advantages=np.array(POLICY_ADV),
    values=np.array([1.0, 1.0, 0.0, 0.0, 0.3, -0.2]), old_values=np.array([0.0, 0.0, 0.0, 0.0, 0.5, 0.0]),
    returns=np.array([2.0, 0.5, 0.0, 0.0, 0.0, 0.1]), entropy=np.array([1.0, 0.5, 1.5, 1.0, 0.2, 0.8]),
)
# Hand computation: policy 0.6 (notes §3.3); per-sample value errors max(unclipped, clipped) =
# [3.24, 0.25, 0, 0, 0.09, 0.09] -> value 0.5 * 3.67 / 6; mean entropy 5.0 / 6.
TOTAL_EXPECTED = 0.6 + 0.5 * (0.5 * 3.67 / 6) - 0.01 * (5.0 / 6)


def test_total_loss_probe_and_composition():
    total = solution_fn("total-loss", "numpy")(**TOTAL_INPUTS)
    assert math.isclose(float(total), TOTAL_EXPECTED, abs_tol=1e-12)
    policy = solution_fn("policy-loss", "numpy")(TOTAL_INPUTS["new_logp"], TOTAL_INPUTS["old_logp"],
                                                 TOTAL_INPUTS["advantages"], 0.1)
    value = solution_fn("value-loss", "numpy")(TOTAL_INPUTS["values"], TOTAL_INPUTS["old_values"],
                                               TOTAL_INPUTS["returns"], 0.1)
    other = solution_fn("total-loss", "numpy")(**TOTAL_INPUTS, clip_eps=0.1, vf_coef=0.7, ent_coef=0.05)
    assert math.isclose(float(other), policy + 0.7 * value - 0.05 * TOTAL_INPUTS["entropy"].mean(), abs_tol=1e-12)


def test_total_loss_torch_gradients():
    inputs = {k: torch.from_numpy(v[None].copy()).requires_grad_() for k, v in TOTAL_INPUTS.items()}
    total = solution_fn("total-loss", "torch")(**inputs)
    assert total.shape == () and math.isclose(total.item(), TOTAL_EXPECTED, abs_tol=1e-12)
    total.backward()
    for name in ("old_logp", "advantages", "old_values", "returns"):
        assert inputs[name].grad is None, name
    torch.testing.assert_close(inputs["entropy"].grad, torch.full((1, 6), -0.01 / 6, dtype=torch.float64))


# The worked example of the total-loss prompt, recomputed: by the model answers (both frameworks), by
# the reference core, and by hand from its parts, so a typo in the prompt fails here.
TOTAL_EXAMPLE = dict(
    new_logp=np.log([1.5, 0.5]), old_logp=np.zeros(2), advantages=np.array([1.0, -1.0]),
    values=np.array([1.0, 1.0]), old_values=np.zeros(2), returns=np.array([2.0, 0.5]),
    entropy=np.array([0.5, 1.5]),
)
TOTAL_EXAMPLE_PARTS = {"policy_loss = -0.2": -0.2, "= 0.8725": 0.8725, "= 0.22625": 0.22625}


def test_total_loss_prompt_worked_example():
    from checker.reference import policy_loss, total_loss, value_loss

    ex = {k: torch.from_numpy(v) for k, v in TOTAL_EXAMPLE.items()}
    policy = policy_loss(ex["new_logp"], ex["old_logp"], ex["advantages"], clip_low=0.2, clip_high=0.2)
    policy = policy[0] if isinstance(policy, tuple) else policy
    value = value_loss(ex["values"], ex["old_values"], ex["returns"], clip=0.2)
    value = value[0] if isinstance(value, tuple) else value
    total = total_loss(policy, value, ex["entropy"])
    for got, want in ((policy, -0.2), (value, 0.8725), (total, 0.22625)):
        assert math.isclose(float(got), want, abs_tol=1e-12), (float(got), want)
    assert math.isclose(-0.2 + 0.5 * 0.8725 - 0.01 * 1.0, 0.22625, abs_tol=1e-12)
    assert math.isclose(float(solution_fn("total-loss", "numpy")(**TOTAL_EXAMPLE)), 0.22625, abs_tol=1e-12)
    batched = {k: torch.from_numpy(v[None].copy()) for k, v in TOTAL_EXAMPLE.items()}
    assert math.isclose(solution_fn("total-loss", "torch")(**batched).item(), 0.22625, abs_tol=1e-12)
    drill = get_drill("total-loss")
    for text in (drill.prompt, drill.prompt_zh):
        for written in TOTAL_EXAMPLE_PARTS:
            assert written in text, f"the total-loss prompt must state {written!r}"
        assert "ratio = [1.5, 0.5]" in text and "entropy = [0.5, 1.5]" in text


# Users do not have the source documents: no prompt or hint may ask about "the chapter", "the lesson"
# or "seed 003"; it states its setting itself.
POINTS_AT_A_DOCUMENT = re.compile(
    r"seed|the chapter|the lesson|the tutorial|crib[- ]sheet|chapter \d|exercise \d"
    r"|本章|章节|第\s*\d+\s*章|课程|教程|速记表|练习\s*\d|eq\. ?\(?8\.\d|式 ?\(?8\.\d", re.IGNORECASE)


@pytest.mark.parametrize("drill_id", CORE_ORDER + list(PITFALLS))
def test_prompts_and_hints_stand_on_their_own(drill_id):
    drill = get_drill(drill_id)
    texts = {"prompt.md": drill.prompt, "prompt.zh.md": drill.prompt_zh or "", "title": drill.title}
    texts.update({f"hint {i + 1}": hint for i, hint in enumerate(drill.hints)})
    bad = [f"{where}: {m.group(0)!r}" for where, text in texts.items() for m in POINTS_AT_A_DOCUMENT.finditer(text)]
    assert not bad, f"{drill_id} points at documents the user does not have: {bad}"


def test_mistake_texts_stand_on_their_own():
    """A diagnosis is shown to the user: its title and explanation follow the same rule."""
    bad = [f"{mid}: {m.group(0)!r}" for mid, mistake in all_mistakes().items()
           for text in (mistake.title, mistake.explanation) for m in POINTS_AT_A_DOCUMENT.finditer(text)]
    assert not bad, f"mistake texts point at documents the user does not have: {bad}"


@pytest.mark.parametrize("drill_id", CORE_ORDER)
def test_chinese_prompt_title_is_chinese(drill_id):
    title = (get_drill(drill_id).prompt_zh or "").splitlines()[0]
    assert title.startswith("# ") and re.search(r"[\u4e00-\u9fff]", title), f"{drill_id}: {title!r}"


def _actor_case():
    """The actor-loss test case with one padded token (new, old, advantage, mask)."""
    new = torch.tensor([[-2.0, -1.5], [-1.0, -0.5]], requires_grad=True)
    old = torch.tensor([[-2.1, -1.4], [-1.0, -0.6]], requires_grad=True)
    advantage = torch.tensor([[1.0, 0.5], [-1.0, -0.5]], requires_grad=True)
    mask = torch.tensor([[True, False], [True, True]])
    return new, old, advantage, mask


def test_actor_loss_seed_003_tests():
    actor = solution_fn("actor-loss", "torch")
    new, old, advantage, mask = _actor_case()
    loss, metrics = actor(new, old, advantage, mask, clip_range=0.2)
    ratio = torch.exp(new - old.detach())
    targets = torch.minimum(ratio * advantage.detach(), torch.clamp(ratio, 0.8, 1.2) * advantage.detach())
    assert torch.allclose(loss, -targets[mask].mean())
    assert metrics["valid_tokens"] == 3 and isinstance(metrics["valid_tokens"], int)
    loss.backward()
    assert new.grad is not None and torch.isfinite(new.grad).all()
    assert old.grad is None and advantage.grad is None

    high = actor(torch.tensor([[2.0]]).log(), torch.zeros(1, 1), torch.ones(1, 1))[0]
    low = actor(torch.tensor([[0.5]]).log(), torch.zeros(1, 1), -torch.ones(1, 1))[0]
    assert torch.allclose(high, torch.tensor(-1.2)) and torch.allclose(low, torch.tensor(0.8))

    zeros = torch.zeros(2, 2)
    adv = torch.tensor([[1.0, 1.0], [3.0, 0.0]])
    pad = torch.tensor([[True, True], [True, False]])
    token_loss, metrics = actor(zeros, zeros, adv, pad, reduction="token_mean")
    sequence_loss, _ = actor(zeros, zeros, adv, pad, reduction="sequence_mean")
    assert torch.allclose(token_loss, torch.tensor(-5.0 / 3.0))
    assert torch.allclose(sequence_loss, torch.tensor(-2.0))
    assert metrics["approx_kl"] == 0.0 and metrics["clip_fraction"] == 0.0


def test_actor_loss_metrics_by_hand():
    actor = solution_fn("actor-loss", "torch")
    ratio = torch.tensor([[1.5, 0.5, 1.1, 9.0]], dtype=torch.float64)
    mask = torch.tensor([[True, True, True, False]])
    _, metrics = actor(ratio.log(), torch.zeros(1, 4, dtype=torch.float64), torch.ones(1, 4, dtype=torch.float64), mask)
    k3 = [(r - 1) - math.log(r) for r in (1.5, 0.5, 1.1)]
    assert math.isclose(metrics["approx_kl"], sum(k3) / 3, rel_tol=1e-12)
    assert math.isclose(metrics["clip_fraction"], 2 / 3, rel_tol=1e-6)   # a float32 mean, as in seed 003


ACTOR_INVALID = {
    "shape mismatch": lambda: (torch.zeros(1, 2), torch.zeros(1, 1), torch.zeros(1, 2)),
    "empty": lambda: (torch.empty(0, 2), torch.empty(0, 2), torch.empty(0, 2)),
    "not 2-D": lambda: (torch.zeros(3), torch.zeros(3), torch.zeros(3)),
    "nan": lambda: (torch.tensor([[float("nan")]]), torch.zeros(1, 1), torch.ones(1, 1)),
    "inf advantage": lambda: (torch.zeros(1, 1), torch.zeros(1, 1), torch.tensor([[float("inf")]])),
    "float mask": lambda: (torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), torch.ones(1, 1)),
    "empty row": lambda: (torch.zeros(2, 2), torch.zeros(2, 2), torch.ones(2, 2),
                          torch.tensor([[True, False], [False, False]])),
    "infinite clip": lambda: (torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), None, float("inf")),
    "negative clip": lambda: (torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), None, -0.1),
    "unknown reduction": lambda: (torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), None, 0.2, "sum"),
}


@pytest.mark.parametrize("case", list(ACTOR_INVALID))
def test_actor_loss_input_contract(case):
    actor = solution_fn("actor-loss", "torch")
    with pytest.raises(ValueError):
        actor(*ACTOR_INVALID[case]())


# --------------------------------------------------------------------------------------------------
# Every buggy copy differs from the solution on at least one probe
# --------------------------------------------------------------------------------------------------

def _to_fw(x, fw):
    """A probe list as a NumPy [T] array or a PyTorch [1, T] tensor; scalars pass through."""
    if isinstance(x, list):
        return np.array(x, dtype=float) if fw == "numpy" else torch.tensor([x], dtype=torch.float64)
    return x


def _probes(drill_id: str) -> list[dict]:
    """Framework-neutral inputs (lists are [T] in NumPy and [1, T] in PyTorch)."""
    if drill_id == "gae":
        base = dict(rewards=P_GAE["rewards"], values=P_GAE["values"], gamma=0.9, lam=0.8)
        return [dict(base, dones=[0.0, 0.0, 0.0, 0.0]), dict(base, dones=[0.0, 1.0, 0.0, 0.0])]
    if drill_id == "policy-loss":
        base = dict(new_logp=list(np.log(POLICY_RATIO)), old_logp=[0.0] * 6, advantages=POLICY_ADV)
        return [dict(base, clip_eps=0.2), dict(base, clip_eps=0.1)]
    if drill_id == "value-loss":
        return [dict(values=[1.0, 1.0], old_values=[0.0, 0.0], returns=[2.0, 0.5], clip_eps=0.2),
                dict(values=[1.5, 0.5, -1.0], old_values=[1.0, 1.0, -0.5], returns=[2.0, 0.0, -2.0], clip_eps=0.2)]
    if drill_id == "total-loss":
        return [{k: list(v) for k, v in TOTAL_INPUTS.items()}]
    raise AssertionError(drill_id)


def _outputs_differ(a, b) -> bool:
    if isinstance(a, tuple):
        return any(_outputs_differ(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return any(_outputs_differ(a[k], b[k]) for k in a)
    a = np.asarray(a.detach() if isinstance(a, torch.Tensor) else a, dtype=float)
    b = np.asarray(b.detach() if isinstance(b, torch.Tensor) else b, dtype=float)
    return a.shape != b.shape or not np.allclose(a, b, rtol=1e-9, atol=1e-12)


def _grad_leaks(fn, inputs: dict, constants: tuple[str, ...]) -> bool:
    tensors = {k: (v.clone().requires_grad_() if isinstance(v, torch.Tensor) else v) for k, v in inputs.items()}
    out = fn(**tensors)
    (out[0] if isinstance(out, tuple) else out).backward()
    return any(tensors[name].grad is not None for name in constants)


NUMERIC_MISTAKES = [(d, m, fw) for d, m, fw in MISTAKE_FILES
                    if d in ("gae", "policy-loss", "value-loss", "total-loss") and m not in TORCH_ONLY]


@pytest.mark.parametrize("drill_id,mistake_id,fw", NUMERIC_MISTAKES)
def test_buggy_copy_differs_on_a_probe(drill_id, mistake_id, fw):
    good, bad = solution_fn(drill_id, fw), mistake_fn(drill_id, mistake_id, fw)
    differs = []
    with np.errstate(all="ignore"):
        for probe in _probes(drill_id):
            inputs = {k: _to_fw(v, fw) for k, v in probe.items()}
            differs.append(_outputs_differ(good(**inputs), bad(**inputs)))
    if mistake_id == "ratio-division":
        assert not any(differs), "ratio-division agrees with the solution on ordinary log-probs"
        inputs = {k: _to_fw(v, fw) for k, v in
                  dict(new_logp=[-1000.0, -1000.5], old_logp=[-1000.0, -1000.2], advantages=[1.0, -1.0]).items()}
        with np.errstate(all="ignore"):
            out = bad(**inputs)
        assert not np.isfinite(float(out)) and np.isfinite(float(good(**inputs)))
    else:
        assert any(differs), f"{mistake_id} behaves like the solution on every probe"


@pytest.mark.parametrize("mistake_id,drill_id,constant", [
    ("grad-into-old-logp", "policy-loss", "old_logp"),
    ("grad-into-advantages", "policy-loss", "advantages"),
    ("grad-into-old-values", "value-loss", "old_values"),
])
def test_buggy_copy_leaks_gradient(mistake_id, drill_id, constant):
    probe = {k: _to_fw(v, "torch") for k, v in _probes(drill_id)[0].items()}
    good, bad = solution_fn(drill_id, "torch"), mistake_fn(drill_id, mistake_id, "torch")
    assert not _outputs_differ(good(**probe), bad(**probe)), "the value must stay right"
    assert not _grad_leaks(good, probe, (constant,))
    assert _grad_leaks(bad, probe, (constant,))


def _actor_probes() -> list[tuple]:
    new, old, adv, mask = _actor_case()
    below = (torch.tensor([[0.5, 1.0, 1.3]]).log(), torch.zeros(1, 3), torch.tensor([[1.0, -1.0, 2.0]]),
             torch.tensor([[True, True, True]]))
    return [
        (new.detach(), old.detach(), adv.detach(), mask, 0.2, "token_mean"),
        (new.detach(), old.detach(), adv.detach(), mask, 0.2, "sequence_mean"),
        (torch.zeros(2, 2), torch.zeros(2, 2), torch.tensor([[1.0, 1.0], [3.0, 0.0]]),
         torch.tensor([[True, True], [True, False]]), 0.2, "token_mean"),
        (*below, 0.2, "token_mean"),
        # a padded ratio whose product with A overflows: x * mask turns it into NaN
        (torch.tensor([[-1.0, 0.0]], dtype=torch.float64), torch.tensor([[-1.2, -709.0]], dtype=torch.float64),
         torch.tensor([[1.0, -3.0]], dtype=torch.float64), torch.tensor([[True, False]]), 0.2, "token_mean"),
    ]


@pytest.mark.parametrize("mistake_id", REQUIRED_MISTAKES["actor-loss"])
def test_actor_buggy_copy_differs_on_a_probe(mistake_id):
    good, bad = solution_fn("actor-loss", "torch"), mistake_fn("actor-loss", mistake_id, "torch")
    assert any(_outputs_differ(good(*probe), bad(*probe)) for probe in _actor_probes()), mistake_id


@pytest.mark.parametrize("pitfall_id", [p for p, (_, _, fws) in PITFALLS.items()])
def test_pitfall_starter_is_the_catalogued_bug(pitfall_id):
    drill = get_drill(pitfall_id)
    for fw in drill.frameworks:
        assert drill.starter_path(fw) == drill.planted_mistake.path(fw)
        assert drill.starter(fw) != drill.solution(fw)


# --------------------------------------------------------------------------------------------------
# Model solutions agree with the reference PPO core on random inputs and edge cases
# --------------------------------------------------------------------------------------------------

def _reference():
    return pytest.importorskip("checker.reference")


def _gae_cases(rng):
    cases = [(1, [0.0]), (1, [1.0]), (4, [1.0, 0.0, 0.0, 1.0]), (5, [0.0, 1.0, 1.0, 0.0, 0.0])]
    cases += [(t, list((rng.random(t) < 0.3).astype(float))) for t in (3, 7, 12)]
    for T, dones in cases:
        for gamma, lam in ((0.99, 0.95), (0.0, 0.5), (1.0, 1.0), (0.9, 0.0)):
            yield rng.normal(size=T), rng.normal(size=T + 1), np.array(dones), gamma, lam


def test_gae_solutions_match_reference():
    ref = _reference()
    rng = np.random.default_rng(3)
    np_gae, t_gae = solution_fn("gae", "numpy"), solution_fn("gae", "torch")
    for rewards, values, dones, gamma, lam in _gae_cases(rng):
        want_adv, want_ret = ref.gae(rewards, values, dones, gamma, lam)
        adv, ret = np_gae(rewards, values, dones, gamma, lam)
        np.testing.assert_allclose(adv, want_adv.numpy(), atol=1e-10)
        np.testing.assert_allclose(ret, want_ret.numpy(), atol=1e-10)
        batch = [torch.from_numpy(np.stack([x, x[::-1].copy()])) for x in (rewards, values, dones)]
        adv_t, ret_t = t_gae(*batch, gamma, lam)
        want_t, want_rt = ref.gae(*batch, gamma, lam)
        torch.testing.assert_close(adv_t, want_t)
        torch.testing.assert_close(ret_t, want_rt)


def _loss_cases(rng):
    for size in (1, 5, 16):
        log_ratio = rng.normal(scale=0.4, size=size)
        old = rng.normal(loc=-2.0, size=size)
        yield old + log_ratio, old, rng.normal(size=size), rng.normal(size=size), rng.normal(size=size), \
            rng.normal(size=size), rng.random(size)


def test_loss_solutions_match_reference():
    ref = _reference()
    rng = np.random.default_rng(5)
    for fw in ("numpy", "torch"):
        policy, value = solution_fn("policy-loss", fw), solution_fn("value-loss", fw)
        total = solution_fn("total-loss", fw)
        for new, old, adv, v, v_old, ret, ent in _loss_cases(rng):
            for eps in (0.1, 0.2):
                args = [torch.from_numpy(x[None]) if fw == "torch" else x for x in (new, old, adv, v, v_old, ret, ent)]
                want_p, _ = ref.policy_loss(new, old, adv, clip_low=eps)
                want_v = ref.value_loss(v, v_old, ret, clip=eps)
                want_total = ref.total_loss(want_p, want_v, ent, vf_coef=0.5, ent_coef=0.01)
                assert math.isclose(float(policy(*args[:3], eps)), want_p.item(), rel_tol=1e-9, abs_tol=1e-12)
                assert math.isclose(float(value(*args[3:6], eps)), want_v.item(), rel_tol=1e-9, abs_tol=1e-12)
                assert math.isclose(float(total(*args, clip_eps=eps)), want_total.item(), rel_tol=1e-9, abs_tol=1e-12)


def test_actor_solution_matches_reference():
    ref = _reference()
    actor = solution_fn("actor-loss", "torch")
    gen = torch.Generator().manual_seed(7)
    for batch, seq in ((1, 1), (3, 5), (4, 9)):
        old = torch.randn(batch, seq, generator=gen, dtype=torch.float64) - 2.0
        new = old + 0.3 * torch.randn(batch, seq, generator=gen, dtype=torch.float64)
        adv = torch.randn(batch, seq, generator=gen, dtype=torch.float64)
        lengths = torch.randint(1, seq + 1, (batch,), generator=gen)
        mask = torch.arange(seq)[None, :] < lengths[:, None]
        for reduction in ("token_mean", "sequence_mean"):
            for clip in (0.1, 0.2):
                loss, metrics = actor(new, old, adv, mask, clip, reduction)
                want, want_metrics = ref.compute_actor_loss(new, old, adv, mask, clip, reduction)
                torch.testing.assert_close(loss, want)
                assert metrics["valid_tokens"] == want_metrics["valid_tokens"]
                assert math.isclose(metrics["approx_kl"], want_metrics["approx_kl"], rel_tol=1e-9, abs_tol=1e-12)
                assert math.isclose(metrics["clip_fraction"], want_metrics["clip_fraction"], rel_tol=1e-6)


def test_author_command_validates_and_lists(toy, capsys):
    from drills.__main__ import main

    assert main([str(toy)]) == 0
    out = capsys.readouterr().out
    assert "fix-toy" in out and "toy-triple" in out and "common: output-type" in out
    edit(toy, "toy/drill.yaml", "difficulty: easy", "difficulty: trivial")
    clear_cache()
    assert main([str(toy)]) == 1
    assert "drills/toy/drill.yaml: field 'difficulty': must be one of easy, medium, hard" in capsys.readouterr().err


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_total_solution_repeats_the_policy_and_value_lines(fw):
    """docs/drills.md promises this, so a policy or value mistake's line edit also applies to the total."""
    total = get_drill("total-loss").solution(fw).splitlines()
    for part in ("policy-loss", "value-loss"):
        fn = _function_def(get_drill(part).solution(fw), get_drill(part).function)
        body = get_drill(part).solution(fw).splitlines()[fn.body[1].lineno - 1:fn.end_lineno]
        for line in body:
            if line.strip() and not line.strip().startswith("return"):
                assert line in total, f"{part} line missing from total-loss/solution/{fw}.py: {line!r}"


@pytest.mark.parametrize("pitfall_id", list(PITFALLS))
def test_pitfall_first_hint_does_not_give_the_fix(pitfall_id):
    """Hint 1 is a nudge: it must not quote the solution line that the planted mistake replaced."""
    drill = get_drill(pitfall_id)
    for fw in drill.frameworks:
        solution, buggy = drill.solution(fw).splitlines(), drill.starter(fw).splitlines()
        fixed = [line.strip() for line in solution if line not in buggy and line.strip()
                 and not line.strip().startswith("#")]
        assert fixed, "the planted mistake changes at least one code line"
        for line in fixed:
            assert line not in drill.hints[0], (fw, line)


def test_non_string_values_are_content_errors_not_crashes(toy):
    edit(toy, "fix-toy/drill.yaml", "base: toy", "base: [toy]")
    assert "drills/fix-toy/drill.yaml: field 'base': must be a core drill id" in str(broken(toy))


def test_common_mistakes_are_strict(toy):
    edit(toy, "_common/mistakes.yaml", "  card: ppo-clipped-objective\n", "  card: ppo-clipped-objective\n  pitfall_row: min-max\n")
    assert str(broken(toy)).startswith("drills/_common/mistakes.yaml: field 'pitfall_row': unknown key")


def test_empty_yaml_is_a_content_error(toy):
    (toy / "toy/mistakes/toy-triple/mistake.yaml").write_text("")
    assert str(broken(toy)) == "drills/toy/mistakes/toy-triple/mistake.yaml: the file must be a YAML mapping of keys to values"


# Code the user reads (a starter, the model answer shown after a drill) follows the same rule; "seed"
# alone is a word code uses (torch.manual_seed), so only a numbered source document is looked for.
CODE_POINTS_AT_A_DOCUMENT = re.compile(
    r"seed \d{3}|the chapter|the lesson|the tutorial|crib[- ]sheet|本章|课程|教程|速记表", re.IGNORECASE)


@pytest.mark.parametrize("drill_id", [d.id for d in load_drills()])
def test_starters_and_model_answers_stand_on_their_own(drill_id):
    drill = get_drill(drill_id)
    bad = []
    for fw in drill.frameworks:
        for where, text in (("starter", drill.starter(fw)), ("model answer", drill.solution(fw))):
            bad += [f"{where} ({fw}): {m.group(0)!r}" for m in CODE_POINTS_AT_A_DOCUMENT.finditer(text or "")]
    assert not bad, f"{drill_id} points at documents the user does not have: {bad}"
