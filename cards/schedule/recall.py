"""Predicted recall at a future moment: FSRS retrievability of a card's or a drill's state at a given
time (`recall_at`), and of every card and drill at once (`card_recall`, `drill_recall`).

This is what "ready by the interview" means in numbers: a card whose FSRS state predicts a 0.93 chance
of recalling it on the interview day is 93% ready. Something never studied is 0 (nothing predicts it
will be recalled). Cards and drills use the same FSRS forgetting curve (the drill schedule only drops
the minute-long learning steps, which does not change the curve), so both are read with one scheduler.
"""
from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from typing import Iterable

import fsrs

from cards.progress.store import ProgressStore

DESIRED_RETENTION = 0.9  # FSRS's default: a card falls due when its predicted recall reaches this


@lru_cache(maxsize=1)
def _fsrs() -> fsrs.Scheduler:
    return fsrs.Scheduler(enable_fuzzing=False)


def recall_at(state: dict | None, when: datetime) -> float:
    """The probability (0..1) that an item with FSRS `state` (`fsrs.Card.to_dict()` data, None when
    never studied) is recalled at `when`. A moment before the last review reads as the last review."""
    if state is None:
        return 0.0
    card = fsrs.Card.from_dict(state)
    if card.last_review is None or card.stability is None:
        return 0.0
    when = when.astimezone(timezone.utc)
    if when < card.last_review:
        when = card.last_review
    return float(_fsrs().get_card_retrievability(card, when))


def card_recall(store: ProgressStore, card_ids: Iterable[str], when: datetime) -> dict[str, float]:
    """Predicted recall at `when` of each card in `card_ids` (0 for cards never reviewed)."""
    states = store.fsrs_states("card")
    return {cid: recall_at(states.get(cid), when) for cid in card_ids}


def drill_recall(store: ProgressStore, drill_ids: Iterable[str], when: datetime) -> dict[str, float]:
    """Predicted recall at `when` of each drill in `drill_ids` (0 for drills never attempted)."""
    states = store.fsrs_states("drill")
    return {did: recall_at(states.get(did), when) for did in drill_ids}
