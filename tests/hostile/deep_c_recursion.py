# expect: crash
# Lifts Python's recursion guard and recurses inside C (json's encoder on a list nested a million
# deep), so the C stack overflows: a segfault, not a RecursionError. The encoder's work per level is
# constant (repr's is linear in the depth, which made an earlier version of this answer take seconds
# of CPU), so the crash comes a fraction of a second in, at the sandbox's 8 MiB stack limit.
import json
import sys

sys.setrecursionlimit(10 ** 9)


def answer(x):
    nested = []
    for _ in range(1_000_000):
        nested = [nested]
    return json.dumps(nested)
