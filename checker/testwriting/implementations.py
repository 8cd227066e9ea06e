"""The implementations a test file is graded against: right ones (the model answer and the test
drill's `right/` files, written in other styles: vectorised, float32 buffers, library idioms), which
every test must pass, and the base drill's catalogued mistakes, which some test should fail.

Each implementation is shown to the candidate's tests as the module `solution`, stripped of comments
and docstrings and compiled under one neutral file name, so a test cannot read which one it was given
(its source, its file name or a comment in a buggy copy); only behaviour tells them apart.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from drills import get_drill

MODULE = "solution"
FILENAME = "<implementation under test>"


@dataclass(frozen=True)
class Implementation:
    kind: str            # "right" or "bug"
    id: str              # "model", a right/ file's style, or a mistake id
    title: str
    source: str          # stripped source, as the child loads it
    card: str | None = None


def strip(source: str) -> str:
    """The code without comments and docstrings (so a buggy copy's comments cannot give it away)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                    and isinstance(body[0].value.value, str):  # type: ignore[attr-defined]
                node.body = body[1:] or [ast.Pass()]
    return ast.unparse(tree) + "\n"


def right_files(drill, framework: str) -> list[Path]:
    """The test drill's extra right answers for `framework`: right/<framework>.<style>.py."""
    folder = drill.path / "right"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(f"{framework}.*.py"))


def implementations(drill_id: str, framework: str) -> tuple[Implementation, ...]:
    """What a test drill's tests run against: the model answer first, then the drill's other right answers
    (`right_files`), then one buggy copy per catalogued mistake of the drill under test (its canonical
    form), each stripped of comments and docstrings. The `Checker` builds them once per drill."""
    drill = get_drill(drill_id)
    base = get_drill(drill.base)
    out = [Implementation("right", "model", "the model answer", strip(base.solution(framework)))]
    for path in right_files(drill, framework):
        style = path.name[len(framework) + 1:-3]
        out.append(Implementation("right", style, f"a right answer ({style.replace('-', ' ')})",
                                  strip(path.read_text(encoding="utf-8"))))
    for m in base.mistakes:
        forms = m.forms(framework)  # the canonical file first, its parameters filled in
        if forms:
            out.append(Implementation("bug", m.id, m.title, strip(forms[0][1]), m.card))
    return tuple(out)
