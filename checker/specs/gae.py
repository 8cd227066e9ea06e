"""Checker spec of the `gae` drill: compute_gae(rewards, values, dones, gamma=0.99, lam=0.95).

NumPy answers take one rollout (rewards [T], values [T+1], dones [T]); PyTorch answers a batch
([B, T], [B, T+1], [B, T]). dones[t] = 1 ends the episode at step t.
"""
from __future__ import annotations

import numpy as np

from checker.reference import gae
from checker.specs.base import (
    Axis,
    Check,
    DrillSpec,
    Example,
    Expected,
    OutputProblem,
    close,
    describe,
    first_where,
    relation_compare,
    single_rows,
)


def _no_dones(ex: Example) -> bool:
    return not ex.arrays["dones"].any()


def _lam(ex: Example, default: float = 0.95) -> float:
    return ex.hyper.get("lam", default)


def _returns_are_a_plus_v(ex: Example, got: dict) -> str | None:
    v = ex.arrays["values"][..., :-1]
    want = got["advantages"] + v
    ok = close(want, got["returns"])
    if ok.all():
        return None
    idx = first_where(~ok)
    where = f"t = {idx[-1]}" if len(idx) == 1 else f"row {idx[0]}, t = {idx[1]}"
    return (f"at {where} your returns are {got['returns'][idx]:.6g} but your advantages + values[:T] "
            f"give {want[idx]:.6g}")


def _recursion_holds(ex: Example, got: dict) -> str | None:
    """A_t - gamma lam A_{t+1} = delta_t on every step but the last, on the answer's own advantages."""
    r, v = ex.arrays["rewards"], ex.arrays["values"]
    gamma, lam = ex.hyper.get("gamma", 0.99), _lam(ex)
    a = got["advantages"]
    if r.shape[-1] < 2:
        return None
    delta = r + gamma * v[..., 1:] - v[..., :-1]
    want = delta[..., :-1] + gamma * lam * a[..., 1:]
    ok = close(a[..., :-1], want)
    if ok.all():
        return None
    idx = first_where(~ok)
    where = f"t = {idx[-1]}" if len(idx) == 1 else f"row {idx[0]}, t = {idx[1]}"
    return (f"at {where} your A_t is {a[..., :-1][idx]:.6g} but delta_t + gamma * lam * (your A_{{t+1}}) is "
            f"{want[idx]:.6g}")


DONE_CUT_K = 1  # the done-cut relation's episode ends at this step


def _done_cut_compare(got: dict, where=None) -> str | None:
    if "base" not in got or "changed" not in got or got["base"] is None or got["changed"] is None:
        return None
    a, b = got["base"]["advantages"][..., :DONE_CUT_K + 1], got["changed"]["advantages"][..., :DONE_CUT_K + 1]
    ok = close(a, b)
    if ok.all():
        return None
    idx = first_where(~ok)
    return (f"with dones[{DONE_CUT_K}] = 1, changing only the rewards and values after step {DONE_CUT_K} changed your "
            f"A at t = {idx[-1]} from {a[idx]:.6g} to {b[idx]:.6g}")


