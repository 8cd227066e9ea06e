"""How much of the content the suite's content tests go through: a fixed part by default, everything with
`PPO_DRILL_CORPUS=all` (what `.ci/run` sets for its second step). The part judged by default is chosen
by what it is (the first right answers, each mistake's canonical form), never at random, so a run judges
the same answers every time."""
from __future__ import annotations

import os

#: Every corpus answer and every form of every catalogued mistake, not the default part of them.
JUDGE_ALL = os.environ.get("PPO_DRILL_CORPUS", "").strip().lower() == "all"
