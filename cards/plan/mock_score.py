"""The mock scorecard: per item pass/fail and time against budget, an overall score with its rubric
(correctness first, then time), and the topics to study next.

Scoring reads a session (finished or still running) and never changes it; the session module knows
nothing of this one, so the rubric can change without touching the timed state machine."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Sequence

from cards.plan.mock_plan import CORRECTNESS_SHARE, GRADES, ITEM_WEIGHT, _mmss
from cards.progress.store import utc_iso
from drills import get_drill

if TYPE_CHECKING:
    from cards.plan.mock_session import MockSession


RUBRIC = (
    "score = 100 x sum(w * c * (0.8 + 0.2 * t)) / sum(w), over every item of the plan. "
    "w: 3 for a coding drill, 1 for a question. "
    "c (correctness): 1 drill passed or question known, 0.5 question partly known, "
    "0 failed, missed or unanswered. "
    "t (time): 1 within the item's soft budget, falling linearly to 0 at twice the budget. "
    "Correctness comes first: a wrong answer earns nothing however fast, and time can cost at "
    "most a fifth of an item's points. Pauses are not counted as time; they are listed."
)


@dataclass(frozen=True)
class ItemScore:
    """One item on the scorecard."""

    index: int
    kind: str
    ref: str
    title: str
    topic: str
    outcome: str
    correct: float
    time_s: float | None
    budget_s: int
    time_factor: float
    points: float
    max_points: float
    runs: int = 0
    mistakes: tuple[dict, ...] = ()
    framework: str | None = None

    @property
    def on_time(self) -> bool:
        return self.time_s is not None and self.time_s <= self.budget_s


@dataclass(frozen=True)
class Scorecard:
    """A session's result: items, overall score with its rubric, pauses, topics to study next."""

    mock_id: str | None
    seed: int
    minutes: int
    status: str
    finish_reason: str | None
    score: float
    correctness: float
    elapsed_s: float
    paused_s: float
    pauses: tuple[dict, ...]
    items: tuple[ItemScore, ...]
    study_next: tuple[dict, ...]
    rubric: str = RUBRIC

    def to_json(self) -> dict:
        data = asdict(self)
        data["items"] = [{**asdict(i), "on_time": i.on_time} for i in self.items]
        return data


def time_factor(time_s: float | None, budget_s: float) -> float:
    """1 within the budget, linearly down to 0 at twice the budget (see `RUBRIC`)."""
    if time_s is None or budget_s <= 0:
        return 0.0
    if time_s <= budget_s:
        return 1.0
    return max(0.0, 1.0 - (time_s - budget_s) / budget_s)


def _correctness(outcome: str | None) -> float:
    if outcome == "passed":
        return 1.0
    return GRADES.get(outcome or "", 0.0)


def _drill_cards(drill_id: str) -> tuple[str, ...]:
    try:
        return tuple(get_drill(drill_id).cards)
    except Exception:  # a drill removed from the content since the session: no cards to suggest
        return ()


def score_session(session: MockSession) -> Scorecard:
    """Score a session by `RUBRIC` (items not reached count as unanswered)."""
    plan = session.plan
    by_index = {r.index: r for r in session.results}
    items: list[ItemScore] = []
    total_w = earned = correct_w = 0.0
    for item in plan.items:
        result = by_index.get(item.index)
        outcome = result.outcome if result and (result.ended_s is not None or session.finished) else None
        outcome = outcome or ("in progress" if result and not session.finished else "unanswered")
        c = _correctness(outcome)
        t = result.time_s if result else None
        tf = time_factor(t, item.budget_s)
        w = ITEM_WEIGHT[item.kind]
        points = w * c * (CORRECTNESS_SHARE + (1 - CORRECTNESS_SHARE) * tf)
        total_w += w
        earned += points
        correct_w += w * c
        items.append(ItemScore(item.index, item.kind, item.ref, item.title, item.topic, outcome, c, t,
                               item.budget_s, tf, round(points, 3), float(w),
                               result.runs if result else 0,
                               tuple(result.mistakes) if result else (), item.framework))
    end = session.finished_at or session.now()
    pauses = tuple({"start": utc_iso(p.start), "end": utc_iso(p.end) if p.end else None,
                    "seconds": round(p.seconds(end), 1), "reason": p.reason} for p in session.pauses)
    return Scorecard(session.mock_id, plan.seed, plan.minutes, session.status, session.finish_reason,
                     round(100 * earned / total_w, 1) if total_w else 0.0,
                     round(100 * correct_w / total_w, 1) if total_w else 0.0,
                     round(session.elapsed_s(), 1), round(session.paused_s(), 1), pauses,
                     tuple(items), tuple(study_next(items)))


