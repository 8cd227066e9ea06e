"""The deck loader: strict schema, located messages, duplicate ids, isolation of bad files, cache."""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from cards.decks.loader import Card, DeckError, load_checklist, load_decks

GOOD = """\
deck: {name}
title: "Deck {name}"
title_zh: "卡组 {name}"
description: "fixture"
cards:
  - id: {name}-one
    kind: qa
    front: "Front one"
    back: "Back one"
    tags: [t1, t2]
    source: "seed 004 §GAE"
    concepts: [gae.td-error]
    zh: {{front: "正面一", back: "背面一"}}
  - id: {name}-two
    kind: code
    front: "Front two"
    back: "Back two"
    source: "seed 000 §8.2"
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_good_decks_load_in_file_order_with_all_fields(tmp_path):
    write(tmp_path, "beta", GOOD.format(name="beta"))
    write(tmp_path, "alpha", GOOD.format(name="alpha"))
    ds = load_decks(tmp_path)
    assert ds.errors == ()
    assert [d.id for d in ds.decks] == ["alpha", "beta"]
    assert [c.id for c in ds.cards] == ["alpha-one", "alpha-two", "beta-one", "beta-two"]
    card = ds.by_id["alpha-one"]
    assert card == Card(id="alpha-one", deck="alpha", kind="qa", front="Front one", back="Back one",
                        tags=("t1", "t2"), source="seed 004 §GAE", concepts=("gae.td-error",),
                        zh_front="正面一", zh_back="背面一")
    assert card.text("zh") == ("正面一", "背面一")
    assert card.text("en") == ("Front one", "Back one")
    # no Chinese given: falls back to English
    assert ds.by_id["alpha-two"].text("zh") == ("Front two", "Back two")
    assert ds.by_deck["beta"].display_title("zh") == "卡组 beta"
    assert ds.order["beta-one"] == 2


def test_decks_with_an_order_come_first_in_that_order(tmp_path):
    write(tmp_path, "alpha", GOOD.format(name="alpha"))
    write(tmp_path, "gamma", GOOD.format(name="gamma").replace('description: "fixture"\n',
                                                               'description: "fixture"\norder: 1\n'))
    write(tmp_path, "beta", GOOD.format(name="beta").replace('description: "fixture"\n',
                                                             'description: "fixture"\norder: 2\n'))
    ds = load_decks(tmp_path)
    assert ds.errors == ()
    assert [d.id for d in ds.decks] == ["gamma", "beta", "alpha"]
    assert ds.order["gamma-one"] == 0  # new cards are introduced in this order


@pytest.mark.parametrize("value", ["0", "first", "true", "1.5"])
def test_a_bad_deck_order_is_located(tmp_path, value):
    write(tmp_path, "alpha", GOOD.format(name="alpha").replace('description: "fixture"\n',
                                                               f'description: "fixture"\norder: {value}\n'))
    ds = load_decks(tmp_path)
    assert ds.decks == () and len(ds.errors) == 1
    assert ds.errors[0].field == "order" and ds.errors[0].line == 5


def test_empty_back_names_file_line_card_and_field(tmp_path):
    path = write(tmp_path, "gae", GOOD.format(name="gae").replace('back: "Back two"', 'back: ""'))
    ds = load_decks(tmp_path)
    assert [c.id for c in ds.cards] == ["gae-one"]  # the bad card is left out, the good one loads
    (err,) = ds.errors
    assert (err.card_id, err.field, err.line) == ("gae-two", "back", 17)
    assert str(err) == f"{path}:17: card 'gae-two': field 'back': must be a non-empty string"


@pytest.mark.parametrize(
    "old, new, field, fragment",
    [
        ("    front: \"Front two\"", "    fornt: \"Front two\"", "fornt", "unknown field"),
        ("    front: \"Front two\"", "    fornt: \"Front two\"", "front", "missing required field"),
        ("    front: \"Front two\"", "    front: \"Front two\"\n    colour: red", "colour", "unknown field"),
        ("    kind: code", "    kind: essay", "kind", "must be one of"),
        ("    source: \"seed 000 §8.2\"\n", "", "source", "missing required field"),
        ("  - id: gae-two", "  - id: Gae_Two", "id", "lowercase"),
        ("    tags: [t1, t2]", "    tags: t1", "tags", "list of non-empty strings"),
        ("{front: \"正面一\", back: \"背面一\"}", "{front: \"正面一\", bak: \"x\"}", "zh.bak", "unknown field"),
    ],
)
def test_each_schema_violation_is_located(tmp_path, old, new, field, fragment):
    text = GOOD.format(name="gae")
    assert old in text
    write(tmp_path, "gae", text.replace(old, new, 1))
    ds = load_decks(tmp_path)
    assert len(ds.cards) == 1  # only the broken card is left out
    (err,) = [e for e in ds.errors if e.field == field]
    assert err.field == field and fragment in err.message
    assert err.line is not None and err.card_id is not None
    assert f"field {field!r}" in str(err)


def test_deck_level_errors(tmp_path):
    write(tmp_path, "gae", GOOD.format(name="other"))
    write(tmp_path, "extra", GOOD.format(name="extra").replace("description:", "descripton:"))
    ds = load_decks(tmp_path)
    assert ds.cards == ()
    messages = sorted(str(e) for e in ds.errors)
    assert any("field 'deck': must equal the file name 'gae'" in m for m in messages)
    assert any("extra.yaml:4: field 'descripton': unknown field" in m for m in messages)


def test_yaml_syntax_error_gives_line_and_other_decks_still_load(tmp_path):
    write(tmp_path, "good", GOOD.format(name="good"))
    bad = write(tmp_path, "bad", "deck: bad\ntitle: [unclosed\ncards: []\n")
    ds = load_decks(tmp_path)
    assert [d.id for d in ds.decks] == ["good"]
    assert len(ds.cards) == 2
    (err,) = ds.errors
    assert err.file == str(bad) and err.line == 3 and "YAML error" in err.message


def test_duplicate_yaml_key_is_an_error(tmp_path):
    write(tmp_path, "gae", GOOD.format(name="gae").replace('    back: "Back one"',
                                                            '    back: "Back one"\n    back: "again"'))
    ds = load_decks(tmp_path)
    (err,) = ds.errors
    assert "duplicate key 'back'" in err.message and err.line == 10


def test_duplicate_id_across_decks_names_both_files(tmp_path):
    first = write(tmp_path, "aaa", GOOD.format(name="aaa"))
    second = write(tmp_path, "bbb", GOOD.format(name="bbb").replace("bbb-two", "aaa-two"))
    ds = load_decks(tmp_path)
    assert [c.id for c in ds.cards] == ["aaa-one", "aaa-two", "bbb-one"]
    (err,) = ds.errors
    assert err.file == str(second) and err.card_id == "aaa-two"
    assert f"also defined in {first}:" in err.message


def test_duplicate_id_within_a_deck(tmp_path):
    write(tmp_path, "gae", GOOD.format(name="gae").replace("gae-two", "gae-one"))
    ds = load_decks(tmp_path)
    (err,) = ds.errors
    assert err.card_id == "gae-one" and "duplicate id (first defined at line 6)" in err.message


def test_cache_reuses_parse_until_a_file_changes(tmp_path):
    path = write(tmp_path, "gae", GOOD.format(name="gae"))
    first = load_decks(tmp_path)
    assert load_decks(tmp_path) is first
    path.write_text(path.read_text().replace("Front one", "Edited front"), encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    second = load_decks(tmp_path)
    assert second is not first and second.by_id["gae-one"].front == "Edited front"


def test_missing_folder_is_an_error_not_a_crash(tmp_path):
    ds = load_decks(tmp_path / "nope")
    assert ds.cards == () and "deck folder not found" in str(ds.errors[0])


def test_error_str_without_line():
    assert str(DeckError("x.yaml", None, None, None, "cannot read")) == "x.yaml: cannot read"


def test_checklist_loader(tmp_path):
    path = tmp_path / "checklist.yaml"
    path.write_text("items:\n  - {id: a.b, concept: C, source: s}\n  - {id: a.b, concept: D, source: s}\n"
                    "  - {id: c.d, concept: '', source: s}\n", encoding="utf-8")
    items, errors = load_checklist(path)
    assert [i.id for i in items] == ["a.b"]
    assert [(e.line, e.field) for e in errors] == [(3, "id"), (4, "concept")]


def test_shipped_decks_load_without_errors():
    ds = load_decks()
    assert ds.errors == (), "\n".join(map(str, ds.errors))
    assert ds.cards, "no shipped cards"
