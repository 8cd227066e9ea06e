"""Checker spec of the `policy-loss-full` drill (PyTorch): compute_policy_loss(log_prob, old_log_prob,
advantages, response_mask, clip_low=0.2, clip_high=0.2, dual_clip=None, loss_agg_mode="token-mean") ->
(loss, stats). The masked clipped surrogate with an asymmetric band, the dual clip on A < 0, verl's four
aggregation modes (sum-norm dividing by T, Dr. GRPO), padding that may hold NaN or inf, and four
statistics over valid tokens: clip_frac (clipped branch active), approx_kl (k3), ratio_min, ratio_max."""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import policy_loss
from checker.specs.base import (
    Check,
    Example,
    Expected,
    OutputProblem,
    contract_check,
    cut_tokens,
    describe,
    first_where,
    single_rows,
)
from checker.specs.losses import LossSpec, draw_array, grid
from checker.specs.token_batches import (
    as_float32,
    draw_lengths,
    maybe_fill_padding,
    mode_axes,
    number,
    related,
    relation_check,
    right_padded,
)

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")
STATS = ("clip_frac", "approx_kl", "ratio_min", "ratio_max")
FLOATS = ("log_prob", "old_log_prob", "advantages")
WORKED = "edge: worked example"


def _ok(ex: Example) -> bool:
    return ex.invalid is None


def _mask(ex: Example) -> np.ndarray:
    return ex.arrays["response_mask"]


def _padded(ex: Example) -> bool:
    return _ok(ex) and not _mask(ex).all()


def _finite_pads(ex: Example) -> bool:
    """Padding that is harmless to an answer that forgets it: finite and moderate (no exp overflow)."""
    m = _mask(ex)
    return all((np.abs(ex.arrays[k][~m]) < 1e3).all() for k in FLOATS)


def _valid(ex: Example, name: str) -> np.ndarray:
    return ex.arrays[name][_mask(ex)]


def _dual(ex: Example):
    return ex.hyper.get("dual_clip")


def _dual_active(ex: Example) -> bool:
    """Some valid token with A < 0 whose clipped objective lies below c * A."""
    c = _dual(ex)
    if c is None:
        return False
    r = np.exp(_valid(ex, "log_prob") - _valid(ex, "old_log_prob"))
    a = _valid(ex, "advantages")
    lo, hi = 1 - ex.hyper.get("clip_low", 0.2), 1 + ex.hyper.get("clip_high", 0.2)
    obj = np.minimum(r * a, np.clip(r, lo, hi) * a)
    return bool(((a < 0) & (obj < c * a)).any())


def _dual_positive(ex: Example) -> bool:
    return _dual(ex) is not None and bool((_valid(ex, "advantages") > 0).any())


def _asymmetric(ex: Example) -> bool:
    return ex.hyper.get("clip_low", 0.2) != ex.hyper.get("clip_high", 0.2)


def _mode(ex: Example) -> str:
    return ex.hyper.get("loss_agg_mode", "token-mean")


def _loss_case(ex: Example, *, dual: bool = False, asymmetric: bool = False, mode: bool = False) -> bool:
    """Each loss check speaks about one feature: batches with tame padding where only that feature (the
    dual clip, an asymmetric band, an aggregation mode other than token-mean) is in play."""
    return (_ok(ex) and _finite_pads(ex) and (_dual(ex) is not None) == dual and _asymmetric(ex) == asymmetric
            and (_mode(ex) != "token-mean") == mode)


def _finite_outputs(ex: Example, got: dict) -> str | None:
    bad = [k for k in ("loss", *STATS) if not np.isfinite(float(np.asarray(got[k])))]
    if bad:
        return f"on {ex.label} your " + ", ".join(f"{k} is {float(np.asarray(got[k]))}" for k in bad)
    grad = got.get("grad:log_prob")
    if grad is not None and not np.isfinite(grad).all():
        b, t = first_where(~np.isfinite(grad))
        return f"on {ex.label} the gradient w.r.t. log_prob is {grad[b, t]} at row {b}, t = {t}"
    return None


