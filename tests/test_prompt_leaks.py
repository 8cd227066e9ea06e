"""A prompt states the task and its contract, never the answer key: no prompt names a catalogued mistake's
wrong form or prints a number only a wrong answer gives, and the hints escalate to a marked reveal.

Driven from the catalogue: every mistake a drill's checker knows (its own `mistakes/`, a fix-the-bug or
test-writing drill's base's, and `drills/_common`) is run on the worked examples its prompt gives, and
every number the prompt prints that such a mistake produces and no right answer or input does is an
answer key; every code fragment its planted file adds to the model answer, and every textual wrong form
listed for it here (`WRONG_FORMS`, which must name each catalogued mistake), must stay out of the prompt.
"""
from __future__ import annotations

import difflib
import io
import math
import re
import tokenize
import warnings

import numpy as np
import pytest
import torch

from checker.trusted import load_function
from drills import all_mistakes, get_drill, load_drills

DRILLS = load_drills()

# The textual wrong forms of each catalogued mistake, as regular expressions matched case-insensitively
# on a prompt (English and Chinese). An empty tuple: the mistake has no recognisable name of its own
# beyond its planted code and its numbers, which are checked from the catalogue itself.
MASK_MULTIPLIED = (r"[\w)\]]\s*\*\s*(response_|loss_)?mask\b", r"\bmask\s*\*\s*\w", r"nan\s*\*\s*0", r"inf\s*\*\s*0")
LOG_OF_SOFTMAX = (r"log\s*\(\s*softmax", r"log\(\s*sigmoid", r"log\s*\(\s*torch\.sigmoid")
WRONG_FORMS: dict[str, tuple[str, ...]] = {
    # gae
    "gae-done-bootstrap": (), "gae-done-recursion": (), "gae-done-shift": (), "gae-forward-scan": (r"scans? forward",),
    "gae-last-step-stale-bootstrap": (r"V\(s_\{T-1\}\)", r"values\[T\s*-\s*1\]"), "gae-missing-gamma": (),
    "gae-missing-lambda": (), "gae-no-bootstrap": (), "gae-returns-offset": (r"values\[1:\]",),
    # policy-loss
    "clip-around-zero": (r"clamp\(ratio,\s*-", r"\[-\s*(clip_)?eps,\s*(clip_)?eps\]"), "clip-eps-ignored": (),
    "grad-into-advantages": (), "grad-into-old-logp": (), "policy-advantages-normalised": (r"do not normalise",),
    "policy-clip-advantage": (r"clip\w*\(\s*adv",), "policy-clipped-only": (), "policy-dual-clip": (),
    "policy-max-instead-of-min": (r"torch\.max\(\s*ratio", r"maximum\(\s*r\s*\*"), "policy-missing-negation": (),
    "policy-no-clip": (), "ratio-division": (r"\.exp\(\)\s*/", r"exp\([^)]*\)\s*/\s*exp", r"division of probabilities",
                                              r"dividing probabilities"),
    "ratio-inverted": (r"old_logp\s*-\s*new_logp",), "ratio-wrong-denominator": (), "reduction-sum": (r"not a sum",),
    # value-loss
    "grad-into-old-values": (), "value-abs-error": (r"\babs\(\s*V",), "value-clip-absolute": (r"clip\(\s*V\s*,",),
    "value-clip-around-returns": (r"centred on the returns", r"R\s*\+\s*clip"), "value-clip-ratio-style": (r"not a ratio",),
    "value-min-instead-of-max": (r"\bmin\(\s*\(V",), "value-missing-half": (), "value-no-clip": (),
    # total-loss
    "entropy-sign": (r"\+\s*ent_coef",), "total-coefs-swapped": (), "total-value-sign": (r"-\s*vf_coef",),
    # actor-loss
    "actor-advantages-normalised": (), "actor-dual-clip": (), "actor-mask-multiplied": MASK_MULTIPLIED,
    "clip-fraction-active-branch": (r"clipped branch is (the )?active",),
    "clip-fraction-one-sided": (r"ratio\s*>\s*1\s*\+\s*(clip_range|eps)\b(?!.*\|)",),
    "kl-minus-ratio-mean": (r"-\s*mean\(\s*ratio",), "kl-wrong-estimator": (r"\bk1\b", r"\bk2\b"), "mask-ignored": (),
    "metrics-include-padding": (), "reduction-swapped": (),
    # token-logprobs
    "logprob-detached": (r"\.detach\(\)", r"no_grad"), "logprob-entropy-sign": (r"\+\s*sum_v\s*p_v",),
    "logprob-gather-wrong-dim": (r"gather\(\s*1", r"dim\s*=\s*1\b"), "logprob-mask-multiplied": MASK_MULTIPLIED,
    "logprob-mask-not-shifted": (r"response_mask\[:,\s*:-1\]",), "logprob-naive-softmax": (r"exp\(x\)\s*/",),
    "logprob-no-shift": (r"logits\[:,\s*1:\]",), "logprob-padding-kept": (), "logprob-softmax-then-log": LOG_OF_SOFTMAX,
    # token-kl
    "kl-direction-swapped": (r"ref_log_probs\s*-\s*log_probs",), "kl-k1-for-k3": (), "kl-k2-missing-half": (),
    "kl-k3-inverted-ratio": (r"r\s*=\s*pi\s*/\s*pi_ref",), "kl-mean-per-row": (r"per-row means", r"mean of per-row"),
    "kl-mean-unmasked": (), "kl-padding-kept": (),
    # kl-reward
    "reward-kl-not-k1": (), "reward-kl-sign": (), "reward-padding-kept": (), "reward-score-every-token": (),
    "reward-score-first-padding": (r"seq_len\s*\+\s*1", r"first padding"),
    "reward-score-last-column": (r"\[:,\s*-1\]", r"last column"), "reward-score-replaces-kl": (r"do not assign",),
    # token-gae
    "tgae-bootstrap-padding": (r"values\[:,\s*n_b\]", r"padded `?values"), "tgae-forward-scan": (),
    "tgae-lam-ignored": (), "tgae-mask-multiplied": MASK_MULTIPLIED, "tgae-padding-nonzero": (),
    "tgae-recursion-through-padding": (r"scans through the padding",),
    # masked-whiten
    "whiten-no-eps": (r"/\s*sqrt\(var\)",), "whiten-padding-nonzero": (r"\(pad - mean\)",),
    "whiten-per-row": (r"not per row",), "whiten-shift-mean-ignored": (),
    "whiten-stats-over-padding": (r"advantages\.mean\(\)",), "whiten-unbiased-variance": (r"bessel", r"N\s*-\s*1",
                                                                                           r"unbiased"),
    # grpo-advantages
    "grpo-batch-stats": (r"over the whole batch",), "grpo-no-eps": (), "grpo-padding-not-zeroed": (),
    "grpo-population-std": (r"population std", r"ddof", r"np\.std", r"1\.7321"),
    "grpo-sample-major": (r"sample-major", r"reshape\(G,\s*P\)"), "grpo-singleton-raw-score": (r"raw score",),
    "grpo-std-in-dr-variant": (),
    # loss-aggregation
    "agg-nan-leak": MASK_MULTIPLIED, "agg-padding-in-count": (), "agg-seq-sum-as-seq-mean": (),
    "agg-sum-norm-no-batch-mean": (r"sum_b S_b / norm_const", r"without the mean", r"1\.75"),
    "agg-token-mean-per-row": (),
    # policy-loss-full
    "clip-fraction-outside-band": (r"\|r\s*-\s*1\|\s*>\s*eps", r"outside the band", r"0\.83333"),
    "policy-clip-bounds-swapped": (), "policy-dual-clip-as-min": (r"min\(\s*objective,\s*c",),
    "policy-dual-clip-positive": (), "policy-kl-k1": (r"\bk1\b", r"-0\.17235"), "policy-padding-nan": MASK_MULTIPLIED,
    "policy-stats-over-padding": (),
    # explained-variance
    "ev-r2-not-ev": (r"mean squared error", r"\bR\^?2\b", r"0\.65\b"), "ev-ratio-inverted": (),
    "ev-unmasked": (r"\.flatten\(\)",), "ev-var-values": (r"Var\[V\]", r"0\.228571"),
    "ev-zero-variance-eps": (r"\+\s*1e-5", r"an epsilon"),
    # bt-loss
    "bt-chosen-rejected-swapped": (), "bt-log-of-sigmoid": LOG_OF_SOFTMAX, "bt-margin-wrong-side": (r"margin is added",),
    "bt-sum-over-pairs": (r"not a sum",),
    # dpo-loss
    "dpo-beta-outside": (r"-\s*beta\s*\*\s*log", r"not the loss"), "dpo-grad-into-reference": (),
    "dpo-log-of-sigmoid": LOG_OF_SOFTMAX, "dpo-mean-logps": (r"not their mean",), "dpo-padding-summed": (),
    "dpo-reference-sign": (r"\+\s*\(ref_c\s*-\s*ref_r\)",), "dpo-rewards-without-beta": (),
    # rloo
    "rloo-baseline-includes-self": (r"sample included",), "rloo-batch-baseline": (r"whole batch",),
    "rloo-divides-by-k": (r"not K\b",), "rloo-normalised-by-std": (r"standard deviation",),
    # trajectory-is
    "is-ess-over-n": (r"fraction of N",), "is-ess-probability-space": (r"exp\(log_w\)\s*\*\*\s*2",),
    "is-padding-included": (), "is-probability-space": (r"prod\w*\(p\)\s*/",), "is-snis-no-denominator": (),
    # kl-penalty
    "klpen-new-beta-in-loss": (), "klpen-penalty-sign": (r"subtracted in the objective",),
    "klpen-per-minibatch": (r"not per minibatch",), "klpen-thresholds-swapped": (), "klpen-update-inverted": (),
    # ppo-update
    "loop-clipfrac-active-branch": (r"clipped branch is active",), "loop-grad-clip-per-tensor": (r"per tensor",),
    "loop-grad-not-zeroed": (), "loop-kl-k1": (r"\bk1\b",), "loop-no-early-stop": (), "loop-no-grad-clip": (),
    "loop-old-values-in-loop": (), "loop-order-ignored": (),
    "loop-stats-not-reset": (r"fresh lists",), "loop-stop-last-minibatch-kl": (r"last minibatch",),
    "loop-stop-per-minibatch": (r"every minibatch before", r"1\.5 \* target_kl"),
    "loop-whiten-per-minibatch": (r"each minibatch instead", r"per minibatch instead"), "old-logp-in-loop": (),
    # drills/_common: diagnosed from the output or the contract, with no planted code
    "output-type": (), "output-shape": (), "output-nonfinite": (), "input-contract": (),
    # drills/_common/misconceptions.yaml: shared by every drill whose inputs they concern
    "mask-multiplied": MASK_MULTIPLIED, "log-of-probability": LOG_OF_SOFTMAX, "std-bessel-correction": (r"bessel",),
    "grad-into-reference": (), "grad-into-returns": (), "mc-return-for-lambda-return": (), "padding-not-zeroed": (),
    "strict-comparison": (), "whiten-mean-handling": (),
    # explained-variance, ppo-update
    "ev-one-pass-variance": (r"E\[x\^?2\]\s*-\s*E\[x\]", r"one[- ]pass"), "loop-stats-after-step": (),
    # rollout-correction
    "mis-grad-into-old-logp": (), "mis-mask-bounds-excluded": (r"bounds? excluded", r"strictly (inside|between)"),
    "mis-mask-multiplied": MASK_MULTIPLIED, "mis-rejected-in-denominator": (r"still counted", r"both the sum and the count"),
    "mis-sequence-geometric-mean": (r"geometric",), "mis-truncate-two-sided": (r"two-sided", r"above only", r"floored"),
    "mis-weight-from-current-policy": (r"exp\(\s*log_prob\s*-\s*rollout_log_prob", r"from the current policy"),
    "mis-weight-inverted": (r"pi_rollout\s*/\s*pi_old", r"rollout_log_prob\s*-\s*old_log_prob"),
    # gspo-loss
    "gspo-mask-multiplied": MASK_MULTIPLIED, "gspo-mean-over-padding": (r"counted with the padding",),
    "gspo-no-length-norm": (r"product of (the )?token ratios",), "gspo-ratio-not-detached": (r"without (the )?stop-gradient",),
    "gspo-sequence-ratio-gradient": (r"plain s_i",), "gspo-token-mean-aggregation": (r"one mean over all tokens",),
    "gspo-token-ratios": (r"per-token (importance )?ratios",),
    # dapo-loss
    "dapo-clip-band-mixed-up": (r"1\s*-\s*clip_high", r"1\s*\+\s*clip_low"),
    "dapo-filter-on-rewards": (r"\*\*scores\*\*", r"raw scores", r"shaped rewards", r"filter looks at"),
    "dapo-mask-multiplied": MASK_MULTIPLIED, "dapo-no-dynamic-filter": (), "dapo-penalty-not-clamped": (r"pays short",),
    "dapo-penalty-sign": (r"as a bonus",), "dapo-population-std": (r"population std", r"ddof"),
    "dapo-sample-level-loss": (r"sample-level", r"per response, then"), "dapo-truncated-kept": (),
    # critic-free-advantages
    "dr-grpo-std-division": (r"drops the division", r"no division by"), "rpp-baseline-not-whitened": (),
    "rpp-forward-cumsum": (r"from the start",), "rpp-kl-sign": (r"as a bonus",),
    "rpp-local-normalisation": (r"instead of per group", r"not per group", r"per response or group"),
    "rpp-mask-multiplied": MASK_MULTIPLIED, "rpp-no-return": (r"without its return",),
    "rpp-population-variance": (r"population variance", r"ddof"), "rpp-score-every-token": (r"score on every token",),
    "rpp-stats-over-padding": (),
    # cispo-loss
    "cispo-mask-multiplied": MASK_MULTIPLIED, "cispo-padding-counted": (), "cispo-per-response-mean": (r"per response, then",),
    "cispo-ppo-clip": (r"where PPO clips", r"drops? out"), "cispo-symmetric-floor": (), "cispo-weight-not-detached": (),
    "cispo-weight-unclipped": (),
    # kl-loss
    "kl-k1-sign": (r"ref_log_prob\s*-\s*log_prob",), "kl-k3-ratio-inverted": (r"pi_theta\s*/\s*pi_ref",),
    "kl-mask-multiplied": MASK_MULTIPLIED, "kl-no-gradient": (r"no_grad", r"\.detach\(\)"),
    "kl-straight-through-k3-gradient": (), "kl-straight-through-reversed": (r"value of `?k2", r"gradient of `?k3\b"),
    "klloss-k2-missing-half": (),
    # grad-accumulation
    "accum-local-count": (r"its own (token )?count", r"not its own"), "accum-mask-multiplied": MASK_MULTIPLIED,
    "accum-mean-of-means": (r"its own (token )?count", r"mean of (the )?micro-batch means"),
    "accum-missing-steps-division": (), "accum-no-dp-scale": (r"undoes? the average",), "accum-padding-counted": (),
}

