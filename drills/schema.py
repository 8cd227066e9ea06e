"""What drill content must look like: allowed keys and values, strict YAML reading, hint parsing.

Everything here raises `DrillContentError` naming the file and field, because content is edited by
hand and a typo must fail loudly at load time, not show up as a confusing verdict later.
"""
from __future__ import annotations

import keyword
import re
from pathlib import Path
from typing import Any

import yaml

from drills.errors import DrillContentError

FRAMEWORKS = ("numpy", "torch")
KINDS = ("core", "pitfall", "test", "run")
#: The one "framework" of a read-the-run drill: its answer is a filled-in answer sheet, not code.
RUN_FRAMEWORK = "run"
TOPICS = ("gae", "policy-loss", "value-loss", "total-loss", "rlhf-actor-loss", "token-logprobs", "kl-estimators",
          "kl-reward", "token-gae", "whitening", "grpo", "loss-aggregation", "explained-variance",
          "reward-model", "dpo", "rloo", "importance-weights", "kl-penalty", "update-loop",
          # the objectives beside PPO that trainers ship now
          "rollout-correction", "gspo", "dapo", "critic-free-advantages", "cispo", "kl-loss", "grad-accumulation",
          # read-the-run drills: a training run's logged statistics, one planted bug
          "read-the-run")
DIFFICULTIES = ("easy", "medium", "hard")

# The ten classic PPO implementation mistakes (the pitfalls deck's rows, 易错点), by the slug a mistake.yaml's
# `pitfall_row` uses; the pitfalls deck has one card per row, named "pitfall-<slug>".
PITFALL_ROWS = {
    "ratio-division": "ratio 用除法",
    "ratio-denominator": "ratio 分母用错",
    "clip-range": "clip 范围写错",
    "min-max": "min/max 混淆",
    "stop-gradient": "忘了 stop gradient",
    "advantage-normalisation": "advantage 没归一化",
    "gae-direction": "GAE 方向",
    "gae-done-mask": "GAE 的 done mask",
    "value-bootstrap": "value 的 bootstrap",
    "entropy-sign": "entropy 符号",
}

DRILL_KEYS_REQUIRED = ("id", "title", "kind", "frameworks", "target_minutes", "topic", "difficulty", "cards")
#: What a core drill states and a fix-the-bug or test-writing drill takes from its `base` (stating it there
#: is an error: two copies of one signature drift apart).
DRILL_KEYS_FROM_BASE = ("function", "signature")
DRILL_KEYS_PITFALL = ("base", "mistake")
DRILL_KEYS_TEST = ("base",)
# A read-the-run drill has no function to write: the run it shows, the causes offered, the answer.
DRILL_KEYS_RUN = ("id", "title", "kind", "target_minutes", "topic", "difficulty", "cards", "run", "choices",
                  "answer", "giveaway", "why_not")
RUN_CAUSE_KEYS = ("id", "text", "zh", "card")
RUN_GIVEAWAY_KEYS = ("keywords", "line", "en", "zh")
MISTAKE_KEYS_REQUIRED = ("id", "title", "explanation", "card")
MISTAKE_KEYS_OPTIONAL = ("frameworks", "pitfall_row", "fails", "params", "concept")
# A shared misconception (drills/_common/misconceptions.yaml): see drills.model.Misconception.
MISCONCEPTION_KEYS_REQUIRED = ("id", "title", "explanation", "card", "needs")
MISCONCEPTION_KEYS_OPTIONAL = ("plant", "recognise", "frameworks")

CARD_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MISTAKE_ID = CARD_ID
#: Drill ids are kebab-case like card and mistake ids (`policy-loss`); Python names built from one (a spec
#: module, the file `ppo-drill start` writes) spell it with underscores.
DRILL_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
HINT_HEADING = re.compile(r"^## Hint (\d+)\s*$")


class LineDict(dict):
    """A YAML mapping that remembers the line of each key, so errors can point at it."""

    lines: dict[str, int]


_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when built: ten times faster


class _StrictLoader(_BaseLoader):  # type: ignore[valid-type,misc]
    """SafeLoader that rejects duplicate keys (PyYAML silently keeps the last one)."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        line = key_node.start_mark.line + 1
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {result.lines[key]})", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=deep)
        result.lines[key] = line
    return result


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(path: Path, root: Path) -> Any:
    """Parse one YAML file strictly; syntax errors and duplicate keys name the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DrillContentError(path, None, "file is missing", root=root) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DrillContentError(path, None, f"cannot be read: {exc}", root=root) from None
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise DrillContentError(path, None, f"invalid YAML: {problem}",
                                line=mark.line + 1 if mark else None, root=root) from None


def read_text(path: Path, root: Path, *, required: bool = True) -> str | None:
    """A UTF-8 text file's content; a missing required file or an empty one is an error."""
    if not path.is_file():
        if required:
            raise DrillContentError(path, None, "file is missing", root=root)
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DrillContentError(path, None, f"cannot be read: {exc}", root=root) from None
    if not text.strip():
        raise DrillContentError(path, None, "file is empty", root=root)
    return text


