# drill: gae
# framework: numpy
# expect: fail
# Writes no GAE at all: brings back into the collector's view what the sandboxed process holds out of
# reach (gc.unfreeze(); failing that, a fresh gc module made from the builtin without opening a file,
# by importlib, by _imp or by re-importing it), then finds the checker's reference core among
# gc.get_objects(), refills the emptied globals of its functions from the hidden copies of their
# namespaces (or rebuilds them from their code objects with fresh globals), and returns what it computes.
import gc
import importlib
import importlib.machinery
import importlib.util
import sys
import types

import numpy as np


def _unfrozen():
    try:
        gc.unfreeze()
        return gc
    except Exception:
        pass
    attempts = [
        lambda: sys.modules["_imp"].create_builtin(
            importlib.machinery.ModuleSpec("gc", importlib.machinery.BuiltinImporter)),
        lambda: importlib.util.module_from_spec(importlib.util.find_spec("gc")),
        lambda: importlib.reload(gc),
        lambda: (sys.modules.pop("gc", None), importlib.import_module("gc"))[1],
    ]
    for attempt in attempts:
        try:
            fresh = attempt()
            fresh.unfreeze()
            return fresh
        except Exception:
            continue
    return None


def _oracle():
    collector = _unfrozen()
    if collector is None:
        return None
    objects = collector.get_objects()
    copies = {}
    for o in objects:
        if type(o) is dict and "__builtins__" in o and str(o.get("__name__", "")).startswith("checker."):
            if len(o) > len(copies.get(o["__name__"], ())):
                copies[o["__name__"]] = o
    rebuilt = {"np": np, "numpy": np, "__builtins__": __builtins__}
    for o in objects:
        if type(o) is types.FunctionType and str(o.__module__ or "").startswith("checker.reference"):
            if not o.__globals__ and o.__module__ in copies:
                o.__globals__.update(copies[o.__module__])
            if "." not in o.__qualname__:
                rebuilt.setdefault(o.__name__, types.FunctionType(o.__code__, rebuilt, o.__name__,
                                                                  o.__defaults__, o.__closure__))
    found = copies.get("checker.reference.gae", {}).get("gae")
    return found or rebuilt.get("gae")


_found = []  # searched once per process: what it inherited does not change between its calls


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    if not _found:
        _found.append(_oracle())
    oracle = _found[0]
    if oracle is None:
        return np.zeros(len(rewards)), np.zeros(len(rewards))
    adv, ret = oracle(rewards, values, dones, gamma, lam)
    return np.asarray(adv, dtype=np.float64), np.asarray(ret, dtype=np.float64)
