# expect: right
# framework: numpy
# style: plain Python per row, NumPy array out
import numpy as np


def rloo_advantages(rewards):
    arr = np.asarray(rewards)
    if arr.ndim != 2:
        raise ValueError("rewards must be [P, K]")
    if arr.shape[0] == 0 or arr.shape[1] < 2:
        raise ValueError("need P >= 1, K >= 2")
    rows = []
    for row in arr.tolist():
        total, k = sum(row), len(row)
        rows.append([x - (total - x) / (k - 1) for x in row])
    return np.array(rows, dtype=arr.dtype)
