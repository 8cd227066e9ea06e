"""Sub-commands of `ppo-drill` for the training plan: mock interviews and statistics (issue 6).

Registered by `tui.cli`; handlers import what they need only when they run.
"""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the training plan's sub-commands to the `ppo-drill` parser."""