class PolicyLossFullSpec(LossSpec):
    drill_id = "policy-loss-full"
    function = "compute_policy_loss"
    positional = ("log_prob", "old_log_prob", "advantages", "response_mask")
    roles = {
        "new_logp": ("log_prob",),
        "old_logp": ("old_log_prob",),
        "logp_extremes": True,
        "advantages": ("advantages",),
        "mask": ("response_mask",),
        "nonfinite_padding": "padded slots may hold NaN and inf",
        "strict_comparisons": "clip_frac counts the tokens where clip(r) * A < r * A",
        "card:strict-comparison": "diag-clip-fraction-definitions",
    }
    hyper_defaults = {"clip_low": 0.2, "clip_high": 0.2, "dual_clip": None, "loss_agg_mode": "token-mean"}
    trainable = ("log_prob",)
    constants = ("old_log_prob", "advantages")
    grad_of = "0"
    output_fields = ("loss", *STATS)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 3)), draw(st.integers(1, 6))
            mask = right_padded(draw_lengths(draw, B, T), T)
            old = draw_array(draw, grid(-3.0, -0.125, 0.125), (B, T))
            lr = draw_array(draw, grid(-0.75, 0.75, 0.0625), (B, T))
            adv = draw_array(draw, grid(-2.0, 2.0, 0.25), (B, T))
            arrays = {"log_prob": old + lr, "old_log_prob": old, "advantages": adv, "response_mask": mask}
            arrays = maybe_fill_padding(draw, arrays, mask, FLOATS)
            if draw(st.integers(0, 4)) == 0:
                arrays = as_float32(arrays, FLOATS)
            hyper = {}
            low = draw(st.sampled_from([None, 0.2, 0.1]))
            if low is not None:
                hyper["clip_low"] = low
            high = draw(st.sampled_from([None, 0.2, 0.28, 0.3]))
            if high is not None:
                hyper["clip_high"] = high
            dual = draw(st.sampled_from([None, None, 3.0, 1.5]))
            if dual is not None:
                hyper["dual_clip"] = dual
            mode = draw(st.sampled_from([None, *MODES]))
            if mode is not None:
                hyper["loss_agg_mode"] = mode
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        ratios = [1.5, 1.5, 0.5, 0.5, 5.0, 1.0]
        old = f([[-1.0] * 6 + [-2.0, -inf]])
        new = f([[-1.0 + np.log(r) for r in ratios] + [nan, -inf]])
        adv = f([[1.0, -1.0, 1.0, -1.0, -1.0, 2.0, inf, 0.5]])
        worked = {"log_prob": new, "old_log_prob": old, "advantages": adv, "response_mask": right_padded([6], 8)}
        two = {"log_prob": f([[-0.5, -0.7, 0.0], [-1.0, 3.0, nan]]), "old_log_prob": f([[-0.7, -1.0, -9.0],
               [-1.4, -2.0, 0.0]]), "advantages": f([[1.0, -1.0, 4.0], [2.0, -inf, 1.0]]),
               "response_mask": right_padded([2, 1], 3)}
        rng = np.random.default_rng(3)
        lengths = [64, 1, 17]
        mask = right_padded(lengths, 64)
        o = np.round(rng.uniform(-3, -0.5, (3, 64)) * 8) / 8
        skew = {"log_prob": np.where(mask, o + np.round(rng.uniform(-0.6, 0.6, (3, 64)) * 16) / 16, -inf),
                "old_log_prob": np.where(mask, o, -inf), "advantages": np.where(mask, np.round(
                    rng.normal(size=(3, 64)) * 4) / 4, nan), "response_mask": mask}
        ok = [
            Example(worked, {}, f"{WORKED} (token-mean)"),
            Example(worked, {"dual_clip": 3.0}, f"{WORKED} (dual_clip = 3)"),
            Example(worked, {"clip_high": 0.28}, f"{WORKED} (clip_high = 0.28)"),
            *[Example(two, {"loss_agg_mode": m}, f"edge: rows of 2 and 1 tokens, NaN and inf in padding ({m})")
              for m in MODES],
            *[Example(two, {"loss_agg_mode": m, "dual_clip": 3.0, "clip_low": 0.1, "clip_high": 0.3},
                      f"edge: rows of 2 and 1 tokens, dual clip and a (0.1, 0.3) band ({m})") for m in MODES],
            *[Example(skew, {"loss_agg_mode": m, "dual_clip": 3.0, "clip_high": 0.28},
                      f"edge: rows of 64, 1 and 17 tokens, -inf padding ({m})") for m in MODES],
            Example(as_float32(two, FLOATS),
                    {"clip_low": 0.1, "clip_high": 0.3}, "edge: float32 inputs"),
            *[Example({**two, "log_prob": np.where(two["response_mask"], two["log_prob"] - 1000.0, two["log_prob"]),
                       "old_log_prob": np.where(two["response_mask"], two["old_log_prob"] - 1000.0,
                                                two["old_log_prob"])}, {"loss_agg_mode": m},
                      f"edge: rows of 2 and 1 tokens, log-probs near -1000 ({m})") for m in MODES[:2]],
            Example({"log_prob": f([[np.log(2.0)]]), "old_log_prob": f([[0.0]]), "advantages": f([[-1.0]]),
                     "response_mask": right_padded([1], 1)}, {"dual_clip": 1.5}, "edge: one token, ratio 2, A = -1"),
        ]
        ok += [related(two, {}, "edge: defaults left out", "defaults", "implicit"),
               related(two, dict(self.hyper_defaults), "edge: defaults passed", "defaults", "explicit")]
        for role, fill in (("as-given", (0.0, 0.0, 0.0)), ("changed", (nan, -inf, inf))):
            m = two["response_mask"]
            arrays = {k: np.where(m, two[k], v) for k, v in zip(FLOATS, fill)}
            ok.append(related({**arrays, "response_mask": m}, {"dual_clip": 3.0},
                              f"edge: padding {role.replace('-', ' ')}", "padding", role))
        z = lambda: f([[0.0, 0.0]])  # noqa: E731
        base = {"log_prob": z(), "old_log_prob": z(), "advantages": f([[1.0, -1.0]]),
                "response_mask": right_padded([2], 2)}
        bad = [("an unknown loss_agg_mode", {"loss_agg_mode": "sum"}),
               ("dual_clip = 1.0 (it must exceed 1)", {"dual_clip": 1.0}),
               ("dual_clip = 0.5", {"dual_clip": 0.5})]
        return ok + [Example(base, h, f"contract: {what}", invalid=what) for what, h in bad]  # type: ignore[arg-type]

    def shrink(self, ex: Example) -> list[Example]:
        if ex.invalid is not None:
            return []
        B, T = _mask(ex).shape
        out = single_rows(ex, B)
        longest = int(_mask(ex).sum(axis=1).max())
        if longest < T and _mode(ex) != "seq-mean-token-sum-norm":
            out.append(cut_tokens(ex, longest, T))
        return out

    def reference(self, ex: Example, framework: str) -> Expected:
        hyper = {**self.hyper_defaults, **ex.hyper}
        mode = hyper["loss_agg_mode"]
        c = hyper["dual_clip"]
        if mode not in MODES or (c is not None and not c > 1.0):
            return Expected({}, {}, error="invalid")
        mask = torch.from_numpy(_mask(ex).copy())
        new = torch.tensor(np.asarray(ex.arrays["log_prob"], dtype=np.float64), requires_grad=True)
        zero = torch.zeros((), dtype=torch.float64)
        clean = {k: torch.where(mask, torch.tensor(np.asarray(ex.arrays[k], dtype=np.float64)), zero)
                 for k in ("old_log_prob", "advantages")}
        loss, stats = policy_loss(torch.where(mask, new, zero), clean["old_log_prob"], clean["advantages"], mask,
                                  clip_low=hyper["clip_low"], clip_high=hyper["clip_high"], dual_clip=c,
                                  mode=mode.replace("-", "_"))
        loss.backward()
        outputs = {"loss": loss.detach().numpy(), "clip_frac": np.asarray(stats.clip_frac_active),
                   "approx_kl": np.asarray(stats.approx_kl), "ratio_min": np.asarray(stats.ratio_min),
                   "ratio_max": np.asarray(stats.ratio_max)}
        return Expected(outputs, {"log_prob": new.grad.numpy().copy(), "old_log_prob": None, "advantages": None})

    def extract(self, value, ex: Example, framework: str) -> dict:
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise OutputProblem("output-type", "compute_policy_loss must return (loss, stats); yours returned "
                                               f"{describe(value)}")
        loss, stats = value
        out = {"loss": self.scalar(loss, "torch")}
        if not isinstance(stats, dict):
            raise OutputProblem("output-type", f"stats must be a dict; yours is {describe(stats)}")
        missing = [k for k in STATS if k not in stats]
        if missing:
            raise OutputProblem("output-type", f"stats must have the keys {', '.join(STATS)}; yours lacks "
                                               f"{', '.join(missing)}")
        for k in STATS:
            out[k] = np.asarray(number(stats[k], f"stats[{k!r}]"))
        return out

    def checks(self) -> list[Check]:
        return [
            contract_check("an unknown mode or a dual_clip <= 1 raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your {field} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=("loss", *STATS)),
            Check("padding-nonfinite", "NaN, inf or huge values in padding reach neither outputs nor gradient",
                  "Padded slots may hold NaN, inf or huge log-probs, yet {detail}; replace padded entries with torch.where before "
                  "computing the ratio (NaN * 0 is NaN).",
                  applies=lambda ex: _ok(ex) and not _finite_pads(ex), custom=_finite_outputs),
            Check("clipped-objective", "the loss is -mean(min(r A, clip(r, 1 - eps, 1 + eps) A)) over valid tokens",
                  "With a symmetric band, no dual clip and token-mean, the loss is the mean over valid tokens of "
                  "-min(r A, clip(r, 1 - eps, 1 + eps) A); expected {expected}, got {got}.",
                  applies=lambda ex: _loss_case(ex), fields=("loss",)),
            Check("asymmetric-band", "clip_low bounds the ratio from below, clip_high from above",
                  "The band is [1 - clip_low, 1 + clip_high]; with clip_low = {clip_low} and clip_high = "
                  "{clip_high} your loss is {got}, expected {expected}.",
                  applies=lambda ex: _loss_case(ex, asymmetric=True), fields=("loss",)),
            Check("dual-clip-negative", "the dual clip floors the objective at c A where A < 0",
                  "With dual_clip = c, tokens with A < 0 have objective max(min(r A, clip(r) A), c A); "
                  "expected {expected}, got {got}.",
                  applies=lambda ex: (_loss_case(ex, dual=True) or _loss_case(ex, dual=True, asymmetric=True))
                  and _dual_active(ex), fields=("loss",)),
            Check("dual-clip-positive", "the dual clip leaves tokens with A > 0 alone",
                  "The dual clip acts on A < 0 only; with dual_clip set and positive advantages present your loss is "
                  "{got}, expected {expected}.",
                  applies=lambda ex: (_loss_case(ex, dual=True) or _loss_case(ex, dual=True, asymmetric=True))
                  and _dual_positive(ex) and not _dual_active(ex), fields=("loss",)),
            Check("aggregation-mode", "each loss_agg_mode weighs tokens as the prompt states",
                  "With loss_agg_mode = {loss_agg_mode!r} your loss is {got}, expected {expected}.",
                  applies=lambda ex: _loss_case(ex, mode=True), fields=("loss",)),
            Check("clip-frac", "clip_frac: share of valid tokens where the clipped branch is active",
                  "stats['clip_frac'] is the share of valid tokens with clip(r) A < r A (the clipped branch active "
                  "in the min, as verl, OpenRLHF and TRL log it); expected {expected}, got {got}.",
                  fields=("clip_frac",)),
            Check("approx-kl", "approx_kl is k3 = mean((r - 1) - log r) over valid tokens",
                  "stats['approx_kl'] is the k3 estimate mean((ratio - 1) - log ratio) over valid tokens (never "
                  "negative); expected {expected}, got {got}.", fields=("approx_kl",)),
            Check("ratio-extremes", "ratio_min and ratio_max are taken over valid tokens",
                  "stats['{field}'] must be the extreme of the ratio over valid tokens; expected {expected}, "
                  "got {got}.", fields=("ratio_min", "ratio_max")),
            *relation_check("defaults", "defaults clip_low = clip_high = 0.2, no dual clip, token-mean",
                            "Called without the keyword arguments your function must behave as with clip_low=0.2, "
                            "clip_high=0.2, dual_clip=None, loss_agg_mode='token-mean' passed: {detail}.",
                            "defaults", "implicit", "explicit", "called without them", "with the defaults passed"),
            *relation_check("padding-contents", "what padding holds changes neither loss, stats nor gradient",
                            "Positions where response_mask is False must not count, whatever they hold: {detail}.",
                            "padding", "changed", "as-given", "with NaN, -inf and inf in the padding",
                            "with zeros there"),
            Check("matches-reference", "loss and statistics match the reference on random batches",
                  "Your {field} differs from the reference: expected {expected}, got {got}.",
                  fields=("loss", *STATS)),
            *self.gradient_checks(),
        ]

    def axes(self, framework: str):
        """The loss under each mode (with its gradient), each statistic, each constant's gradient."""
        return mode_axes(MODES, _mode, "log_prob", STATS, self.constants)

    def kinks(self, ex: Example) -> dict:
        """Ratios on the band's edges and objectives tied with c A: every subgradient is right there."""
        lo, hi = 1 - ex.hyper.get("clip_low", 0.2), 1 + ex.hyper.get("clip_high", 0.2)
        with np.errstate(all="ignore"):  # padding may hold NaN or inf
            r = np.exp(np.asarray(ex.arrays["log_prob"], np.float64) - np.asarray(ex.arrays["old_log_prob"], np.float64))
            edge = (np.abs(r - lo) <= 1e-9) | (np.abs(r - hi) <= 1e-9)
            c = ex.hyper.get("dual_clip")
            if c is not None:
                edge |= np.abs(r - c) <= 1e-9
        return {"log_prob": edge & _mask(ex)}

    def grad_hint(self, name: str) -> str:
        return " Tokens where the clip (or the dual clip) is active get no gradient; padding gets 0, never NaN."


SPEC = PolicyLossFullSpec()
