"""Where a user's data lives: `--data-dir`, else `$PPO_DRILL_HOME`, else the platform's user data folder.

Every command and the app resolve the folder through `data_dir()`, so one setting moves all of
a user's progress and saved answers together.
"""
from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

ENV_VAR = "PPO_DRILL_HOME"


class DataDirError(Exception):
    """The data folder cannot be used; the message names it and says what is wrong."""


def data_dir(create: bool = True) -> Path:
    """The folder holding the progress database and saved answers (created on first use)."""
    env = os.environ.get(ENV_VAR)
    if env:
        path = Path(env).expanduser()
    else:
        path = Path(user_data_dir("ppo-drill", appauthor=False))
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def ensure_data_dir() -> Path:
    """`data_dir()`, created if needed, or DataDirError naming the folder when it is a file, cannot be
    created or cannot be written (checked before any command touches it). A folder on a read-only file
    system is returned: commands that only read run there, as on a full disk, and each write is refused
    by the store with the read-only advice."""
    try:
        path = data_dir(create=False)
    except Exception as exc:  # noqa: BLE001 - platformdirs could not find a home folder
        raise DataDirError(f"cannot find a data folder ({exc}); pass --data-dir DIR") from exc
    if path.exists() and not path.is_dir():
        raise DataDirError(f"data folder {path} is a file, not a folder; pass --data-dir with a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataDirError(f"cannot create data folder {path}: {exc.strerror or exc}") from exc
    if not os.access(path, os.W_OK | os.X_OK):
        try:
            read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        if read_only and os.access(path, os.R_OK | os.X_OK):
            return path  # what only reads runs; the store refuses each write and says why (read-only)
        raise DataDirError(f"data folder {path} cannot be written (permission denied)")
    return path
