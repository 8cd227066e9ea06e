"""Sub-commands of `ppo-drill` that belong to the checker: check, drills, start, hint, solution, watch.

Registered by `tui.cli`; handlers import heavy modules (numpy, torch) only when they run.
"""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the checker's sub-commands to the `ppo-drill` parser."""
