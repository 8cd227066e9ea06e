"""Every entry of a mistake's `fails:` is necessary: some form of the mistake fails that check.

`tests/test_checker_catalogue.py` (and the newer drills' tests) prove the other direction, that no form
fails a check outside `fails:`. Together: `fails:` is exactly what the mistake breaks, so a check that
blames a property the answer has shows up as a declared entry no form needs, or as an undeclared failure.
Forms are tried NumPy first (cheaper) and only until every declared check has been seen failing."""
from __future__ import annotations

import pytest

from checker.engine import check
from drills import load_drills

IMPLIED_FAILS = {"matches-reference", "output-type", "output-shape", "output-nonfinite"}
MISTAKES = [(d.id, m.id) for d in load_drills() if d.kind == "core" for m in d.mistakes]


@pytest.mark.parametrize("drill, mistake", MISTAKES)
def test_every_declared_failing_check_is_failed_by_some_form(drill, mistake):
    d = next(x for x in load_drills() if x.id == drill)
    m = next(x for x in d.mistakes if x.id == mistake)
    declared = set(m.fails)
    seen: set[str] = set()
    for fw in sorted(m.frameworks, key=lambda f: f != "numpy"):
        for label, source in m.forms(fw):
            report = check(source, drill, fw, shrink_failure=False)
            failed = {c.id for c in report.checks if not c.passed} - IMPLIED_FAILS
            assert failed <= declared, (label, sorted(failed - declared))
            seen |= failed
            if seen >= declared:
                return
    assert seen >= declared, f"{drill}/{mistake}: no form fails {sorted(declared - seen)}; drop them from fails:"
