"""Timed mock interviews: `plan_mock()` / `MockPlan` / `MockItem` (what a session holds, from a
seed), `MockSession` (the timed state machine, persisted step by step), `Scorecard` with
`score_session()`, the text faces `format_plan()` / `format_scorecard()`, and `start_mock()` /
`resume_mock()`, which open a session whose finished record keeps its scorecard.

Why it is built this way:

- A plan is a pure function of (seed, minutes, content): the same seed gives the same session, so
  a candidate can replay a mock or compare two runs of it.
- The session's clock is injected, and time is "active time": wall time since the start minus the
  explicit pauses. Pauses are recorded with their reason and appear on the scorecard; the only
  other gap that is not counted is the time the app was closed after a crash or quit, and that is
  recorded too (reason "closed"), so the scorecard never hides where time went.
- Every step (start, pause, each check run, each self-grade, finish) rewrites the session's row
  in the progress store at once, so a crash loses nothing already answered and `resume_mock()`
  picks up where it stopped.
- Scoring reads a session; the session knows nothing of scoring. This module is where the two
  meet: `start_mock()` and `resume_mock()` hand the session `scorecard_record`, so the row of a
  finished session holds its scorecard (what mock history reads) in the same write that finishes it.

The code lives in `cards.plan.mock_plan`, `cards.plan.mock_session` and `cards.plan.mock_score`;
import it from here.
"""
from __future__ import annotations

from typing import Any

from cards.plan.mock_plan import (MAX_MINUTES, MIN_MINUTES, PAYLOAD_VERSION, MockItem, MockPlan, format_plan,
                                  plan_mock)
from cards.plan.mock_score import (RUBRIC, ItemScore, Scorecard, format_scorecard, scorecard_record, score_session,
                                   study_next, time_factor)
from cards.plan.mock_session import (ItemResult, MockSession, MockStateError, Pause, answer_root,
                                     unfinished_mocks)
from cards.progress.store import ProgressStore


def start_mock(plan: MockPlan, store: ProgressStore | None = None, **kwargs: Any) -> MockSession:
    """Begin a session now (see `MockSession.start`); once finished its record keeps the scorecard."""
    return MockSession.start(plan, store, summarise=scorecard_record, **kwargs)


def resume_mock(store: ProgressStore, mock_id: str, **kwargs: Any) -> MockSession:
    """Reopen a saved session (see `MockSession.load`); once finished its record keeps the scorecard."""
    return MockSession.load(store, mock_id, summarise=scorecard_record, **kwargs)


__all__ = ["MAX_MINUTES", "MIN_MINUTES", "PAYLOAD_VERSION", "MockItem", "MockPlan", "format_plan", "plan_mock",
           "RUBRIC", "ItemScore", "Scorecard", "format_scorecard", "scorecard_record", "score_session",
           "study_next", "time_factor", "ItemResult", "MockSession", "MockStateError", "Pause", "answer_root",
           "unfinished_mocks", "start_mock", "resume_mock"]
