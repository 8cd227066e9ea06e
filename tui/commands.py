"""Sub-commands of `ppo-drill` that belong to the app (none yet besides opening it)."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the app's sub-commands to the `ppo-drill` parser."""


def run_app(args: argparse.Namespace) -> int:
    """Open the Textual app (the default when no sub-command is given)."""
    from tui.app import run

    return run(args)
