"""The small part of pytest a test file may use in the sandbox (the child cannot import packages the
checker did not load): `approx`, `raises` and `mark.parametrize`. Its source is loaded into the child
as the module `pytest`, so `import pytest` works the same whether or not pytest is installed."""
import math
import re


class _Approx:
    def __init__(self, expected, rel=None, abs=None):
        self.expected, self.rel, self.abs = expected, 1e-6 if rel is None else rel, 1e-12 if abs is None else abs

    def _close(self, a, b):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return False
        return a == b or abs(a - b) <= max(self.abs, self.rel * abs(b))

    def __eq__(self, actual):
        exp = self.expected
        if hasattr(actual, "tolist"):
            actual = actual.tolist()
        if hasattr(exp, "tolist"):
            exp = exp.tolist()
        if isinstance(exp, (list, tuple)):
            if isinstance(actual, (int, float)):
                return all(self._close(actual, e) for e in _flat(exp))
            fa, fe = _flat(actual), _flat(exp)
            return len(fa) == len(fe) and all(self._close(a, e) for a, e in zip(fa, fe))
        if isinstance(actual, (list, tuple)):
            return all(self._close(a, exp) for a in _flat(actual))
        return self._close(actual, exp)

    def __repr__(self):
        return f"approx({self.expected!r})"


def _flat(x):
    if isinstance(x, (list, tuple)):
        return [y for item in x for y in _flat(item)]
    return [x]


def approx(expected, rel=None, abs=None):
    return _Approx(expected, rel, abs)


class _Raises:
    def __init__(self, exc, match=None):
        self.exc, self.match = exc, match

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError(f"DID NOT RAISE {self.exc}")
        if not issubclass(kind, self.exc):
            return False
        if self.match is not None and not re.search(self.match, str(value)):
            raise AssertionError(f"{str(value)!r} does not match {self.match!r}")
        return True


def raises(exc, match=None):
    return _Raises(exc, match)


class _Mark:
    @staticmethod
    def parametrize(names, values):
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)

        def wrap(fn):
            cases = []
            for i, v in enumerate(values):
                args = tuple(v) if len(names) > 1 else (v,)
                cases.append((args, f"[{i}]"))
            fn._ppo_drill_params = cases
            return fn
        return wrap


mark = _Mark()
