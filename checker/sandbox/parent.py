"""Preparing the trusted process to fork sandboxed children: `prepare_parent`.

A child inherits everything the parent has loaded, so a warm parent makes a check cost a fork
(~7 ms) instead of torch's import (1.8 s). What the child cannot do once confined (open files,
start threads in a pid namespace) the parent does first.
"""
from __future__ import annotations

import ctypes
import os

from checker.sandbox.eager import install_eager_only_compiler
from checker.sandbox.imports import allowed_imports
from checker.sandbox.isolation import SANDBOX_UID_BASE
from checker.sandbox.sweep import sweep_orphans

_prepared = False

#: Modules loaded into the parent so that an answer importing them does not need to open files
#: (the child may not open any: RLIMIT_NOFILE leaves no free descriptor): the list in imports.py.
PRELOADED_MODULES = allowed_imports()


def prepare_parent() -> None:
    """Make this process a safe, warm parent for sandboxed runs. Idempotent; call it early.

    Sets torch to one thread before any tensor op (a parent that entered an OpenMP parallel region
    makes forked children hang on their next large op), puts the eager-only stand-in for torch's
    compiler in place (`checker.sandbox.eager`), preloads the modules an answer may import,
    and runs a few small single-threaded ops so lazy initialisation that opens files (torch's cpuinfo,
    numpy's random) has happened before a child, which cannot open files, needs it.
    """
    global _prepared
    if _prepared:
        return
    import importlib

    import torch
    torch.set_num_threads(1)
    install_eager_only_compiler(torch)  # the catalogue's optimiser loops run here too
    _single_threaded_openblas()
    for name in PRELOADED_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    import numpy as np
    a = torch.ones(300, 300, requires_grad=True)
    (a @ a).sum().backward()
    torch.nn.functional.softmax(a.detach(), dim=-1)
    with torch.autograd.profiler.record_function("warm-up"):  # what an optimiser's zero_grad and step
        pass  # enter: it looks for an optional profiler module once (and logs an error where it cannot)
    x = np.random.default_rng(0).random((200, 200))
    np.linalg.inv(x @ x.T + np.eye(200))
    if os.geteuid() == 0:
        sweep_orphans(SANDBOX_UID_BASE)  # what a checker that died mid-check could not clear up
    _prepared = True


def _single_threaded_openblas() -> None:
    """Set numpy's OpenBLAS to one thread, as torch is set, so that a child never starts BLAS threads.

    A forked child has none of the parent's BLAS threads and would start its own on the first large
    matmul; in a child that unshared a pid namespace (the ordinary-user sandbox) thread creation
    fails and OpenBLAS then waits forever. OpenBLAS has no Python API, so the setter is looked up in
    the library numpy loaded (its name carries the build's symbol suffix).
    """
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line}
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads_64_",
                     "scipy_openblas_set_num_threads", "openblas_set_num_threads64_",
                     "openblas_set_num_threads"):
            setter = getattr(lib, name, None)
            if setter is not None:
                setter(ctypes.c_int(1))
                break
