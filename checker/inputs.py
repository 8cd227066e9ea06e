"""The examples a check runs: the spec's hand-picked edge cases plus examples drawn from its hypothesis
strategy, reproducible per seed. The `Checker` keeps them in memory per drill (`checker.plan`); here they
are also cached on disk, so a one-off `ppo-drill check` does not pay for importing hypothesis and drawing
(about a third of a second).

Drawing uses hypothesis itself (a seeded `@given` that collects what it draws), not `.example()`, so the
same seed always gives the same examples. The disk cache is keyed by the spec modules' source and the
hypothesis release, so a change to a strategy (or an upgrade) draws afresh; a damaged cache file is
ignored and rewritten.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from pathlib import Path

import numpy as np
from platformdirs import user_cache_dir

from checker.private_apis import check_private_apis, installed_version
from checker.specs import DrillSpec, Example, Expected

CACHE_FORMAT = 2  # 2: drawn without hypothesis's local-constants pool

DEFAULT_RANDOM = 48


def cache_dir() -> Path:
    """$PPO_DRILL_CACHE when set (a cache shared by several data folders, as the test suite's processes
    share one), else $PPO_DRILL_HOME/cache when that is set (tests, --data-dir), else the platform's user
    cache folder. What is kept there is drawn from the specs' code alone, never from a user's data."""
    shared = os.environ.get("PPO_DRILL_CACHE")
    if shared:
        return Path(shared).expanduser()
    home = os.environ.get("PPO_DRILL_HOME")
    if home:
        return Path(home).expanduser() / "cache"

    return Path(user_cache_dir("ppo-drill", appauthor=False))


@functools.cache
def _specs_fingerprint() -> str:
    """The specs' code and the hypothesis release that draws from their strategies, hashed: drawn examples
    cached on disk are used only with the code and the release that drew them (another release may draw
    other examples from the same seed; read once per process: neither changes under it)."""
    h = hashlib.sha256(f"{CACHE_FORMAT} hypothesis {installed_version('hypothesis')}".encode())
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


def drawn_examples(spec: DrillSpec, framework: str, seed: int, n: int = DEFAULT_RANDOM) -> tuple[Example, ...]:
    """`n` examples from the drill's strategy, the same for the same seed (read from the disk cache when
    it holds them)."""
    path = cache_dir() / f"examples-{spec.drill_id}-{framework}-{seed}-{n}-{_specs_fingerprint()}.json"
    try:
        return tuple(_decode(d) for d in json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    drawn = _draw(spec, framework, seed, n)
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
    with that pool emptied keeps a seed's examples the same in every process. The pool is hypothesis's
    private API (`checker.private_apis` lists what is used): where it is missing, the draw goes on with it,
    and a warning says so."""
    if not check_private_apis():
        return contextlib.nullcontext()
    from hypothesis.internal.conjecture import (
        providers,  # only when drawing: the disk cache usually has them
    )

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


def _draw(spec: DrillSpec, framework: str, seed: int, n: int) -> tuple[Example, ...]:
    from hypothesis import (  # only when the disk cache misses
        HealthCheck,
        Phase,
        given,
        settings,
    )
    from hypothesis import seed as hseed

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


def examples_for(spec: DrillSpec, framework: str, seed: int = 0) -> tuple[Example, ...]:
    """Edge cases first (they make the best counterexamples), then the drawn examples."""
    n = getattr(spec, "random_examples", DEFAULT_RANDOM)  # a spec whose every example is a whole run draws fewer
    return tuple(spec.edge_cases(framework)) + drawn_examples(spec, framework, seed, n)


def expected_for(spec: DrillSpec, framework: str, examples) -> tuple[Expected, ...]:
    """The reference result of every example (same order)."""
    return tuple(spec.reference(ex, framework) for ex in examples)
