"""Sub-commands of `ppo-drill` that belong to the cards: review, cards, export-anki,
export-progress, import-progress.

Registered by `tui.cli`; handlers import what they need only when they run.
"""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the cards' sub-commands to the `ppo-drill` parser."""