class GaeSpec(DrillSpec):
    drill_id = "gae"
    function = "compute_gae"
    positional = ("rewards", "values", "dones")
    roles = {"lam": ("lam",), "returns_output": ("1",)}
    hyper_defaults = {"gamma": 0.99, "lam": 0.95}
    output_fields = ("advantages", "returns")

    # ---- inputs -------------------------------------------------------------------------------
    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B = draw(st.integers(1, 3)) if framework == "torch" else None
            T = draw(st.integers(1, 8))
            shape = (T,) if B is None else (B, T)
            vshape = shape[:-1] + (T + 1,)
            nums = st.integers(-40, 40).map(lambda k: k / 8)
            rewards = np.array(draw(st.lists(nums, min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))))
            values = np.array(draw(st.lists(nums, min_size=int(np.prod(vshape)), max_size=int(np.prod(vshape)))))
            dones = np.array(draw(st.lists(st.sampled_from([0.0, 0.0, 0.0, 1.0]),
                                           min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))))
            gamma = draw(st.sampled_from([0.99, 0.9, 0.5, 1.0, 0.8]))
            lam = draw(st.sampled_from([0.95, 0.9, 0.5, 1.0, 0.0, 0.7]))
            return Example({"rewards": rewards.reshape(shape), "values": values.reshape(vshape),
                            "dones": dones.reshape(shape)}, {"gamma": gamma, "lam": lam})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        def ex(r, v, d, label, **hyper):
            r, v, d = (np.asarray(x, dtype=np.float64) for x in (r, v, d))
            if framework == "torch":
                r, v, d = r[None], v[None], d[None]
            return Example({"rewards": r, "values": v, "dones": d}, hyper, f"edge: {label}")

        r4, v5 = [1.0, 2.0, 3.0, 4.0], [0.5, 0.4, 0.3, 0.2, 0.7]
        cases = [
            ex([1.0], [0.5, 2.0], [0.0], "T = 1, no done", gamma=0.9, lam=0.8),
            ex([1.0], [0.5, 2.0], [1.0], "T = 1, done", gamma=0.9, lam=0.8),
            ex(r4, v5, [0, 0, 0, 0], "the worked example, no dones", gamma=0.9, lam=0.8),
            ex(r4, v5, [0, 1, 0, 0], "the worked example, done at t = 1", gamma=0.9, lam=0.8),
            ex(r4, v5, [1, 0, 0, 0], "done at the first step", gamma=0.9, lam=0.8),
            ex(r4, v5, [0, 0, 0, 1], "done at the last step", gamma=0.9, lam=0.8),
            ex(r4, v5, [0, 1, 1, 0], "consecutive dones", gamma=0.9, lam=0.8),
            ex(r4, v5, [1, 1, 1, 1], "every step ends an episode", gamma=0.9, lam=0.8),
            ex(r4, v5, [0, 0, 1, 0], "gamma = 0", gamma=0.0, lam=0.8),
            ex(r4, v5, [0, 0, 1, 0], "lam = 0 (one-step TD)", gamma=0.9, lam=0.0),
            ex(r4, v5, [0, 0, 0, 0], "lam = 1 (Monte-Carlo)", gamma=0.9, lam=1.0),
            ex(r4, v5, [0, 0, 0, 0], "gamma = lam = 1", gamma=1.0, lam=1.0),
        ]
        arrays = {"rewards": np.asarray(r4), "values": np.asarray(v5), "dones": np.asarray([0.0, 1.0, 0.0, 0.0])}
        if framework == "torch":
            arrays = {k: v[None] for k, v in arrays.items()}
        cases += self.defaults_pair(arrays, "default gamma and lam")
        base = {"rewards": np.asarray(r4), "values": np.asarray(v5), "dones": np.asarray([0.0, 1.0, 0.0, 0.0])}
        changed = {"rewards": np.asarray([1.0, 2.0, -2.0, 5.0]), "values": np.asarray([0.5, 0.4, 3.0, -1.5, 2.5]),
                   "dones": base["dones"]}
        for role, arrays in (("base", base), ("changed", changed)):
            if framework == "torch":
                arrays = {k: v[None] for k, v in arrays.items()}
            cases.append(Example(arrays, {"gamma": 0.9, "lam": 0.8},
                                 f"edge: done at t = {DONE_CUT_K}, {'then other rewards and values' if role == 'changed' else 'as given'}",
                                 relation=("done-cut", role)))
        if framework == "torch":
            r = np.array([[1.0, 0.0, 2.0], [0.5, -1.0, 0.0]])
            v = np.array([[0.2, 0.1, 0.0, 1.0], [1.0, 0.5, -0.5, 2.0]])
            d = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
            cases.append(Example({"rewards": r, "values": v, "dones": d}, {"gamma": 0.9, "lam": 0.95},
                                 "edge: two rows ending at different steps"))
        return cases

    def shrink(self, ex: Example) -> list[Example]:
        out = []
        r, v, d = ex.arrays["rewards"], ex.arrays["values"], ex.arrays["dones"]
        T = r.shape[-1]
        if r.ndim == 2:
            out += single_rows(ex, r.shape[0])
        for keep in range(1, T):
            out.append(Example({"rewards": r[..., :keep], "values": v[..., :keep + 1], "dones": d[..., :keep]},
                               dict(ex.hyper), ex.label))
            out.append(Example({"rewards": r[..., T - keep:], "values": v[..., T - keep:], "dones": d[..., T - keep:]},
                               dict(ex.hyper), ex.label))
        return out + super().shrink(ex)

    # ---- reference and outputs ----------------------------------------------------------------
    def reference(self, ex: Example, framework: str) -> Expected:
        hyper = {**self.hyper_defaults, **ex.hyper}
        adv, ret = gae(ex.arrays["rewards"], ex.arrays["values"], ex.arrays["dones"], hyper["gamma"], hyper["lam"])
        return Expected({"advantages": adv.numpy(), "returns": ret.numpy()})

    def extract(self, value, ex: Example, framework: str) -> dict:
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise OutputProblem("output-type", "compute_gae must return a pair (advantages, returns); "
                                               f"yours returned {describe(value)}")
        shape = ex.arrays["rewards"].shape
        return {"advantages": self.array(value[0], framework, shape, "advantages", "like the rewards"),
                "returns": self.array(value[1], framework, shape, "returns", "like the rewards")}

    def checks(self) -> list[Check]:
        return [
            Check("returns-definition", "returns = advantages + values[:T]",
                  "The value targets must be returns = advantages + values[:T] (each advantage added back onto "
                  "V(s_t), the baseline it was measured against): {detail}.",
                  custom=_returns_are_a_plus_v),
            Check("one-step", "with T = 1, A_0 = r_0 + gamma V(s_1)(1 - done_0) - V(s_0)",
                  "With a single step, A_0 must be r_0 + gamma * values[1] * (1 - dones[0]) - values[0]: the last "
                  "step bootstraps from values[T] unless the episode ended there. Yours differs{at}: expected "
                  "{expected}, got {got}.",
                  applies=lambda ex: ex.arrays["rewards"].shape[-1] == 1, fields=("advantages",)),
            Check("lam-zero-td-error", "with lam = 0, advantages are the one-step TD errors",
                  "With lam = 0 GAE must equal the one-step TD error r_t + gamma V(s_{{t+1}}) (1 - done_t) - V(s_t); "
                  "yours differs{at}: expected {expected}, got {got}.",
                  applies=lambda ex: _lam(ex) == 0.0, fields=("advantages",)),
            Check("backward-recursion", "without dones, A_t = delta_t + gamma lam A_{t+1}, scanned from the end",
                  "Without any done, A_t must equal delta_t + gamma * lam * A_{{t+1}} with your own A_{{t+1}} "
                  "(so the scan runs from the last step backwards): {detail}.",
                  applies=_no_dones, custom=_recursion_holds),
            Check("lam-one-monte-carlo", "with lam = 1 and no dones, A_t = discounted return - V(s_t)",
                  "With lam = 1 and no dones, A_t must be the discounted sum of rewards to the end plus "
                  "gamma^(T-t) values[T], minus values[t]; yours differs{at}: expected {expected}, got {got}.",
                  applies=lambda ex: _lam(ex) == 1.0 and _no_dones(ex), fields=("advantages",)),
            Check("done-cuts", "a done at step k cuts both the bootstrap and the recursion",
                  "dones[k] = 1 ends the episode at step k: V(s_{{k+1}}) must not be used there and the advantage "
                  "must not carry back across k (multiply both by 1 - dones[k]), so what comes after k cannot "
                  "change A_0..A_k: {detail}.",
                  relation="done-cut", compare=_done_cut_compare),
            Check("defaults", "defaults gamma = 0.99, lam = 0.95",
                  "Called without gamma and lam, your function must behave as with gamma = 0.99 and lam = 0.95 "
                  "passed explicitly: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without gamma and lam",
                                                                "with gamma=0.99, lam=0.95 passed")),
            Check("matches-reference", "advantages and returns match the reference on random rollouts",
                  "Your {field} differ from the reference GAE{at}: expected {expected}, got {got}.",
                  fields=("advantages", "returns")),
        ]


    # ---- diagnosis ------------------------------------------------------------------------------
    def axes(self, framework: str) -> list[Axis]:
        """Advantages without any done and with dones (the done mistakes show only there), and the returns
        measured against the answer's own advantages (so a wrong advantage is not a wrong return too)."""
        return [
            Axis("advantages-no-dones", "the advantages on rollouts without dones", "advantages",
                 applies=_no_dones, group="advantages"),
            Axis("advantages-dones", "the advantages on rollouts with dones", "advantages",
                 applies=lambda ex: not _no_dones(ex), group="advantages"),
            Axis("advantages-standardised", "the advantages up to shift and scale (as if whitened)",
                 "advantages-standardised", group="advantages"),
            Axis("returns-minus-advantages", "the returns given your advantages (returns - advantages)",
                 "returns-minus-advantages", group="returns"),
        ]

    def derive(self, ex: Example, outputs: dict) -> dict:
        if "returns" not in outputs or "advantages" not in outputs:
            return {}
        a = np.asarray(outputs["advantages"], dtype=np.float64)
        out = {"returns-minus-advantages": np.asarray(outputs["returns"]) - a}
        if a.shape[-1] >= 3 and np.isfinite(a).all():
            # per rollout: whitening (per rollout or over the batch) on top of another slip leaves it visible
            m, sd = a.mean(axis=-1, keepdims=True), a.std(axis=-1, keepdims=True)
            if (sd > 1e-6).all():
                out["advantages-standardised"] = (a - m) / sd
        return out


SPEC = GaeSpec()
