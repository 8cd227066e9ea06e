"""The diagnosis corpus (tests/diagnosis/<drill>/*.py, answers written independently of the catalogue):
every right answer accepted, every wrong answer rejected, >= 95% of wrong answers named correctly and none
named wrongly. The figures come from bench/diagnosis.py, which scores any folder in the same format."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).parent / "diagnosis"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_diagnosis", ROOT / "bench" / "diagnosis.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
CASES = BENCH.cases(CORPUS) if CORPUS.is_dir() else []
_JUDGED: dict = {}


def judged(case):
    if case.path not in _JUDGED:
        _JUDGED[case.path] = BENCH.judge(case)
    return _JUDGED[case.path]


def test_the_corpus_is_there():
    assert CASES, f"no answers under {CORPUS}"


@pytest.mark.parametrize("case", CASES, ids=[f"{c.drill}/{c.path.stem}" for c in CASES])
def test_answer_is_judged_right_and_never_named_wrongly(case):
    o = judged(case)
    if case.expect == ["right"]:
        assert o.passed, f"{case.path.name}: a right answer was rejected ({o.error or o.named})"
    else:
        assert not o.passed, f"{case.path.name}: a wrong answer passed"
        assert o.verdict != "wrong-name", f"{case.path.name}: named {o.named}, expected {case.expect}"


def test_at_least_95_percent_of_wrong_answers_are_named_correctly():
    wrong = [c for c in CASES if c.expect != ["right"]]
    named = sum(judged(c).verdict == "named" for c in wrong)
    assert wrong and named >= 0.95 * len(wrong), f"named {named} of {len(wrong)}"


def test_the_format_is_parsed(tmp_path):
    (tmp_path / "gae").mkdir()
    (tmp_path / "gae" / "a.py").write_text("# expect: gae-forward-scan gae-missing-lambda\n# framework: numpy\n"
                                           "# expect-unnamed: whitened\nimport numpy as np\n")
    (tmp_path / "gae" / "no_header.py").write_text("import numpy as np\n")
    (c,) = BENCH.cases(tmp_path)
    assert (c.drill, c.expect, c.framework, c.unnamed) == ("gae", ["gae-forward-scan", "gae-missing-lambda"],
                                                          "numpy", "whitened")
