"""The examples a check runs: the spec's hand-picked edge cases plus examples drawn from its hypothesis
strategy, reproducible per seed and cached — in memory for the warm worker, and on disk so a one-off
`ppo-drill check` does not pay for importing hypothesis and drawing (about a third of a second).

Drawing uses hypothesis itself (a seeded `@given` that collects what it draws), not `.example()`, so the
same seed always gives the same examples. The disk cache is keyed by the spec modules' source, so a
change to a strategy draws afresh; a damaged cache file is ignored and rewritten.
"""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

import numpy as np

from checker.specs import Example, spec_for

CACHE_FORMAT = 2  # 2: drawn without hypothesis's local-constants pool

DEFAULT_RANDOM = 48


def cache_dir() -> Path:
    """$PPO_DRILL_HOME/cache when set (tests, --data-dir), else the platform's user cache folder."""
    home = os.environ.get("PPO_DRILL_HOME")
    if home:
        return Path(home).expanduser() / "cache"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("ppo-drill", appauthor=False))


@lru_cache(maxsize=1)
def _specs_fingerprint() -> str:
    h = hashlib.sha256(str(CACHE_FORMAT).encode())
    for path in sorted((Path(__file__).parent / "specs").glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _encode(ex: Example) -> dict:
    return {"arrays": {k: {"dtype": v.dtype.str, "shape": list(v.shape), "data": v.ravel().tolist()}
                       for k, v in ex.arrays.items()},
            "hyper": ex.hyper, "label": ex.label, "invalid": ex.invalid}


def _decode(d: dict) -> Example:
    arrays = {k: np.array(v["data"], dtype=np.dtype(v["dtype"])).reshape(v["shape"]) for k, v in d["arrays"].items()}
    return Example(arrays, dict(d["hyper"]), d["label"], d["invalid"])


@lru_cache(maxsize=64)
def drawn_examples(drill_id: str, framework: str, seed: int, n: int = DEFAULT_RANDOM) -> tuple[Example, ...]:
    """`n` examples from the drill's strategy, the same for the same seed (read from the disk cache when
    it holds them)."""
    path = cache_dir() / f"examples-{drill_id}-{framework}-{seed}-{n}-{_specs_fingerprint()}.json"
    try:
        return tuple(_decode(d) for d in json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    drawn = _draw(drill_id, framework, seed, n)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps([_encode(ex) for ex in drawn]), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # a read-only or full disk only costs the next run a fresh draw
        pass
    return drawn


def _without_local_constants():
    """Hypothesis (>= 6.13x) mixes literals found in the local modules loaded so far into what it draws,
    so the same seed would draw different examples in the CLI, the app's worker and the tests. Drawing
    with that pool emptied keeps a seed's examples the same in every process."""
    import contextlib

    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - an older hypothesis has no such pool
        return contextlib.nullcontext()
    if not hasattr(providers, "_get_local_constants") or not hasattr(providers, "Constants"):
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def patched():
        original = providers._get_local_constants
        providers._get_local_constants = providers.Constants
        providers.CONSTANTS_CACHE.cache.clear()
        try:
            yield
        finally:
            providers._get_local_constants = original
            providers.CONSTANTS_CACHE.cache.clear()

    return patched()


def _draw(drill_id: str, framework: str, seed: int, n: int) -> tuple[Example, ...]:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    spec = spec_for(drill_id)
    drawn: list[Example] = []

    @hseed(seed)
    @settings(max_examples=n, phases=[Phase.generate], database=None, derandomize=False, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(spec.strategy(framework))
    def collect(example):
        drawn.append(example)

    with _without_local_constants():
        collect()
    return tuple(drawn[:n])


def examples_for(drill_id: str, framework: str, seed: int = 0) -> tuple[Example, ...]:
    """Edge cases first (they make the best counterexamples), then the drawn examples."""
    spec = spec_for(drill_id)
    n = getattr(spec, "random_examples", DEFAULT_RANDOM)  # a spec whose every example is a whole run draws fewer
    return tuple(spec.edge_cases(framework)) + drawn_examples(drill_id, framework, seed, n)


@lru_cache(maxsize=64)
def expected_for(drill_id: str, framework: str, seed: int = 0) -> tuple:
    """The reference result of every example of `examples_for` (same order), computed once per seed."""
    spec = spec_for(drill_id)
    return tuple(spec.reference(ex, framework) for ex in examples_for(drill_id, framework, seed))
