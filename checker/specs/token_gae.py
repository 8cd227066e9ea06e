"""Checker spec of the `token-gae` drill (PyTorch): token_gae(rewards, values, response_mask, gamma=1.0,
lam=0.95) -> (advantages, returns), GAE over right-padded responses. Each row is an episode that ends
after its last valid token: nothing is bootstrapped past it and padded slots, whatever they hold, are not
part of it; returns = advantages + values on valid tokens, both outputs 0 on padding.
"""
from __future__ import annotations

import numpy as np

from checker.reference.tokens import token_gae
from checker.specs.base import (
    Axis,
    Check,
    Example,
    close,
    first_where,
    relation_compare,
)
from checker.specs.losses import draw_array, grid
from checker.specs.token_base import (
    TokenSpec,
    draw_lengths,
    fill_padding,
    has_garbage,
    prefix_mask,
)

WORKED_REWARDS = [[0.0, 0.0, 1.0], [0.5, -1.0, 7.0]]
WORKED_VALUES = [[0.5, 0.6, 0.8], [0.2, 0.1, 9.0]]
WORKED_LENGTHS = [3, 2]
ADV, RET = TokenSpec.on_valid("advantages"), TokenSpec.on_valid("returns")
RET_GIVEN_ADV = "returns - advantages - values on valid tokens"


def _hyper(ex: Example) -> tuple[float, float]:
    return ex.hyper.get("gamma", 1.0), ex.hyper.get("lam", 0.95)


def _f(ex: Example, name: str) -> np.ndarray:
    return ex.arrays[name].astype(np.float64)


def _returns_are_a_plus_v(ex: Example, got: dict) -> str | None:
    mask = ex.arrays["response_mask"]
    with np.errstate(invalid="ignore", over="ignore"):
        want = got["advantages"] + _f(ex, "values")
    bad = mask & ~close(want, got["returns"])
    if bad.any():
        b, t = first_where(bad)
        return (f"at row {b}, t = {t} your returns are {got['returns'][b, t]:.6g} but your advantages + values "
                f"give {want[b, t]:.6g}")
    return None


def _last_token(ex: Example, got: dict) -> str | None:
    mask = ex.arrays["response_mask"]
    rows, last = np.arange(mask.shape[0]), mask.sum(-1) - 1
    want = _f(ex, "rewards")[rows, last] - _f(ex, "values")[rows, last]
    have = got["advantages"][rows, last]
    bad = ~close(have, want)
    if bad.any():
        b = first_where(bad)[0]
        return (f"row {b} ends at t = {int(last[b])}, so its advantage there is r - V = {want[b]:.6g} (nothing "
                f"after it: no bootstrap, no carry); yours is {have[b]:.6g}")
    return None


def _recursion_holds(ex: Example, got: dict) -> str | None:
    """A_t - gamma lam A_(t+1) = delta_t over each row's valid tokens but the last, on the answer's own
    advantages (the last token is `last-token`'s business)."""
    gamma, lam = _hyper(ex)
    r, v, a = _f(ex, "rewards"), _f(ex, "values"), np.asarray(got["advantages"], dtype=np.float64)
    for b, n in enumerate(ex.arrays["response_mask"].sum(-1)):
        n = int(n)
        if n < 2:
            continue
        delta = r[b, :n - 1] + gamma * v[b, 1:n] - v[b, :n - 1]
        want = delta + gamma * lam * a[b, 1:n]
        ok = close(a[b, :n - 1], want)
        if not ok.all():
            t = first_where(~ok)[0]
            return (f"at row {b}, t = {t} your A_t is {a[b, t]:.6g} but delta_t + gamma * lam * (your A_(t+1)) is "
                    f"{want[t]:.6g}")
    return None


def _finite_padding(ex: Example) -> bool:
    return ex.invalid is None and not has_garbage(ex)


