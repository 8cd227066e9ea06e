"""Drills as content: one folder per drill (drill.yaml, prompt, hints, starters, model solutions,
catalogued mistakes) plus the small loader that reads and validates them.

Public API, from `drills.catalog`, `drills.model` and `drills.errors`: `load_drills`, `get_drill`,
`common_mistakes`, `shared_misconceptions`, `all_mistakes`, `run_causes`, `clear_cache`, `typed_drill_id`,
`DEFAULT_ROOT`, `Drill`, `Mistake`, `Misconception`, `DrillContentError`. Importing it loads PyYAML and nothing
of Textual, numpy or torch; the content itself is read on the first call that needs it.
"""
from __future__ import annotations

from drills.catalog import (DEFAULT_ROOT, all_mistakes, clear_cache, common_mistakes, get_drill, load_drills,
                            run_causes, shared_misconceptions, typed_drill_id)
from drills.errors import DrillContentError
from drills.model import Drill, Misconception, Mistake

__all__ = ["DEFAULT_ROOT", "Drill", "DrillContentError", "Misconception", "Mistake", "all_mistakes", "clear_cache",
           "common_mistakes", "get_drill", "load_drills", "run_causes", "shared_misconceptions", "typed_drill_id"]
