"""What a candidate reads: errors classified and pointed at their line, output problems with their own
messages, property sentences, small counterexamples, and a verdict nothing in the answer can forge."""
from __future__ import annotations

import numpy as np
import pytest

from checker.detect import DetectError, detect
from checker.engine import Checker
from tests.warm_checker import check
from drills import get_drill

GAE_HEAD = "import numpy as np\n\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):\n"


def test_syntax_error_points_at_the_line():
    report = check(GAE_HEAD + "    return (\n", "gae", "numpy")
    assert not report.passed and report.error.kind == "syntax" and report.error.line in (4, 5)


def test_missing_function_is_named():
    report = check("import numpy as np\n\ndef gae(r, v, d):\n    return r, r\n", "gae", "numpy")
    assert report.error.kind == "missing-function"
    assert "compute_gae" in report.error.message


def test_wrong_signature_says_what_is_expected():
    src = "import numpy as np\n\ndef compute_gae(rewards, values, dones, discount=0.99):\n    return rewards, rewards\n"
    report = check(src, "gae", "numpy")
    assert report.error.kind == "signature"
    assert "'gamma'" in report.error.message
    assert "must take (rewards, values, dones, gamma=0.99, lam=0.95)" in report.error.message


@pytest.mark.parametrize("signature", ["r, v, d", "r, v, d, gamma=0.99, lam=0.95"])
def test_parameters_named_unlike_the_prompt_are_told_to_use_the_prompts_names(signature):
    """`compute_gae(r, v, d)`: the message says plainly that the parameters must be named as in the
    prompt (the settings are passed by name, the inputs followed by name), not "yours also requires r"."""
    src = f"import numpy as np\n\ndef compute_gae({signature}):\n    return r, r\n"
    report = check(src, "gae", "numpy")
    assert report.error.kind == "signature"
    message = report.error.message
    assert message.startswith("compute_gae must take (rewards, values, dones, gamma=0.99, lam=0.95); yours")
    assert "(r, v, d" in message and "also requires" not in message
    assert message.endswith("so name every parameter as the prompt does")


def test_exception_points_at_the_candidates_line_and_the_input():
    src = GAE_HEAD + "    x = 1\n    return values[len(values) + 5], 0\n"
    report = check(src, "gae", "numpy")
    assert report.error.kind == "exception" and report.error.line == 5
    assert "IndexError" in report.error.message and "while running on " in report.error.message
    assert "edge:" not in report.error.message, "the input is named as the user reads it"


def test_returning_none_is_an_output_type_problem():
    report = check(GAE_HEAD + "    return None\n", "gae", "numpy")
    failed = {c.id: c for c in report.checks if not c.passed}
    assert "output-type" in failed and "pair" in failed["output-type"].message
    assert "output-type" in report.mistake_ids


def test_unreduced_loss_is_an_output_shape_problem():
    src = ("import numpy as np\n\ndef ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):\n"
           "    r = np.exp(new_logp - old_logp)\n"
           "    return -np.minimum(r * advantages, np.clip(r, 1 - clip_eps, 1 + clip_eps) * advantages)\n")
    report = check(src, "policy-loss", "numpy")
    failed = {c.id: c.message for c in report.checks if not c.passed}
    assert "output-shape" in failed and "mean" in failed["output-shape"]


def test_numpy_answer_may_return_a_float_or_a_zero_d_array():
    body = ("    r = np.exp(new_logp - old_logp)\n"
            "    v = -np.minimum(r * advantages, np.clip(r, 1 - clip_eps, 1 + clip_eps) * advantages).mean()\n")
    head = "import numpy as np\n\ndef ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):\n"
    assert check(head + body + "    return float(v)\n", "policy-loss", "numpy").passed
    assert check(head + body + "    return np.array(v)\n", "policy-loss", "numpy").passed


def test_torch_answer_returning_a_python_float_is_told_to_return_a_tensor():
    src = ("import torch\n\ndef ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):\n"
           "    r = torch.exp(new_logp - old_logp.detach())\n"
           "    a = advantages.detach()\n"
           "    return float(-torch.min(r * a, r.clamp(1 - clip_eps, 1 + clip_eps) * a).mean())\n")
    report = check(src, "policy-loss", "torch")
    failed = {c.id: c.message for c in report.checks if not c.passed}
    assert "tensor" in failed["output-type"]


def test_forward_scan_gets_the_recursion_sentence_and_a_small_counterexample():
    m = next(m for m in get_drill("gae").mistakes if m.id == "gae-forward-scan")
    report = check(m.source("numpy"), "gae", "numpy")
    failed = [c for c in report.checks if not c.passed]
    assert failed[0].id == "backward-recursion"
    assert "from the last step backwards" in failed[0].message and "t = " in failed[0].message
    cx = report.counterexample
    assert cx.check == "backward-recursion" and len(cx.inputs["rewards"]) <= 3
    assert cx.expected["advantages"] is not None and cx.got["advantages"] is not None
    assert report.mistake_ids == ["gae-forward-scan"]


