"""`DrillCommands`: the command palette (ctrl+p) opens drills and cards by name.

Typing a drill's id (`policy_loss` as well as `policy-loss`), title words, topic or function ("gae",
"policy loss", "whiten") offers the drill itself (first, when its id, function or title holds every word
typed), its fix-the-bug and test-writing variants and a review of its cards; cards whose id, tags or
concepts match are offered as one review too. Only opens screens: what a screen shows is its own business.
"""
from __future__ import annotations

from functools import partial

from textual.command import Hit, Hits, Provider

from drills import typed_drill_id


class DrillCommands(Provider):
    """Palette hits for drills (and their fix-the-bug variants and cards) and for cards by topic."""

    def _entries(self) -> list[tuple[str, str, str, object, object]]:
        """(label, words to match, help line, callback, drill) for everything this provider can open
        (drill None for a drill's cards)."""
        app = self.app
        session = getattr(app, "session", None)
        if session is None:
            return []
        entries = []
        for drill in session.drills:
            words = f"{drill.id} {drill.title} {drill.topic} {drill.function}"
            about = f"{drill.topic} · {drill.target_minutes} min · {'/'.join(drill.frameworks)}"
            if drill.is_pitfall:
                title = drill.title.removeprefix("Fix the bug: ")
                entries.append((f"Fix the bug: {drill.id} — {title}", words,
                                f"start from code with one real bug · {about}", partial(self._open_drill, drill.id),
                                drill))
            elif drill.is_test:
                title = drill.title.removeprefix("Test it: ")
                entries.append((f"Write tests: {drill.id} — {title}", words,
                                f"write tests that catch the known bugs · {about}",
                                partial(self._open_drill, drill.id), drill))
            elif drill.is_run:
                entries.append((f"Read the run: {drill.id} — {drill.title}", words,
                                f"name the bug a training run's statistics give away · {about}",
                                partial(self._open_drill, drill.id), drill))
            else:
                entries.append((f"Drill: {drill.id} — {drill.title}", words, f"write it · {about}",
                                partial(self._open_drill, drill.id), drill))
            cards = [c for c in drill.cards if c in session.deckset.by_id]
            if cards:
                entries.append((f"Cards of {drill.id} ({len(cards)})", words, "review now: " + ", ".join(cards),
                                partial(self._review, tuple(cards)), None))
        return entries

    @staticmethod
    def _relevance(query: str, drill) -> float:
        """How much a drill's own hit is raised over the fuzzy score: a drill whose id, function or title
        holds every word typed is what was asked for, the drill itself before its variants."""
        if drill is None:
            return 1.0
        words = query.lower().replace("-", " ").replace("_", " ").split()
        hay = f"{drill.id} {drill.function} {drill.title}".lower().replace("-", " ").replace("_", " ")
        if not words or not all(w in hay for w in words):
            return 1.0
        return 1.5 if drill.kind == "core" else 1.2

    async def search(self, query: str) -> Hits:
        # a drill id typed with _ (policy_loss) is matched as the catalogue spells it too; a function name
        # typed as it is written (ppo_policy_loss) still matches as typed
        matchers = [self.matcher(query)] + ([self.matcher(typed_drill_id(query))] if "_" in query else [])
        for label, words, about, callback, drill in self._entries():
            score, matcher = max(((max(m.match(label), m.match(words) * 0.9), m) for m in matchers),
                                 key=lambda scored: scored[0])
            if score > 0:
                yield Hit(score * self._relevance(query, drill), matcher.highlight(label), callback, help=about)
        cards = self._cards_about(query)
        if cards:
            label = f"Review cards about {query.strip()!r} ({len(cards)})"
            yield Hit(0.5, label, partial(self._review, tuple(cards)), text=label,
                      help=", ".join(cards[:4]) + (" …" if len(cards) > 4 else ""))

    def _cards_about(self, query: str) -> list[str]:
        """Cards whose id, tags or concepts contain every word of `query` (at least 3 letters)."""
        words = [w for w in query.lower().replace("_", "-").split() if len(w) >= 3]
        session = getattr(self.app, "session", None)
        if not words or session is None:
            return []
        found = []
        for card in session.deckset.cards:
            hay = " ".join((card.id, *card.tags, *card.concepts)).lower()
            if all(w in hay for w in words):
                found.append(card.id)
        return found

    def _open_drill(self, drill_id: str) -> None:
        self.app.open_drill(drill_id)

    def _review(self, card_ids: tuple[str, ...]) -> None:
        self.app.open_cards(card_ids)
