"""The check that the private parts of third-party libraries the project patches are still there, and the
list of hypothesis internals that drawing examples relies on.

Hypothesis mixes literals from the local modules loaded so far into what it draws; `checker/inputs.py`
(per draw) and `tests/conftest.py` (for the whole test session) swap that pool for an empty one through
`hypothesis.internal.conjecture.providers`, which is no public API, so `pyproject.toml` pins hypothesis to
the range tested (`HYPOTHESIS_TESTED`). A release outside it may rename those internals: `missing_private_apis()`
names what is gone, and `check_private_apis()` says so with a `PrivateApiWarning` naming each attribute,
the installed version and the tested range, and answers whether the patch can be applied. A missing
internal does not stop anything: without the patch examples are still drawn, only a seed may draw other
examples in another process. Textual's private parts are listed, checked and skipped the same way by the
modules that patch them (`tui/widgets/textual_guards.py`, `tui/widgets/highlight_queries.py`).

Names are written `module:attr.attr` (where the module ends is explicit, so a submodule left as an
attribute of its package is not taken for the module); a missing one is reported dotted, up to the part that
is gone (`module.attr`). An attribute of a class counts only where that class defines it itself: what is
patched is that class's own method, and one inherited from a base class is not it. Nothing is
imported here until a check runs.
"""
from __future__ import annotations

import importlib
import warnings
from typing import Iterable

HYPOTHESIS_TESTED = ">=6.170.27,<6.171"  # the pin in pyproject.toml

HYPOTHESIS_APIS = (
    "hypothesis.internal.conjecture.providers:_get_local_constants",  # the pool of local literals, swapped out
    "hypothesis.internal.conjecture.providers:Constants",  # called with no arguments: the empty pool put in
    "hypothesis.internal.conjecture.providers:CONSTANTS_CACHE.cache",  # cleared around the swap
)

_WITHOUT_HYPOTHESIS_APIS = ("examples are drawn with hypothesis's pool of local literals, so the same seed may "
                            "draw different examples in the app's checker, `ppo-drill check` and the tests")


class PrivateApiWarning(RuntimeWarning):
    """A private attribute of a third-party library that the project patches is missing."""


def _first_missing(name: str) -> str | None:
    """`module:a.b` dotted up to the first part that cannot be found (the module when it does not import);
    None when everything is there."""
    module_name, _, path = name.partition(":")
    try:
        target = importlib.import_module(module_name)
    except ImportError:
        return module_name
    found = module_name
    for attr in filter(None, path.split(".")):
        found = f"{found}.{attr}"
        if isinstance(target, type) and attr not in vars(target):
            return found  # inherited from a base class: not the attribute of this class that is patched
        try:
            target = getattr(target, attr)
        except AttributeError:
            return found
    return None


def absent(names: Iterable[str]) -> list[str]:
    """For each of `names` (`module:attr.attr`) that cannot be found, the part that is missing, dotted."""
    return [gone for name in names if (gone := _first_missing(name)) is not None]


def installed_version(distribution: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "(version unknown)"


def describe(distribution: str, tested: str, missing: list[str], without: str) -> str:
    """The message for private attributes `missing` from `distribution`: what is gone, the installed version
    against the tested range, and what is lost (`without`)."""
    return (f"{distribution} {installed_version(distribution)} has no {', '.join(missing)} "
            f"(ppo-drill was tested with {distribution}{tested}); {without}")


def warn_missing(distribution: str, tested: str, names: Iterable[str], without: str) -> list[str]:
    """Warn (`PrivateApiWarning`) when any of `names` is missing from `distribution`; the missing ones, dotted."""
    missing = absent(names)
    if missing:
        warnings.warn(describe(distribution, tested, missing, without), PrivateApiWarning, stacklevel=3)
    return missing


def missing_private_apis() -> list[str]:
    """The hypothesis internals the example draws rely on that the installed hypothesis lacks ("module.attr")."""
    return absent(HYPOTHESIS_APIS)


def check_private_apis() -> bool:
    """True when the local-constants pool can be swapped out; otherwise warns, naming what is missing."""
    return not warn_missing("hypothesis", HYPOTHESIS_TESTED, HYPOTHESIS_APIS, _WITHOUT_HYPOTHESIS_APIS)
