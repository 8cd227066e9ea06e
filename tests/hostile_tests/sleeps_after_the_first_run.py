# Passes on the model answer (the first run) and sleeps on every implementation that differs from it,
# each time just under a run's time limit (the sleep comes from the test's name, `SLEEP`): graded one run
# at a time with a limit of its own each, one check took minutes.
import time

import numpy as np

from solution import compute_gae

SLEEP = 1.5


def test_sleeps_on_anything_but_the_model_answer():
    r, v, d = np.array([1.0, -2.0, 0.5]), np.array([0.3, 0.1, -0.4, 0.2]), np.array([0.0, 1.0, 0.0])
    adv, _ = compute_gae(r, v, d, 0.9, 0.8)
    deltas = r + 0.9 * v[1:] * (1 - d) - v[:-1]
    expected = np.zeros(3)
    running = 0.0
    for t in (2, 1, 0):
        running = deltas[t] + 0.9 * 0.8 * (1 - d[t]) * running
        expected[t] = running
    if not np.allclose(adv, expected):
        time.sleep(SLEEP)