# Warning-style wording: a prompt states conventions, it does not warn about the alternatives.
WARNINGS = re.compile(
    r"\(all of them are checked\)|is not enough|\bnever\b|would give|would get|you would|not what is asked|"
    r"\bdo not (use|normalise|normalize|multiply|assign|divide|do|add|sum|take)\b|\bdon't\b|\binstead\b|\bwhereas\b|\bunlike\b|unless you pass|not masking|"
    r"而不是|不要|会得到|不是题目|绝不|切勿|每一条都会被检查", re.IGNORECASE)


def test_every_catalogued_mistake_has_an_entry():
    known = set(all_mistakes())
    assert known == set(WRONG_FORMS), (sorted(known - set(WRONG_FORMS)), sorted(set(WRONG_FORMS) - known))


def catalogue(drill) -> list:
    """The mistakes the drill's checker names: its own (a fix-the-bug or test drill's base's) and the common ones."""
    own = drill.mistakes or (get_drill(drill.base).mistakes if drill.base else [])
    return list(own) + [m for m in all_mistakes().values() if m.drill_id is None]


def texts(drill) -> dict[str, str]:
    return {"prompt.md": drill.prompt, "prompt.zh.md": drill.prompt_zh or ""}


@pytest.mark.parametrize("drill", DRILLS, ids=lambda d: d.id)
def test_no_prompt_names_a_wrong_form(drill):
    bad = []
    for mistake in catalogue(drill):
        for pattern in WRONG_FORMS[mistake.id]:
            for where, text in texts(drill).items():
                for m in re.finditer(pattern, text, re.IGNORECASE):
                    bad.append(f"{where}: {mistake.id}: {m.group(0)!r}")
    assert not bad, bad


