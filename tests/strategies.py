"""Hypothesis strategies shared by the reference-core tests: small float64 batches with time last."""
from __future__ import annotations

import numpy as np
import torch
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

FINITE = dict(allow_nan=False, allow_infinity=False, width=64)


def floats(lo=-10.0, hi=10.0):
    return st.floats(lo, hi, **FINITE)


def arrays(shape, lo=-10.0, hi=10.0):
    return hnp.arrays(np.float64, shape, elements=floats(lo, hi)).map(torch.from_numpy)


@st.composite
def gae_batch(draw, max_batch=3, max_t=8, done_p=None):
    """(rewards [B,T], values [B,T+1], dones [B,T], gamma, lam)."""
    B = draw(st.integers(1, max_batch))
    T = draw(st.integers(1, max_t))
    rewards = draw(arrays((B, T)))
    values = draw(arrays((B, T + 1)))
    dones = draw(hnp.arrays(np.float64, (B, T), elements=st.sampled_from([0.0, 1.0]))).copy()
    gamma = draw(st.sampled_from([0.0, 0.5, 0.9, 0.99, 1.0]) | floats(0.0, 1.0))
    lam = draw(st.sampled_from([0.0, 0.5, 0.95, 1.0]) | floats(0.0, 1.0))
    return rewards, values, torch.from_numpy(dones), gamma, lam


@st.composite
def policy_batch(draw, max_batch=3, max_t=8, log_ratio_scale=1.0, masked=True):
    """(logp, old_logp, advantages, mask) with log-ratios in +-log_ratio_scale and at least one valid token."""
    B = draw(st.integers(1, max_batch))
    T = draw(st.integers(1, max_t))
    old = draw(arrays((B, T), -5.0, 0.0))
    delta = draw(arrays((B, T), -log_ratio_scale, log_ratio_scale))
    adv = draw(arrays((B, T), -3.0, 3.0))
    if masked:
        mask = torch.from_numpy(draw(hnp.arrays(np.bool_, (B, T))).copy())
        mask[0, 0] = True
    else:
        mask = torch.ones(B, T, dtype=torch.bool)
    return old + delta, old, adv, mask
