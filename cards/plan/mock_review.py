"""After a mock: what the scorecard reveals item by item, and mock history.

- `review_items()`: per item, the time against its budget; for a question the candidate's typed answer
  beside the card's answer; for a drill the code submitted beside the model answer (a unified diff),
  the mistakes the checker named with their explanations, and the drill's hints. During a mock run like
  an interview none of this is shown; afterwards all of it is.
- `mock_history()`: every finished mock with its score, newest first; `load_finished()` reopens one
  (read only); `other_run()` finds another run of the same seed; `compare_runs()` lines two runs up
  item by item.

Reads sessions and the content; never changes a session.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Sequence

from cards.decks.loader import load_decks
from cards.plan.mock_score import score_session
from cards.plan.mock_session import MockSession
from cards.progress.store import ProgressStore
from drills import all_mistakes, get_drill


@dataclass(frozen=True)
class ItemReview:
    """One item as the scorecard reveals it."""

    index: int
    kind: str
    ref: str
    title: str
    outcome: str
    time_s: float | None
    budget_s: int
    question: str = ""
    typed: str = ""
    card_answer: str = ""
    code: str = ""
    model: str = ""
    diff: tuple[str, ...] = ()
    mistakes: tuple[dict, ...] = ()
    hints: tuple[str, ...] = ()
    framework: str | None = None

    @property
    def over_s(self) -> float | None:
        """Seconds over the budget (negative: under), None when not reached."""
        return None if self.time_s is None else self.time_s - self.budget_s


def _submitted_code(session: MockSession, result: Any) -> str:
    if result is None:
        return ""
    if result.code:
        return result.code
    if session.store is not None and result.attempt_ids:  # records written before code was kept
        by_id = {a.id: a for a in session.store.attempts()}
        codes = [by_id[i].code for i in result.attempt_ids if i in by_id and by_id[i].code]
        return codes[-1] if codes else ""
    return ""


def unwrap(text: str) -> str:
    """Card text with its source line breaks joined, as Markdown would show it: lines of one paragraph
    become one line; blank lines, list items, tables, indented and fenced code keep their breaks."""
    out: list[str] = []
    fenced = False
    for line in text.strip().splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            out.append(line)
            continue
        block = (fenced or not stripped or line.startswith(("    ", "\t")) or
                 stripped.startswith(("- ", "* ", "|", "#", ">")) or stripped[:3].rstrip(".").isdigit())
        prev = out[-1] if out else ""
        joinable = (out and prev.strip() and not prev.strip().startswith(("```", "|", "#")) and
                    not prev.startswith(("    ", "\t")))
        if not block and joinable and not fenced:
            out[-1] = f"{prev} {stripped}"
        else:
            out.append(line)
    return "\n".join(out)


def review_items(session: MockSession, deckset: Any = None, lang: str = "en") -> list[ItemReview]:
    """Every item of `session` with what the scorecard reveals (see the module docstring)."""
    if deckset is None:
        deckset = load_decks()

    catalogue = all_mistakes()
    card = score_session(session)
    results = {r.index: r for r in session.results}
    items = []
    for it in card.items:
        result = results.get(it.index)
        if it.kind == "question":
            c = deckset.by_id.get(it.ref)
            front, back = c.text(lang) if c else (it.title, "(this card left the decks)")
            items.append(ItemReview(it.index, it.kind, it.ref, it.title, it.outcome, it.time_s, it.budget_s,
                                    question=unwrap(front), typed=(result.answer if result else "").strip(),
                                    card_answer=unwrap(back)))
            continue
        code = _submitted_code(session, result)
        try:
            drill = get_drill(it.ref)
            model = drill.solution(it.framework or drill.frameworks[0])
            hints = tuple(drill.hints)
        except (KeyError, ValueError, OSError):  # a drill that left the content since
            model, hints = "", ()
        diff = tuple(difflib.unified_diff(code.splitlines(), model.splitlines(), "your code", "model answer",
                                          lineterm="")) if code and model else ()
        mistakes = tuple({**m, "explanation": " ".join(catalogue[m["id"]].explanation.split())
                          if m["id"] in catalogue else ""} for m in it.mistakes)
        items.append(ItemReview(it.index, it.kind, it.ref, it.title, it.outcome, it.time_s, it.budget_s,
                                code=code, model=model, diff=diff, mistakes=mistakes, hints=hints,
                                framework=it.framework))
    return items


def _mmss(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"


def time_text(item: ItemReview) -> str:
    """"3:10 of 2:30 budget (0:40 over)", or "not reached"."""
    if item.time_s is None:
        return "not reached"
    over = item.over_s
    tail = f"{_mmss(over)} over" if over > 0 else "within budget"
    return f"{_mmss(item.time_s)} of {_mmss(item.budget_s)} budget ({tail})"


def format_review(items: Sequence[ItemReview], shown: Callable[[str], str] = str) -> str:
    """The revealed items as text (`ppo-drill mock --show`). `shown` turns a card's Markdown into what
    is printed (as written by default; drawn on a terminal, as `ppo-drill review` draws cards)."""
    lines: list[str] = []
    for it in items:
        lines += ["", f"{it.index + 1}. {it.kind} {it.ref}: {it.outcome}, {time_text(it)}"]
        if it.kind == "question":
            if shown is str:
                lines += ["   Question: " + it.question.splitlines()[0] if it.question else ""]
            else:
                lines += ["   Question:", *(f"     {line}" for line in shown(it.question).splitlines())]
            lines += ["   Your answer:", *(f"     {line}" for line in (it.typed or "(nothing typed)").splitlines()),
                      "   The card's answer:", *(f"     {line}" for line in shown(it.card_answer).splitlines())]
            continue
        for m in it.mistakes:
            lines.append(f"   Mistake: {m['title']} [{m['id']}]" + (f": {m['explanation']}" if m["explanation"] else ""))
            if m.get("card"):
                lines.append(f"     card {m['card']}")
        if it.diff:
            lines += ["   Your code against the model answer:", *(f"     {line}" for line in it.diff)]
        elif it.code and it.model:
            lines.append("   Your code is the model answer.")
        elif not it.code:
            lines.append("   No code was submitted.")
        if it.hints and it.outcome != "passed":
            hints = "\n".join(f"- {' '.join(h.split())}" for h in it.hints)
            lines += ["   Hints:", *(f"     {line}" for line in shown(hints).splitlines())]
    return "\n".join(lines).strip("\n")


# -- history ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PastMock:
    """One finished mock, as the history lists it."""

    mock_id: str
    seed: int
    minutes: int
    finished_at: datetime
    score: float
    correctness: float


def mock_history(store: ProgressStore) -> list[PastMock]:
    """Finished mocks with a scorecard, newest first."""
    rows = []
    for m in store.mocks():
        card = m.payload.get("scorecard") if isinstance(m.payload, dict) else None
        if m.finished_at is None or not isinstance(card, dict):
            continue
        rows.append(PastMock(m.id, m.seed, int(card.get("minutes", 0)), m.finished_at,
                             float(card.get("score", 0.0)), float(card.get("correctness", 0.0))))
    rows.sort(key=lambda r: (r.finished_at, r.mock_id), reverse=True)
    return rows


def load_finished(store: ProgressStore, mock_id: str) -> MockSession:
    """A finished session, read only (training is not recorded again; loading a finished session
    writes nothing)."""
    session = MockSession.load(store, mock_id, record_training=False)
    if not session.finished:
        raise ValueError(f"mock {mock_id!r} is not finished; continue it on the mock screen")
    return session


def other_run(store: ProgressStore, mock_id: str) -> str | None:
    """Another finished run of the same seed and length: the latest one before it, else the next."""
    history = mock_history(store)
    me = next((m for m in history if m.mock_id == mock_id), None)
    if me is None:
        return None
    same = [m for m in history if m.seed == me.seed and m.minutes == me.minutes and m.mock_id != mock_id]
    before = [m for m in same if m.finished_at <= me.finished_at]
    return (before[0] if before else same[-1]).mock_id if same else None


@dataclass(frozen=True)
class Comparison:
    """Two runs of one seed side by side: `rows` are (item number, kind, ref, budget_s, outcome A,
    time A, outcome B, time B); scores and dates of both runs."""

    seed: int
    minutes: int
    a: PastMock
    b: PastMock
    rows: tuple[tuple, ...]


def compare_runs(store: ProgressStore, a_id: str, b_id: str) -> Comparison:
    """Line two finished runs up item by item; ValueError unless both run the same seed and length."""
    history = {m.mock_id: m for m in mock_history(store)}
    if a_id not in history or b_id not in history:
        raise ValueError("both mocks must be finished (see the mock history)")
    a, b = history[a_id], history[b_id]
    if (a.seed, a.minutes) != (b.seed, b.minutes):
        raise ValueError(f"only runs of the same seed and length compare: seed {a.seed} ({a.minutes} min) "
                         f"vs seed {b.seed} ({b.minutes} min)")
    card_a = score_session(load_finished(store, a_id))
    card_b = score_session(load_finished(store, b_id))
    by_b = {(i.index, i.ref): i for i in card_b.items}
    rows = []
    for i in card_a.items:
        j = by_b.get((i.index, i.ref))
        rows.append((i.index + 1, i.kind, i.ref, i.budget_s, i.outcome, i.time_s,
                     j.outcome if j else "-", j.time_s if j else None))
    return Comparison(a.seed, a.minutes, a, b, tuple(rows))


def format_comparison(comp: Comparison) -> str:
    """Two runs side by side as text (`ppo-drill mock --compare`)."""
    head_a = f"{comp.a.finished_at:%Y-%m-%d %H:%M} score {comp.a.score:.1f}"
    head_b = f"{comp.b.finished_at:%Y-%m-%d %H:%M} score {comp.b.score:.1f}"
    lines = [f"Seed {comp.seed}, {comp.minutes} min: two runs side by side", "",
             f"{'':<32} {'budget':>6}  {head_a:<26} {head_b:<26}"]
    for n, kind, ref, budget, out_a, t_a, out_b, t_b in comp.rows:
        lines.append(f"{n:>2}. {kind[0]} {ref[:26]:<26} {_mmss(budget):>6}  {out_a:<10} {_mmss(t_a):>6}"
                     f"{'':<9} {out_b:<10} {_mmss(t_b):>6}")
    return "\n".join(lines)


def study_next_items(session: MockSession) -> tuple[list[str], list[str]]:
    """The scorecard's "study next" as (card ids, drill ids): the cards it names, and the drills not
    passed, for queueing into today's plan (`cards.plan.interview.queue_study_next`)."""
    card = score_session(session)
    cards = [c for e in card.study_next for c in e["cards"]]
    drills = [i.ref for i in card.items if i.kind == "drill" and i.outcome != "passed" and i.time_s is not None]
    return list(dict.fromkeys(cards)), list(dict.fromkeys(drills))