@pytest.mark.parametrize("drill", DRILLS, ids=lambda d: d.id)
def test_no_prompt_warns_about_the_alternatives(drill):
    bad = [f"{where}: {m.group(0)!r}" for where, text in texts(drill).items() for m in WARNINGS.finditer(text)]
    assert not bad, bad


# --------------------------------------------------------------------------------------------------
# The planted code of each mistake stays out of the prompt
# --------------------------------------------------------------------------------------------------

_NAMESPACES = re.compile(r"\b(?:torch\.nn\.functional|torch|np|numpy|F|math)\.")


def _normal(code: str) -> str:
    return re.sub(r"\s+", "", _NAMESPACES.sub("", code))


def _tokens(line: str) -> list[str]:
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline)
                if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER,
                                  tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return line.split()


def planted_fragments(solution: str, buggy: str) -> set[str]:
    """The code a planted mistake adds to the model answer: each run of tokens its changed lines hold and
    the model answer's lines do not, with one token of context on either side, normalised."""
    good_lines, bad_lines = solution.splitlines(), buggy.splitlines()
    right = _normal(solution)  # a line the model answer has too is no wrong form
    fragments = set()
    matcher = difflib.SequenceMatcher(None, good_lines, bad_lines, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op not in ("replace", "insert"):
            continue
        old = [t for line in good_lines[i1:i2] for t in _tokens(line)]
        new = [t for line in bad_lines[j1:j2] for t in _tokens(line)]
        for op2, _a1, _a2, b1, b2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if op2 in ("replace", "insert"):
                piece = _normal("".join(new[max(b1 - 1, 0):b2 + 1]))
                if len(piece) >= 6 and re.search(r"[A-Za-z]", piece) and re.search(r"[*/+\-<>=]|\w\(", piece) \
                        and piece not in right:
                    fragments.add(piece)
    return fragments


def code_of(text: str) -> str:
    """The code a prompt shows: inline `spans`, fenced blocks and indented lines, normalised."""
    spans = re.findall(r"`([^`]+)`", text)
    spans += [line for line in text.splitlines() if line.startswith("    ")]
    return "\n".join(_normal(s) for s in spans)


@pytest.mark.parametrize("drill", DRILLS, ids=lambda d: d.id)
def test_no_prompt_shows_a_planted_line(drill):
    base = get_drill(drill.base) if drill.base else drill
    shown = {where: code_of(text) for where, text in texts(drill).items()}
    bad = []
    for mistake in catalogue(drill):
        for fw in mistake.frameworks:
            if fw not in base.frameworks or base.is_test:
                continue
            for _, source in mistake.forms(fw):
                for piece in planted_fragments(base.solution(fw), source):
                    bad += [f"{where}: {mistake.id}: {piece}" for where, code in shown.items() if piece in code]
    assert not bad, sorted(set(bad))


def test_planted_fragments_find_a_planted_line():
    good = "x = a - b\ny = exp(x)\n"
    pieces = planted_fragments(good, "x = a - b\ny = exp(a) / exp(b)\n")
    assert pieces and all(piece in "y=exp(a)/exp(b)" for piece in pieces)
    assert planted_fragments(good, good) == set()


# --------------------------------------------------------------------------------------------------
# No number only a wrong answer gives
# --------------------------------------------------------------------------------------------------

def _np(x, dtype=float):
    return np.array(x, dtype=dtype)


def _t(x, dtype=torch.float64):
    return torch.tensor(x, dtype=dtype)


def _prefix(lengths, T, lib):
    mask = [[i < n for i in range(T)] for n in lengths]
    return np.array(mask) if lib == "numpy" else torch.tensor(mask)


def _examples(drill_id: str) -> list[tuple[str, dict]]:
    """(framework, keyword arguments) of the worked examples a prompt gives, as the prompt states them."""
    from checker.specs import (bt_loss, dpo_loss, kl_penalty, kl_reward, masked_whiten, rloo, token_gae, token_kl,
                               token_logprobs, trajectory_is)

    nan, inf = float("nan"), float("inf")
    if drill_id in ("gae", "fix-gae-direction", "fix-gae-done-mask", "fix-value-bootstrap"):
        base = dict(rewards=_np([1, 2, 3, 4]), values=_np([0.5, 0.4, 0.3, 0.2, 0.7]), gamma=0.9, lam=0.8)
        return [("numpy", dict(base, dones=_np([0, 0, 0, 0]))), ("numpy", dict(base, dones=_np([0, 1, 0, 0])))]
    if drill_id == "policy-loss":
        ratio = [1.5, 1.5, 0.5, 0.5, 5.0, 1.0]
        return [("numpy", dict(new_logp=np.log(ratio), old_logp=np.zeros(6), advantages=_np([1, -1, 1, -1, -1, 2]),
                               clip_eps=0.2, shown=ratio))]
    if drill_id == "value-loss":
        return [("numpy", dict(values=_np([1, 1]), old_values=_np([0, 0]), returns=_np([2, 0.5]), clip_eps=0.2))]
    if drill_id == "total-loss":
        return [("numpy", dict(new_logp=np.log([1.5, 0.5]), old_logp=np.zeros(2), advantages=_np([1, -1]),
                               values=_np([1, 1]), old_values=_np([0, 0]), returns=_np([2, 0.5]),
                               entropy=_np([0.5, 1.5])))]
    if drill_id == "actor-loss":
        two = dict(log_probs_new=torch.zeros(2, 2, dtype=torch.float64), log_probs_old=torch.zeros(2, 2, dtype=torch.float64),
                   advantages=_t([[1, 1], [3, 0]]), response_mask=torch.tensor([[True, True], [True, False]]))
        one = [(2.0, 1.0), (0.5, -1.0)]
        return [("torch", dict(log_probs_new=_t([[math.log(r)]]), log_probs_old=_t([[0.0]]), advantages=_t([[a]])))
                for r, a in one] + [("torch", dict(two, reduction=red)) for red in ("token_mean", "sequence_mean")]
    if drill_id in ("token-logprobs", "fix-logprob-shift"):
        return [("numpy", dict(logits=_np(token_logprobs.WORKED_LOGITS), input_ids=_np(token_logprobs.WORKED_IDS, int),
                               response_mask=_np(token_logprobs.WORKED_MASK, bool)))]
    if drill_id in ("token-kl", "fix-kl-direction"):
        arrays = dict(log_probs=_np(token_kl.WORKED_LOGP), ref_log_probs=_np(token_kl.WORKED_REF),
                      response_mask=_np(token_kl.WORKED_MASK, bool))
        return [("numpy", dict(arrays, estimator=k)) for k in ("k1", "k2", "k3")]
    if drill_id in ("kl-reward", "fix-reward-last-token"):
        return [("numpy", dict(log_probs=_np(kl_reward.WORKED_LOGP), ref_log_probs=_np(kl_reward.WORKED_REF),
                               scores=_np(kl_reward.WORKED_SCORES), response_mask=_prefix(kl_reward.WORKED_LENGTHS, 4, "numpy"),
                               kl_coef=0.1))]
    if drill_id in ("token-gae", "fix-token-gae-bootstrap"):
        return [("numpy", dict(rewards=_np(token_gae.WORKED_REWARDS), values=_np(token_gae.WORKED_VALUES),
                               response_mask=_prefix(token_gae.WORKED_LENGTHS, 3, "numpy"), gamma=1.0, lam=0.95))]
    if drill_id in ("masked-whiten", "fix-whiten-eps", "fix-advantage-normalisation"):
        arrays = dict(advantages=_np(masked_whiten.WORKED_ADV), response_mask=_prefix(masked_whiten.WORKED_LENGTHS, 3, "numpy"))
        return [("numpy", dict(arrays, shift_mean=s)) for s in (True, False)]
    if drill_id in ("grpo-advantages", "fix-grpo-reshape"):
        worked = dict(scores=_np([1, 0, 0, 0, 1, 1, 0, 0]), response_mask=_prefix([3, 1, 2, 3, 1, 3, 2, 1], 3, "numpy"))
        small = dict(scores=_np([1, 2, 3, 5]), response_mask=_prefix([1, 1, 1, 1], 1, "numpy"))
        return [("numpy", dict(worked, group_size=4, norm_by_std=n)) for n in (True, False)] + \
            [("numpy", dict(small, group_size=2, norm_by_std=n)) for n in (True, False)]
    if drill_id in ("loss-aggregation", "fix-agg-seq-mean-token-sum"):
        mats = ([[1, 1, 1, 1], [3, nan, inf, -inf]], [[1, 1, 1, 1], [3, 0, 0, 0]])
        return [("numpy", dict(loss_mat=_np(m), loss_mask=_prefix([4, 1], 4, "numpy"), loss_agg_mode=mode))
                for m in mats for mode in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum",
                                           "seq-mean-token-sum-norm")]
    if drill_id in ("policy-loss-full", "fix-dual-clip-side"):
        ratio = [1.5, 1.5, 0.5, 0.5, 5.0, 1.0]
        new = _t([[*np.log(ratio), nan, -inf]])
        arrays = dict(log_prob=new, old_log_prob=_t([[0.0] * 6 + [0.0, -inf]]),
                      advantages=_t([[1, -1, 1, -1, -1, 2, nan, 0]]), response_mask=_prefix([6], 8, "torch"),
                      shown=ratio)
        one = dict(log_prob=_t([[math.log(1.5)]]), old_log_prob=_t([[0.0]]), advantages=_t([[1.0]]),
                   response_mask=torch.tensor([[True]]))
        return [("torch", arrays), ("torch", dict(arrays, dual_clip=3.0)), ("torch", dict(arrays, clip_high=0.28)),
                ("torch", one), ("torch", dict(one, dual_clip=3.0))]
    if drill_id in ("explained-variance", "fix-ev-denominator"):
        worked = dict(values=_np([[0.5, 1.0, 2.5], [1.5, nan, inf]]), returns=_np([[1.0, 0.0, 3.0], [2.0, -inf, 7.0]]),
                      mask=_np([[True, True, True], [True, False, False]], bool))
        flat = dict(values=_np([[0.5, 0.5, 0.5, 0.5]]), returns=_np([[1.0, 0.0, 3.0, 2.0]]))
        return [("numpy", worked), ("numpy", flat)]
    if drill_id in ("bt-loss", "fix-bt-log-sigmoid"):
        arrays = dict(r_chosen=_np(bt_loss.WORKED_CHOSEN), r_rejected=_np(bt_loss.WORKED_REJECTED))
        return [("numpy", dict(arrays, margin=m)) for m in (0.0, 0.5)]
    if drill_id in ("dpo-loss", "fix-dpo-reference-sign"):
        arrays = {k: _t(v) for k, v in dpo_loss.WORKED.items()}
        arrays.update(chosen_mask=torch.tensor(dpo_loss.WORKED_CHOSEN_MASK),
                      rejected_mask=torch.tensor(dpo_loss.WORKED_REJECTED_MASK))
        return [("torch", dict(arrays, beta=b)) for b in (0.1, 0.5)]
    if drill_id in ("rloo", "fix-rloo-baseline"):
        return [("numpy", dict(rewards=_np(rloo.WORKED))), ("numpy", dict(rewards=_np([[1.0, 3.0]])))]
    if drill_id in ("trajectory-is", "fix-is-probability-space"):
        return [("numpy", dict(logp=_np(trajectory_is.WORKED_LOGP), old_logp=_np(trajectory_is.WORKED_OLD),
                               mask=_np(trajectory_is.WORKED_MASK, bool), returns=_np(trajectory_is.WORKED_RETURNS)))]
    if drill_id in ("kl-penalty", "fix-klpen-per-minibatch"):
        arrays = {k: _t(v) for k, v in kl_penalty.WORKED.items()}
        low = dict(arrays, kl=_t([[0.002, 0.004], [0.001, 0.005]]), beta=2.0)
        return [("torch", arrays), ("torch", low)]
    if drill_id in ("ppo-update", "fix-old-logp-in-loop"):
        from checker.specs.ppo_update import WORKED, WORKED_TARGET

        arrays = {k: _np(v, int if k in ("actions", "minibatches") else float) for k, v in WORKED.items()}
        return [("numpy", arrays), ("numpy", dict(arrays, target_kl=WORKED_TARGET))]
    return []


