"""An eager-only stand-in for `torch._dynamo`, torch's compiler, in the checker and in its children.

Every `torch.optim` optimiser imports `torch._dynamo` on its first construction or step, only to call
`disable(fn)` and `graph_break()`, which do nothing outside `torch.compile`. Importing the real one opens
hundreds of files (a sandboxed child may open none) and, in the checker's own process, costs about
2.5 s and ~70 MB: a cold `ppo-drill check` of the update-loop drill paid it while naming a mistake (the
catalogue runs its optimiser loops in-process). The stand-in does exactly what those calls do in eager
mode, so an optimiser steps as it would anywhere else. Nothing in the checker compiles.
"""
from __future__ import annotations

import sys
import types


def install_eager_only_compiler(torch) -> None:
    """Put the stand-in in place of `torch._dynamo`, unless the real one is loaded already."""
    if "torch._dynamo" in sys.modules:
        return
    compiler = types.ModuleType("torch._dynamo", "torch's compiler, eager-only in the checker")

    def disable(fn=None, recursive=True, *, reason=None, wrapping=True):
        return (lambda f: f) if fn is None else fn

    def graph_break(msg=""):
        return None

    def is_compiling():
        return False

    def __getattr__(name):
        raise AttributeError(f"torch._dynamo.{name} is not available in the checker: torch.compile cannot "
                             "run there (it needs to open files and start compilers); run eagerly")

    for fn in (disable, graph_break, is_compiling, __getattr__):
        compiler.__dict__[fn.__name__] = fn
    sys.modules["torch._dynamo"] = compiler
    torch._dynamo = compiler
