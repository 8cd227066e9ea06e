"""How long `ppo-drill` takes to paint its first screen, against a baseline measured in the same run.

Each sample spawns a fresh Python that opens the real app headless (temp data folder, the real
checker client started in the background as usual); the times are from spawn to the dashboard's
first frame, and to its numbers filled in (decks, drills and progress are loaded right after the
first frame). The baseline is the same for
`python -c "import textual.app"`, so the ratio says what the app adds on top of Textual itself.
Target: under 0.5 s to the first frame on this machine (the app must feel instant to open).

    .venv/bin/python bench/tui_startup.py [--runs 7]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

APP = r"""
import sys
from tui.app import PpoDrillApp

opened = PpoDrillApp._open_session

def open_session(self):
    print("painted", flush=True)  # runs right after the first refresh: the dashboard frame is up
    opened(self)
    self.call_after_refresh(lambda: (print("filled", flush=True), self.exit()))

PpoDrillApp._open_session = open_session
PpoDrillApp().run(headless=True, size=(100, 30))
heavy = [m for m in ("torch", "numpy") if m in sys.modules]
print("heavy:" + ",".join(heavy), flush=True)
"""

BASELINE = "import textual.app\nprint('painted', flush=True)"


def sample(code: str, env: dict) -> tuple[float, float | None, str]:
    """Seconds from spawn to the 'painted' line, to the 'filled' line (None for the baseline),
    and the last line of output."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    painted = time.perf_counter() - start
    filled = None
    rest = ""
    if line.strip() == "painted":
        second = proc.stdout.readline()
        if second.strip() == "filled":
            filled = time.perf_counter() - start
        rest = second + proc.stdout.read()
    proc.wait()
    if line.strip() != "painted":
        raise SystemExit(f"the app did not paint: {line!r}")
    if proc.returncode != 0:
        raise SystemExit(f"the app painted but exited with status {proc.returncode}")
    return painted, filled, rest.strip().splitlines()[-1] if rest.strip() else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    import os

    env = dict(os.environ, PPO_DRILL_HOME=tempfile.mkdtemp(prefix="ppo-drill-bench-"))
    app_times, filled_times, base_times, heavy = [], [], [], ""
    for _ in range(args.runs):  # interleaved, so machine load hits both alike
        base_times.append(sample(BASELINE, env)[0])
        painted, filled, heavy = sample(APP, env)
        app_times.append(painted)
        filled_times.append(filled)
    app_s, base_s = statistics.median(app_times), statistics.median(base_times)
    print(f"first screen painted      median {app_s:.3f} s  (min {min(app_times):.3f}, "
          f"max {max(app_times):.3f}, {args.runs} runs)")
    print(f"dashboard numbers filled  median {statistics.median(filled_times):.3f} s")
    print(f"baseline import textual   median {base_s:.3f} s")
    print(f"ratio painted / baseline  {app_s / base_s:.2f}x")
    print(f"target < 0.5 s            {'met' if app_s < 0.5 else 'NOT met'}")
    print(f"heavy modules in the app process: {heavy.split(':', 1)[-1] or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
