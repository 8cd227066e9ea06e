"""Where a user's data lives: `--data-dir`, else `$PPO_DRILL_HOME`, else the platform's user data folder.

Every command and the app resolve the folder through `data_dir()`, so one setting moves all of
a user's progress and saved answers together.
"""
from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "PPO_DRILL_HOME"


def data_dir(create: bool = True) -> Path:
    """The folder holding the progress database and saved answers (created on first use)."""
    env = os.environ.get(ENV_VAR)
    if env:
        path = Path(env).expanduser()
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir("ppo-drill", appauthor=False))
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path
