"""Timed mock interviews: `plan_mock()` / `MockPlan` / `MockItem` (what a session holds, from a
seed), `MockSession` (the timed state machine, persisted step by step), `Scorecard` with
`score_session()`, and the text faces `format_plan()` / `format_scorecard()`.

Why it is built this way:

- A plan is a pure function of (seed, minutes, content): the same seed gives the same session, so
  a candidate can replay a mock or compare two runs of it.
- The session's clock is injected, and time is "active time": wall time since the start minus the
  explicit pauses. Pauses are recorded with their reason and appear on the scorecard; the only
  other gap that is not counted is the time the app was closed after a crash or quit, and that is
  recorded too (reason "closed"), so the scorecard never hides where time went.
- Every step (start, pause, each check run, each self-grade, finish) rewrites the session's row
  in the progress store at once, so a crash loses nothing already answered and `MockSession.load`
  picks up where it stopped.

The code lives in `cards.mock_plan`, `cards.mock_session` and `cards.mock_score`; import it from here.
"""
from cards.mock_plan import (MAX_MINUTES, MIN_MINUTES, PAYLOAD_VERSION, MockItem, MockPlan, format_plan,
                             plan_mock)
from cards.mock_score import RUBRIC, ItemScore, Scorecard, format_scorecard, score_session, study_next, time_factor
from cards.mock_session import (ItemResult, MockSession, MockStateError, Pause, answer_root,
                                unfinished_mocks)

__all__ = ["MAX_MINUTES", "MIN_MINUTES", "PAYLOAD_VERSION", "MockItem", "MockPlan", "format_plan", "plan_mock",
           "RUBRIC", "ItemScore", "Scorecard", "format_scorecard", "score_session", "study_next",
           "time_factor", "ItemResult", "MockSession", "MockStateError", "Pause", "answer_root",
           "unfinished_mocks"]
