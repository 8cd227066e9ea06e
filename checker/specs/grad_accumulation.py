"""Checker spec of the `grad-accumulation` drill: micro_batch_losses(loss_mat, loss_mask,
loss_agg_mode="token-mean") -> losses [R, M]. The loss each micro-batch must call backward on so that
gradients summed over a rank's M micro-batches and averaged over R data-parallel ranks equal the
gradient of the loss over the whole global batch: R * (the micro-batch's token sum) / N for token-mean,
R * (the sum of its rows' token means) / S for seq-mean-token-mean. NumPy and PyTorch; in PyTorch the
gradient w.r.t. loss_mat (of the losses' sum) is checked too."""
from __future__ import annotations

import numpy as np
import torch

from checker.reference.loss_scale import micro_batch_losses
from checker.sandbox.model import ReturnedArray
from checker.specs.base import (
    Axis,
    Check,
    Example,
    Expected,
    OutputProblem,
    close,
    contract_check,
    describe,
    first_where,
    relation_compare,
    rounded,
)
from checker.specs.losses import LossSpec, draw_array, grid

MODES = ("token-mean", "seq-mean-token-mean")
WORKED = "edge: worked example"
# [R=2, M=2, b=1, T=3]
WORKED_LOSS = [[[[1.0, 2.0, 3.0]], [[4.0, 2.0, 0.0]]], [[[1.0, 1.0, 0.0]], [[5.0, 0.0, 0.0]]]]
WORKED_LENGTHS = [[[3], [2]], [[2], [1]]]


def _mask(lengths, T: int) -> np.ndarray:
    return np.arange(T) < np.asarray(lengths)[..., None]


def _mode(ex: Example) -> str:
    return ex.hyper.get("loss_agg_mode", "token-mean")


def _finite_pads(ex: Example) -> bool:
    pads = ex.arrays["loss_mat"][~ex.arrays["loss_mask"]]
    return bool((np.isfinite(pads) & (np.abs(pads) < 1e3)).all())


def _tame(ex: Example) -> bool:
    return ex.invalid is None and _finite_pads(ex)


def _global(ex: Example) -> float:
    L, m = np.asarray(ex.arrays["loss_mat"], np.float64), ex.arrays["loss_mask"]
    if _mode(ex) == "token-mean":
        return float(np.where(m, L, 0.0).sum() / max(m.sum(), 1))
    counts = m.sum(-1)
    rows = np.where(counts > 0, np.where(m, L, 0.0).sum(-1) / np.maximum(counts, 1), 0.0)
    return float(rows.sum() / max((counts > 0).sum(), 1))


def _ddp_average(ex: Example, got: dict) -> str | None:
    losses = np.asarray(got["losses"], dtype=np.float64)
    R = losses.shape[0]
    total = float(losses.sum() / R)
    want = _global(ex)
    if close(np.asarray(total), np.asarray(want)).all():
        return None
    return (f"summed over each rank's micro-batches and averaged over the {R} ranks your losses give {total:.6g}, "
            f"but the {_mode(ex)} loss of the whole global batch is {want:.6g}")


