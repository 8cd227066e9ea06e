# drill: gae
# framework: numpy
# expect: fail
# Writes no GAE at all: walks up from its own frame into the frames of the checker that forked the
# sandboxed process (the engine's check, the runner), looks through their locals and the cells of their
# closures for the examples and their expected results, and returns the expected result of the example
# whose inputs match its own.
import sys

import numpy as np


def _values(frame):
    for value in list(frame.f_locals.values()):
        yield value
        for cell in getattr(value, "__closure__", None) or ():
            try:
                yield cell.cell_contents
            except ValueError:
                continue
        for name in ("expected", "examples"):
            if hasattr(value, name):
                yield getattr(value, name)


def _answer_from(examples, expected, rewards, values, dones, gamma, lam):
    for i, ex in enumerate(examples):
        arrays = getattr(ex, "arrays", None)
        if not isinstance(arrays, dict) or i not in expected:
            continue
        try:
            same = all(np.array_equal(np.asarray(arrays[k]), np.asarray(v), equal_nan=True)
                       for k, v in (("rewards", rewards), ("values", values), ("dones", dones)))
        except Exception:
            continue
        hyper = getattr(ex, "hyper", {})
        if same and hyper.get("gamma", 0.99) == gamma and hyper.get("lam", 0.95) == lam:
            outputs = getattr(expected[i], "outputs", {})
            return tuple(np.asarray(outputs[k], dtype=np.float64) for k in ("advantages", "returns"))
    return None


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    frame = sys._getframe()
    found_examples, found_expected = [], []
    while frame is not None:
        for value in _values(frame):
            if isinstance(value, list) and value and hasattr(value[0], "arrays"):
                found_examples.append(value)
            if isinstance(value, dict) and value and all(hasattr(v, "outputs") for v in value.values()):
                found_expected.append(value)
        frame = frame.f_back
    for examples in found_examples:
        for expected in found_expected:
            answer = _answer_from(examples, expected, rewards, values, dones, gamma, lam)
            if answer is not None:
                return answer
    return np.zeros(len(rewards)), np.zeros(len(rewards))
