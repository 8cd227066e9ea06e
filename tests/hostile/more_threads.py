# expect: ok
# A right answer that asks torch for 64 threads before a large op (libgomp cannot start them under
# the sandbox's process limit): the checker keeps its own thread count, so the answer still runs.
import numpy as np
import torch


def answer(x):
    torch.set_num_threads(64)
    a = torch.ones(400, 400)
    b = (a @ a).sum() + torch.ones(2_000_000).sum()
    return np.asarray(x) * 2 + 0 * float(b)
