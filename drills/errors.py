"""The one exception content loading raises: `DrillContentError`, naming the file, the field and the line."""
from __future__ import annotations

from pathlib import Path


class DrillContentError(ValueError):
    """A drill or mistake file that breaks the content schema.

    `str(err)` reads like "drills/gae/drill.yaml: field 'target_minutes': must be a positive integer"
    so an author can go straight to the problem; `line` (1-based) is appended when known.
    """

    def __init__(self, path: Path | str, field: str | None, message: str, *, line: int | None = None,
                 root: Path | None = None):
        self.path = Path(path)
        self.field = field
        self.message = message
        self.line = line
        self.display_path = _display(self.path, root)
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"field '{self.field}': " if self.field else ""
        at = f" (line {self.line})" if self.line else ""
        return f"{self.display_path}: {where}{self.message}{at}"


def _display(path: Path, root: Path | None) -> str:
    """The path relative to the folder holding the content root ("drills/gae/drill.yaml")."""
    if root is not None:
        try:
            return path.relative_to(root.parent).as_posix()
        except ValueError:
            pass
    return path.as_posix()
