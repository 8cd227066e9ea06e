"""Which follow-up questions a mock interview asks after a drill: `load_followups()` reads
`followups.yaml` (concept neighbours, the "what would you change if" tag, cards a prompt states,
areas too broad to make neighbours), and
`ranked_followups()` / `what_if_cards()` rank the cards an interviewer would move to next.

The rules are the interviewer's: never a card the drill itself exercises (its own cards, or one whose
concepts are all among theirs: the prompt or the fix just made stated that answer), move to
neighbouring concepts (listed neighbours, then the same checklist area, then a shared specific tag),
and ask at least one "what would you change if ..." per mock. The data lives in YAML, so a new drill
or deck extends it without code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

FOLLOWUPS_PATH = Path(__file__).resolve().parent / "followups.yaml"
GENERIC_TAGS = frozenset({"pitfall", "numbers", "bug", "derivation", "exercise", "worked-example", "design",
                          "implementations", "implementation", "dashboard", "measurement", "ppo", "rlhf",
                          "llm", "what-if"})


@dataclass(frozen=True)
class Followups:
    """The follow-up data: `neighbours` concept -> concepts, `what_if_tag`, `stated_by_prompt`."""

    neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    what_if_tag: str = "what-if"
    stated_by_prompt: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    broad_areas: frozenset[str] = frozenset()


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{FOLLOWUPS_PATH.name}: {where} must be a list of strings, got {value!r}")
    return tuple(value)


@lru_cache(maxsize=4)
def load_followups(path: Path = FOLLOWUPS_PATH) -> Followups:
    """Parse the follow-up data; a malformed file raises ValueError naming the file and field."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: expected a mapping at the top")
    neighbours = data.get("neighbours") or {}
    stated = data.get("stated_by_prompt") or {}
    if not isinstance(neighbours, dict) or not isinstance(stated, dict):
        raise ValueError(f"{path.name}: neighbours and stated_by_prompt must be mappings")
    return Followups({k: _strings(v, f"neighbours.{k}") for k, v in neighbours.items()},
                     str(data.get("what_if_tag", "what-if")),
                     {k: _strings(v, f"stated_by_prompt.{k}") for k, v in stated.items()},
                     frozenset(_strings(data.get("broad_areas") or [], "broad_areas")))


def _area(concept: str) -> str:
    return concept.split(".", 1)[0]


def stated_cards(drill: Any, deckset: Any, data: Followups | None = None) -> set[str]:
    """Cards a follow-up after `drill` must not ask: its own cards, those its prompt states, and any
    card whose concepts all belong to its own cards."""
    data = data or load_followups()
    own = {c for c in drill.cards if c in deckset.by_id} | set(data.stated_by_prompt.get(drill.id, ()))
    concepts = {k for c in own if c in deckset.by_id for k in deckset.by_id[c].concepts}
    covered = {card.id for card in deckset.cards if card.concepts and set(card.concepts) <= concepts}
    return own | covered


def ranked_followups(drill: Any, deckset: Any, data: Followups | None = None) -> list[tuple[int, str]]:
    """(rank, card id) of the cards to ask after `drill`, in deck order: 0 a listed neighbour concept,
    1 the same checklist area, 2 a shared specific tag. "What if" cards are left to `what_if_cards`."""
    data = data or load_followups()
    own = [c for c in drill.cards if c in deckset.by_id]
    concepts = {k for c in own for k in deckset.by_id[c].concepts}
    near = {n for k in concepts for n in data.neighbours.get(k, ())} - concepts
    areas = {_area(k) for k in concepts} - data.broad_areas
    tags = {t for c in own for t in deckset.by_id[c].tags} - GENERIC_TAGS
    skip = stated_cards(drill, deckset, data)
    ranked = []
    for card in deckset.cards:
        if card.id in skip or data.what_if_tag in card.tags:
            continue
        if near & set(card.concepts):
            ranked.append((0, card.id))
        elif areas & {_area(k) for k in card.concepts}:
            ranked.append((1, card.id))
        elif tags & set(card.tags):
            ranked.append((2, card.id))
    return ranked


def what_if_cards(drills: Iterable[Any], deckset: Any, data: Followups | None = None) -> list[tuple[float, str]]:
    """(closeness, card id) of the "what would you change if" cards of every deck, closest to `drills`
    first: the share of the card's concepts among the drills' concepts and their neighbours (twice) plus
    the share of its areas among theirs, negated, so smaller is closer. Shares, not counts, so a card
    with many concepts is not always the nearest."""
    data = data or load_followups()
    concepts: set[str] = set()
    for d in drills:
        concepts |= {k for c in d.cards if c in deckset.by_id for k in deckset.by_id[c].concepts}
        concepts |= {n for k in list(concepts) for n in data.neighbours.get(k, ())}
    areas = {_area(k) for k in concepts} - data.broad_areas
    result = []
    for card in deckset.cards:
        if data.what_if_tag in card.tags:
            own = set(card.concepts)
            own_areas = {_area(k) for k in own}
            shared = (2 * len(own & concepts) / len(own) if own else 0.0) + \
                (len(own_areas & areas) / len(own_areas) if own_areas else 0.0)
            result.append((-round(shared, 6), card.id))
    return result