def _call(source: str, drill, fw: str, kwargs: dict):
    if drill.id in ("ppo-update",):
        from checker.reference.update_loop import NUMPY_PROBLEM

        kwargs = dict(kwargs, problem=NUMPY_PROBLEM)
    fn = load_function(source, drill.function, f"<leak {drill.id} {fw} {hash(source)}>")
    copied = {k: (v.clone() if isinstance(v, torch.Tensor) else v.copy() if isinstance(v, np.ndarray) else v)
              for k, v in kwargs.items()}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(**copied)


def _floats(value) -> list[np.ndarray]:
    """Every numeric array in an output (tuples, lists and dicts walked), float64, flattened per row."""
    if isinstance(value, dict):
        return [a for v in value.values() for a in _floats(v)]
    if isinstance(value, (tuple, list)) and value and not isinstance(value[0], (int, float)):
        return [a for v in value for a in _floats(v)]
    if isinstance(value, torch.Tensor):
        value = value.detach().to(torch.float64).numpy()
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return []
    rows = [arr.ravel()]
    if arr.ndim >= 2:
        rows += [r for r in arr.reshape(-1, arr.shape[-1])]
    return rows


PRINTED_NUMBER = re.compile(r"(?<![\w.\d])-?\d+\.\d+(?![\d.])")
PRINTED_LIST = re.compile(r"\[\s*(-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+)\s*\]")


