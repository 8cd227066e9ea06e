"""Checker spec of the `actor-loss` drill (PyTorch): the RLHF actor loss compute_actor_loss(log_probs_new,
log_probs_old, advantages, response_mask=None, clip_range=0.2, reduction="token_mean") -> (loss, metrics),
with its reductions, its masked diagnostics and its ValueError input contract."""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import compute_actor_loss
from checker.specs.base import (
    Axis,
    Check,
    Example,
    Expected,
    OutputProblem,
    close,
    contract_check,
    describe,
    relation_compare,
)
from checker.specs.losses import LossSpec, draw_array, grid

METRICS = ("approx_kl", "clip_fraction", "valid_tokens")


K3_CLAMP = 10.0  # verl's low_var_kl and OpenRLHF's compute_approx_kl clamp each token's k3 to [-10, 10]


def _k3_means(ex: Example) -> tuple[float, float] | None:
    """approx_kl over the valid tokens, as the prompt defines it and with each token's k3 clamped at 10
    (computed once per example)."""
    if "_k3_means" not in ex.__dict__:
        ex.__dict__["_k3_means"] = _compute_k3_means(ex)
    return ex.__dict__["_k3_means"]


def _compute_k3_means(ex: Example) -> tuple[float, float] | None:
    new, old = ex.arrays.get("log_probs_new"), ex.arrays.get("log_probs_old")
    if new is None or old is None or new.shape != old.shape or new.ndim != 2 or new.size == 0:
        return None
    mask = ex.arrays.get("response_mask")
    mask = np.ones(new.shape, dtype=bool) if mask is None else mask.astype(bool)
    if mask.shape != new.shape or not mask.any():
        return None
    with np.errstate(all="ignore"):
        lr = (new - old)[mask]
        k3 = np.expm1(lr) - lr
    return float(k3.mean()), float(np.clip(k3, -K3_CLAMP, K3_CLAMP).mean())


def _k3_convention(value: np.ndarray, ex: Example) -> np.ndarray:
    """Both conventions are right (the prompt says so): an approx_kl equal to the clamped mean where the two
    differ is read as the unclamped one, so every check and the diagnosis see one convention."""
    means = _k3_means(ex)
    if means is None or means[0] == means[1]:
        return value
    plain, clamped = means
    if close(np.asarray(value), np.asarray(clamped)).all() and not close(np.asarray(value), np.asarray(plain)).all():
        return np.asarray(plain)
    return value


def _reduction(ex: Example) -> str:
    return ex.hyper.get("reduction", "token_mean")


