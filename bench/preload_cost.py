"""What preloading the modules an answer may import costs the checker at start-up, against baselines
measured in the same run.

Each sample is a fresh Python that imports the sandbox and calls `prepare_parent` with one list of
preloads (everything else the same: one torch thread, the warm-up ops). The configurations are
interleaved sample by sample, so a busy machine slows them alike:
  - bare: only numpy and torch (the least any checker loads);
  - before: the list as it was before numpy.ma, numpy.fft, numpy.polynomial, numpy.testing,
    torch.nn.init, torch.nn.utils, torch.optim, torch.optim.lr_scheduler and torch.testing were
    promised (most of them torch loads anyway);
  - now: `ALLOWED_IMPORTS` (checker/sandbox/imports.py), what every checker loads today.
Prints each one's median seconds to prepared and its resident memory, and the ratios now/before and
now/bare. A fork of the prepared process is what each check costs; those figures are in
bench/sandbox_overhead.py. Usage:
    .venv/bin/python bench/preload_cost.py [--runs 7]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BEFORE = (
    "math", "cmath", "functools", "itertools", "operator", "collections", "collections.abc",
    "typing", "dataclasses", "numbers", "fractions", "decimal", "statistics", "random", "copy",
    "enum", "abc", "contextlib", "warnings", "string", "re", "json", "heapq", "bisect", "__future__",
    "numpy", "numpy.random", "numpy.linalg", "numpy.typing", "torch", "torch.nn", "torch.nn.functional",
    "torch.distributions", "torch.autograd",
)
BARE = ("numpy", "torch")

SAMPLE = r"""
import json, sys, time
t0 = time.perf_counter()
import checker.sandbox.parent as parent
modules = json.loads(sys.argv[1])
if modules is not None:
    parent.PRELOADED_MODULES = tuple(modules)
parent.prepare_parent()
elapsed = time.perf_counter() - t0
with open("/proc/self/statm") as f:
    rss = int(f.read().split()[1]) * 4096
print(json.dumps({"s": elapsed, "rss": rss, "modules": len(sys.modules)}))
"""


def sample(modules) -> dict:
    out = subprocess.run([sys.executable, "-c", SAMPLE, json.dumps(modules)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    configs = {"bare": list(BARE), "before": list(BEFORE), "now": None}
    samples: dict[str, list[dict]] = {name: [] for name in configs}
    sample(None)  # warm the disk cache once, not counted
    for _ in range(args.runs):
        for name, modules in configs.items():
            samples[name].append(sample(modules))
    med = {name: statistics.median(s["s"] for s in got) for name, got in samples.items()}
    rss = {name: statistics.median(s["rss"] for s in got) / 2 ** 20 for name, got in samples.items()}
    for name in configs:
        mods = samples[name][0]["modules"]
        print(f"{name:<7} median {med[name]:6.3f} s to prepared   RSS {rss[name]:6.1f} MiB   {mods} modules")
    print(f"now / before: time {med['now'] / med['before']:.3f}x  RSS {rss['now'] / rss['before']:.3f}x")
    print(f"now / bare:   time {med['now'] / med['bare']:.3f}x  RSS {rss['now'] / rss['bare']:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
