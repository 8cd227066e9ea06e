# drill: gae
# framework: numpy
# expect: fail
# Writes no GAE at all: walks the garbage collector's frozen generation with ctypes (each tracked
# object has a PyGC_Head in front of it whose `_gc_next` links the list the collector froze), finds
# the hidden namespaces of the checker's reference core among them, refills the emptied globals of
# its functions, and returns what the reference computes.
import ctypes
import sys
import types

import numpy as np

_HEAD = 16  # sizeof(PyGC_Head) on 64-bit CPython


def _types():
    seen, todo = set(), [object]
    while todo:
        t = todo.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        try:
            todo.extend(type.__subclasses__(t))
        except TypeError:
            pass
    return seen


def _frozen_objects(start, limit=3_000_000, only=None):
    """The objects of the collector's list that `start` is in (the frozen generation, in a sandboxed
    child), of the types `only` names (default: every type there is)."""
    known = {id(t) for t in only} if only else _types()
    first = id(start) - _HEAD
    node = ctypes.c_size_t.from_address(first).value
    for _ in range(limit):
        if node == first or node == 0:
            return
        addr = node + _HEAD
        if ctypes.c_size_t.from_address(addr + 8).value in known:
            yield ctypes.cast(addr, ctypes.py_object).value
        node = ctypes.c_size_t.from_address(node).value & ~3


def _oracle():
    copies, functions = {}, []
    for o in _frozen_objects(np.__dict__, only=(dict, types.FunctionType)):
        if type(o) is dict and str(o.get("__name__", "")).startswith("checker.reference"):
            if len(o) > len(copies.get(o["__name__"], ())):
                copies[o["__name__"]] = o
        elif type(o) is types.FunctionType and str(o.__module__ or "").startswith("checker.reference"):
            functions.append(o)
    for f in functions:
        if not f.__globals__ and f.__module__ in copies:
            f.__globals__.update(copies[f.__module__])
    return copies.get("checker.reference.gae", {}).get("gae")


_found = []


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    if not _found:
        _found.append(_oracle())
    oracle = _found[0]
    if oracle is None:
        return np.zeros(len(rewards)), np.zeros(len(rewards))
    import torch
    adv, ret = oracle(torch.as_tensor(rewards, dtype=torch.float64), torch.as_tensor(values, dtype=torch.float64),
                      torch.as_tensor(dones, dtype=torch.float64), gamma, lam)
    return np.asarray(adv, dtype=np.float64), np.asarray(ret, dtype=np.float64)