class ActorLossSpec(LossSpec):
    drill_id = "actor-loss"
    function = "compute_actor_loss"
    positional = ("log_probs_new", "log_probs_old", "advantages", "response_mask")
    roles = {
        "new_logp": ("log_probs_new",),
        "old_logp": ("log_probs_old",),
        "logp_extremes": True,
        "advantages": ("advantages",),
        "mask": ("response_mask",),
        "nonfinite_padding": "a padded ratio may overflow",
        "strict_comparisons": "a token counts as clipped when |ratio - 1| > clip_range",
        "card:strict-comparison": "diag-clip-fraction-definitions",
    }
    hyper_defaults = {"clip_range": 0.2, "reduction": "token_mean"}
    trainable = ("log_probs_new",)
    constants = ("log_probs_old", "advantages")
    grad_of = "0"
    output_fields = ("loss", *METRICS)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 3)), draw(st.integers(1, 6))
            old = draw_array(draw, grid(-3.0, -0.125, 0.125), (B, T))
            lr = draw_array(draw, grid(-0.75, 0.75, 0.0625), (B, T))
            adv = draw_array(draw, grid(-2.0, 2.0, 0.25), (B, T))
            arrays = {"log_probs_new": old + lr, "log_probs_old": old, "advantages": adv}
            if draw(st.booleans()) or B * T == 1:
                mask = np.array(draw(st.lists(st.booleans(), min_size=B * T, max_size=B * T))).reshape(B, T)
                for b in range(B):
                    if not mask[b].any():
                        mask[b, draw(st.integers(0, T - 1))] = True
                arrays["response_mask"] = mask
            hyper = {"clip_range": draw(st.sampled_from([0.2, 0.2, 0.1, 0.3])),
                     "reduction": draw(st.sampled_from(["token_mean", "sequence_mean"]))}
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        t = lambda rows: np.asarray(rows, dtype=np.float64)  # noqa: E731
        seed_new, seed_old = t([[-2.0, -1.5], [-1.0, -0.5]]), t([[-2.1, -1.4], [-1.0, -0.6]])
        seed_adv, seed_mask = t([[1.0, 0.5], [-1.0, -0.5]]), np.array([[True, False], [True, True]])
        var_mask = np.array([[True, True], [True, False]])
        tr_old, tr_new = t([[-1.0, -1.2, -0.8], [-0.7, -1.1, -1.4]]), t([[-1.0, -0.9, -1.2], [-0.6, -1.5, -1.4]])
        tr_adv, tr_mask = t([[1.0, -0.5, 0.8], [-1.0, 0.4, 0.3]]), np.array([[True, True, False], [True, True, True]])
        ok = [
            Example({"log_probs_new": seed_new, "log_probs_old": seed_old, "advantages": seed_adv,
                     "response_mask": seed_mask}, {"clip_range": 0.2}, "edge: worked case, one padded token"),
            Example({"log_probs_new": np.log([[2.0]]), "log_probs_old": t([[0.0]]), "advantages": t([[1.0]])}, {},
                    "edge: worked case, ratio 2 with A = +1 (loss -1.2)"),
            Example({"log_probs_new": np.log([[0.5]]), "log_probs_old": t([[0.0]]), "advantages": t([[-1.0]])}, {},
                    "edge: worked case, ratio 0.5 with A = -1 (loss 0.8)"),
            Example({"log_probs_new": t([[0.0, 0.0], [0.0, 0.0]]), "log_probs_old": t([[0.0, 0.0], [0.0, 0.0]]),
                     "advantages": t([[1.0, 1.0], [3.0, 0.0]]), "response_mask": var_mask},
                    {"reduction": "token_mean"}, "edge: worked case, token_mean of variable lengths (-5/3)"),
            Example({"log_probs_new": t([[0.0, 0.0], [0.0, 0.0]]), "log_probs_old": t([[0.0, 0.0], [0.0, 0.0]]),
                     "advantages": t([[1.0, 1.0], [3.0, 0.0]]), "response_mask": var_mask},
                    {"reduction": "sequence_mean"}, "edge: worked case, sequence_mean of variable lengths (-2.0)"),
            Example({"log_probs_new": tr_new, "log_probs_old": tr_old, "advantages": tr_adv, "response_mask": tr_mask},
                    {"clip_range": 0.2}, "edge: worked case, the TorchRL cross-check"),
            Example({"log_probs_new": t([[-0.5, -7.0, -9.0]]), "log_probs_old": t([[-1.0, 0.5, 3.0]]),
                     "advantages": t([[1.0, -2.0, 2.0]]), "response_mask": np.array([[True, False, False]])},
                    {"clip_range": 0.2, "reduction": "sequence_mean"}, "edge: far-off values in the padding"),
            *(Example({"log_probs_new": t([[-1.0, 0.0]]), "log_probs_old": t([[-1.2, -709.0]]),
                       "advantages": t([[1.0, -3.0]]), "response_mask": np.array([[True, False]])},
                      {"clip_range": 0.2, "reduction": reduction},
                      f"edge: a padded ratio whose product with A overflows ({reduction})")
              for reduction in ("token_mean", "sequence_mean")),
            # a second such batch per reduction: a slip in one reduction alone has two examples to show on
            *(Example({"log_probs_new": t([[-1.0, -0.5, 0.0], [-0.8, 0.0, 0.0]]),
                       "log_probs_old": t([[-0.9, -0.6, -709.0], [-1.0, -709.0, -709.0]]),
                       "advantages": t([[1.0, -0.5, -3.0], [2.0, -4.0, -5.0]]),
                       "response_mask": np.array([[True, True, False], [True, False, False]])},
                      {"clip_range": 0.2, "reduction": reduction},
                      f"edge: padded ratios whose products with A overflow, two rows ({reduction})")
              for reduction in ("token_mean", "sequence_mean")),
            Example({"log_probs_new": t([[-1.5], [-0.5], [-1.0]]), "log_probs_old": t([[-1.0], [-1.0], [-1.0]]),
                     "advantages": t([[1.0], [-1.0], [0.5]])}, {"clip_range": 0.2}, "edge: single-token rows"),
        ]
        big_old = t([[-1.0, -2.0, -1.5], [-1.0, -0.5, -2.0]])
        big_new = big_old + np.log(t([[12.0, 20.0, 4.0], [7.0, 1.0, 0.5]]))
        big_adv = t([[-1.0, -2.0, -0.5], [-1.0, 1.0, 1.0]])
        for reduction in ("token_mean", "sequence_mean"):
            ok.append(Example({"log_probs_new": big_new, "log_probs_old": big_old, "advantages": big_adv,
                               "response_mask": np.array([[True, True, True], [True, True, False]])},
                              {"clip_range": 0.2, "reduction": reduction}, f"edge: huge ratios with A < 0 ({reduction})"))
            ok.append(Example({"log_probs_new": t([[-0.5, 1.0]]) + np.log(t([[16.0, 30.0]])),
                               "log_probs_old": t([[-0.5, 1.0]]), "advantages": t([[-0.5, -1.5]])},
                              {"clip_range": 0.1, "reduction": reduction},
                              f"edge: huge ratios with A < 0, no mask ({reduction})"))
        for reduction in ("token_mean", "sequence_mean"):
            # every ratio exactly 1 and clip_range = 0: on the band's edge, where |ratio - 1| > clip_range is
            # false and >= would count every token
            ok.append(Example({"log_probs_new": tr_old.copy(), "log_probs_old": tr_old, "advantages": tr_adv,
                               "response_mask": tr_mask}, {"clip_range": 0.0, "reduction": reduction},
                              f"edge: every ratio exactly 1 with clip_range = 0 ({reduction})"))
            # log-probs near -1000, where exp underflows to 0 but the ratio is ordinary
            ok.append(Example({"log_probs_new": t([[-1000.2, -999.5, -1001.0], [-998.7, -1000.0, -1000.3]]),
                               "log_probs_old": t([[-1000.0, -1000.0, -1000.5], [-999.0, -999.8, -1000.0]]),
                               "advantages": tr_adv, "response_mask": tr_mask},
                              {"clip_range": 0.2, "reduction": reduction},
                              f"edge: log-probs near -1000 ({reduction})"))
        ok += self.defaults_pair({"log_probs_new": tr_new, "log_probs_old": tr_old, "advantages": tr_adv,
                                  "response_mask": tr_mask}, "default clip_range and reduction")
        for role, mask in (("none", None), ("all-true", np.ones((2, 3), dtype=bool))):
            arrays = {"log_probs_new": tr_new, "log_probs_old": tr_old, "advantages": tr_adv}
            if mask is not None:
                arrays["response_mask"] = mask
            ok.append(Example(arrays, {"clip_range": 0.2, "reduction": "sequence_mean"},
                              f"edge: response_mask {'left out' if mask is None else 'all True'}",
                              relation=("mask-none", role)))
        pad_mask = np.array([[True, True, False], [True, False, False]])
        for role, fill in (("as-given", 0.0), ("changed", 1.0)):
            arrays = {"log_probs_new": np.where(pad_mask, tr_new, tr_new - 2.0 * fill),
                      "log_probs_old": np.where(pad_mask, tr_old, tr_old + 1.5 * fill),
                      "advantages": np.where(pad_mask, tr_adv, tr_adv + 3.0 * fill), "response_mask": pad_mask}
            for reduction in ("token_mean", "sequence_mean"):
                ok.append(Example(dict(arrays), {"clip_range": 0.2, "reduction": reduction},
                                  f"edge: padding {'as given' if not fill else 'holding other values'} ({reduction})",
                                  relation=(f"padding-{reduction}", role)))
        z = lambda *shape: np.zeros(shape)  # noqa: E731
        one = np.ones((1, 1))
        bad = [
            ("log-probs of different shapes", {"log_probs_new": z(1, 2), "log_probs_old": z(1, 1),
                                               "advantages": z(1, 2)}, {}),
            ("an empty batch", {"log_probs_new": z(0, 2), "log_probs_old": z(0, 2), "advantages": z(0, 2)}, {}),
            ("1-D log-probs", {"log_probs_new": z(3), "log_probs_old": z(3), "advantages": z(3)}, {}),
            ("a NaN in log_probs_new", {"log_probs_new": np.full((1, 1), np.nan), "log_probs_old": z(1, 1),
                                        "advantages": one}, {}),
            ("an inf in advantages", {"log_probs_new": z(1, 1), "log_probs_old": z(1, 1),
                                      "advantages": np.full((1, 1), np.inf)}, {}),
            ("a float (non-boolean) mask", {"log_probs_new": z(1, 1), "log_probs_old": z(1, 1), "advantages": one,
                                            "response_mask": np.ones((1, 1))}, {}),
            ("a response with no valid token", {"log_probs_new": z(2, 2), "log_probs_old": z(2, 2),
                                                "advantages": np.ones((2, 2)),
                                                "response_mask": np.array([[True, False], [False, False]])}, {}),
            ("an infinite clip_range", {"log_probs_new": z(1, 1), "log_probs_old": z(1, 1), "advantages": one},
             {"clip_range": float("inf")}),
            ("a negative clip_range", {"log_probs_new": z(1, 1), "log_probs_old": z(1, 1), "advantages": one},
             {"clip_range": -0.1}),
            ("an unknown reduction", {"log_probs_new": z(1, 1), "log_probs_old": z(1, 1), "advantages": one},
             {"reduction": "sum"}),
        ]
        return ok + [Example(a, h, f"contract: {what}", invalid=what) for what, a, h in bad]  # type: ignore[arg-type]

    def shrink(self, ex: Example) -> list[Example]:
        if ex.invalid is not None:
            return []
        out = []
        B = ex.arrays["log_probs_new"].shape[0]
        if B > 1:
            for b in range(B):
                out.append(Example({k: v[b:b + 1] for k, v in ex.arrays.items()}, dict(ex.hyper), ex.label))
        for k in (1, 0):
            arrays = {n: (np.round(v, k) + 0.0 if v.dtype != bool else v) for n, v in ex.arrays.items()}
            out.append(Example(arrays, dict(ex.hyper), ex.label))
        return out

    def reference(self, ex: Example, framework: str) -> Expected:
        hyper = {**self.hyper_defaults, **ex.hyper}
        new = torch.tensor(ex.arrays["log_probs_new"], dtype=torch.float64, requires_grad=ex.invalid is None)
        old = torch.tensor(ex.arrays["log_probs_old"], dtype=torch.float64)
        adv = torch.tensor(ex.arrays["advantages"], dtype=torch.float64)
        m = ex.arrays.get("response_mask")
        mask = None if m is None else torch.from_numpy(m.copy())
        try:
            loss, metrics = compute_actor_loss(new, old, adv, mask, hyper["clip_range"], hyper["reduction"])
        except ValueError as exc:
            return Expected({}, {}, error=str(exc))
        loss.backward()
        outputs = {"loss": loss.detach().numpy(), **{k: np.asarray(float(metrics[k])) for k in METRICS}}
        return Expected(outputs, {"log_probs_new": new.grad.numpy().copy(), "log_probs_old": None, "advantages": None})

    def as_shown(self, outputs: dict, ex: Example) -> dict:
        """valid_tokens is a count: compared as a float, shown as the integer it is."""
        shown = dict(outputs)
        count = outputs.get("valid_tokens")
        try:
            if count is not None and float(count) == int(float(count)):
                shown["valid_tokens"] = int(float(count))
        except (TypeError, ValueError, OverflowError):
            pass
        return shown

    def extract(self, value, ex: Example, framework: str) -> dict:
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise OutputProblem("output-type", "compute_actor_loss must return (loss, metrics); yours returned "
                                               f"{describe(value)}")
        loss, metrics = value
        out = {"loss": self.scalar(loss, "torch")}
        if not isinstance(metrics, dict):
            raise OutputProblem("output-type", f"metrics must be a dict; yours is {describe(metrics)}")
        missing = [k for k in METRICS if k not in metrics]
        if missing:
            raise OutputProblem("output-type", f"metrics must have the keys {', '.join(METRICS)}; "
                                               f"yours lacks {', '.join(missing)}")
        for k in METRICS:
            out[k] = self.number(metrics[k], f"metrics[{k!r}]")
        out["approx_kl"] = _k3_convention(out["approx_kl"], ex)
        return out

    def checks(self) -> list[Check]:
        return [
            contract_check("invalid inputs raise ValueError"),
            Check("seed-003-values", "reproduces the worked test values",
                  "On a worked test case ({label}), your {field} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked case"), fields=("loss", *METRICS)),
            Check("token-mean", "token_mean averages over every valid token of the batch",
                  "With reduction='token_mean' the loss must be the mean over all valid tokens of "
                  "-min(r A, clip(r) A); expected {expected}, got {got}.",
                  applies=lambda ex: ex.invalid is None and _reduction(ex) == "token_mean", fields=("loss",)),
            Check("sequence-mean", "sequence_mean averages each response first, then the responses",
                  "With reduction='sequence_mean' each response's valid tokens are averaged first and then the "
                  "responses are averaged; expected {expected}, got {got}.",
                  applies=lambda ex: ex.invalid is None and _reduction(ex) == "sequence_mean", fields=("loss",)),
            Check("padding-ignored", "padded positions change neither the loss nor the metrics",
                  "Positions where response_mask is False must not count, whatever they hold: {detail}.",
                  relation="padding-token_mean", compare=relation_compare(
                      "changed", "as-given", "with other values in the padding (token_mean)", "with the padding as given")),
            Check("padding-ignored-sequence-mean", "padded positions change nothing with sequence_mean either",
                  "Positions where response_mask is False must not count, whatever they hold: {detail}.",
                  relation="padding-sequence_mean", compare=relation_compare(
                      "changed", "as-given", "with other values in the padding (sequence_mean)",
                      "with the padding as given")),
            Check("mask-default", "response_mask=None means every token is valid",
                  "Leaving response_mask out must behave as an all-True mask: {detail}.",
                  relation="mask-none", compare=relation_compare("none", "all-true", "without a mask",
                                                                 "with an all-True mask")),
            Check("defaults", "defaults clip_range = 0.2, reduction = 'token_mean'",
                  "Called without clip_range and reduction your function must behave as with clip_range=0.2, "
                  "reduction='token_mean' passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without them",
                                                                "with the defaults passed")),
            Check("approx-kl", "approx_kl is k3 = mean(ratio - 1 - log ratio) over valid tokens",
                  "metrics['approx_kl'] must be the k3 estimate mean((ratio - 1) - log ratio) over valid tokens "
                  "(never negative); expected {expected}, got {got}.", fields=("approx_kl",)),
            Check("clip-fraction", "clip_fraction counts |ratio - 1| > clip_range over valid tokens",
                  "metrics['clip_fraction'] is the share of valid tokens with |ratio - 1| > clip_range (the "
                  "outside-the-band definition, on both sides of the band); expected {expected}, got {got}.",
                  fields=("clip_fraction",)),
            Check("valid-tokens", "valid_tokens counts the mask's True positions",
                  "metrics['valid_tokens'] must be the number of valid tokens; expected {expected}, got {got}.",
                  fields=("valid_tokens",)),
            Check("matches-reference", "loss and metrics match the reference on random batches",
                  "Your {field} differs from the reference: expected {expected}, got {got}.",
                  fields=("loss", *METRICS)),
            *self.gradient_checks(),
        ]


    # ---- diagnosis ------------------------------------------------------------------------------
    def axes(self, framework: str) -> list[Axis]:
        """Each reduction mode (loss and its gradient), each metric, and each constant's gradient."""
        tm = lambda ex: _reduction(ex) == "token_mean"  # noqa: E731
        sm = lambda ex: _reduction(ex) == "sequence_mean"  # noqa: E731
        return [
            Axis("loss-token-mean", "the loss with token_mean", "loss", applies=tm, group="token_mean"),
            Axis("grad-token-mean", "the gradient w.r.t. log_probs_new with token_mean", "grad:log_probs_new",
                 applies=tm, group="token_mean"),
            Axis("loss-sequence-mean", "the loss with sequence_mean", "loss", applies=sm, group="sequence_mean"),
            Axis("grad-sequence-mean", "the gradient w.r.t. log_probs_new with sequence_mean", "grad:log_probs_new",
                 applies=sm, group="sequence_mean"),
            Axis("approx-kl", "metrics['approx_kl']", "approx_kl", group="approx_kl"),
            Axis("clip-fraction", "metrics['clip_fraction']", "clip_fraction", group="clip_fraction"),
            Axis("valid-tokens", "metrics['valid_tokens']", "valid_tokens", group="valid_tokens"),
            Axis("nograd:log_probs_old", "the gradient reaching log_probs_old", "nograd:log_probs_old",
                 group="nograd:log_probs_old"),
            Axis("nograd:advantages", "the gradient reaching advantages", "nograd:advantages",
                 group="nograd:advantages"),
        ]

    def kinks(self, ex: Example) -> dict:
        r = np.exp(ex.arrays["log_probs_new"] - ex.arrays["log_probs_old"])
        e = ex.hyper.get("clip_range", 0.2)
        return {"log_probs_new": (np.abs(r - (1 + e)) <= 1e-9) | (np.abs(r - (1 - e)) <= 1e-9),
                "advantages": ex.arrays["advantages"] == 0}


SPEC = ActorLossSpec()
