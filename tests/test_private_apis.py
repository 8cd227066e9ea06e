"""The hypothesis internals that drawing examples swaps out (checker/private_apis.py): each is there in the
installed hypothesis, every one the checker and the test set-up touch is listed, the pin in pyproject.toml
is the tested range, and one that is missing is named in a warning with the installed version and the
tested range. Also the resolver's rules: where the module ends, and what a class must define itself.
The Textual parts the app patches are tested with their guards (tests/test_tui_textual_guards.py)."""
from __future__ import annotations

import re
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis.internal.conjecture import providers
from packaging.specifiers import SpecifierSet

from checker.private_apis import (
    HYPOTHESIS_APIS,
    HYPOTHESIS_TESTED,
    PrivateApiWarning,
    absent,
    check_private_apis,
    missing_private_apis,
)

ROOT = Path(__file__).resolve().parents[1]


def test_every_hypothesis_internal_named_is_there():
    assert missing_private_apis() == []
    assert len(providers.Constants()) == 0  # the stand-in for the pool of local literals is an empty pool


def test_the_test_session_draws_without_local_constants():
    """tests/conftest.py swapped the pool out, after checking that it could."""
    assert providers._get_local_constants is providers.Constants


def test_every_internal_the_checker_and_the_tests_touch_is_listed():
    listed = {name.partition(":")[2].split(".")[0] for name in HYPOTHESIS_APIS}
    sources = [*sorted((ROOT / "checker").rglob("*.py")), ROOT / "tests" / "conftest.py"]
    used = {(match, str(path.relative_to(ROOT))) for path in sources
            for match in re.findall(r"\bproviders\.(\w+)", path.read_text(encoding="utf-8"))}
    assert ("_get_local_constants", "tests/conftest.py") in used, "the scan sees the test set-up's use"
    assert sorted(u for u in used if u[0] not in listed) == []


def test_the_pin_is_the_tested_range_and_the_installed_hypothesis_is_in_it():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.findall(r'^\s*"hypothesis([^"]*)"', pyproject, re.M) == [HYPOTHESIS_TESTED]
    assert version("hypothesis") in SpecifierSet(HYPOTHESIS_TESTED)


@pytest.mark.parametrize("attr", ["_get_local_constants", "Constants", "CONSTANTS_CACHE"])
def test_a_missing_internal_is_named_with_the_version_and_the_tested_range(monkeypatch, attr):
    monkeypatch.delattr(providers, attr)
    missing = f"hypothesis.internal.conjecture.providers.{attr}"
    assert missing_private_apis() == [missing]
    with pytest.warns(PrivateApiWarning) as caught:
        assert check_private_apis() is False
    message = str(caught[0].message)
    assert missing in message and f"hypothesis {version('hypothesis')}" in message, message
    assert f"hypothesis{HYPOTHESIS_TESTED}" in message and "same seed" in message, message


def test_nothing_is_said_when_everything_is_there(recwarn):
    assert check_private_apis() is True
    assert [w for w in recwarn if issubclass(w.category, PrivateApiWarning)] == []


def test_a_module_that_does_not_import_is_named_itself(monkeypatch):
    monkeypatch.setitem(sys.modules, "hypothesis.internal.conjecture.providers", None)
    assert missing_private_apis() == ["hypothesis.internal.conjecture.providers"] * len(HYPOTHESIS_APIS)


def test_a_chain_is_named_up_to_the_part_that_is_gone():
    assert absent(["checker.private_apis:HYPOTHESIS_APIS.index", "checker.private_apis:absent"]) == []
    assert absent(["checker.private_apis:HYPOTHESIS_APIS.nothing.more"]) == ["checker.private_apis.HYPOTHESIS_APIS.nothing"]
    assert absent(["checker.no_such_module:anything"]) == ["checker.no_such_module"]


def test_a_class_attribute_counts_only_where_the_class_defines_it():
    assert absent(["checker.private_apis:PrivateApiWarning.__init__"]) == \
        ["checker.private_apis.PrivateApiWarning.__init__"]  # inherited from Warning: not this class's own
    assert absent(["checker.private_apis:PrivateApiWarning.__doc__"]) == []