class Fields:
    """Typed access to one YAML mapping; every failure names the file, the field and its line."""

    def __init__(self, data: Any, path: Path, root: Path, *, what: str = "file"):
        if not isinstance(data, dict):
            raise DrillContentError(path, None, f"the {what} must be a YAML mapping of keys to values", root=root)
        self.data = data
        self.path = path
        self.root = root
        self.lines = getattr(data, "lines", {})

    def error(self, field: str | None, message: str) -> DrillContentError:
        return DrillContentError(self.path, field, message, line=self.lines.get(field), root=self.root)

    def check_keys(self, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        allowed = set(required) | set(optional)
        for key in self.data:
            if key not in allowed:
                raise self.error(str(key), f"unknown key (allowed: {', '.join(required + optional)})")
        for key in required:
            if key not in self.data:
                raise self.error(key, "is required")

    def has(self, key: str) -> bool:
        return key in self.data

    def text(self, key: str) -> str:
        value = self.data[key]
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, "must be a non-empty string")
        return value.strip()

    def choice(self, key: str, choices: tuple[str, ...]) -> str:
        value = self.data[key]
        if value not in choices:
            raise self.error(key, f"must be one of {', '.join(choices)} (got {value!r})")
        return value

    def ident(self, key: str, pattern: re.Pattern, what: str) -> str:
        value = self.data[key]
        if not isinstance(value, str) or not pattern.match(value):
            raise self.error(key, f"must be {what} (got {value!r})")
        return value

    def identifier(self, key: str) -> str:
        value = self.data[key]
        if not isinstance(value, str) or not value.isidentifier() or keyword.iskeyword(value):
            raise self.error(key, f"must be a Python identifier (got {value!r})")
        return value

    def positive_int(self, key: str) -> int:
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise self.error(key, "must be a positive integer")
        return value

    def frameworks(self, key: str = "frameworks") -> tuple[str, ...]:
        value = self.data[key]
        if not isinstance(value, list) or not value:
            raise self.error(key, f"must be a non-empty list drawn from {', '.join(FRAMEWORKS)}")
        for item in value:
            if item not in FRAMEWORKS:
                raise self.error(key, f"unknown framework {item!r} (allowed: {', '.join(FRAMEWORKS)})")
        if len(set(value)) != len(value):
            raise self.error(key, "lists a framework twice")
        return tuple(fw for fw in FRAMEWORKS if fw in value)

    def card_id(self, key: str) -> str:
        return self.ident(key, CARD_ID, "a card id: lowercase words joined by '-'")

    def card_ids(self, key: str) -> tuple[str, ...]:
        value = self.data[key]
        if not isinstance(value, list):
            raise self.error(key, "must be a list of card ids")
        for item in value:
            if not isinstance(item, str) or not CARD_ID.match(item):
                raise self.error(key, f"{item!r} is not a card id (lowercase words joined by '-')")
        if len(set(value)) != len(value):
            raise self.error(key, "lists a card twice")
        return tuple(value)


#: How hint 3 starts: it is the reveal, and says so before the candidate reads it.
REVEAL_MARK = "**Shows the answer.**"


def parse_hints(text: str, path: Path, root: Path) -> list[str]:
    """Split hints.md into exactly three hints under "## Hint 1", "## Hint 2", "## Hint 3". They escalate:
    hint 1 asks a question, hint 2 gives the concept, hint 3 is the reveal and starts with `REVEAL_MARK`."""
    hints: list[list[str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = HINT_HEADING.match(line)
        if match:
            expected = len(hints) + 1
            if int(match.group(1)) != expected:
                raise DrillContentError(path, "hints", f"expected '## Hint {expected}' here", line=number, root=root)
            hints.append([])
        elif line.startswith("## "):
            raise DrillContentError(path, "hints", "only '## Hint N' headings are allowed", line=number, root=root)
        elif hints:
            hints[-1].append(line)
        elif line.strip() and not line.startswith("# "):
            raise DrillContentError(path, "hints", "text before '## Hint 1' (only a '# ' title may precede it)",
                                    line=number, root=root)
    if len(hints) != 3:
        raise DrillContentError(path, "hints", f"must have exactly three hints ('## Hint 1' to '## Hint 3'), "
                                f"found {len(hints)}", root=root)
    bodies = ["\n".join(lines).strip() for lines in hints]
    for i, body in enumerate(bodies, start=1):
        if not body:
            raise DrillContentError(path, "hints", f"Hint {i} is empty", root=root)
    if "?" not in bodies[0]:
        raise DrillContentError(path, "hints", "Hint 1 must ask a question (a nudge, not the answer)", root=root)
    if REVEAL_MARK in bodies[0] or REVEAL_MARK in bodies[1]:
        raise DrillContentError(path, "hints", f"only Hint 3 may start with {REVEAL_MARK!r}", root=root)
    if not bodies[2].startswith(REVEAL_MARK):
        raise DrillContentError(path, "hints", f"Hint 3 must start with {REVEAL_MARK!r}: it shows the answer",
                                root=root)
    return bodies
