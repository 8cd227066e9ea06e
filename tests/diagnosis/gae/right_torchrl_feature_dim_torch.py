# expect: right
# framework: torch
# style: TorchRL generalized_advantage_estimate convention: [*B, T, F] with a trailing feature dim, time_dim=-2,
#        explicit state_value / next_state_value / done / terminated
import torch


def generalized_advantage_estimate(gamma, lmbda, state_value, next_state_value, reward, done, terminated=None,
                                   time_dim=-2):
    if terminated is None:
        terminated = done
    not_done = (~done).to(reward.dtype)
    not_terminated = (~terminated).to(reward.dtype)
    T = reward.shape[time_dim]
    advantage = torch.empty_like(reward)
    prev_advantage = torch.zeros_like(reward.select(time_dim, 0))
    delta = reward + gamma * not_terminated * next_state_value - state_value
    for t in reversed(range(T)):
        prev_advantage = delta.select(time_dim, t) + gamma * lmbda * not_done.select(time_dim, t) * prev_advantage
        advantage.select(time_dim, t).copy_(prev_advantage)
    value_target = advantage + state_value
    return advantage, value_target


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    done = dones.bool().unsqueeze(-1)
    adv, target = generalized_advantage_estimate(
        gamma, lam,
        state_value=values[:, :-1].unsqueeze(-1),
        next_state_value=values[:, 1:].unsqueeze(-1),
        reward=rewards.unsqueeze(-1),
        done=done,
    )
    return adv.squeeze(-1), target.squeeze(-1)
