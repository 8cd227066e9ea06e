"""Shared machinery of the scalar-loss drills (policy, value, total): quantised random inputs, the
reference value and gradients by autograd, and the gradient checks of the PyTorch answers."""
from __future__ import annotations

import numpy as np
import torch

from checker.specs.base import Axis, Check, DrillSpec, Example, Expected, single_rows


def grid(lo: float, hi: float, step: float):
    """Numbers on a grid (k * step): exact in binary, short in counterexamples, and they hit the band
    edges and zero that property checks care about."""
    from hypothesis import strategies as st

    return st.integers(int(round(lo / step)), int(round(hi / step))).map(lambda k: k * step)


def draw_array(draw, elements, shape):
    from hypothesis import strategies as st

    n = int(np.prod(shape))
    return np.array(draw(st.lists(elements, min_size=n, max_size=n)), dtype=np.float64).reshape(shape)


def draw_shape(draw, framework: str, max_t: int = 8, single: bool = False):
    """[T] in NumPy, [B, T] in PyTorch; `single`: one element ([1] or [1, 1])."""
    from hypothesis import strategies as st

    if single:
        return (1,) if framework == "numpy" else (1, 1)
    T = draw(st.integers(1, max_t))
    return (T,) if framework == "numpy" else (draw(st.integers(1, 3)), T)


def single_element(ex: Example) -> bool:
    """Every input holds one element: a sum and a mean (and every reduction) agree there."""
    return all(a.size == 1 for a in ex.arrays.values())


class LossSpec(DrillSpec):
    """A drill whose answer is one scalar loss."""

    output_fields: tuple[str, ...] = ("loss",)

    def reference_loss(self, tensors: dict, hyper: dict):
        """The reference loss (a 0-d float64 tensor) from float64 tensors and full hyperparameters."""
        raise NotImplementedError

    def reference(self, ex: Example, framework: str) -> Expected:
        hyper = {**self.hyper_defaults, **ex.hyper}
        tensors = {k: torch.tensor(v, dtype=torch.float64, requires_grad=(k in self.trainable and framework == "torch"))
                   for k, v in ex.arrays.items()}
        loss = self.reference_loss(tensors, hyper)
        grads: dict = {}
        if framework == "torch":
            loss.backward()
            grads = {k: tensors[k].grad.numpy().copy() for k in self.trainable}
            grads.update({k: None for k in self.constants})
        return Expected({"loss": loss.detach().numpy()}, grads)

    def extract(self, value, ex: Example, framework: str) -> dict:
        return {"loss": self.scalar(value, framework)}

    def shrink(self, ex: Example) -> list[Example]:
        """Single rows, single tokens and shorter prefixes, then rounder numbers."""
        first = ex.arrays[self.positional[0]]
        out = single_rows(ex, first.shape[0]) if first.ndim == 2 else []
        T = first.shape[-1]
        if T > 1:
            for t in range(T):
                out.append(Example({k: v[..., t:t + 1] for k, v in ex.arrays.items()}, dict(ex.hyper), ex.label))
        for keep in range(2, T):
            out.append(Example({k: v[..., :keep] for k, v in ex.arrays.items()}, dict(ex.hyper), ex.label))
        return out + super().shrink(ex)

    def example_classes(self) -> list[tuple[str, str, object]]:
        """Classes of examples on which the loss is its own diagnosis axis, as
        (id, words, applies): on one element a sum equals a mean, so a slip in the reduction leaves a slip
        in the per-element formula visible there. Default: none."""
        return []

    def axes(self, framework: str) -> list[Axis]:
        out = super().axes(framework)
        # the loss only: on a small class a gradient alone matches a wrong mistake by coincidence too often
        out += [Axis(f"loss-{cid}", f"the loss {words}", "loss", applies, group="main")  # type: ignore[arg-type]
                for cid, words, applies in self.example_classes()]
        return out

    def where(self, mismatch) -> str:
        if mismatch.field.startswith(("grad:", "nograd:")):
            return super().where(mismatch)
        return ""

    def gradient_checks(self) -> list[Check]:
        checks = []
        for name in self.trainable:
            checks.append(Check(
                f"grad-{name.replace('_', '-')}", f"the gradient w.r.t. {name} matches the reference",
                f"The gradient of your loss w.r.t. {name} differs from the reference{{at}}: expected {{expected}}, "
                f"got {{got}}.{self.grad_hint(name)}",
                fields=(f"grad:{name}",), frameworks=("torch",)))
        for name in self.constants:
            checks.append(Check(
                f"no-grad-{name.replace('_', '-')}", f"no gradient reaches {name}",
                f"{name} is fixed data for this update, yet your loss sends gradient into it{{at}} (got {{got}}). "
                f"Use {name}.detach() so only the trainable inputs are optimised.",
                fields=(f"nograd:{name}",), frameworks=("torch",)))
        return checks

    def grad_hint(self, name: str) -> str:
        return ""
