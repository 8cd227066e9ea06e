"""Checker spec of the `ppo-update` drill: ppo_update(problem, theta, phi, obs, actions, advantages, returns,
minibatches, lr=0.5, clip_eps=0.2, max_grad_norm=0.5, target_kl=None) -> (theta, phi, history), the PPO
update loop on a tiny linear-softmax policy and linear critic (`checker/reference/update_loop.py`).

The answer receives a trusted problem object (log-probs, values, the loss and, in NumPy, its gradient) built
here and handed over with the call; it holds only formulas, never a result. The loop is judged by what it
produces on small fixed problems: the parameters after the update, each epoch's statistics and how many
epochs ran, never by its text. The examples are built so that each property shows on its own: one SGD
step on the whole batch (whitening, gradient clipping), several epochs of one full-batch minibatch with
pre-whitened advantages (the statistics), several minibatches per epoch without clipping (the frozen
old log-probs and values, the whitening scope, the minibatch order), and a target_kl placed between two
epochs' mean KLs (the early stop).
"""
from __future__ import annotations

import functools
import math

import numpy as np
import torch

from checker.reference.update_loop import (
    NUMPY_PROBLEM,
    TORCH_PROBLEM,
    reference_update,
    whiten,
)
from checker.report import fmt
from checker.sandbox.model import Call
from checker.specs.base import (
    Axis,
    Check,
    Example,
    Expected,
    OutputProblem,
    describe,
    relation_compare,
)
from checker.specs.pref_base import NamedOutputsSpec

NO_CLIP = 1e6   # a max_grad_norm no gradient of these problems reaches
ARRAYS = ("theta", "phi", "obs", "actions", "advantages", "returns", "minibatches")
DEFAULTS = {"lr": 0.5, "clip_eps": 0.2, "max_grad_norm": 0.5, "target_kl": None}

# The prompt's worked example: D = 2 features, K = 2 actions, B = 4 samples, 2 epochs of 2 minibatches.
WORKED = {
    "theta": [[0.0, 0.0], [0.0, 0.0]], "phi": [0.0, 0.0],
    "obs": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, -1.0]], "actions": [0, 1, 1, 0],
    "advantages": [2.0, -1.0, 1.0, 0.0], "returns": [1.0, 0.0, 1.0, -1.0],
    "minibatches": [[[0, 1], [2, 3]], [[3, 1], [0, 2]]],
}


def worked_arrays() -> dict:
    return {k: np.asarray(v, dtype=np.int64 if k in ("actions", "minibatches") else np.float64)
            for k, v in WORKED.items()}


def _hyper(ex: Example) -> dict:
    return {**DEFAULTS, **ex.hyper}


def _shape(ex: Example) -> tuple[int, int]:
    mb = ex.arrays["minibatches"]
    return int(mb.shape[0]), int(mb.shape[1])


def _unclipped(ex: Example) -> bool:
    return _hyper(ex)["max_grad_norm"] >= NO_CLIP


def _prewhitened(ex: Example) -> bool:
    a = ex.arrays["advantages"]
    return a.size > 1 and abs(float(a.mean())) < 1e-12 and abs(float(a.std(ddof=1)) - 1.0) < 1e-12


def _first_grad_norm(ex: Example) -> float:
    """The norm of the first minibatch's gradient (before any clipping)."""
    a = ex.arrays
    idx = a["minibatches"][0, 0]
    p = NUMPY_PROBLEM
    old_logp, old_v = p.logp(a["theta"], a["obs"], a["actions"]), p.value(a["phi"], a["obs"])
    _, gt, gp = p.loss_and_grad(a["theta"], a["phi"], a["obs"][idx], a["actions"][idx], old_logp[idx], old_v[idx],
                                whiten(a["advantages"])[idx], a["returns"][idx], _hyper(ex)["clip_eps"])
    return math.sqrt(float((gt ** 2).sum() + (gp ** 2).sum()))


def _one_step(ex: Example) -> bool:
    return ex.invalid is None and _shape(ex) == (1, 1) and ex.relation is None


