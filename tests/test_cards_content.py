"""Content checks for the flashcard decks (cards/decks/*.yaml) and the concept checklist.

Parses the YAML directly with pyyaml, independently of the deck loader, so a content mistake is caught
even if the loader is lenient: strict keys, stable kebab-case ids, bilingual text, checklist coverage in
both directions, the ids other content links to, and numbers that must match the seeds' worked examples.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DECKS_DIR = ROOT / "cards" / "decks"
CHECKLIST = ROOT / "cards" / "checklist.yaml"

DECK_KEYS = {"deck", "title", "title_zh", "description", "order", "cards"}
CARD_KEYS = {"id", "kind", "front", "back", "tags", "source", "concepts", "zh"}
ZH_KEYS = {"front", "back"}
KINDS = {"qa", "code", "dashboard", "number", "derive"}
ITEM_KEYS = {"id", "concept", "source"}
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CONCEPT_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")
CJK = re.compile(r"[\u4e00-\u9fff]")
MIN_CARDS = 150

REQUIRED_DECKS = {
    "gae", "ppo-objective", "value-and-total-loss", "importance-sampling", "trust-region",
    "diagnostics", "practical-design", "rlhf-roles-and-memory", "pitfalls", "numbers",
}

PITFALL_IDS = [
    "pitfall-ratio-division", "pitfall-ratio-denominator", "pitfall-clip-range", "pitfall-min-max",
    "pitfall-stop-gradient", "pitfall-advantage-normalisation", "pitfall-gae-direction",
    "pitfall-gae-done-mask", "pitfall-value-bootstrap", "pitfall-entropy-sign",
]
CORE_IDS = [
    "gae-td-error", "gae-backward-recursion", "gae-lambda-extremes", "gae-done-mask", "gae-bootstrap-value",
    "gae-returns", "ppo-ratio-log-space", "ppo-clipped-objective", "ppo-clip-positive-advantage",
    "ppo-clip-negative-advantage", "value-clipped-loss", "value-half-factor", "total-loss-formula",
    "diag-clip-fraction-definitions", "diag-approx-kl-k3", "agg-token-vs-sequence-mean",
    "rlhf-actor-loss-input-contract", "numbers-typical-coefficients",
]

# (card id, number as written on the card (front or back), number as written in a seed file).
# Each number comes from a worked example or table of the seeds; the card must quote it and the seed
# must contain it, so a typo on either side fails.
SEED_NUMBERS = [
    ("ppo-clip-gradient-table", "0.33", "0.33"),
    ("ppo-clip-gradient-table", "0.79", "0.79"),
    ("ppo-clip-gradient-table", "+1.10", "+1.10"),
    ("ppo-clip-gradient-table", "-2.00", "-2.00"),
    ("ppo-dual-clip", "2 + 5 + 20 = **27**", "2 + 5 + 20 = 27"),
    ("ppo-dual-clip", "[-2, -5, -20]", "[-2.0, -5.0, -20.0]"),
    ("ppo-dual-clip", "2 + 3 + 3 = **8**", "loss   8.0"),
    ("ppo-dual-clip", "c = 3", "c = 3"),
    ("design-clip-higher", "0.28", "0.28"),
    ("design-clip-higher", "0.012", "0.012"),
    ("rlhf-actor-loss-clip-tests", "loss **-1.2**", "torch.tensor(-1.2)"),
    ("rlhf-actor-loss-clip-tests", "loss **0.8**", "torch.tensor(0.8)"),
    ("agg-token-vs-sequence-mean", "**-5.0 / 3.0**", "torch.tensor(-5.0 / 3.0)"),
    ("agg-token-vs-sequence-mean", "**-2.0**", "torch.tensor(-2.0)"),
    ("numbers-typical-coefficients", "vf_coef: **0.5**", "vf_coef=0.5"),
    ("numbers-typical-coefficients", "ent_coef: **0.01**", "ent_coef=0.01"),
    ("numbers-typical-coefficients", "**0.01-0.05**", "0.01 到 0.05"),
    ("numbers-typical-coefficients", "**0.1 or 0.2**", "典型 0.1 或 0.2"),
    ("diag-early-stopping", "0.02", "0.02"),
    ("diag-early-stopping-result", "2.53", "2.53"),
    ("is-ess", "0.776", "0.776"),
    ("is-ess", "0.343", "0.343"),
    ("is-ess", "0.101", "0.101"),
    ("design-minibatch-staleness", "0.0062", "0.0062"),
    ("design-minibatch-staleness", "0.0219", "0.0219"),
    ("diag-epoch-table", "0.0049", "0.0049"),
    ("diag-epoch-table", "0.1047", "0.1047"),
    ("tr-clip-soft-trust-region", "0.237", "0.237"),
    ("tr-clip-soft-trust-region", "5.885", "5.885"),
    ("tr-clip-soft-trust-region", "41%", "0.41"),
    ("design-too-many-epochs", "0.170", "0.170"),
    ("surrogate-accuracy", "0.258", "0.258"),
    ("surrogate-accuracy", "0.309", "0.309"),
    ("is-table-dashboard", "0.144 vs 0.197", "0.144 | 0.197"),
    ("is-table-dashboard", "0.431 vs 0.700", "0.431 | 0.700"),
    ("is-table-k0-gap", "0.119", "0.119 | 0.159"),
    ("is-length-buckets", "198 episodes | sd log w after 3 updates 0.50", "198 episodes | sd log w after 3 updates 0.50"),
    ("is-length-buckets", "35 episodes | sd log w after 3 updates 1.53", "35 episodes | sd log w after 3 updates 1.53"),
    ("is-length-buckets", "87 episodes | sd log w after 3 updates 2.29", "87 episodes | sd log w after 3 updates 2.29"),
    ("surrogate-improvement-estimator", "(rho_{n,i} - 1)(R_n - mean R)", "m_i(\\rho_{n,i} - 1)(R_n - \\bar R)"),
    ("design-minibatch-size-kl", "0.1047", "approx_kl 0.1047"),
    ("design-minibatch-size-kl", "16 episodes (64 / 4)", "16 个回合"),
    ("diag-per-sign-clip-fraction", "73%", "ratio above 1.2: 0.73"),
    ("diag-per-sign-clip-fraction", "763", "469 tokens"),
    ("diag-early-stopping-train-pass", "0.912", "pass train 0.912"),
    ("diag-early-stopping-heldout-caveat", "160 held-out episodes", "160 回合"),
    ("gae-defaults", "0.99", "gamma=0.99"),
    ("gae-defaults", "0.95", "lam=0.95"),
]

# Numbers the brief fixes from notes/ppo-implementations.md probes (the seeds disagree on clip fraction).
NOTE_NUMBERS = [
    ("diag-clip-fraction-definitions", "0.33333"),
    ("diag-clip-fraction-definitions", "0.83333"),
]


def _seed_dirs() -> list[Path]:
    return [ROOT.parent / "shared" / "seeds", Path("/work/shared/seeds")]


def _seed_text() -> str | None:
    for folder in _seed_dirs():
        files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
        if files:
            return "\n".join(f.read_text(encoding="utf-8") for f in files)
    return None


def _notes_text() -> str | None:
    for folder in (ROOT.parent / "shared" / "notes", Path("/work/shared/notes")):
        path = folder / "ppo-implementations.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def _load(path: Path):
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@lru_cache(maxsize=1)
def _decks() -> dict[str, dict]:
    return {p.stem: _load(p) for p in sorted(DECKS_DIR.glob("*.yaml"))}


@lru_cache(maxsize=1)
def _cards() -> dict[str, dict]:
    return {card["id"]: card for deck in _decks().values() for card in deck["cards"]}


@lru_cache(maxsize=1)
def _checklist_ids() -> list[str]:
    return [item["id"] for item in _load(CHECKLIST)["items"]]


def test_required_decks_exist():
    assert REQUIRED_DECKS <= set(_decks()), f"missing decks: {sorted(REQUIRED_DECKS - set(_decks()))}"


@pytest.mark.parametrize("path", sorted(DECKS_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_deck_schema(path: Path):
    deck = _load(path)
    assert isinstance(deck, dict), f"{path.name}: top level must be a mapping"
    assert set(deck) == DECK_KEYS, f"{path.name}: keys {sorted(set(deck) ^ DECK_KEYS)} wrong"
    assert deck["deck"] == path.stem, f"{path.name}: deck id must equal the file stem"
    for key in ("title", "title_zh", "description"):
        assert isinstance(deck[key], str) and deck[key].strip(), f"{path.name}: empty {key}"
    assert CJK.search(deck["title_zh"]), f"{path.name}: title_zh has no Chinese"
    assert isinstance(deck["cards"], list) and deck["cards"], f"{path.name}: no cards"
    for index, card in enumerate(deck["cards"]):
        where = f"{path.name} card #{index} ({card.get('id')})"
        assert set(card) == CARD_KEYS, f"{where}: keys {sorted(set(card) ^ CARD_KEYS)} wrong"
        assert isinstance(card["id"], str) and KEBAB.match(card["id"]), f"{where}: id not kebab-case"
        assert card["kind"] in KINDS, f"{where}: kind {card['kind']!r}"
        for key in ("front", "back", "source"):
            assert isinstance(card[key], str) and card[key].strip(), f"{where}: empty {key}"
        assert isinstance(card["zh"], dict) and set(card["zh"]) == ZH_KEYS, f"{where}: zh must have front/back"
        for key in ZH_KEYS:
            text = card["zh"][key]
            assert isinstance(text, str) and text.strip(), f"{where}: empty zh.{key}"
            assert CJK.search(text), f"{where}: zh.{key} has no Chinese"
        for key in ("tags", "concepts"):
            value = card[key]
            assert isinstance(value, list) and value, f"{where}: {key} must be a non-empty list"
            assert all(isinstance(v, str) and v for v in value), f"{where}: {key} entries must be strings"
        assert all(KEBAB.match(t) for t in card["tags"]), f"{where}: tags must be kebab-case"
        assert card["front"].count("```") % 2 == 0 and card["back"].count("```") % 2 == 0, f"{where}: open fence"


def test_card_ids_unique_across_decks():
    seen: dict[str, str] = {}
    for name, deck in _decks().items():
        for card in deck["cards"]:
            assert card["id"] not in seen, f"id {card['id']} in both {seen.get(card['id'])} and {name}"
            seen[card["id"]] = name


def test_enough_cards():
    assert len(_cards()) >= MIN_CARDS, f"only {len(_cards())} cards"


def test_required_ids_exist():
    missing = [cid for cid in PITFALL_IDS + CORE_IDS if cid not in _cards()]
    assert not missing, f"required card ids missing: {missing}"
    pitfalls = {card["id"] for card in _decks()["pitfalls"]["cards"]}
    assert set(PITFALL_IDS) <= pitfalls, "the ten pitfall cards belong in the pitfalls deck"


def test_checklist_schema():
    data = _load(CHECKLIST)
    assert set(data) == {"items"}, "checklist.yaml: only the key 'items' is allowed"
    ids = _checklist_ids()
    assert len(ids) == len(set(ids)), "checklist ids must be unique"
    for item in data["items"]:
        assert set(item) == ITEM_KEYS, f"checklist item {item.get('id')}: keys {sorted(set(item) ^ ITEM_KEYS)}"
        assert CONCEPT_ID.match(item["id"]), f"checklist id {item['id']!r} not <area>.<kebab>"
        assert item["concept"].strip() and item["source"].strip(), f"checklist item {item['id']} empty field"


def test_every_concept_reference_is_a_checklist_item():
    known = set(_checklist_ids())
    bad = {(cid, c) for cid, card in _cards().items() for c in card["concepts"] if c not in known}
    assert not bad, f"cards cite unknown concepts: {sorted(bad)}"


def test_every_checklist_item_is_covered():
    covered = {c for card in _cards().values() for c in card["concepts"]}
    uncovered = [i for i in _checklist_ids() if i not in covered]
    assert not uncovered, f"checklist items with no card: {uncovered}"


def test_the_ten_mistakes_are_in_the_checklist_and_the_pitfall_cards():
    mistakes = [i for i in _checklist_ids() if i.startswith("mistake.")]
    assert len(mistakes) == 10, f"expected one checklist item per row of the mistakes table, got {mistakes}"
    for card_id in PITFALL_IDS:
        expected = "mistake." + card_id.removeprefix("pitfall-")
        assert expected in _cards()[card_id]["concepts"], f"{card_id} must cover {expected}"


@pytest.mark.parametrize("card_id,in_card,_in_seed", SEED_NUMBERS, ids=lambda v: str(v))
def test_number_appears_on_card(card_id, in_card, _in_seed):
    assert card_id in _cards(), f"numbers table names a missing card {card_id}"
    card = _cards()[card_id]
    assert in_card in card["front"] + card["back"], f"{card_id}: front or back must quote {in_card!r}"


@pytest.mark.parametrize("card_id,_in_card,in_seed", SEED_NUMBERS, ids=lambda v: str(v))
def test_number_appears_in_seeds(card_id, _in_card, in_seed):
    text = _seed_text()
    if text is None:
        pytest.skip("seed folder not found at ../shared/seeds or /work/shared/seeds; card half still checked")
    assert in_seed in text, f"{card_id}: {in_seed!r} not found in the seeds"


@pytest.mark.parametrize("card_id,number", NOTE_NUMBERS)
def test_probe_number_matches_notes(card_id, number):
    assert number in _cards()[card_id]["back"], f"{card_id}: back must quote {number!r}"
    text = _notes_text()
    if text is None:
        pytest.skip("notes/ppo-implementations.md not found; card half still checked")
    assert number in text, f"{number!r} not in notes/ppo-implementations.md"


def test_source_disagreement_is_stated():
    back = _cards()["diag-clip-fraction-definitions"]["back"]
    for library in ("verl", "OpenRLHF", "TRL", "CleanRL", "SB3", "TorchRL"):
        assert library in back, f"the clip-fraction card must say which convention {library} uses"


# Users do not have the source documents: a card names its setting itself and never asks about "the
# chapter" or "seed 003". The source line may describe a document ("agent-RL tutorial ch. 8 (PPO)
# §8.2"), but never by the project's internal file names.
POINTS_AT_A_DOCUMENT = re.compile(
    r"seed|the chapter|the lesson|the tutorial|crib[- ]sheet|chapter \d|exercise \d"
    r"|本章|章节|第\s*\d+\s*章|课程|教程|速记表|练习\s*\d|eq\. ?\(?8\.\d|式 ?\(?8\.\d", re.IGNORECASE)
SOURCE_POINTS_AT_A_SEED = re.compile(r"seed|the chapter|the lesson|the tutorial|notes/", re.IGNORECASE)


def _user_facing_text(card: dict) -> dict[str, str]:
    return {"front": card["front"], "back": card["back"], "zh.front": card["zh"]["front"],
            "zh.back": card["zh"]["back"]}


def test_cards_stand_on_their_own():
    bad = []
    for cid, card in _cards().items():
        for field, text in _user_facing_text(card).items():
            for match in POINTS_AT_A_DOCUMENT.finditer(text):
                bad.append(f"{cid} {field}: {text[max(0, match.start() - 30):match.end() + 30]!r}")
        if SOURCE_POINTS_AT_A_SEED.search(card["source"]):
            bad.append(f"{cid} source: {card['source']!r}")
    assert not bad, "cards point at documents the user does not have:\n" + "\n".join(bad)


def test_exported_anki_notes_stand_on_their_own(tmp_path):
    """What a user sees in Anki (front, back and the source footer of every note) passes the same rule."""
    import os
    import sqlite3
    import subprocess
    import sys
    import zipfile

    pytest.importorskip("genanki")
    out = tmp_path / "all.apkg"
    proc = subprocess.run([sys.executable, "-m", "tui.cli", "--data-dir", str(tmp_path / "data"), "export-anki",
                           "--lang", "both", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(out) as zf:
        (tmp_path / "collection.anki2").write_bytes(zf.read("collection.anki2"))
    db = sqlite3.connect(tmp_path / "collection.anki2")
    try:
        fields = [row[0] for row in db.execute("SELECT flds FROM notes")]
    finally:
        db.close()
    assert len(fields) == len(_cards())
    bad = [m.group(0) for text in fields for m in SOURCE_POINTS_AT_A_SEED.finditer(text)]
    assert not bad, f"exported notes point at documents the user does not have: {sorted(set(bad))}"


def test_the_document_check_catches_what_it_should():
    for text in ("What target KL does the chapter use?", "How does seed 003 cross-check it?",
                 "(chapter 8, exercise 3)", "the crib-sheet defaults", "本章使用 0.02", "第 8 章练习 6", "速记表",
                 "rho_i (eq. 8.1)", "式 (8.3) 中"):
        assert POINTS_AT_A_DOCUMENT.search(text), text
    assert not POINTS_AT_A_DOCUMENT.search("In a PPO run with target KL 0.02, when does it stop?")


# Numbers on the English side must all appear on the Chinese side. Numbers are compared by value
# (1e-3 == 0.001, 41% == 0.41 == 41), signs ignored (a range "0.01-0.05" reads as 0.01 and 0.05).
NUMBER = re.compile(r"(?<![A-Za-z_\d.])(\d+(?:,\d{3})*(?:\.\d+)?(?:e[-+]?\d+)?)(%?)(?![A-Za-z_\d])")
# (card id, side, number) the Chinese side may leave out, each with its reason.
ZH_NUMBER_EXEMPT: set[tuple[str, str, str]] = set()


def _numbers(text: str) -> list[tuple[str, set[float]]]:
    out = []
    for match in NUMBER.finditer(text):
        value = float(match.group(1).replace(",", ""))
        forms = {round(value, 12)}
        if match.group(2):
            forms.add(round(value / 100, 12))
        else:
            forms.add(round(value * 100, 12))
        out.append((match.group(0), forms))
    return out


def test_number_normalisation():
    values = lambda text: set().union(*(forms for _, forms in _numbers(text)))  # noqa: E731
    assert 0.001 in values("1e-3") and 0.001 in values("0.001")
    assert 0.41 in values("41%") and 41 in values("0.41")
    assert 2900 in values("about 2,900") and 0.05 in values("0.01-0.05")
    assert _numbers("A_3, k3, fp16 and V_old") == []  # digits inside identifiers are not numbers


@pytest.mark.parametrize("side", ["front", "back"])
def test_chinese_side_keeps_every_number(side):
    missing = []
    for cid, card in _cards().items():
        zh = set().union(set(), *(forms for _, forms in _numbers(card["zh"][side])))
        for written, forms in _numbers(card[side]):
            if not forms & zh and (cid, side, written) not in ZH_NUMBER_EXEMPT:
                missing.append(f"{cid} {side}: {written}")
    assert not missing, "numbers on the English side missing from the Chinese side:\n" + "\n".join(missing)


def test_shipped_content_loads_through_the_deck_loader():
    """The app reads decks through cards.decks.loader; its stricter location-aware checks must also pass."""
    deck_module = pytest.importorskip("cards.decks.loader")
    decks = deck_module.load_decks(DECKS_DIR, use_cache=False)
    assert not decks.errors, "\n".join(str(e) for e in decks.errors)
    assert len(decks.cards) == len(_cards())
    items, errors = deck_module.load_checklist(CHECKLIST)
    assert not errors, "\n".join(str(e) for e in errors)
    assert [item.id for item in items] == _checklist_ids()


# Every card cites a primary source a user can open: a paper with a section, equation, algorithm, table
# or figure, or a library's file at a version (a release, a commit, a pull request, a dated branch), or a
# specification (IEEE 754) or library documentation. The project's source documents are not citable:
# users cannot read them.
PRIMARY = re.compile(
    r"§\s?\d|\beq\. ?\d|\beqs\. ?\d|Algorithm \d|Appendix [A-Z]|Table \d|Figure \d|\bch\. \d|\bitem \d"
    r"|\((?:v\d[\d.]*|commit [0-9a-f]{7,}|main branch, \d{4}|scikit-learn \d[\d.]*)\)"
    r"|\bcommit [0-9a-f]{7,}|\b(?:PR|issue) #\d+|IEEE 754-\d{4}|PyTorch 2\.x documentation|NumPy documentation"
    r"|joschu\.net/blog")
NOT_CITABLE = re.compile(r"tutorial|lesson|crib[- ]sheet|drill's tests|recomputed by|interview", re.IGNORECASE)


def test_every_card_cites_a_primary_source():
    bad = [f"{cid}: {card['source']!r}" for cid, card in _cards().items()
           if not PRIMARY.search(card["source"]) or NOT_CITABLE.search(card["source"])]
    assert not bad, "cite a paper with its section or equation, or a library file at a version:\n" + "\n".join(bad)


def test_the_primary_source_check_can_fail():
    for weak in ("agent-RL tutorial ch. 8 (PPO) §8.1", "PPO interview crib sheet §GAE", "verl core_algos.py",
                 "Schulman et al. 2017 (PPO)"):
        assert not PRIMARY.search(weak) or NOT_CITABLE.search(weak), weak
    assert PRIMARY.search("Schulman et al. 2017, Proximal Policy Optimization Algorithms, §3, eq. 7")
    assert PRIMARY.search("verl verl/trainer/ppo/core_algos.py (v0.7.0)")
