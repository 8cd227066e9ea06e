"""Deck loading: `Card`, `Deck`, `DeckSet`, `DeckError`, `load_decks()` and `load_checklist()`.

Decks are YAML files in `cards/decks/` (one deck per file, the deck id equal to the file stem).
The schema is strict because a typo in content ("fornt:") would otherwise silently drop a card's
text: every problem becomes a `DeckError` naming the file, line, card and field, and a bad file or
card never stops the other decks from loading. Parsed deck sets are cached per folder, keyed on the
files' names, sizes and mtimes, so the app and the CLI pay for YAML once per process.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from cards.decks.yaml_lines import YamlProblem, line_of, load_yaml_with_lines

DECKS_DIR = Path(__file__).resolve().parent  # the deck files live beside their loader
CHECKLIST_PATH = DECKS_DIR.parent / "checklist.yaml"

KINDS = ("qa", "code", "dashboard", "number", "derive")
LANGS = ("en", "zh")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_DECK_KEYS = {"deck", "title", "title_zh", "description", "order", "cards"}
_DECK_REQUIRED = ("deck", "title", "cards")
_CARD_KEYS = {"id", "kind", "front", "back", "tags", "source", "concepts", "zh"}
_CARD_REQUIRED = ("id", "kind", "front", "back", "source")
_ZH_KEYS = {"front", "back"}


@dataclass(frozen=True)
class DeckError:
    """One problem in a deck file, located as precisely as the YAML allows."""

    file: str
    line: int | None
    card_id: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        parts = [where]
        if self.card_id:
            parts.append(f"card {self.card_id!r}")
        if self.field:
            parts.append(f"field {self.field!r}")
        return ": ".join(parts + [self.message])


@dataclass(frozen=True)
class Card:
    """One flashcard. `id` is its identity in the progress store: text edits keep progress."""

    id: str
    deck: str
    kind: str
    front: str
    back: str
    tags: tuple[str, ...] = ()
    source: str = ""
    concepts: tuple[str, ...] = ()
    zh_front: str | None = None
    zh_back: str | None = None
    file: str = field(default="", compare=False)
    line: int | None = field(default=None, compare=False)

    def text(self, lang: str = "en") -> tuple[str, str]:
        """(front, back) in `lang`; each side falls back to English where no Chinese is given."""
        if lang == "zh":
            return (self.zh_front or self.front, self.zh_back or self.back)
        return (self.front, self.back)


@dataclass(frozen=True)
class Deck:
    """A deck file's metadata and its valid cards, in file order."""

    id: str
    title: str
    title_zh: str | None
    description: str
    cards: tuple[Card, ...]
    file: str = field(default="", compare=False)
    order: int | None = field(default=None, compare=False)  # place in the study order (None: after those with one)

    def display_title(self, lang: str = "en") -> str:
        """The deck title in `lang`, falling back to English."""
        return (self.title_zh or self.title) if lang == "zh" else self.title


@dataclass(frozen=True)
class DeckSet:
    """All decks of a folder: decks in study order (their `order`, then file name), cards in deck then file
    order.

    `errors` lists every problem found; decks and cards with errors are left out, the rest load.
    """

    decks: tuple[Deck, ...]
    errors: tuple[DeckError, ...] = ()
    cards: tuple[Card, ...] = field(init=False)
    by_id: Mapping[str, Card] = field(init=False)
    by_deck: Mapping[str, Deck] = field(init=False)

    def __post_init__(self) -> None:
        cards = tuple(c for d in self.decks for c in d.cards)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "by_id", MappingProxyType({c.id: c for c in cards}))
        object.__setattr__(self, "by_deck", MappingProxyType({d.id: d for d in self.decks}))

    @property
    def order(self) -> Mapping[str, int]:
        """Position of each card id in deck order (new cards are introduced in this order)."""
        cached = self.__dict__.get("_order")
        if cached is None:
            cached = MappingProxyType({c.id: i for i, c in enumerate(self.cards)})
            object.__setattr__(self, "_order", cached)
        return cached


@dataclass(frozen=True)
class ChecklistItem:
    """One concept of the syllabus (cards/checklist.yaml) that at least one card must cover."""

    id: str
    concept: str
    source: str


def _rel(path: Path) -> str:
    """The path as shown in messages: relative to the project root when inside it."""
    try:
        return str(path.resolve().relative_to(DECKS_DIR.parent.parent))
    except ValueError:
        return str(path)


