"""Loading the drill catalogue: `load_drills`, `get_drill`, `common_mistakes`, `shared_misconceptions`,
`all_mistakes`, and `typed_drill_id` for the ids people type.

Reads `drills/index.yaml` (the order), every drill folder and its mistakes, validates them against
`drills.schema`, and caches the result per content root, since the app lists drills at start-up and
the checker looks them up on every check. Only PyYAML is imported: no torch, no Textual.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drills.errors import DrillContentError
from drills.model import Drill, Misconception, Mistake, RunCause
from drills.schema import (
    DIFFICULTIES,
    DRILL_ID,
    DRILL_KEYS_FROM_BASE,
    DRILL_KEYS_PITFALL,
    DRILL_KEYS_REQUIRED,
    DRILL_KEYS_RUN,
    DRILL_KEYS_TEST,
    FRAMEWORKS,
    KINDS,
    MISCONCEPTION_KEYS_OPTIONAL,
    MISCONCEPTION_KEYS_REQUIRED,
    MISTAKE_ID,
    MISTAKE_KEYS_OPTIONAL,
    MISTAKE_KEYS_REQUIRED,
    PITFALL_ROWS,
    RUN_CAUSE_KEYS,
    RUN_FRAMEWORK,
    RUN_GIVEAWAY_KEYS,
    TOPICS,
    Fields,
    parse_hints,
    read_text,
    read_yaml,
)

DEFAULT_ROOT = Path(__file__).resolve().parent
INDEX_FILE = "index.yaml"
COMMON_DIR = "_common"
# Entries a folder may hold besides the ones named below; nothing else is allowed, so a stray or
# misnamed file ("hint.md", "solutions/") is reported instead of ignored.
IGNORED = {"__pycache__", ".DS_Store"}
CORE_ENTRIES = {"drill.yaml", "prompt.md", "prompt.zh.md", "hints.md", "starter", "solution", "mistakes"}
PITFALL_ENTRIES = {"drill.yaml", "prompt.md", "prompt.zh.md", "hints.md"}
PITFALL_PROMPT_START = "This code has one bug."
TEST_ENTRIES = {"drill.yaml", "prompt.md", "prompt.zh.md", "hints.md", "starter", "solution", "right", "nudges.yaml"}
RUN_ENTRIES = {"drill.yaml", "prompt.md", "prompt.zh.md", "hints.md", "run.json"}
RUN_CAUSES_FILE = "run_causes.yaml"
RUN_CHOICES = (2, 6)  # a read-the-run drill offers between 2 and 6 causes


@dataclass(frozen=True)
class _Catalog:
    drills: tuple[Drill, ...]
    by_id: dict[str, Drill]
    common: dict[str, Mistake]
    shared: dict[str, Misconception]
    mistakes: dict[str, Mistake]
    causes: dict[str, RunCause]


def load_drills(root: Path | None = None) -> list[Drill]:
    """Every drill, core drills first in index order, then the pitfall drills.

    Raises DrillContentError for the first broken file found.
    """
    return list(_catalog(_resolve(root)).drills)


def get_drill(drill_id: str, root: Path | None = None) -> Drill:
    """The drill with this id, as the catalogue spells it; KeyError listing the known ids otherwise. An id a
    user typed goes through `typed_drill_id` first."""
    catalog = _catalog(_resolve(root))
    try:
        return catalog.by_id[drill_id]
    except KeyError:
        raise KeyError(f"unknown drill {drill_id!r}; known drills: {', '.join(catalog.by_id)}") from None


def typed_drill_id(typed: str) -> str:
    """A drill id as a user typed it, in the catalogue's spelling: ids are kebab-case, so `policy_loss`,
    `Policy-Loss` and ` policy-loss ` all name `policy-loss`. For what people type (command-line ids and
    options, a file's drill line, the palette), never for ids the app stored or read from content."""
    return str(typed).strip().lower().replace("_", "-")


def common_mistakes(root: Path | None = None) -> dict[str, Mistake]:
    """Mistakes diagnosed without a buggy file (output type, shape, finiteness, input contract)."""
    return dict(_catalog(_resolve(root)).common)


def shared_misconceptions(root: Path | None = None) -> dict[str, Misconception]:
    """The misconceptions that belong to concepts (`_common/misconceptions.yaml`), inherited by every drill
    whose checker has the inputs they need."""
    return dict(_catalog(_resolve(root)).shared)


def all_mistakes(root: Path | None = None) -> dict[str, Mistake]:
    """Every mistake by id: each drill's catalogue, the shared misconceptions, then the common ones. Ids are
    unique, except that a drill's folder may hold its own forms of a shared misconception under its id."""
    return dict(_catalog(_resolve(root)).mistakes)


def run_causes(root: Path | None = None) -> dict[str, RunCause]:
    """The causes read-the-run drills offer, by id (`_common/run_causes.yaml`)."""
    return dict(_catalog(_resolve(root)).causes)


def clear_cache() -> None:
    """Forget parsed content (tests, or an author re-validating after an edit)."""
    _catalog.cache_clear()


def _resolve(root: Path | None) -> Path:
    return (Path(root) if root is not None else DEFAULT_ROOT).resolve()


@functools.lru_cache(maxsize=8)
def _catalog(root: Path) -> _Catalog:
    index = _read_index(root)
    listed = [drill_id for kind in KINDS for drill_id in index[kind]]
    _check_folders_listed(root, listed)

    common = _read_common(root)
    shared = _read_shared(root, common)
    core: dict[str, Drill] = {}
    for drill_id in index["core"]:
        core[drill_id] = _read_drill(root, drill_id, "core", core, shared)
    pitfalls: dict[str, Drill] = {}
    for drill_id in index["pitfall"]:
        pitfalls[drill_id] = _read_drill(root, drill_id, "pitfall", core)
    for drill_id in index.get("test", []):
        pitfalls[drill_id] = _read_drill(root, drill_id, "test", core)
    causes = _read_run_causes(root) if index.get("run") else {}
    for drill_id in index.get("run", []):
        pitfalls[drill_id] = _read_run_drill(root, drill_id, causes)

    mistakes: dict[str, Mistake] = {}
    for drill in core.values():
        for mistake in drill.mistakes:
            if mistake.id not in shared:
                _add_unique(mistakes, mistake, root)
    for item in shared.values():
        _add_unique(mistakes, item.as_mistake(), root)
    for mistake in common.values():
        _add_unique(mistakes, mistake, root)
    by_id = {**core, **pitfalls}
    return _Catalog(drills=tuple(by_id.values()), by_id=by_id, common=common, shared=shared, mistakes=mistakes,
                    causes=causes)


def _add_unique(mistakes: dict[str, Mistake], mistake: Mistake, root: Path) -> None:
    if mistake.id in mistakes:
        other = mistakes[mistake.id]
        where = mistake.folder / "mistake.yaml" if mistake.folder else root / COMMON_DIR / "mistakes.yaml"
        raise DrillContentError(where, "id", f"mistake id {mistake.id!r} is already used "
                                f"by drill {other.drill_id or COMMON_DIR!r}", root=root)
    mistakes[mistake.id] = mistake


def _read_index(root: Path) -> dict[str, list[str]]:
    path = root / INDEX_FILE
    fields = Fields(read_yaml(path, root), path, root)
    fields.check_keys(("core", "pitfall"), ("test", "run"))
    seen: set[str] = set()
    index = {}
    for kind in KINDS:
        ids = fields.data.get(kind, [])
        if not isinstance(ids, list):
            raise fields.error(kind, "must be a list of drill ids")
        for drill_id in ids:
            if not isinstance(drill_id, str) or not DRILL_ID.match(drill_id):
                raise fields.error(kind, f"{drill_id!r} is not a drill id (lowercase words joined by '-', "
                                   f"like policy-loss)")
            if drill_id in seen:
                raise fields.error(kind, f"drill {drill_id!r} is listed twice")
            seen.add(drill_id)
        index[kind] = ids
    return index


def _visible(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name not in IGNORED and not p.name.startswith("."))


def _check_folders_listed(root: Path, listed: list[str]) -> None:
    for entry in _visible(root):
        if entry.is_dir() and entry.name != COMMON_DIR and entry.name not in listed:
            raise DrillContentError(root / INDEX_FILE, None, f"drill folder {entry.name!r} is not listed", root=root)
    for drill_id in listed:
        if not (root / drill_id).is_dir():
            raise DrillContentError(root / INDEX_FILE, None, f"drill {drill_id!r} is listed but "
                                    f"{drill_id}/ does not exist", root=root)


def _check_entries(folder: Path, allowed: set[str], root: Path, what: str) -> None:
    for entry in _visible(folder):
        if entry.name not in allowed:
            raise DrillContentError(entry, None, f"unexpected in a {what} folder "
                                    f"(allowed: {', '.join(sorted(allowed))})", root=root)


def _read_drill(root: Path, drill_id: str, kind: str, core: dict[str, Drill],
                shared: dict[str, Misconception] | None = None) -> Drill:
    folder = root / drill_id
    path = folder / "drill.yaml"
    fields = Fields(read_yaml(path, root), path, root)
    if fields.data.get("kind") == "run" and kind != "run":
        raise fields.error("kind", f"is 'run' but {INDEX_FILE} lists {drill_id!r} under {kind!r}")
    derived = kind in ("pitfall", "test")  # a fix-the-bug or test-writing drill: a variant of its base drill
    if derived:
        for key in DRILL_KEYS_FROM_BASE:
            if fields.has(key):
                raise fields.error(key, f"a {kind} drill takes its base drill's {key}: remove this key")
    fields.check_keys(DRILL_KEYS_REQUIRED + (() if derived else DRILL_KEYS_FROM_BASE),
                      {"pitfall": DRILL_KEYS_PITFALL, "test": DRILL_KEYS_TEST}.get(kind, ()))
    if fields.ident("id", DRILL_ID, "a drill id: lowercase words joined by '-'") != drill_id:
        raise fields.error("id", f"must match the folder name {drill_id!r}")
    if fields.choice("kind", KINDS) != kind:
        raise fields.error("kind", f"is {fields.data['kind']!r} but {INDEX_FILE} lists {drill_id!r} under {kind!r}")
    frameworks = fields.frameworks()
    base = _base_drill(fields, core, frameworks) if derived else None
    if base is not None:
        function, signature = base.function, base.signature
    else:
        function = fields.identifier("function")
        signature = fields.text("signature")
        if not signature.startswith(function + "("):
            raise fields.error("signature", f"must start with '{function}(' (the drill's function)")
    common: dict[str, Any] = dict(
        id=drill_id, title=fields.text("title"), kind=kind, function=function, signature=signature,
        frameworks=frameworks, target_minutes=fields.positive_int("target_minutes"),
        topic=fields.choice("topic", TOPICS), difficulty=fields.choice("difficulty", DIFFICULTIES),
        cards=fields.card_ids("cards"), path=folder,
    )
    prompt = read_text(folder / "prompt.md", root)
    prompt_zh = read_text(folder / "prompt.zh.md", root, required=False)
    hints = parse_hints(read_text(folder / "hints.md", root), folder / "hints.md", root)

    if kind == "core":
        _check_entries(folder, CORE_ENTRIES, root, "core drill")
        for part in ("starter", "solution"):
            _check_code_folder(folder / part, frameworks, root)
        mistakes = _read_mistakes(root, folder, drill_id, frameworks, shared or {})
        return Drill(**common, prompt=prompt, prompt_zh=prompt_zh, hints=hints, _mistakes=mistakes)

    if kind == "test":
        return _read_test_drill(root, folder, fields, common, prompt, prompt_zh, hints, base)
    _check_entries(folder, PITFALL_ENTRIES, root, "pitfall drill")
    if not prompt.lstrip().startswith(PITFALL_PROMPT_START):
        raise DrillContentError(folder / "prompt.md", None, f"a pitfall prompt must start with "
                                f"{PITFALL_PROMPT_START!r}", root=root)
    base_id = base.id
    mistake_id = fields.ident("mistake", MISTAKE_ID, "a mistake id of the base drill")
    planted = next((m for m in base.mistakes if m.id == mistake_id), None)
    if planted is None:
        raise fields.error("mistake", f"{mistake_id!r} is not in {base_id}/mistakes/ "
                           f"(known: {', '.join(m.id for m in base.mistakes)})")
    for fw in frameworks:
        if fw not in planted.frameworks:
            raise fields.error("frameworks", f"mistake {mistake_id!r} has no {fw!r} file to use as the starter")
    return Drill(**common, prompt=prompt, prompt_zh=prompt_zh, hints=hints, base=base_id, mistake_id=mistake_id,
                 _mistakes=tuple(base.mistakes), _base_path=base.path)


def _base_drill(fields: Fields, core: dict[str, Drill], frameworks: tuple[str, ...]) -> Drill:
    """The core drill a fix-the-bug or test-writing drill is a variant of (its `base`), which has each of
    the variant's frameworks; the variant's function and signature are the base's."""
    base_id = fields.ident("base", DRILL_ID, "a core drill id: lowercase words joined by '-'")
    if base_id not in core:
        raise fields.error("base", f"{base_id!r} is not a core drill (core drills: {', '.join(core)})")
    base = core[base_id]
    for fw in frameworks:
        if fw not in base.frameworks:
            raise fields.error("frameworks", f"base drill {base_id!r} has no {fw!r} version")
    return base


def _read_test_drill(root, folder, fields, common, prompt, prompt_zh, hints, base: Drill) -> Drill:
    """A test-writing drill: starter/ and solution/ hold test files, right/ more right answers of the
    base drill (right/<framework>.<style>.py), nudges.yaml one nudge per base mistake."""
    _check_entries(folder, TEST_ENTRIES, root, "test drill")
    base_id = base.id
    for part in ("starter", "solution"):
        _check_code_folder(folder / part, common["frameworks"], root)
    right = folder / "right"
    if right.exists():
        for entry in _visible(right):
            fw = entry.name.split(".", 1)[0]
            if not entry.is_file() or entry.suffix != ".py" or fw not in common["frameworks"] or entry.name.count(".") != 2:
                raise DrillContentError(entry, None, "right/ holds files named <framework>.<style>.py", root=root)
    path = folder / "nudges.yaml"
    nudge_fields = Fields(read_yaml(path, root), path, root)
    known = {m.id for m in base.mistakes}
    nudges = {}
    for key in nudge_fields.data:
        if key not in known:
            raise nudge_fields.error(key, f"is not a mistake of {base_id} (known: {', '.join(sorted(known))})")
        nudges[key] = nudge_fields.text(key)
    for m in base.mistakes:
        if m.id not in nudges:
            raise DrillContentError(path, m.id, "missing: every mistake of the base drill needs a nudge (which "
                                    "input would expose it)", root=root)
    return Drill(**common, prompt=prompt, prompt_zh=prompt_zh, hints=hints, base=base_id, nudges=nudges,
                 _mistakes=tuple(base.mistakes), _base_path=base.path)


def _check_code_folder(folder: Path, frameworks: tuple[str, ...], root: Path) -> None:
    """starter/ and solution/ hold exactly one <framework>.py per declared framework."""
    if not folder.is_dir():
        raise DrillContentError(folder, None, f"folder is missing (needs {', '.join(f'{fw}.py' for fw in frameworks)})",
                                root=root)
    for fw in frameworks:
        code = folder / f"{fw}.py"
        if not code.is_file():
            raise DrillContentError(code, "frameworks", f"file is missing: every framework in drill.yaml "
                                    f"needs a {folder.name} file", root=root)
    _check_entries(folder, {f"{fw}.py" for fw in frameworks}, root, folder.name)


def _read_mistakes(root: Path, drill_folder: Path, drill_id: str, drill_frameworks: tuple[str, ...],
                   shared: dict[str, Misconception]) -> tuple[Mistake, ...]:
    folder = drill_folder / "mistakes"
    if not folder.exists():
        return ()
    mistakes = []
    for entry in _visible(folder):
        if not entry.is_dir():
            raise DrillContentError(entry, None, "unexpected file: mistakes/ holds one folder per mistake", root=root)
        path = entry / "mistake.yaml"
        fields = Fields(read_yaml(path, root), path, root)
        inherited = shared.get(entry.name)  # this drill's own forms of a shared misconception: its words inherited
        if inherited is None:
            fields.check_keys(MISTAKE_KEYS_REQUIRED, MISTAKE_KEYS_OPTIONAL)
        else:
            fields.check_keys(("id",), MISTAKE_KEYS_REQUIRED[1:] + MISTAKE_KEYS_OPTIONAL)
        mistake_id = fields.ident("id", MISTAKE_ID, "a mistake id: lowercase words joined by '-'")
        if mistake_id != entry.name:
            raise fields.error("id", f"must match the folder name {entry.name!r}")
        concepts = (inherited.id,) if inherited is not None else ()
        if fields.has("concept"):
            value = fields.data["concept"]
            value = value if isinstance(value, list) else [value]
            for concept in value:
                if not isinstance(concept, str) or concept not in shared:
                    raise fields.error("concept", f"{concept!r} is not a shared misconception (known: "
                                       f"{', '.join(sorted(shared))})")
            concepts += tuple(value)
        frameworks = fields.frameworks() if fields.has("frameworks") else drill_frameworks
        for fw in frameworks:
            if fw not in drill_frameworks:
                raise fields.error("frameworks", f"drill {drill_id!r} has no {fw!r} version")
            if not (entry / f"{fw}.py").is_file():
                raise DrillContentError(entry / f"{fw}.py", "frameworks", "file is missing: the buggy copy of "
                                        f"solution/{fw}.py", root=root)
        forms = {f.name for fw in frameworks for f in entry.glob(f"{fw}.*.py")}
        _check_entries(entry, {"mistake.yaml"} | {f"{fw}.py" for fw in frameworks} | forms, root, "mistake")
        fails: tuple[str, ...] = ()
        if fields.has("fails"):
            value = fields.data["fails"]
            if not isinstance(value, list) or not all(isinstance(x, str) and x for x in value):
                raise fields.error("fails", "must be a list of check ids")
            fails = tuple(value)
        params: tuple = ()
        if fields.has("params"):
            value = fields.data["params"]
            if not isinstance(value, list) or not value or not all(
                    isinstance(p, dict) and p and all(isinstance(k, str) and k.isidentifier() and isinstance(v, (str, int, float))
                                                      for k, v in p.items()) for p in value):
                raise fields.error("params", "must be a list of mappings NAME: python expression")
            params = tuple(tuple((k, str(v)) for k, v in p.items()) for p in value)
        pitfall_row = None
        if fields.has("pitfall_row"):
            pitfall_row = fields.choice("pitfall_row", tuple(PITFALL_ROWS))
        title = fields.text("title") if fields.has("title") else inherited.title
        explanation = fields.text("explanation") if fields.has("explanation") else inherited.explanation
        card = fields.card_id("card") if fields.has("card") else inherited.card
        mistakes.append(Mistake(id=mistake_id, title=title, explanation=explanation, card=card, drill_id=drill_id,
                                frameworks=frameworks, pitfall_row=pitfall_row, folder=entry, fails=fails, params=params,
                                concepts=concepts))
    return tuple(mistakes)


SHARED_FILE = "misconceptions.yaml"


def _read_shared(root: Path, common: dict[str, Mistake]) -> dict[str, Misconception]:
    """`_common/misconceptions.yaml`: a list of misconceptions that belong to concepts (optional file)."""
    path = root / COMMON_DIR / SHARED_FILE
    if not path.is_file():
        return {}
    data = read_yaml(path, root)
    if not isinstance(data, list):
        raise DrillContentError(path, None, "must be a YAML list of misconceptions", root=root)
    out: dict[str, Misconception] = {}
    for i, item in enumerate(data):
        fields = Fields(item, path, root, what=f"entry {i + 1}")
        fields.check_keys(MISCONCEPTION_KEYS_REQUIRED, MISCONCEPTION_KEYS_OPTIONAL)
        mid = fields.ident("id", MISTAKE_ID, "a mistake id: lowercase words joined by '-'")
        if mid in out or mid in common:
            raise fields.error("id", f"misconception {mid!r} appears twice")
        needs = fields.data["needs"]
        if not isinstance(needs, list) or not needs or not all(isinstance(x, str) and x.isidentifier() for x in needs):
            raise fields.error("needs", "must be a non-empty list of role names (the checker specs' roles)")

        def rule(key, fields=fields):
            if not fields.has(key):
                return None
            value = fields.data[key]
            if isinstance(value, str):
                value = {value: ""}
            if not isinstance(value, dict) or len(value) != 1 or not all(
                    isinstance(k, str) and isinstance(v, (str, type(None))) for k, v in value.items()):
                raise fields.error(key, "must be a rule name, or one mapping rule: argument")
            (name, arg), = value.items()
            return (name, arg or "")
        frameworks = fields.frameworks() if fields.has("frameworks") else FRAMEWORKS
        out[mid] = Misconception(id=mid, title=fields.text("title"), explanation=fields.text("explanation"),
                                 card=fields.card_id("card"), needs=tuple(needs), plant=rule("plant"),
                                 recognise=rule("recognise"), frameworks=frameworks)
    return out


def _read_common(root: Path) -> dict[str, Mistake]:
    path = root / COMMON_DIR / "mistakes.yaml"
    data = read_yaml(path, root)
    if not isinstance(data, list):
        raise DrillContentError(path, None, "must be a YAML list of mistakes", root=root)
    common: dict[str, Mistake] = {}
    for i, item in enumerate(data):
        fields = Fields(item, path, root, what=f"entry {i + 1}")
        fields.check_keys(MISTAKE_KEYS_REQUIRED)
        mistake_id = fields.ident("id", MISTAKE_ID, "a mistake id: lowercase words joined by '-'")
        if mistake_id in common:
            raise fields.error("id", f"mistake {mistake_id!r} appears twice")
        common[mistake_id] = Mistake(id=mistake_id, title=fields.text("title"), explanation=fields.text("explanation"),
                                     card=fields.card_id("card"), drill_id=None, frameworks=FRAMEWORKS)
    return common


def _read_run_causes(root: Path) -> dict[str, RunCause]:
    path = root / COMMON_DIR / RUN_CAUSES_FILE
    data = read_yaml(path, root)
    if not isinstance(data, list) or not data:
        raise DrillContentError(path, None, "must be a YAML list of causes", root=root)
    causes: dict[str, RunCause] = {}
    for i, item in enumerate(data):
        fields = Fields(item, path, root, what=f"entry {i + 1}")
        fields.check_keys(RUN_CAUSE_KEYS)
        cause_id = fields.ident("id", MISTAKE_ID, "a cause id: lowercase words joined by '-'")
        if cause_id in causes:
            raise fields.error("id", f"cause {cause_id!r} appears twice")
        causes[cause_id] = RunCause(cause_id, fields.text("text"), fields.text("zh"), fields.card_id("card"))
    return causes


def _read_run_drill(root: Path, drill_id: str, causes: dict[str, RunCause]) -> Drill:
    """A read-the-run drill: a training run's log (`run.json`, made by `python -m checker.runs`), the
    causes it offers (ids of `_common/run_causes.yaml`), the one that is planted, what gives it away, and
    for every other cause what in the log rules it out."""
    folder = root / drill_id
    path = folder / "drill.yaml"
    fields = Fields(read_yaml(path, root), path, root)
    fields.check_keys(DRILL_KEYS_RUN)
    if fields.ident("id", DRILL_ID, "a drill id: lowercase words joined by '-'") != drill_id:
        raise fields.error("id", f"must match the folder name {drill_id!r}")
    if fields.choice("kind", KINDS) != "run":
        raise fields.error("kind", f"is {fields.data['kind']!r} but {INDEX_FILE} lists {drill_id!r} under 'run'")
    _check_entries(folder, RUN_ENTRIES, root, "read-the-run drill")
    run = fields.data["run"]
    if not isinstance(run, dict) or set(run) != {"seed", "config"} or isinstance(run["seed"], bool) \
            or not isinstance(run["seed"], int) or not isinstance(run["config"], dict):
        raise fields.error("run", "must be a mapping with seed (an integer) and config (the settings that differ "
                           "from the healthy run's defaults)")
    choices = fields.data["choices"]
    if not isinstance(choices, list) or not RUN_CHOICES[0] <= len(choices) <= RUN_CHOICES[1] \
            or len(set(map(str, choices))) != len(choices):
        raise fields.error("choices", f"must be a list of {RUN_CHOICES[0]} to {RUN_CHOICES[1]} distinct cause ids")
    for c in choices:
        if c not in causes:
            raise fields.error("choices", f"{c!r} is not a cause in {COMMON_DIR}/{RUN_CAUSES_FILE} "
                               f"(known: {', '.join(causes)})")
    answer = fields.data["answer"]
    if answer not in choices:
        raise fields.error("answer", f"must be one of the choices (got {answer!r})")
    giveaway = fields.data["giveaway"]
    g = Fields(giveaway, path, root, what="giveaway")
    g.lines = fields.lines
    g.check_keys(RUN_GIVEAWAY_KEYS)
    keywords = giveaway["keywords"]
    if not isinstance(keywords, list) or not keywords or not all(isinstance(k, str) and k.strip() for k in keywords):
        raise fields.error("giveaway", "keywords must be a non-empty list of words a right line would use")
    give = {"keywords": tuple(k.strip().lower() for k in keywords), "line": g.text("line"), "en": g.text("en"),
            "zh": g.text("zh")}
    why_not = fields.data["why_not"]
    if not isinstance(why_not, dict) or set(why_not) != set(choices) - {answer}:
        raise fields.error("why_not", "must say, for every choice but the answer, what in the log rules it out")
    why = {}
    for c in choices:
        if c != answer:
            text = why_not[c]
            if not isinstance(text, str) or not text.strip():
                raise fields.error("why_not", f"{c}: must be a non-empty string")
            why[c] = " ".join(text.split())
    log_path = folder / "run.json"
    try:
        log = json.loads(log_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DrillContentError(log_path, None, "file is missing (make it with `python -m checker.runs`)",
                                root=root) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DrillContentError(log_path, None, f"cannot be read: {exc}", root=root) from None
    if not isinstance(log, dict) or not isinstance(log.get("config"), dict) or not log.get("iterations"):
        raise DrillContentError(log_path, None, "must hold the run's config and its iterations", root=root)
    wanted = {**run["config"], "seed": run["seed"], "bug": answer}
    stale = {k: v for k, v in wanted.items() if log["config"].get(k) != v}
    if stale:
        raise DrillContentError(log_path, None, f"was made from another run than drill.yaml's ({', '.join(stale)} "
                                "differ): make it again with `python -m checker.runs`", root=root)
    prompt = read_text(folder / "prompt.md", root)
    prompt_zh = read_text(folder / "prompt.zh.md", root, required=False)
    hints = parse_hints(read_text(folder / "hints.md", root), folder / "hints.md", root)
    return Drill(id=drill_id, title=fields.text("title"), kind="run", function="", signature="",
                 frameworks=(RUN_FRAMEWORK,), target_minutes=fields.positive_int("target_minutes"),
                 topic=fields.choice("topic", TOPICS), difficulty=fields.choice("difficulty", DIFFICULTIES),
                 cards=fields.card_ids("cards"), path=folder, prompt=prompt, prompt_zh=prompt_zh, hints=hints,
                 choices=tuple(choices), answer=answer, giveaway=give, why_not=why,
                 causes={c: causes[c] for c in choices}, run_log=log)
