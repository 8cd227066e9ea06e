"""Objects a drill hands an answer (the update loop's problem: a tiny policy and critic), by name.

An answer's process is forked from the sandbox's zygote, which holds nothing of the checker but the
sandbox and this package: the calls reach it as data (`checker.sandbox.calls`), and an object of this
package crosses as its registered name, rebuilt there from the module. So a module here holds only what an
answer may see (the model's formulas), never a reference result or a reference loop, and imports nothing
else of the checker.
"""
from __future__ import annotations

from checker.handouts.update_problem import NUMPY_PROBLEM, TORCH_PROBLEM

#: name -> the object, as an answer receives it
HANDOUTS = {"ppo_update.numpy": NUMPY_PROBLEM, "ppo_update.torch": TORCH_PROBLEM}


def name_of(value) -> str | None:
    """The registered name of `value` (None when it is not one of the handouts)."""
    return next((name for name, obj in HANDOUTS.items() if obj is value), None)
