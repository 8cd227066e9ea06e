# expect: crash
# Lifts Python's recursion guard and recurses inside C (repr of a deeply nested list), so the C
# stack overflows: a segfault, not a RecursionError.
import sys

sys.setrecursionlimit(10 ** 9)


def answer(x):
    nested = []
    for _ in range(60_000):
        nested = [nested]
    return repr(nested)
