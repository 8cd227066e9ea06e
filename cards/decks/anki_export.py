"""Export decks to an Anki package (.apkg): `export_apkg()` and `render_markdown()`.

Ids are stable on purpose: the note type and deck ids are constants / derived from deck ids, and
each note's GUID is `genanki.guid_for(card.id)`, so importing a newer export into Anki updates the
notes the user already has (and keeps their Anki review history) instead of duplicating them.
"""
from __future__ import annotations

import hashlib
import html
import itertools
import json
import os
import sqlite3
import tempfile
import time
import zipfile
from pathlib import Path

from cards.decks.loader import Card, DeckSet

MODEL_ID = 1_734_019_101  # never change: Anki matches the note type by this id
MODEL_NAME = "ppo-drill card"
DECK_PREFIX = "ppo-drill"
LANG_CHOICES = ("en", "zh", "both")

CSS = """\
.card { font-family: -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", sans-serif;
        font-size: 18px; text-align: left; color: black; background-color: white; }
pre, code { font-family: "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; }
pre { background: #f4f4f4; padding: 0.6em; border-radius: 4px; overflow-x: auto; font-size: 15px; }
.nightMode pre { background: #2b2b2b; }
.zh { margin-top: 0.8em; padding-top: 0.5em; border-top: 1px dashed #999; }
table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: 2px 6px; }
"""

_md = None


def render_markdown(text: str) -> str:
    """Markdown to HTML (CommonMark plus tables; raw HTML in content is escaped, not passed)."""
    global _md
    if _md is None:
        from markdown_it import MarkdownIt

        _md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return _md.render(text)


def deck_anki_id(deck_id: str) -> int:
    """A stable Anki deck id for one of our decks."""
    digest = hashlib.sha1(f"ppo-drill:deck:{deck_id}".encode()).hexdigest()
    return (1 << 30) + int(digest[:8], 16) % (1 << 30)


def _fields(card: Card, lang: str) -> list[str]:
    if lang == "both":
        en_front, en_back = card.text("en")
        zh_front, zh_back = card.text("zh")
        front = render_markdown(en_front)
        back = render_markdown(en_back)
        if card.zh_front:
            front += f'<div class="zh">{render_markdown(zh_front)}</div>'
        if card.zh_back:
            back += f'<div class="zh">{render_markdown(zh_back)}</div>'
    else:
        f, b = card.text(lang)
        front, back = render_markdown(f), render_markdown(b)
    source = f'<div style="font-size:12px;color:#888">{html.escape(card.source)}</div>' if card.source else ""
    return [front, back + source]


def _tag(text: str) -> str:
    return "_".join(text.split())  # Anki tags cannot contain spaces


def export_apkg(deckset: DeckSet, path: Path | str, lang: str = "en") -> int:
    """Write every deck of `deckset` to `path` as one .apkg (sub-decks under "ppo-drill::").

    The file is written to a temporary name and renamed, so a failed export never leaves a half
    file. Returns the number of notes written.
    """
    import genanki

    if lang not in LANG_CHOICES:
        raise ValueError(f"lang must be one of {', '.join(LANG_CHOICES)}, got {lang!r}")
    model = genanki.Model(
        MODEL_ID, MODEL_NAME,
        fields=[{"name": "Front"}, {"name": "Back"}],
        templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                    "afmt": '{{FrontSide}}<hr id="answer">{{Back}}'}],
        css=CSS,
    )
    decks = []
    count = 0
    for deck in deckset.decks:
        title = deck.display_title("zh" if lang == "zh" else "en")
        anki_deck = genanki.Deck(deck_anki_id(deck.id), f"{DECK_PREFIX}::{title}",
                                 description=html.escape(deck.description))
        for card in deck.cards:
            tags = [_tag(t) for t in card.tags] + [f"ppo-drill::{card.deck}", f"kind::{card.kind}"]
            anki_deck.add_note(genanki.Note(model=model, fields=_fields(card, lang), tags=tags,
                                            guid=genanki.guid_for(card.id)))
            count += 1
        decks.append(anki_deck)
    check_target(path)
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        _write_package(genanki.Package(decks), Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count


def check_target(path: Path | str) -> None:
    """Refuse a target that is a folder or lies in a folder that does not exist (ValueError naming
    the path as given); never create folders the user did not ask for."""
    given = str(path)
    path = Path(path)
    if given.endswith(("/", "\\")) or path.is_dir():
        raise ValueError(f"{given} is a folder; give a file name, e.g. {path / 'ppo-drill.apkg'}")
    parent = path.parent
    if not parent.exists():
        raise ValueError(f"cannot write {given}: folder {parent} does not exist (create it first)")
    if not parent.is_dir():
        raise ValueError(f"cannot write {given}: {parent} is not a folder")


def _write_package(package: object, target: Path) -> None:
    """`genanki.Package.write_to_file` without its leaked temp database: the collection is built
    in a private temp folder that is always removed. Note times are now (Anki updates a note on
    re-import only when the incoming one is newer)."""
    with tempfile.TemporaryDirectory(prefix="ppo-drill-apkg-") as work:
        db_path = Path(work) / "collection.anki2"
        conn = sqlite3.connect(db_path)
        try:
            timestamp = time.time()
            package.write_to_db(conn.cursor(), timestamp, itertools.count(int(timestamp * 1000)))  # type: ignore[attr-defined]
            conn.commit()
        finally:
            conn.close()
        with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as out:
            out.write(db_path, "collection.anki2")
            out.writestr("media", json.dumps({}))