def _tol(text: str) -> float:
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10 ** -decimals + 1e-12


def _matches(printed: list[str], vector: np.ndarray) -> bool:
    return len(printed) == len(vector) and all(
        np.isfinite(v) and abs(v - float(p)) <= _tol(p) for p, v in zip(printed, vector))


def _defaults(drill) -> list[float]:
    """The numeric defaults of the drill's signature (a prompt states them as inputs)."""
    import ast

    fn = ast.parse(f"def {drill.signature.split(' -> ')[0]}: pass").body[0]
    values = [ast.literal_eval(d) for d in fn.args.defaults]
    return [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]


def answer_key_numbers(drill) -> list[str]:
    """Numbers and lists the drill's prompts print that a catalogued mistake gives on a worked example of
    the prompt and no right answer (nor an input) gives."""
    base = get_drill(drill.base) if drill.base else drill
    examples = _examples(drill.id) + (_examples(base.id) if base is not drill else [])
    if not examples or base.is_test:
        return []
    right: list[np.ndarray] = [np.asarray(_defaults(base), dtype=np.float64)]
    wrong: list[tuple[str, np.ndarray]] = []
    for fw, kwargs in examples:
        kwargs = dict(kwargs)
        right += [np.asarray(kwargs.pop("shown", []), dtype=np.float64)]  # right intermediates the prompt shows
        right += [a for v in kwargs.values() for a in _floats(v)]
        right += _floats(_call(base.solution(fw), base, fw, kwargs))
        for mistake in catalogue(drill):
            for _, source in (mistake.forms(fw) if fw in mistake.frameworks else []):
                try:
                    wrong += [(mistake.id, a) for a in _floats(_call(source, base, fw, kwargs))]
                except Exception:  # noqa: BLE001 - a mistake that raises prints no number
                    pass
    right_values = np.concatenate([r for r in right if r.size]) if right else np.zeros(0)
    found = []
    for where, text in texts(drill).items():
        for p in PRINTED_NUMBER.findall(text):
            tol = _tol(p)
            if np.any(np.abs(right_values - float(p)) <= tol):
                continue
            culprits = {mid for mid, arr in wrong if np.any(np.abs(arr[np.isfinite(arr)] - float(p)) <= tol)}
            if culprits:
                found.append(f"{where}: {p} ({', '.join(sorted(culprits))})")
        for group in PRINTED_LIST.findall(text):
            items = [s.strip() for s in group.split(",")]
            if any(_matches(items, r) for r in right):
                continue
            culprits = {mid for mid, arr in wrong if _matches(items, arr)}
            if culprits:
                found.append(f"{where}: [{group}] ({', '.join(sorted(culprits))})")
    return found