def test_counterexample_tables_show_integer_inputs_as_integers():
    """Token ids are shown as written, floats with their decimal point, masks as T/F."""
    from checker.report import fmt

    assert fmt(np.array([[1, 2]], dtype=np.int64)) == "[[1, 2]]"
    assert fmt(np.array([1.0, 0.5])) == "[1.0, 0.5]" and fmt([True, False]) == "[T, F]" and fmt(3) == "3"
    m = next(m for m in get_drill("token-logprobs").mistakes if m.id == "logprob-no-shift")
    text = check(m.source("numpy"), "token-logprobs", "numpy").render()
    ids = next(line for line in text.splitlines() if line.strip().startswith("input_ids"))
    assert "." not in ids.split("input_ids", 1)[1], ids
    # a count among the outputs (compared as a float) is shown as the count it is
    m = next(m for m in get_drill("actor-loss").mistakes if m.id == "mask-ignored")
    cx = check(m.source("torch"), "actor-loss", "torch").counterexample
    assert type(cx.expected["valid_tokens"]) is int and type(cx.got["valid_tokens"]) is int


def test_lam_zero_sentence_names_the_step():
    m = next(m for m in get_drill("gae").mistakes if m.id == "gae-done-bootstrap")
    report = check(m.source("numpy"), "gae", "numpy")
    msg = next(c.message for c in report.checks if c.id == "lam-zero-td-error")
    assert msg.startswith("With lam = 0 GAE must equal the one-step TD error") and "t = " in msg


def test_verdict_is_computed_outside_the_candidates_reach():
    """An answer that patches numpy and torch comparison functions in its own process still fails."""
    src = ("import numpy as np\nimport torch\n"
           "np.allclose = lambda *a, **k: True\nnp.isclose = lambda a, b, *x, **k: np.ones(np.shape(a), bool)\n"
           "torch.allclose = lambda *a, **k: True\ntorch.clamp = lambda x, *a, **k: x\n\n"
           "def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):\n"
           "    return -(np.exp(new_logp - old_logp) * advantages).mean()\n")
    report = check(src, "policy-loss", "numpy")
    assert not report.passed and "policy-no-clip" in report.mistake_ids


def test_json_report_has_the_documented_keys():
    report = check(get_drill("value-loss").solution("numpy"), "value-loss", "numpy").to_json()
    assert {"drill", "framework", "passed", "checks", "diagnoses", "counterexample", "error",
            "elapsed_ms"} <= set(report)
    assert all(set(c) == {"id", "passed", "message", "title"} for c in report["checks"])


def test_same_seed_same_verdict_and_counterexample():
    m = next(m for m in get_drill("policy-loss").mistakes if m.id == "policy-clip-advantage")
    a = check(m.source("numpy"), "policy-loss", "numpy", seed=3).to_json()
    b = check(m.source("numpy"), "policy-loss", "numpy", seed=3).to_json()
    assert a["counterexample"] == b["counterexample"] and a["checks"] == b["checks"]


@pytest.mark.parametrize("source, expected", [
    ("import numpy as np\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95): pass", ("gae", "numpy")),
    ("import torch\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95): pass", ("gae", "torch")),
    ("import torch\ndef compute_actor_loss(a, b, c): pass", ("actor-loss", "torch")),
    ("def ppo_value_loss(values, old_values, returns, clip_eps=0.2): pass", ("value-loss", "numpy")),
    ("import torch\ndef ppo_total_loss(x:\n", ("total-loss", "torch")),  # syntax error still detected
])
def test_drill_and_framework_are_inferred(source, expected):
    assert detect(source) == expected


def test_detection_failures_are_usage_errors():
    with pytest.raises(DetectError, match="no drill function"):
        detect("def foo(): pass")
    with pytest.raises(DetectError, match="no numpy version"):
        detect("def compute_actor_loss(): pass", framework="numpy")
    with pytest.raises(DetectError, match="unknown drill"):
        detect("", drill="nope")


KEPT_WARM = [("gae", "numpy", None), ("gae", "numpy", "gae-forward-scan"), ("actor-loss", "torch", None),
             ("actor-loss", "torch", "mask-ignored"), ("token-gae", "numpy", None)]


