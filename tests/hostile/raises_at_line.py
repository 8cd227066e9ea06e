# expect: exception
import numpy as np


def helper(x):
    return np.ones(3) + x  # shapes (3,) and (4,) do not broadcast


def answer(x):
    return helper(x)