def scorecard_record(session: MockSession) -> dict:
    """The scorecard as JSON, kept in a finished session's record (`MockSession(summarise=...)`), so
    mock history reads scores without re-scoring."""
    return score_session(session).to_json()


def study_next(items: Sequence[ItemScore]) -> list[dict]:
    """Topics to study next, weakest first: each topic's lost correctness (weighted as in the
    rubric) over the items reached, with the cards to review (named mistakes' cards, missed
    questions' cards, a failed drill's own cards) and the mistakes named."""
    topics: dict[str, dict] = {}
    for it in items:
        if it.time_s is None:  # never reached: no evidence either way
            continue
        lost = ITEM_WEIGHT[it.kind] * (1 - it.correct)
        if lost <= 0 and not it.mistakes:
            continue
        entry = topics.setdefault(it.topic, {"topic": it.topic, "lost": 0.0, "cards": [], "mistakes": []})
        entry["lost"] += lost
        cards: list[str] = [m["card"] for m in it.mistakes if m.get("card")]
        if it.kind == "question" and it.correct < 1:
            cards.append(it.ref)
        if it.kind == "drill" and it.correct < 1 and not cards:
            cards.extend(_drill_cards(it.ref)[:2])
        entry["cards"] = list(dict.fromkeys(entry["cards"] + cards))
        entry["mistakes"] = list(dict.fromkeys(entry["mistakes"] + [m["id"] for m in it.mistakes]))
    ranked = sorted(topics.values(), key=lambda e: (-e["lost"], e["topic"]))
    for e in ranked:
        e["lost"] = round(e["lost"], 2)
    return ranked


_OUTCOME_LABEL = {"passed": "PASS", "failed": "FAIL", "knew": "knew", "partly": "partly",
                  "missed": "missed", "unanswered": "-", "in progress": "..."}


def format_scorecard(card: Scorecard) -> str:
    """The scorecard as text (shown by the mock screen and printable)."""
    lines = [f"Mock interview scorecard (seed {card.seed}, {card.minutes} min, "
             f"{card.finish_reason or card.status})",
             f"Score {card.score:.1f} / 100   correctness {card.correctness:.1f}%   "
             f"time used {_mmss(card.elapsed_s)} of {card.minutes}:00", ""]
    for it in card.items:
        time = "not reached" if it.time_s is None else f"{_mmss(it.time_s)} / {_mmss(it.budget_s)}"
        flag = "" if it.time_s is None or not it.correct else (" on time" if it.on_time else " over")
        runs = f", {it.runs} run{'s' if it.runs != 1 else ''}" if it.kind == "drill" else ""
        lines.append(f"{it.index + 1:>2}. {_OUTCOME_LABEL.get(it.outcome, it.outcome):<7} "
                     f"{it.kind:<8} {it.ref}  {time}{flag}{runs}  {it.points:.2f}/{it.max_points:.0f}")
        for m in it.mistakes:
            lines.append(f"      mistake: {m['title']} ({m['id']}; card {m.get('card') or '-'})")
    lines.append("")
    if card.pauses:
        lines.append(f"Paused {len(card.pauses)} time(s), {_mmss(card.paused_s)} in all (not counted):")
        for p in card.pauses:
            why = "pause key" if p["reason"] == "key" else "away: the mock left open or the app closed"
            lines.append(f"  {p['start'][11:19]} UTC  {_mmss(p['seconds'])}  ({why})")
    else:
        lines.append("No pauses: the clock ran for the whole session.")
    if card.study_next:
        lines += ["", "Study next:"]
        for e in card.study_next:
            lines.append(f"  {e['topic']}: cards {', '.join(e['cards']) or '-'}"
                         + (f"; mistakes {', '.join(e['mistakes'])}" if e["mistakes"] else ""))
    lines += ["", "Rubric: " + card.rubric]
    return "\n".join(lines)