@pytest.mark.parametrize("parts", [1, 2])
@pytest.mark.parametrize("drill_id,framework,mistake", KEPT_WARM)
def test_a_kept_warm_check_reports_what_a_fresh_one_reports(monkeypatch, drill_id, framework, mistake, parts):
    """`keep_warm` forks the next check's children ahead of time (split across slices of the examples
    with parts=2): the report is the same, prints and warnings included."""
    import checker.engine as engine
    from checker.sandbox import discard_spare

    d = get_drill(drill_id)
    source = d.solution(framework) if mistake is None else next(m for m in d.mistakes if m.id == mistake).source(framework)
    monkeypatch.setattr(engine, "parts_for", lambda measured: parts)
    checker = Checker()
    try:
        fresh = checker.check(source, drill_id, framework).to_json()
        checker.keep_warm()
        warm = checker.check(source, drill_id, framework).to_json()
    finally:
        discard_spare()
    fresh.pop("elapsed_ms"), warm.pop("elapsed_ms")
    assert warm == fresh


def test_a_kept_warm_check_of_an_answer_that_fails_midway_reports_what_a_fresh_one_reports(monkeypatch):
    """An answer that raises on the third example (by counting its calls): a later slice counts from 0 and
    would not raise where the single child does; the first slice's failure decides, as in one child."""
    import checker.engine as engine
    from checker.sandbox import discard_spare

    source = get_drill("gae").solution("numpy").replace("def compute_gae(", "def _gae(") + (
        "\nCALLS = [0]\n\ndef compute_gae(*args, **kwargs):\n    CALLS[0] += 1\n    if CALLS[0] == 3:\n"
        "        raise RuntimeError('third call')\n    return _gae(*args, **kwargs)\n")
    monkeypatch.setattr(engine, "parts_for", lambda measured: 2)
    checker = Checker()
    try:
        fresh = checker.check(source, "gae", "numpy").to_json()
        checker.keep_warm()
        warm = checker.check(source, "gae", "numpy").to_json()
    finally:
        discard_spare()
    fresh.pop("elapsed_ms"), warm.pop("elapsed_ms")
    assert warm == fresh and not fresh["passed"] and "third call" in fresh["error"]["message"]


def test_preparing_a_drill_readies_its_first_check():
    """What the app asks for when a drill opens: the spare child for that drill's check, used by it."""
    import checker.sandbox.runner as runner
    from checker.sandbox import discard_spare
    from drills import load_drills

    checker = Checker()
    try:
        checker.prepare("gae", "numpy")
        distinct = checker.plan("gae", "numpy").distinct
        assert runner._spare is not None and runner._spare.calls_given is distinct
        assert checker.check(get_drill("gae").solution("numpy"), "gae", "numpy").passed
        assert runner._spare is None  # the check took it
        test_drill = next(d for d in load_drills() if d.is_test)
        checker.prepare(test_drill.id, test_drill.frameworks[0])  # graded otherwise: left alone
        checker.prepare("gae", "no-such-framework")
        assert runner._spare is None
    finally:
        discard_spare()


def test_a_non_finite_output_says_which_value_and_where():
    """The finite-values check explains itself like the others (its message was always empty)."""
    m = next(m for m in get_drill("actor-loss").mistakes if m.id == "metrics-include-padding")
    report = check(m.source("torch"), "actor-loss", "torch")
    (nonfinite,) = [c for c in report.checks if c.id == "output-nonfinite"]
    assert not nonfinite.passed
    assert "your approx_kl is inf where the reference gives" in nonfinite.message
    assert all(c.message for c in report.checks if not c.passed)


def test_one_time_limit_bounds_the_whole_check_shrinking_included():
    """After the first run, each run of a check (the shrinking of a counterexample) gets only what is left
    of the check's limit: an answer that hangs on every simpler input cannot make each shrinking round
    spend a limit of its own. The report says the limit cut the shrinking short."""
    import time

    from checker.sandbox import Limits, run_candidate

    # a mistake whose shown failure is a random case, so its counterexample is shrunk
    wrong = next(m for m in get_drill("gae").mistakes if m.id == "gae-done-recursion").source("numpy")
    function = get_drill("gae").function
    hangs = f"import time\n\ndef {function}(*args, **kwargs):\n    time.sleep(60)\n"
    runs = []

    def runner(source, function, calls, **kwargs):
        runs.append(kwargs.get("limits"))
        return run_candidate(source if len(runs) == 1 else hangs, function, calls, **kwargs)

    limits = Limits(wall_s=2.0, cpu_s=2)
    t0 = time.perf_counter()
    report = Checker(runner=runner).check(wrong, "gae", "numpy", limits=limits)
    elapsed = time.perf_counter() - t0
    assert not report.passed and len(runs) >= 2, report.render()
    assert elapsed < 5, elapsed  # the first run, then at most what was left of its 2 s (not 2 s a round)
    assert all(r.wall_s < 2.0 for r in runs[1:])
    assert any("time limit was reached while the counterexample" in n for n in report.notes), report.notes
