"""YAML parsing that keeps line numbers: `load_yaml_with_lines()`, `line_of()`, `YamlProblem`.

Content errors must name the line a user has to fix, and plain PyYAML forgets where each mapping
came from. This safe loader (libyaml-backed when available, for speed) builds mappings that
remember their own line and each key's line, and rejects duplicate keys, which PyYAML would
silently resolve to the last value (losing text an author wrote).
"""
from __future__ import annotations

from typing import Any

import yaml


class LineDict(dict):
    """A mapping that remembers its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict


class YamlProblem(Exception):
    """A syntax error or duplicate key, with the 1-based line where it was found (if known)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.message = message
        self.line = line


class _DuplicateKey(yaml.MarkedYAMLError):
    pass


_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe YAML loader whose mappings carry line numbers and reject duplicate keys."""


def _construct_mapping(loader: Any, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise _DuplicateKey("while constructing a mapping", node.start_mark,
                                f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)


def load_yaml_with_lines(text: str) -> Any:
    """Parse YAML safely; mappings come back as `LineDict`. Raises `YamlProblem`."""
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise YamlProblem(exc.problem or str(exc), mark.line + 1 if mark is not None else None) from exc
    except yaml.YAMLError as exc:
        raise YamlProblem(str(exc), None) from exc


def line_of(mapping: Any, key: str | None = None) -> int | None:
    """The line of `key` in `mapping` (or of the mapping itself); None if unknown."""
    if not isinstance(mapping, LineDict):
        return None
    if key is not None and key in mapping.key_lines:
        return mapping.key_lines[key]
    return mapping.line