class GradAccumulationSpec(LossSpec):
    drill_id = "grad-accumulation"
    function = "micro_batch_losses"
    positional = ("loss_mat", "loss_mask")
    hyper_defaults = {"loss_agg_mode": "token-mean"}
    roles = {"mask": ("loss_mask",), "nonfinite_padding": "padded losses may hold NaN and inf"}
    trainable = ("loss_mat",)
    constants = ()
    grad_of = ""
    output_fields = ("losses",)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            R, M, b, T = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(1, 5))
            lengths = np.array([draw(st.integers(1, T)) for _ in range(R * M * b)]).reshape(R, M, b)
            mask = _mask(lengths, T)
            loss = draw_array(draw, grid(-2.0, 3.0, 0.25), (R, M, b, T))
            if draw(st.booleans()):
                fill = draw(st.sampled_from([0.0, 1e4, -7.5, np.nan, np.inf]))
                loss = np.where(mask, loss, fill)
            if draw(st.integers(0, 4)) == 0:
                loss = loss.astype(np.float32)
            mode = draw(st.sampled_from([None, *MODES]))
            return Example({"loss_mat": loss, "loss_mask": mask}, {} if mode is None else {"loss_agg_mode": mode})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x, dtype=np.float64: np.asarray(x, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        worked = {"loss_mat": f(WORKED_LOSS), "loss_mask": _mask(WORKED_LENGTHS, 3)}
        poisoned = {"loss_mat": np.where(worked["loss_mask"], worked["loss_mat"], np.array([nan, inf, -inf])),
                    "loss_mask": worked["loss_mask"]}
        rng = np.random.default_rng(29)
        lengths = np.array([[[40, 1], [3, 3]], [[1, 1], [40, 40]], [[7, 2], [1, 39]]])
        mask = _mask(lengths, 40)
        skew = {"loss_mat": np.where(mask, np.round(rng.uniform(-1, 3, (3, 2, 2, 40)) * 4) / 4, nan), "loss_mask": mask}
        even = {"loss_mat": f([[[[1.0, 3.0]], [[2.0, 2.0]]]]), "loss_mask": _mask([[[2], [2]]], 2)}
        ok = []
        for mode in MODES:
            ok += [Example(worked, {"loss_agg_mode": mode}, f"{WORKED} ({mode})"),
                   Example(poisoned, {"loss_agg_mode": mode}, f"edge: NaN and inf in the padding ({mode})"),
                   Example(skew, {"loss_agg_mode": mode}, f"edge: 3 ranks x 2 micro-batches of 40-token and 1-token rows ({mode})"),
                   Example(even, {"loss_agg_mode": mode}, f"edge: one rank, two micro-batches of equal size ({mode})")]
        ok.append(Example({"loss_mat": f([[[[2.5]]]]), "loss_mask": _mask([[[1]]], 1)}, {}, "edge: one token in all"))
        ok.append(Example({"loss_mat": worked["loss_mat"].astype(np.float32), "loss_mask": worked["loss_mask"]}, {},
                          "edge: float32 losses"))
        ok += self.defaults_pair(worked, "the worked example")
        for role, fill in (("as-given", 0.0), ("changed", nan)):
            ok.append(Example({"loss_mat": np.where(skew["loss_mask"], skew["loss_mat"], fill), "loss_mask": skew["loss_mask"]},
                              {}, f"edge: 3 ranks, {'zeros' if role == 'as-given' else 'NaN'} in the padding",
                              relation=("padding", role)))
        bad = [("an unknown loss_agg_mode 'seq-mean'", {"loss_agg_mode": "seq-mean"})]
        return ok + [Example(worked, h, f"contract: {what}", invalid=what) for what, h in bad]

    def reference_loss(self, tensors: dict, hyper: dict):
        return micro_batch_losses(tensors["loss_mat"], tensors["loss_mask"] != 0, hyper["loss_agg_mode"])

    def reference(self, ex: Example, framework: str):
        if ex.invalid is not None or _mode(ex) not in MODES:
            return Expected({}, {}, error="invalid")
        hyper = {**self.hyper_defaults, **ex.hyper}
        t = torch.tensor(np.asarray(ex.arrays["loss_mat"], dtype=np.float64), requires_grad=framework == "torch")
        losses = self.reference_loss({"loss_mat": t, "loss_mask": torch.from_numpy(ex.arrays["loss_mask"].copy())},
                                     hyper)
        grads = {}
        if framework == "torch":
            losses.sum().backward()
            grads = {"loss_mat": t.grad.numpy().copy()}
        return Expected({"losses": losses.detach().numpy()}, grads)

    def extract(self, value, ex: Example, framework: str) -> dict:
        R, M = ex.arrays["loss_mask"].shape[:2]
        return {"losses": self.micro_array(value, framework, (R, M))}

    @staticmethod
    def micro_array(value, framework: str, shape: tuple) -> np.ndarray:
        want = "torch tensor" if framework == "torch" else "NumPy array"
        if not isinstance(value, ReturnedArray) or value.is_torch != (framework == "torch"):
            raise OutputProblem("output-type", f"losses must be a {want} of shape {shape}, one loss per "
                                               f"micro-batch; yours is {describe(value)}")
        if tuple(value.shape) != tuple(shape):
            raise OutputProblem("output-shape", f"losses must have shape {shape} (ranks x micro-batches); yours "
                                                f"has shape {tuple(value.shape)}")
        return np.asarray(value.plain(), dtype=np.float64)

    def shrink(self, ex: Example) -> list[Example]:
        if ex.invalid is not None:
            return []
        out = []
        L, m = ex.arrays["loss_mat"], ex.arrays["loss_mask"]
        R, M = m.shape[:2]
        if R > 1:
            out += [Example({"loss_mat": L[:2] if R > 2 else L[:1], "loss_mask": m[:2] if R > 2 else m[:1]},
                            dict(ex.hyper), ex.label)]
        if M > 1:
            out += [Example({"loss_mat": L[:, :M - 1], "loss_mask": m[:, :M - 1]}, dict(ex.hyper), ex.label)]
        return out + rounded(ex)

    def where(self, mismatch) -> str:
        if mismatch.field.startswith("grad:") and len(mismatch.index) == 4:
            r, mb, b, t = mismatch.index
            return f"rank {r}, micro-batch {mb}, row {b}, t = {t}"
        if len(mismatch.index) == 2:
            return f"rank {mismatch.index[0]}, micro-batch {mismatch.index[1]}"
        return ""

    def checks(self) -> list[Check]:
        return [
            contract_check("an unknown loss_agg_mode raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example ({label}) your losses{at} are {got}; they must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=("losses",)),
            Check("ddp-average", "summed per rank and averaged over ranks, the losses give the global batch's loss",
                  "DDP averages the accumulated gradients over ranks: {detail}.", applies=_tame, custom=_ddp_average),
            Check("token-mean", "token-mean: R times the micro-batch's token sum over the global token count",
                  "With token-mean, micro-batch (r, m) contributes R * (its sum over valid tokens) / N, N the "
                  "valid tokens of the global batch; yours{at} is {got}, expected {expected}.",
                  applies=lambda ex: _tame(ex) and _mode(ex) == "token-mean", fields=("losses",)),
            Check("seq-mean-token-mean", "seq-mean-token-mean: R times the sum of its rows' means over the global row count",
                  "With seq-mean-token-mean, micro-batch (r, m) contributes R * (the sum of its rows' token means) / S, "
                  "S the rows of the global batch; yours{at} is {got}, expected {expected}.",
                  applies=lambda ex: _tame(ex) and _mode(ex) == "seq-mean-token-mean", fields=("losses",)),
            Check("padding-nonfinite", "NaN and inf in padding do not reach the losses",
                  "Padded slots hold NaN or inf, yet {detail}: select with where(mask, x, 0), never multiply by "
                  "the mask (NaN * 0 is NaN).", applies=lambda ex: ex.invalid is None and not _finite_pads(ex),
                  custom=_finite_losses),
            Check("defaults", "the default mode is token-mean",
                  "Called without loss_agg_mode your function must behave as with loss_agg_mode='token-mean': "
                  "{detail}.", relation="defaults",
                  compare=relation_compare("implicit", "explicit", "called without it", "with it passed")),
            Check("padding-contents", "what padding holds does not matter",
                  "Positions where loss_mask is False must not count, whatever they hold: {detail}.", relation="padding",
                  compare=relation_compare("changed", "as-given", "with NaN in the padding", "with zeros there")),
            Check("matches-reference", "the losses match the reference on random batches",
                  "Your losses differ from the reference{at}: expected {expected}, got {got}.", fields=("losses",)),
            *self.gradient_checks(),
        ]

    def grad_hint(self, name: str) -> str:
        return (" The gradient of the losses' sum w.r.t. each valid token is R / N for token-mean (R / (S n_row) for "
                "seq-mean-token-mean) and 0 on padding: what DDP's average turns into 1 / N.")

    def axes(self, framework: str) -> list[Axis]:
        out = []
        for m in MODES:
            applies = (lambda k: lambda ex: _mode(ex) == k)(m)
            out.append(Axis(f"losses-{m}", f"the losses with {m}", "losses", applies, group=m))
            if framework == "torch":
                out.append(Axis(f"grad-{m}", f"the gradient with {m}", "grad:loss_mat", applies, group=m))
        return out


def _finite_losses(ex: Example, got: dict) -> str | None:
    x = np.asarray(got["losses"], dtype=np.float64)
    if np.isfinite(x).all():
        return None
    r, m = first_where(~np.isfinite(x))
    return f"on {ex.label} your loss for rank {r}, micro-batch {m} is {x[r, m]}"


SPEC = GradAccumulationSpec()
