"""Confusion figures of the diagnosis on a corpus of candidate answers, per drill and in total.

A corpus folder holds `<drill_id>/<name>.py`, one complete answer per file, with header comments:
    # expect: right                        -> must pass
    # expect: <mistake-id> [<mistake-id>]  -> must fail; every listed mistake named, nothing else named
    # expect-unnamed: <words>              -> (optional) a second deviation that must not be named
    # expect:  (empty) with expect-unnamed   -> must fail, and no catalogued mistake may be named (its only
                                              slip is one the catalogue does not hold)
    # framework: numpy | torch             -> optional (otherwise detected from the code)

Usage: python bench/diagnosis.py [FOLDER] [-v]   (FOLDER defaults to tests/diagnosis; a folder of drill folders,
or one drill's folder such as tests/diagnosis/total-loss; a held-out corpus in the same layout is scored the
same way)
Prints, per drill and in total: right answers accepted, wrong answers rejected, wrong answers named
correctly (exactly the expected names), named wrongly (any name not expected), unnamed (rejected with
some expected name missing and nothing wrong named). Exit status 0 always: the figures are the output;
tests/test_diagnosis_corpus.py asserts the targets.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# output problems are how the checker says "your output is malformed", not a catalogued misconception
OUTPUT_IDS = {"output-type", "output-shape", "output-nonfinite"}


@dataclass
class Case:
    path: Path
    drill: str
    expect: list[str]            # ["right"], mistake ids, or [] (wrong, but nothing catalogued to name)
    framework: str | None = None
    unnamed: str = ""


@dataclass
class Outcome:
    case: Case
    passed: bool
    named: list[str]
    error: str | None = None
    verdict: str = ""            # accepted / rejected-right / named / wrong-name / unnamed / passed-wrong


@dataclass
class Tally:
    right: int = 0
    right_accepted: int = 0
    wrong: int = 0
    wrong_rejected: int = 0
    named_correctly: int = 0
    named_wrongly: int = 0
    unnamed: int = 0
    failures: list[Outcome] = field(default_factory=list)

    def add(self, o: Outcome) -> None:
        if o.case.expect == ["right"]:
            self.right += 1
            self.right_accepted += o.passed
        else:
            self.wrong += 1
            self.wrong_rejected += not o.passed
            self.named_correctly += o.verdict == "named"
            self.named_wrongly += o.verdict == "wrong-name"
            self.unnamed += o.verdict in ("unnamed", "passed-wrong")
        if o.verdict not in ("accepted", "named"):
            self.failures.append(o)


def parse(path: Path) -> Case | None:
    expect, framework, unnamed = None, None, ""
    for line in path.read_text(encoding="utf-8").splitlines()[:30]:
        s = line.strip()
        if not s.startswith("#"):
            if s:
                break
            continue
        body = s.lstrip("#").strip()
        key, _, value = body.partition(":")
        key = key.strip().lower()
        if key == "expect":
            expect = value.split()
        elif key == "framework":
            framework = value.strip() or None
        elif key == "expect-unnamed":
            unnamed = value.strip()
    if expect is None or (not expect and not unnamed):
        return None  # no header, or an empty expect without saying what is wrong
    from drills import typed_drill_id  # a held-out corpus may name its folders policy_loss as well as policy-loss

    return Case(path, typed_drill_id(path.parent.name), expect, framework, unnamed)


def cases(folder: Path) -> list[Case]:
    """The answers under `folder`: `<drill_id>/<name>.py` files, or, for a folder named after a drill that
    holds answer files itself (tests/diagnosis/total-loss), that folder's files."""
    out = []
    paths = sorted(folder.glob("*.py")) or sorted(folder.glob("*/*.py"))
    for path in paths:
        if path.name.startswith("_"):
            continue
        c = parse(path)
        if c is not None:
            out.append(c)
    return out


def judge(case: Case, checker) -> Outcome:
    """How `checker` (a `checker.engine.Checker`) judges one corpus answer."""
    try:
        report = checker.check(case.path.read_text(encoding="utf-8"), case.drill, case.framework,
                               shrink_failure=False)
    except Exception as exc:  # noqa: BLE001 - a corpus file the checker cannot take is a finding
        return Outcome(case, False, [], f"{type(exc).__name__}: {exc}", "error")
    named = [i for i in report.mistake_ids if i not in OUTPUT_IDS]
    # a name given as an exact behavioural alternative of another is wrong only if none of its group is expected
    groups: dict[str, set[str]] = {}
    for d in report.diagnoses:
        if d.id in OUTPUT_IDS:
            continue
        groups.setdefault(d.alternative_to or d.id, set()).add(d.id)
    wrong = [g for g in groups.values() if not g & set(case.expect)]
    o = Outcome(case, report.passed, named, report.error.message if report.error else None)
    if case.expect == ["right"]:
        o.verdict = "accepted" if report.passed else "rejected-right"
    elif report.passed:
        o.verdict = "passed-wrong"
    elif wrong:
        o.verdict = "wrong-name"
    elif set(case.expect) <= set(named):
        o.verdict = "named"
    else:
        o.verdict = "unnamed"
    return o


def score(folder: Path, verbose: bool = False, out=sys.stdout) -> dict[str, Tally]:
    from checker.engine import Checker

    checker = Checker()
    tallies: dict[str, Tally] = {}
    for case in cases(folder):
        o = judge(case, checker)
        tallies.setdefault(case.drill, Tally()).add(o)
        tallies.setdefault("TOTAL", Tally()).add(o)
    head = (f"{'drill':<22} {'right acc':>10} {'wrong rej':>10} {'named ok':>10} {'named wrong':>12} "
            f"{'unnamed':>8} {'named %':>8}")
    print(head, file=out)
    for drill in sorted(k for k in tallies if k != "TOTAL") + ["TOTAL"]:
        if drill not in tallies:
            continue
        t = tallies[drill]
        pct = 100.0 * t.named_correctly / t.wrong if t.wrong else 100.0
        print(f"{drill:<22} {t.right_accepted:>5}/{t.right:<4} {t.wrong_rejected:>5}/{t.wrong:<4} "
              f"{t.named_correctly:>5}/{t.wrong:<4} {t.named_wrongly:>12} {t.unnamed:>8} {pct:>7.1f}%", file=out)
    if verbose and "TOTAL" in tallies:
        print(file=out)
        for o in tallies["TOTAL"].failures:
            rel = o.case.path.relative_to(folder)
            print(f"  {o.verdict:<15} {rel}  expected {' '.join(o.case.expect)}; named {o.named or '-'}"
                  f"{'; error ' + o.error if o.error else ''}", file=out)
    return tallies


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT / "tests" / "diagnosis"))
    ap.add_argument("-v", "--verbose", action="store_true", help="list every answer that missed its target")
    args = ap.parse_args()
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"{folder}: not a folder", file=sys.stderr)
        return 2
    score(folder, args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
