# expect: right
# framework: numpy
# style: SB3 RolloutBuffer style, last step special-cased, float32 buffer
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = np.asarray(rewards)
    values = np.asarray(values)
    dones = np.asarray(dones)
    n_steps = rewards.shape[0]
    advantages = np.zeros(n_steps, dtype=np.float32)
    last_gae_lam = 0.0
    last_values = values[n_steps]
    for step in reversed(range(n_steps)):
        next_non_terminal = 1.0 - dones[step]
        if step == n_steps - 1:
            next_values = last_values
        else:
            next_values = values[step + 1]
        delta = rewards[step] + gamma * next_values * next_non_terminal - values[step]
        last_gae_lam = delta + gamma * lam * next_non_terminal * last_gae_lam
        advantages[step] = last_gae_lam
    returns = advantages + values[:n_steps]
    return advantages, returns
