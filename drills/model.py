"""The loaded content as plain objects: `Drill` and `Mistake`.

Texts that the app shows at once (prompt, hints, a mistake's explanation) are read at load time;
code files (starters, solutions, buggy copies) are read when asked for, so an author who edits one
sees the change without restarting the app.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from drills.runlog import answer_sheet


def _unsupported(what: str, framework: str, frameworks: tuple[str, ...]) -> ValueError:
    return ValueError(f"{what} has no {framework!r} version (frameworks: {', '.join(frameworks)})")


@dataclass(frozen=True)
class Mistake:
    """A catalogued mistake: a buggy copy of one drill's model solution per framework.

    Mistakes from `_common/mistakes.yaml` have no files (`drill_id` and `folder` are None): the
    checker diagnoses them from the output or the input contract alone.
    """

    id: str
    title: str
    explanation: str
    card: str
    drill_id: str | None
    frameworks: tuple[str, ...]
    pitfall_row: str | None = None
    folder: Path | None = None
    fails: tuple[str, ...] = ()           # the checks this mistake may fail (besides matches-reference)
    params: tuple[tuple[tuple[str, str], ...], ...] = ()  # substitutions giving a parametrised family
    concepts: tuple[str, ...] = ()        # the shared misconceptions this drill's mistake is its own name for

    def path(self, framework: str) -> Path | None:
        """The buggy file for `framework`, or None when this mistake has no file for it."""
        if self.folder is None or framework not in self.frameworks:
            return None
        return self.folder / f"{framework}.py"

    def source(self, framework: str) -> str | None:
        """The buggy code for `framework`, or None when this mistake has no file for it."""
        path = self.path(framework)
        return None if path is None else path.read_text(encoding="utf-8")

    def form_paths(self, framework: str) -> list[Path]:
        """Every file of this mistake for `framework`: the canonical `<framework>.py`, then the other forms
        of the same misconception, `<framework>.<form>.py`, by name."""
        path = self.path(framework)
        if path is None:
            return []
        return [path, *sorted(self.folder.glob(f"{framework}.*.py"))]

    def forms(self, framework: str) -> list[tuple[str, str]]:
        """(label, source) of every variant of this mistake for `framework`: each form file, once per
        `params` substitution that the file uses (whole words, parenthesised)."""
        out = []
        for path in self.form_paths(framework):
            src = path.read_text(encoding="utf-8")
            form = path.name[len(framework) + 1:-3] or "canonical"
            used = [p for p in self.params if any(re.search(rf"\b{re.escape(k)}\b", src) for k, _ in p)]
            if not used:
                out.append((f"{self.id}:{framework}:{form}", src))
                continue
            for n, p in enumerate(used):
                text = src
                for k, expr in p:
                    text = re.sub(rf"\b{re.escape(k)}\b", f"({expr})", text)
                out.append((f"{self.id}:{framework}:{form}:{n}", text))
        return out


@dataclass(frozen=True)
class Misconception:
    """A misconception that belongs to a concept rather than to one drill (`drills/_common/misconceptions.yaml`):
    every drill whose checker spec has the inputs and outputs it `needs` (the spec's `roles`) inherits it.

    `plant` names how the checker plants it in a drill's model answer (a rule of `checker.misconceptions`,
    with its argument), `recognise` optionally names the property whose failure shows it in any form, and
    `frameworks` limits it (a gradient exists only in PyTorch). The explanation may name the drill's own
    inputs as `{role}`. A drill's own mistake folder may carry the same id (its hand-written forms of it) or
    declare `concept: <id>` or a list of ids (its own name and words for them); the checker then names
    the drill's mistake.
    """

    id: str
    title: str
    explanation: str
    card: str
    needs: tuple[str, ...]
    plant: tuple[str, str] | None = None      # (rule, argument)
    recognise: tuple[str, str] | None = None  # (property, argument)
    frameworks: tuple[str, ...] = ("numpy", "torch")

    def as_mistake(self) -> "Mistake":
        """The catalogue entry a report names (no files: the checker plants it)."""
        return Mistake(id=self.id, title=self.title, explanation=self.explanation, card=self.card, drill_id=None,
                       frameworks=self.frameworks, concepts=(self.id,))


@dataclass(frozen=True)
class RunCause:
    """One cause a read-the-run drill offers: the choice's text (English and Chinese) and the card that
    teaches it."""

    id: str
    text: str
    zh: str
    card: str


@dataclass(frozen=True, eq=False)
class Drill:
    """One drill. A pitfall drill shows its base drill's buggy file as the starter and is checked
    by the base drill's checker, so `solution`, `mistakes` and `starter` come from the base. A pitfall or
    test-writing drill is about its base drill's function: `function` and `signature` are the base's,
    taken from it by the loader (its drill.yaml does not state them)."""

    id: str
    title: str
    kind: str
    function: str
    signature: str
    frameworks: tuple[str, ...]
    target_minutes: int
    topic: str
    difficulty: str
    cards: tuple[str, ...]
    path: Path
    prompt: str
    prompt_zh: str | None
    hints: list[str]
    base: str | None = None
    mistake_id: str | None = None
    nudges: dict = field(default_factory=dict)  # test drills: mistake id -> which input would expose it
    # read-the-run drills: the causes offered (in the order shown), the planted one, what gives it away
    # ({"keywords", "line", "en", "zh"}), for each other cause what rules it out, and the run's log
    choices: tuple[str, ...] = ()
    answer: str | None = None
    giveaway: dict = field(default_factory=dict)
    why_not: dict = field(default_factory=dict)
    causes: dict = field(default_factory=dict, repr=False)
    run_log: dict = field(default_factory=dict, repr=False)
    _mistakes: tuple[Mistake, ...] = field(default=(), repr=False)
    _base_path: Path | None = field(default=None, repr=False)

    @property
    def is_pitfall(self) -> bool:
        return self.kind == "pitfall"

    @property
    def is_test(self) -> bool:
        """A test-writing drill: the candidate writes tests of the base drill's function."""
        return self.kind == "test"

    @property
    def is_run(self) -> bool:
        """A read-the-run drill: the candidate reads a training run's log and names its planted bug."""
        return self.kind == "run"

    @property
    def mistakes(self) -> list[Mistake]:
        """The catalogued mistakes the checker names for this drill (a pitfall's: its base drill's)."""
        return list(self._mistakes)

    @property
    def planted_mistake(self) -> Mistake | None:
        """For a pitfall drill, the mistake its starter contains; None for a core drill."""
        if self.mistake_id is None:
            return None
        return next(m for m in self._mistakes if m.id == self.mistake_id)

    def _check_framework(self, framework: str) -> None:
        if framework not in self.frameworks:
            raise _unsupported(f"drill {self.id!r}", framework, self.frameworks)

    def starter_path(self, framework: str) -> Path:
        """The file a candidate starts from (for a pitfall: the base drill's buggy copy)."""
        self._check_framework(framework)
        if self.is_pitfall:
            return self._base_path / "mistakes" / self.mistake_id / f"{framework}.py"
        return self.path / "starter" / f"{framework}.py"

    def solution_path(self, framework: str) -> Path:
        """The model answer (for a pitfall: the base drill's)."""
        self._check_framework(framework)
        folder = self._base_path if self.is_pitfall else self.path
        return folder / "solution" / f"{framework}.py"

    def starter(self, framework: str) -> str:
        if self.is_run:  # the answer sheet: the run's log, the causes, and the two lines to fill in

            self._check_framework(framework)
            return answer_sheet(self)
        return self.starter_path(framework).read_text(encoding="utf-8")

    def solution(self, framework: str) -> str:
        if self.is_run:  # the sheet filled in: the planted cause and the line that names its giveaway

            self._check_framework(framework)
            return answer_sheet(self, answered=True)
        return self.solution_path(framework).read_text(encoding="utf-8")