def _stats_case(ex: Example) -> bool:
    """Several epochs of one full-batch minibatch, no clipping, no early stop, pre-whitened advantages:
    the statistics depend on nothing but the frozen old log-probs, the estimator and the per-epoch means."""
    e, m = _shape(ex)
    return e >= 2 and m == 1 and _unclipped(ex) and _prewhitened(ex) and _hyper(ex)["target_kl"] is None


def _minibatch_case(ex: Example) -> bool:
    """Several minibatches per epoch, no gradient clipping, no early stop."""
    return _shape(ex)[1] >= 2 and _unclipped(ex) and _hyper(ex)["target_kl"] is None


def build(rng: np.random.Generator, D: int = 3, K: int = 3, B: int = 6, epochs: int = 2, n_mb: int = 2,
          prewhiten: bool = False) -> dict:
    """A small problem: rounded parameters, observations, actions, advantages, returns, and the minibatch
    order, a fresh permutation of the batch per epoch."""
    arrays = {
        "theta": np.round(rng.normal(0.0, 0.5, (D, K)), 2), "phi": np.round(rng.normal(0.0, 0.5, D), 2),
        "obs": np.round(rng.normal(0.0, 1.0, (B, D)), 2), "actions": rng.integers(0, K, B).astype(np.int64),
        "advantages": np.round(rng.normal(0.3, 1.5, B), 2), "returns": np.round(rng.normal(0.0, 1.0, B), 2),
        "minibatches": np.stack([rng.permutation(B).reshape(n_mb, B // n_mb) for _ in range(epochs)]).astype(np.int64),
    }
    if prewhiten:
        a = arrays["advantages"]
        arrays["advantages"] = (a - a.mean()) / a.std(ddof=1)
    return arrays


def place_target(arrays: dict, hyper: dict, stop_after: int) -> float | None:
    """A target_kl between the mean KLs of the epochs before `stop_after` and that epoch's, clear of both
    (so no rounding can move the stop); None when the KLs do not allow a stop there."""
    kls = reference_update(**arrays, **{**DEFAULTS, **hyper, "target_kl": None})[2]
    kls = [h["approx_kl"] for h in kls]
    hi = kls[stop_after - 1]
    lo = max(kls[:stop_after - 1], default=hi / 4)
    if not hi > 1.05 * lo or hi <= 1e-6:
        return None
    target = math.sqrt(hi * lo) if lo > 0 else hi / 2
    return float(f"{target:.3g}") if lo < float(f"{target:.3g}") < hi else target


STOP_SEED, STOP_TARGET = 30, 0.00413  # the early-stop relation's run: the reference stops after epoch 2
WORKED_TARGET = 0.005


def _early_stop_compare(got: dict, where=None) -> str | None:
    """The stopped run against the same run cut after each number of epochs, all of them the answer's own:
    it must stop after the first epoch whose own mean approx KL exceeds target_kl, with that epoch run in
    full and nothing of the next."""
    if "stopped" not in got:
        return None
    run = got["stopped"]
    kls, ran, target = [float(x) for x in run["own_kl"]], int(run["epochs"]), STOP_TARGET
    first = next((e + 1 for e, k in enumerate(kls) if k > target), None)
    if first is not None and first < ran:
        return (f"with target_kl = {target} your own approx KL of epoch {first} is {fmt(kls[first - 1])}, above the "
                f"target, yet your loop went on to run {ran} epochs: stop after the epoch whose mean KL exceeds it")
    if first is None and ran < 3:
        return (f"with target_kl = {target} your own per-epoch approx KLs {fmt(np.array(kls))} never exceed the "
                f"target, yet your loop stopped after {ran} of 3 epochs")
    cut = got.get(f"upto{ran}")
    if cut is None:
        return None
    for key in ("theta", "phi"):
        a, b = np.asarray(run[key]), np.asarray(cut[key])
        if a.shape != b.shape or not np.allclose(a, b, rtol=1e-5, atol=1e-6):
            return (f"with target_kl = {target} your loop stopped after epoch {ran}, but its {key} is not that of the "
                    f"same run cut to {ran} epochs ({fmt(a)} against {fmt(b)}): the epoch whose mean KL crosses the "
                    "target runs in full, and no minibatch of the next one runs")
    return None


@functools.lru_cache(maxsize=1)
def _edge_cases() -> tuple[Example, ...]:
    """The hand-built runs (the same for both frameworks; built once, they take a few reference runs)."""
    worked = worked_arrays()
    rng = np.random.default_rng

    def ex(arrays, label, **hyper):
        return Example(arrays, hyper, f"edge: {label}")

    out = [ex(worked, "worked example"), ex(worked, f"worked example with target_kl = {WORKED_TARGET}",
                                           target_kl=WORKED_TARGET)]
    # One SGD step on the whole batch: the whitening and the gradient clipping, each alone.
    out += [ex(build(rng(s), B=6, epochs=1, n_mb=1), "one step on the whole batch, advantages to whiten",
               max_grad_norm=NO_CLIP) for s in (1, 2)]
    out += [ex(build(rng(s), B=6, epochs=1, n_mb=1, prewhiten=True), "one step, the gradient clipped",
               max_grad_norm=0.1) for s in (3, 4)]
    # Several epochs of one full-batch minibatch: the statistics.
    out += [ex(build(rng(s), B=6, epochs=3, n_mb=1, prewhiten=True), "three epochs of the whole batch",
               max_grad_norm=NO_CLIP) for s in (5,)]
    # Several minibatches per epoch, no clipping: frozen old log-probs and values, whitening scope, order.
    out += [ex(build(rng(s), B=6, epochs=e, n_mb=m), f"{e} epochs of {m} minibatches, no clipping",
               max_grad_norm=NO_CLIP) for s, e, m in ((9, 2, 2), (11, 1, 3))]
    # Several minibatches with the gradient clipped: theta and phi share one norm.
    out += [ex(build(rng(s), B=6, epochs=1, n_mb=3), "3 minibatches, the gradient clipped",
               lr=1.0, clip_eps=0.1, max_grad_norm=0.3) for s in (19, 20)]
    # A stop after epoch 2 whose target one minibatch of epoch 1 already exceeds (its mean does not).
    out.append(ex(build(rng(33), B=6, epochs=3, n_mb=2), "target_kl reached in epoch 2, by one minibatch in epoch 1",
                  target_kl=0.00239))
    # The same kind of stop as a relation on the answer's own runs: the stopped run must equal the same run
    # cut after the first epoch whose own mean approx KL exceeds target_kl.
    arrays = build(rng(STOP_SEED), B=6, epochs=3, n_mb=2)
    out.append(Example(arrays, {"target_kl": STOP_TARGET}, "edge: target_kl reached in epoch 2, by one minibatch "
                       "in epoch 1", relation=("early-stop", "stopped")))
    for cut in (1, 2):
        out.append(Example({**arrays, "minibatches": arrays["minibatches"][:cut].copy()}, {},
                           f"edge: the same run cut to {cut} epochs, no target_kl",
                           relation=("early-stop", f"upto{cut}")))
    # target_kl = 0 with one minibatch per epoch: epoch 1 is measured before any update, so its mean KL is
    # exactly 0, which does not exceed the target (the comparison is strict) and the loop goes on
    out += [ex(build(rng(s), B=6, epochs=3, n_mb=1), "target_kl = 0: epoch 1's mean KL is exactly 0",
               target_kl=0.0) for s in (41, 42)]
    out += SPEC.defaults_pair(build(rng(18), B=4, epochs=1, n_mb=2), "a one-epoch run")
    return tuple(out)


class PpoUpdateSpec(NamedOutputsSpec):
    drill_id = "ppo-update"
    function = "ppo_update"
    positional = ("problem", *ARRAYS)
    roles = {"std_convention": "the unbiased std of the advantages (torch's default, NumPy's ddof=1)",
             "whitening": True,
             "strict_comparisons": "a sample is clipped when |ratio - 1| > clip_eps, and the loop stops when an "
                                   "epoch's mean KL is > target_kl",
             "card:std-bessel-correction": "loop-advantage-whitening", "card:strict-comparison": "loop-early-stop-when"}
    hyper_defaults = dict(DEFAULTS)
    output_fields = ("theta", "phi", "epochs", "approx_kl", "clip_frac")
    random_examples = 3  # each example is a whole training run; the edge cases carry the properties

    # ---- inputs ------------------------------------------------------------------------------------
    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
            D, K = draw(st.sampled_from([(2, 2), (2, 3), (3, 3)]))
            B, n_mb = draw(st.sampled_from([(4, 1), (4, 2), (6, 2), (6, 3)]))
            epochs = draw(st.integers(1, 2 if n_mb == 3 else 3))
            arrays = build(rng, D, K, B, epochs, n_mb, prewhiten=draw(st.booleans()))
            hyper = {}
            for key, options in (("lr", [0.2, 1.0]), ("clip_eps", [0.1, 0.3]), ("max_grad_norm", [2.0, NO_CLIP])):
                choice = draw(st.sampled_from(["default", *options]))
                if choice != "default":
                    hyper[key] = choice
            if epochs >= 2 and draw(st.booleans()):
                target = place_target(arrays, hyper, draw(st.integers(1, epochs - 1)))
                if target is not None:
                    hyper["target_kl"] = target
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        return list(_edge_cases())


    def shrink(self, ex: Example) -> list[Example]:
        return []  # the edge cases are already small whole runs; a shorter run is another problem

    # ---- running -----------------------------------------------------------------------------------
    def to_call(self, ex: Example, framework: str) -> Call:
        if framework == "torch":
            _warm_problem_loss()
        problem = TORCH_PROBLEM if framework == "torch" else NUMPY_PROBLEM
        args: list = [problem]
        for name in ARRAYS:
            a = np.array(ex.arrays[name], copy=True)
            args.append(torch.from_numpy(a) if framework == "torch" else a)
        # PyTorch: theta and phi arrive as leaf tensors that require grad (arg1, arg2 whatever their names)
        wrt = ("arg1", "arg2") if framework == "torch" else ()
        return Call(tuple(args), dict(ex.hyper), grad_of=None, grad_wrt=wrt)

    def reference(self, ex: Example, framework: str) -> Expected:
        theta, phi, history = reference_update(**ex.arrays, **_hyper(ex))
        E = _shape(ex)[0]
        pad = lambda key: np.array([h[key] for h in history] + [np.nan] * (E - len(history)))  # noqa: E731
        return Expected({"theta": theta, "phi": phi, "epochs": np.asarray(float(len(history))),
                         "approx_kl": pad("approx_kl"), "clip_frac": pad("clip_frac")})

    def _reference_stats(self, ex: Example) -> dict:
        key = (tuple(sorted((k, v.tobytes()) for k, v in ex.arrays.items())), tuple(sorted(ex.hyper.items(), key=str)))
        cache = self.__dict__.setdefault("_stats_cache", {})
        if key not in cache:
            if len(cache) > 4096:
                cache.clear()
            out = self.reference(ex, "numpy").outputs
            cache[key] = {k: out[k] for k in ("approx_kl", "clip_frac", "epochs")}
        return cache[key]

    def extract(self, value, ex: Example, framework: str) -> dict:
        theta, phi, history = self.tuple_of(value, 3, "ppo_update must return (theta, phi, history)")
        D, K = ex.arrays["theta"].shape
        out = {"theta": self.array(theta, framework, (D, K), "theta", "like the theta passed in"),
               "phi": self.array(phi, framework, (D,), "phi", "like the phi passed in")}
        rows = self._history(history)
        E = _shape(ex)[0]
        if len(rows) > E:
            raise OutputProblem("output-shape", f"history has {len(rows)} entries but the update has only {E} "
                                                "epochs: record one entry per epoch run")
        out["epochs"] = np.asarray(float(len(rows)))
        out["own_kl"] = np.array([r["approx_kl"] for r in rows])  # the answer's own, for the early-stop relation
        out["own_clip_frac"] = np.array([r["clip_frac"] for r in rows])  # and as a counterexample shows it
        # Each epoch's statistics are compared on the epochs both runs made; how many ran is its own field.
        ref = self._reference_stats(ex)
        ran = int(ref["epochs"])
        for key in ("approx_kl", "clip_frac"):
            own = [float(r[key]) for r in rows]
            out[key] = np.array([own[e] if e < len(own) and e < ran else (ref[key][e] if e < ran else np.nan)
                                 for e in range(E)])
        return out

    def as_shown(self, outputs: dict, ex: Example) -> dict:
        """Each side's statistics for the epochs it ran: the compared fields hold one slot per epoch of
        the minibatch plan (NaN where the reference stopped, the reference's value where the answer did)."""
        shown = dict(outputs)
        if "epochs" in outputs:
            shown["epochs"] = int(outputs["epochs"])  # a count (compared as a float)
        if "own_kl" in outputs:  # the answer's, as extracted
            shown["approx_kl"] = outputs["own_kl"]
            shown["clip_frac"] = outputs.get("own_clip_frac", outputs.get("clip_frac"))
        elif "epochs" in outputs:  # the reference's
            ran = int(outputs["epochs"])
            for key in ("approx_kl", "clip_frac"):
                if key in outputs:
                    shown[key] = np.asarray(outputs[key])[:ran]
        return shown

    def _history(self, history) -> list[dict]:
        """One {"approx_kl", "clip_frac"} per epoch: a list of dicts (a dict of two lists is read too)."""
        if isinstance(history, dict) and {"approx_kl", "clip_frac"} <= set(history):
            cols = {k: history[k] for k in ("approx_kl", "clip_frac")}
            if all(isinstance(v, (list, tuple)) or (hasattr(v, "ndim") and getattr(v, "ndim", 0) == 1)
                   for v in cols.values()) and len(cols["approx_kl"]) == len(cols["clip_frac"]):
                history = [{k: cols[k][i] for k in cols} for i in range(len(cols["approx_kl"]))]
        if not isinstance(history, (list, tuple)):
            raise OutputProblem("output-type", "history must be a list with one dict per epoch run, "
                                               f"{{'approx_kl': ..., 'clip_frac': ...}}; yours is {describe(history)}")
        rows = []
        for e, row in enumerate(history):
            if not isinstance(row, dict) or not {"approx_kl", "clip_frac"} <= set(row):
                raise OutputProblem("output-type", f"history[{e}] must be a dict with 'approx_kl' and 'clip_frac'; "
                                                   f"yours is {describe(row)}")
            rows.append({k: float(self.number(row[k], f"history[{e}][{k!r}]")) for k in ("approx_kl", "clip_frac")})
        return rows

    # ---- checks --------------------------------------------------------------------------------------
    def checks(self) -> list[Check]:
        valid = lambda ex: ex.invalid is None  # noqa: E731
        return [
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your {field}{at} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=self.output_fields),
            Check("whitening", "advantages are whitened over the batch with the unbiased std",
                  "With one minibatch holding the whole batch and no clipping, one SGD step depends on the "
                  "advantages only through (A - mean(A)) / (std(A, unbiased) + 1e-8); on {label}, your theta{at} is "
                  "{got}, expected {expected}.",
                  applies=lambda ex: _one_step(ex) and _unclipped(ex), fields=("theta",)),
            Check("grad-clip", "the gradient is clipped to max_grad_norm over all parameters together",
                  "The first gradient's norm (theta and phi together) exceeds max_grad_norm = {max_grad_norm}, so "
                  "both are scaled by max_grad_norm / norm before the step; on {label}, your {field}{at} is {got}, "
                  "expected {expected}.",
                  applies=lambda ex: _one_step(ex) and not _unclipped(ex) and _prewhitened(ex)
                  and _first_grad_norm(ex) > _hyper(ex)["max_grad_norm"], fields=("theta", "phi")),
            Check("old-logp-frozen", "old log-probs are frozen before the loop",
                  "{detail}", applies=lambda ex: valid(ex) and ex.arrays["minibatches"][:, :, 0].size >= 2,
                  custom=self._ratio_moved),
            Check("approx-kl", "each epoch's approx KL is the mean k3 over its minibatches, before each update",
                  "approx KL is k3 = mean((ratio - 1) - log ratio), measured on each minibatch before its update "
                  "and averaged over the epoch (a fresh average each epoch); on {label}, your approx_kl{at} is "
                  "{got}, expected {expected}.", applies=_stats_case, fields=("approx_kl",)),
            Check("clip-fraction", "each epoch's clip fraction is the mean of |ratio - 1| > clip_eps",
                  "The clip fraction counts the samples with |ratio - 1| > clip_eps (CleanRL, SB3), measured before "
                  "each update and averaged over the epoch; on {label}, your clip_frac{at} is {got}, expected "
                  "{expected}.", applies=_stats_case, fields=("clip_frac",)),
            Check("policy-update", "theta after epochs of minibatches in the given order",
                  "Without clipping or early stop, theta after the loop depends on the ratios against the frozen "
                  "old log-probs, the advantages whitened once before the loop and the minibatches in the order "
                  "given; on {label}, your theta{at} is {got}, expected {expected}.",
                  applies=_minibatch_case, fields=("theta",)),
            Check("value-update", "phi after epochs of minibatches, value clipping around the frozen old values",
                  "Without clipping or early stop, phi after the loop depends on the value clipping around the "
                  "values frozen before the loop and on the minibatches in the order given; on {label}, your "
                  "phi{at} is {got}, expected {expected}.", applies=_minibatch_case, fields=("phi",)),
            Check("early-stop", "stops after the first epoch whose mean approx KL exceeds target_kl",
                  "{detail}.", relation="early-stop", compare=_early_stop_compare),
            Check("defaults", "defaults lr = 0.5, clip_eps = 0.2, max_grad_norm = 0.5, target_kl = None",
                  "Called without lr, clip_eps, max_grad_norm and target_kl your function must behave as with "
                  "0.5, 0.2, 0.5 and None: {detail}.", relation="defaults",
                  compare=relation_compare("implicit", "explicit", "with the defaults left out",
                                           "with them passed")),
            Check("matches-reference", "parameters, statistics and stop match the reference on random runs",
                  "Your {field} differs from the reference{at}: expected {expected}, got {got}.",
                  fields=self.output_fields),
        ]

    @staticmethod
    def _ratio_moved(ex: Example, got: dict) -> str | None:
        own = int(got["epochs"])
        kl, cf = got["own_kl"][:own], got["own_clip_frac"][:own]  # what the answer itself recorded
        moved = float(np.abs(got["theta"] - ex.arrays["theta"]).max()) > 1e-9
        if own and moved and np.all(kl == 0.0) and np.all(cf == 0.0):
            return ("theta moved during the update, yet every epoch's approx KL and clip fraction is exactly 0: "
                    "the ratio was 1 on every minibatch, so old_logp was recomputed from the current parameters "
                    "inside the loop; compute it once, before the first epoch")
        return None

    def axes(self, framework: str) -> list[Axis]:
        """Two parts: the parameters after the update, and the statistics with the number of epochs run.
        A slip in the bookkeeping (statistics, stop) is diagnosed apart from a slip in the updates; a
        slip in the updates moves the statistics too, which its own variant shows as well."""
        return [Axis("params", "the parameters after the update (theta, phi)", "params", group="params"),
                Axis("stats", "the per-epoch statistics and the epochs run", "stats", group="stats")]

    def derive(self, ex: Example, outputs: dict) -> dict:
        if not all(k in outputs for k in self.output_fields):
            return {}
        return {"params": np.concatenate([np.ravel(outputs["theta"]), np.ravel(outputs["phi"])]),
                "stats": np.concatenate([np.ravel(outputs["epochs"]), outputs["approx_kl"], outputs["clip_frac"]])}

    def where(self, mismatch) -> str:
        if not mismatch.index:
            return ""
        if mismatch.field in ("approx_kl", "clip_frac"):
            return f"epoch {mismatch.index[0] + 1}"
        return "[" + ", ".join(str(i) for i in mismatch.index) + "]"


_warmed = False


def _warm_problem_loss() -> None:
    """Make the problem's autograd Function once in the checker's process, before any answer is forked (an
    optimiser step needs nothing here: the sandbox child runs torch.optim in eager mode without the lazy
    torch._dynamo import, which would need files the child may not open)."""
    global _warmed
    if _warmed:
        return

    theta = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)  # the problem's loss Function, made here
    f = torch.zeros(2, dtype=torch.float64)
    TORCH_PROBLEM.loss(theta, f.clone().requires_grad_(True), torch.eye(2, dtype=torch.float64), torch.tensor([0, 1]),
                       f, f, f + 1.0, f, 0.2).backward()
    _warmed = True


SPEC = PpoUpdateSpec()