class TokenGaeSpec(TokenSpec):
    drill_id = "token-gae"
    function = "token_gae"
    positional = ("rewards", "values", "response_mask")
    roles = {
        "mask": ("response_mask",),
        "padded_outputs": True,
        "nonfinite_padding": "padded rewards and values may hold NaN and inf",
        "lam": ("lam",),
        "returns_output": ("1",),
    }
    hyper_defaults = {"gamma": 1.0, "lam": 0.95}
    outputs = (("advantages", "bt"), ("returns", "bt"))

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 4)), draw(st.integers(1, 8))
            rewards = draw_array(draw, grid(-2.0, 2.0, 0.25), (B, T))
            values = draw_array(draw, grid(-2.0, 2.0, 0.125), (B, T))
            mask = prefix_mask(draw_lengths(draw, B, T), T)
            garbage = draw(st.sampled_from(["numbers", "numbers", "zeros", "nan", "inf", "huge"]))
            rewards = fill_padding(rewards, mask, draw(st.sampled_from(["numbers", garbage])))
            values = fill_padding(values, mask, garbage)
            hyper = {}
            if draw(st.integers(0, 4)):
                hyper = {"gamma": draw(st.sampled_from([1.0, 1.0, 0.99, 0.9, 0.5])),
                         "lam": draw(st.sampled_from([0.95, 0.95, 1.0, 0.0, 0.8, 0.5]))}
            arrays = {"rewards": rewards, "values": values, "response_mask": mask}
            if draw(st.integers(0, 3)) == 0:
                arrays = {k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in arrays.items()}
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731

        def ex(r, v, lengths, label, **hyper):
            return Example({"rewards": f(r), "values": f(v), "response_mask": prefix_mask(lengths, np.shape(r)[-1])},
                           hyper, f"edge: {label}")

        cases = [ex(WORKED_REWARDS, WORKED_VALUES, WORKED_LENGTHS, "worked example", gamma=1.0, lam=0.95),
                 ex(WORKED_REWARDS, WORKED_VALUES, WORKED_LENGTHS, "worked example, default gamma and lam")]
        rng = np.random.default_rng(13)
        T = 16
        r = np.zeros((3, T))
        r[:, :] = np.round(rng.uniform(-0.2, 0.2, (3, T)), 2)
        v = np.round(rng.uniform(-1, 1, (3, T)), 2)
        lengths = [T, 1, 9]
        r[0, T - 1], r[1, 0], r[2, 8] = 1.0, -1.0, 0.5
        cases.append(ex(r, v, lengths, "rows of 16, 1 and 9 valid tokens", gamma=1.0, lam=0.95))
        cases.append(ex(r, v, lengths, "lam = 0 (one-step TD errors)", gamma=1.0, lam=0.0))
        cases.append(ex(r, v, lengths, "gamma = lam = 1 (reward-to-go minus V)", gamma=1.0, lam=1.0))
        cases.append(ex(r, v, lengths, "gamma = 0.9, lam = 0.8", gamma=0.9, lam=0.8))
        cases.append(ex([[2.0]], [[0.5]], [1], "a single token", gamma=1.0, lam=0.95))
        mask = prefix_mask([3, 1], 4)
        base_r = f([[0.1, -0.2, 1.0, 5.0], [2.0, 3.0, 3.0, 3.0]])
        base_v = f([[0.3, 0.2, 0.4, 4.0], [1.0, 6.0, 6.0, 6.0]])
        for kind in ("nan", "inf", "huge"):
            cases.append(Example({"rewards": fill_padding(base_r, mask, kind),
                                  "values": fill_padding(base_v, mask, kind), "response_mask": mask},
                                 {"gamma": 1.0, "lam": 0.95}, f"edge: {kind} padding"))
        cases.append(Example({"rewards": base_r, "values": base_v, "response_mask": mask},
                             {"gamma": 1.0, "lam": 0.95}, "edge: ordinary numbers in the padding"))
        cases += self.padding_pair({"rewards": base_r, "values": base_v, "response_mask": mask},
                                   {"gamma": 1.0, "lam": 0.95}, "rows of 3 and 1 valid tokens", {
                                       "nan": {"rewards": "nan", "values": "nan"},
                                       "inf": {"rewards": "inf", "values": "inf"},
                                       "huge": {"rewards": "huge", "values": "huge"},
                                       "nan-values": {"values": "nan"}})
        cases += self.defaults_pair(cases[0].arrays, "worked example")
        w = ex(WORKED_REWARDS, WORKED_VALUES, WORKED_LENGTHS, "float32 inputs", gamma=1.0, lam=0.95)
        cases.append(Example({k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in w.arrays.items()},
                             w.hyper, w.label))
        return cases

    def with_derived(self, ex: Example, outputs: dict) -> dict:
        out = super().with_derived(ex, outputs)
        if "returns" in outputs and "advantages" in outputs:
            valid = self.valid(ex)
            with np.errstate(invalid="ignore", over="ignore"):
                own = np.asarray(outputs["returns"], dtype=np.float64) - np.asarray(outputs["advantages"], dtype=np.float64)
                out[RET_GIVEN_ADV] = np.where(valid, own - np.where(valid, _f(ex, "values"), 0.0), 0.0)
        return out

    def axes(self, framework: str) -> list:
        """The returns on valid tokens are measured against the answer's own advantages (returns - A - V),
        so a wrong advantage is not a wrong return too and a wrong return is not a wrong advantage."""
        out = []
        for a in super().axes(framework):
            if a.field == RET:
                a = Axis("returns", "the returns given your advantages (returns - advantages - values)",
                         RET_GIVEN_ADV, a.applies, group="returns")
            out.append(a)
        return out

    def reference_outputs(self, ex: Example) -> dict:
        gamma, lam = _hyper(ex)
        adv, ret = token_gae(ex.arrays["rewards"], ex.arrays["values"], ex.arrays["response_mask"], gamma, lam)
        return {"advantages": adv.numpy(), "returns": ret.numpy()}

    def checks(self) -> list[Check]:
        return [
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your {field} is {got}{at}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=("advantages", "returns")),
            Check("returns-definition", "returns = advantages + values on valid tokens",
                  "The value targets must be returns = advantages + values on every valid token: {detail}.",
                  custom=_returns_are_a_plus_v),
            Check("last-token", "a row's last valid token has A = r - V (no bootstrap, no carry)",
                  "The episode ends after each row's last valid token: V after it is 0 and nothing is carried "
                  "back into it: {detail}.", custom=_last_token),
            Check("lam-zero-td-error", "with lam = 0, advantages are the one-step TD errors",
                  "With lam = 0 each advantage is r_t + gamma V_(t+1) - V_t, with V = 0 after the last valid "
                  "token; yours differs{at}: expected {expected}, got {got}.",
                  applies=lambda ex: _finite_padding(ex) and _hyper(ex)[1] == 0.0, fields=(ADV,)),
            Check("backward-recursion", "A_t = delta_t + gamma lam A_(t+1), scanned from each row's end",
                  "Over the valid tokens A_t must equal delta_t + gamma * lam * A_(t+1) with your own A_(t+1), "
                  "computed backwards from the row's last valid token: {detail}.",
                  applies=lambda ex: _finite_padding(ex) and _hyper(ex)[1] != 0.0, custom=_recursion_holds),
            self.padding_check(),
            self.padding_relation_check((ADV, RET), "valid results"),
            Check("defaults", "defaults gamma = 1.0, lam = 0.95",
                  "Called without gamma and lam your function must behave as with gamma=1.0 and lam=0.95 passed: "
                  "{detail}.", relation="defaults", compare=relation_compare(
                      "implicit", "explicit", "called without gamma and lam", "with gamma=1.0, lam=0.95 passed")),
            Check("matches-reference", "advantages and returns match the reference on random batches",
                  "Your {field} differ from the reference{at}: expected {expected}, got {got}.",
                  fields=("advantages", "returns")),
        ]


SPEC = TokenGaeSpec()