def _parse_yaml(path: Path, errors: list[DeckError]) -> Any:
    """Parse one file, turning I/O and syntax problems into a located `DeckError`."""
    name = _rel(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        errors.append(DeckError(name, None, None, None, f"cannot read file: {exc}"))
        return None
    try:
        return load_yaml_with_lines(text)
    except YamlProblem as exc:
        errors.append(DeckError(name, exc.line, None, None, f"YAML error: {exc.message}"))
    return None


def _nonempty_str(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(_nonempty_str(v) for v in value)


def _parse_card(raw: Any, deck_id: str, name: str, index: int, errors: list[DeckError]) -> Card | None:
    """Validate one card mapping; on any problem record errors and return None."""
    if not isinstance(raw, dict):
        errors.append(DeckError(name, None, None, None, f"cards[{index}] must be a mapping"))
        return None
    card_id = raw.get("id") if _nonempty_str(raw.get("id")) else None
    label = card_id or f"cards[{index}]"
    before = len(errors)

    def err(fieldname: str | None, message: str) -> None:
        errors.append(DeckError(name, line_of(raw, fieldname), label, fieldname, message))

    for key in raw:
        if key not in _CARD_KEYS:
            err(str(key), f"unknown field (allowed: {', '.join(sorted(_CARD_KEYS))})")
    for key in _CARD_REQUIRED:
        if key not in raw:
            err(key, "missing required field")
    if "id" in raw and not (card_id and _ID_RE.match(card_id)):
        err("id", "must be lowercase letters, digits and '-', starting with a letter or digit")
    if "kind" in raw and raw["kind"] not in KINDS:
        err("kind", f"must be one of {', '.join(KINDS)}, got {raw['kind']!r}")
    for key in ("front", "back", "source"):
        if key in raw and not _nonempty_str(raw[key]):
            err(key, "must be a non-empty string")
    for key in ("tags", "concepts"):
        if key in raw and not _str_list(raw[key]):
            err(key, "must be a list of non-empty strings")
    zh = raw.get("zh")
    if "zh" in raw:
        if not isinstance(zh, dict):
            err("zh", "must be a mapping with 'front' and/or 'back'")
            zh = None
        else:
            for key in zh:
                if key not in _ZH_KEYS:
                    errors.append(DeckError(name, line_of(zh, key), label, f"zh.{key}",
                                            "unknown field (allowed: back, front)"))
            for key in _ZH_KEYS & set(zh):
                if not _nonempty_str(zh[key]):
                    errors.append(DeckError(name, line_of(zh, key), label, f"zh.{key}",
                                            "must be a non-empty string"))
    if len(errors) > before:
        return None
    zh = zh or {}
    return Card(
        id=card_id, deck=deck_id, kind=raw["kind"], front=raw["front"], back=raw["back"],
        tags=tuple(raw.get("tags") or ()), source=raw["source"],
        concepts=tuple(raw.get("concepts") or ()),
        zh_front=zh.get("front"), zh_back=zh.get("back"), file=name, line=line_of(raw),
    )


def load_deck_file(path: Path) -> tuple[Deck | None, list[DeckError]]:
    """Parse and validate one deck file. Returns (deck or None if unusable, errors)."""
    path = Path(path)
    name = _rel(path)
    errors: list[DeckError] = []
    raw = _parse_yaml(path, errors)
    if errors:
        return None, errors
    if not isinstance(raw, dict):
        return None, [DeckError(name, line_of(raw), None, None, "top level must be a mapping with 'deck', 'title' and 'cards'")]

    def err(fieldname: str | None, message: str) -> None:
        errors.append(DeckError(name, line_of(raw, fieldname), None, fieldname, message))

    for key in raw:
        if key not in _DECK_KEYS:
            err(str(key), f"unknown field (allowed: {', '.join(sorted(_DECK_KEYS))})")
    for key in _DECK_REQUIRED:
        if key not in raw:
            err(key, "missing required field")
    if "deck" in raw and raw["deck"] != path.stem:
        err("deck", f"must equal the file name {path.stem!r}, got {raw['deck']!r}")
    for key in ("title", "title_zh", "description"):
        if key in raw and not _nonempty_str(raw[key]):
            err(key, "must be a non-empty string")
    if "cards" in raw and not isinstance(raw["cards"], list):
        err("cards", "must be a list of cards")
    if "order" in raw and (isinstance(raw["order"], bool) or not isinstance(raw["order"], int) or raw["order"] < 1):
        err("order", "must be a positive integer (the deck's place in the study order)")
    if errors:
        return None, errors
    cards: list[Card] = []
    seen: dict[str, int | None] = {}
    for index, item in enumerate(raw["cards"]):
        card = _parse_card(item, path.stem, name, index, errors)
        if card is None:
            continue
        if card.id in seen:
            errors.append(DeckError(name, card.line, card.id, "id",
                                    f"duplicate id (first defined at line {seen[card.id]})"))
            continue
        seen[card.id] = card.line
        cards.append(card)
    deck = Deck(id=path.stem, title=raw["title"], title_zh=raw.get("title_zh"),
                description=raw.get("description", ""), cards=tuple(cards), file=name, order=raw.get("order"))
    return deck, errors


_CACHE: dict[Path, tuple[tuple, DeckSet]] = {}


def _signature(files: list[Path]) -> tuple:
    sig = []
    for f in files:
        try:
            st = f.stat()
            sig.append((f.name, st.st_mtime_ns, st.st_size))
        except OSError:
            sig.append((f.name, None, None))
    return tuple(sig)


def load_decks(folder: Path | str | None = None, *, use_cache: bool = True) -> DeckSet:
    """Load every `*.yaml` deck in `folder` (default: the shipped `cards/decks/`).

    Never raises for bad content: problems are in `DeckSet.errors`. A card id used twice across
    decks is an error naming both files; the first (in file-name order) is kept.
    """
    folder = Path(folder).resolve() if folder is not None else DECKS_DIR
    files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    sig = _signature(files)
    if use_cache:
        hit = _CACHE.get(folder)
        if hit is not None and hit[0] == sig:
            return hit[1]
    decks: list[Deck] = []
    errors: list[DeckError] = []
    if not folder.is_dir():
        errors.append(DeckError(_rel(folder), None, None, None, "deck folder not found"))
    owner: dict[str, Card] = {}
    for path in files:
        deck, file_errors = load_deck_file(path)
        errors.extend(file_errors)
        if deck is None:
            continue
        kept = []
        for card in deck.cards:
            first = owner.get(card.id)
            if first is not None:
                errors.append(DeckError(card.file, card.line, card.id, "id",
                                        f"duplicate id: also defined in {first.file}:{first.line}"))
                continue
            owner[card.id] = card
            kept.append(card)
        if len(kept) != len(deck.cards):
            deck = Deck(deck.id, deck.title, deck.title_zh, deck.description, tuple(kept), deck.file, deck.order)
        decks.append(deck)
    # new cards are introduced deck by deck: the foundations (GAE, the objective) before the rest
    decks.sort(key=lambda d: (d.order is None, d.order or 0, d.file))
    result = DeckSet(decks=tuple(decks), errors=tuple(errors))
    if use_cache:
        _CACHE[folder] = (sig, result)
    return result


def load_checklist(path: Path | str | None = None) -> tuple[list[ChecklistItem], list[DeckError]]:
    """Load the concept checklist (`items: [{id, concept, source}]`), strictly, with located errors."""
    path = Path(path) if path is not None else CHECKLIST_PATH
    name = _rel(path)
    errors: list[DeckError] = []
    raw = _parse_yaml(path, errors)
    if errors:
        return [], errors
    if not isinstance(raw, dict) or set(raw) != {"items"} or not isinstance(raw["items"], list):
        return [], [DeckError(name, line_of(raw), None, None, "top level must be a mapping with only 'items: [...]'")]
    items: list[ChecklistItem] = []
    seen: set[str] = set()
    for index, entry in enumerate(raw["items"]):
        if not isinstance(entry, dict):
            errors.append(DeckError(name, None, None, None, f"items[{index}] must be a mapping"))
            continue
        label = entry.get("id") if _nonempty_str(entry.get("id")) else f"items[{index}]"
        bad = False
        for key in entry:
            if key not in ("id", "concept", "source"):
                errors.append(DeckError(name, line_of(entry, key), None, str(key),
                                        f"item {label!r}: unknown field (allowed: concept, id, source)"))
                bad = True
        for key in ("id", "concept", "source"):
            if not _nonempty_str(entry.get(key)):
                errors.append(DeckError(name, line_of(entry, key), None, key,
                                        f"item {label!r}: must be a non-empty string"))
                bad = True
        if not bad and entry["id"] in seen:
            errors.append(DeckError(name, line_of(entry, "id"), None, "id", f"duplicate item id {entry['id']!r}"))
            bad = True
        if not bad:
            seen.add(entry["id"])
            items.append(ChecklistItem(entry["id"], entry["concept"], entry["source"]))
    return items, errors
