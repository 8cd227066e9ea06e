"""Drills as content: one folder per drill (drill.yaml, prompt, hints, starters, model solutions,
catalogued mistakes) plus the small loader that reads and validates them.

Public API (re-exported lazily from `drills.catalog`, `drills.model`, `drills.errors`):
`load_drills`, `get_drill`, `common_mistakes`, `shared_misconceptions`, `all_mistakes`, `clear_cache`, `Drill`,
`Mistake`, `Misconception`, `DrillContentError`. Nothing here imports Textual or torch; importing `drills` itself
imports nothing.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "load_drills": "drills.catalog",
    "get_drill": "drills.catalog",
    "common_mistakes": "drills.catalog",
    "all_mistakes": "drills.catalog",
    "shared_misconceptions": "drills.catalog",
    "clear_cache": "drills.catalog",
    "DEFAULT_ROOT": "drills.catalog",
    "Drill": "drills.model",
    "Mistake": "drills.model",
    "Misconception": "drills.model",
    "DrillContentError": "drills.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'drills' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
