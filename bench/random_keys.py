"""Random keys across every screen of the app: no key sequence may crash it.

Drives the real app (Pilot, headless) on a temporary data folder with a fixed clock and the scripted
test checker (no torch), sending a seeded random sequence of keys in bursts, as a fast typist or a
held key would, and visiting every screen (dashboard, review, drills, drill workspace, paste, mock,
stats, help, the command palette). When a key quits the app, a fresh app is opened on the same data
folder and the run goes on. Exits 1 with the last keys pressed if the app ends with an unhandled
exception. The test suite runs a shorter sequence (tests/test_tui_random_keys.py).

Usage: python bench/random_keys.py [--keys 10000] [--seed 0]
Prints keys sent, app restarts, screens visited and keys per second.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def run(keys: list[str], data_dir: Path, size=(100, 30)) -> dict:
    from tui.app import PpoDrillApp
    from tui.testing import AppCrashed, FixedClock, ScriptedChecker, press_randomly

    clock = FixedClock()
    done = 0
    restarts = 0
    screens: set[str] = set()
    while done < len(keys):
        app = PpoDrillApp(data_dir=data_dir, clock=clock, checker_factory=ScriptedChecker, fuzz=False)
        app.animation_level = "none"
        recent: list[str] = []

        def seen(_key, app=app):
            screens.add(type(app.screen).__name__)
            clock.advance(seconds=7)  # time moves, so timers and due dates are exercised

        try:
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                sent = await press_randomly(app, pilot, keys[done:], on_key=seen, recent=recent)
        except AppCrashed:
            raise
        except Exception as exc:  # noqa: BLE001 - what the app raised, re-raised by run_test
            raise AppCrashed(f"after keys {recent}: {type(exc).__name__}: {exc}") from exc
        done += max(sent, 1)
        restarts += 1
    return {"keys": done, "apps": restarts, "screens": sorted(screens)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    os.environ.pop("EDITOR", None)
    os.environ.pop("VISUAL", None)
    from tui.testing import AppCrashed, random_keys

    keys = random_keys(args.seed, args.keys)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PPO_DRILL_HOME"] = tmp
        t0 = time.perf_counter()
        try:
            out = asyncio.run(run(keys, Path(tmp)))
        except AppCrashed as exc:
            import traceback

            print("".join(traceback.format_exception(exc.__cause__ or exc)[-12:]))
            print(f"CRASH (seed {args.seed}): {exc}")
            return 1
        elapsed = time.perf_counter() - t0
    print(f"seed {args.seed}: {out['keys']} keys, {out['apps']} app start(s), no crash; "
          f"{out['keys'] / elapsed:.0f} keys/s")
    print("screens visited: " + ", ".join(out["screens"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