@pytest.mark.parametrize("drill", DRILLS, ids=lambda d: d.id)
def test_no_prompt_prints_a_wrong_answers_number(drill):
    assert not answer_key_numbers(drill)


def test_the_number_check_finds_a_wrong_answers_number():
    """The check itself can fail: a prompt that printed what ev-var-values gives is caught."""
    import dataclasses

    drill = dataclasses.replace(get_drill("explained-variance"), prompt="with Var[V] it is 0.228571", prompt_zh="")
    found = answer_key_numbers(drill)
    assert any("0.228571" in f and "ev-var-values" in f for f in found), found


# --------------------------------------------------------------------------------------------------
# Hints escalate: a question, the concept, then a reveal that says it shows the answer
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("drill", DRILLS, ids=lambda d: d.id)
def test_hints_escalate_to_a_marked_reveal(drill):
    first, second, third = drill.hints
    assert "?" in first, "hint 1 asks a question"
    assert not first.startswith("**Shows the answer") and not second.startswith("**Shows the answer")
    assert third.startswith("**Shows the answer.**"), "hint 3 says it shows the answer"


@pytest.mark.parametrize("drill", [d for d in DRILLS if d.is_pitfall], ids=lambda d: d.id)
def test_fix_the_bug_titles_do_not_name_the_bug(drill):
    mistake = drill.planted_mistake
    words = {w for w in re.findall(r"[a-z]+", (mistake.title + " " + mistake.id.replace("-", " ")).lower())
             if len(w) > 3} - {"loss", "ratio", "value", "policy", "advantages", "advantage", "reward", "with"}
    title = drill.title.lower()
    assert title.startswith("fix the bug: ")
    assert not [w for w in words if w in title], (drill.title, mistake.title)
