"""`python -m drills [ROOT]`: validate the drill content and print the catalogue, for authors.

Exits 1 with the loader's message (file, field, line) on the first broken file.
"""
from __future__ import annotations

import sys
from pathlib import Path

from drills.catalog import common_mistakes, load_drills
from drills.errors import DrillContentError


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else None
    try:
        drills = load_drills(root)
        common = common_mistakes(root)
    except DrillContentError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for drill in drills:
        planted = f" <- {drill.base}/{drill.mistake_id}" if drill.is_pitfall else ""
        print(f"{drill.id:24} {drill.kind:8} {','.join(drill.frameworks):12} {drill.target_minutes:3} min{planted}")
        if not drill.is_pitfall:
            for mistake in drill.mistakes:
                print(f"    {mistake.id:28} {','.join(mistake.frameworks):12} {mistake.title}")
    print(f"common: {', '.join(common)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
