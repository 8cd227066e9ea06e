"""A whole PPO training run on the CPU in well under a second, for the read-the-run drills: a corridor
environment, a linear-softmax policy and a linear critic (the update loop's problem,
`checker.handouts.update_problem`, with an entropy bonus), CleanRL's PPO (GAE, advantages whitened per
minibatch, the clipped surrogate, the clipped value loss, global-norm gradient clipping, an early stop
on the epoch's approx KL), and the statistics a person watching the run would see.

A run is a pure function of its `RunConfig` (the seed included), so a drill's log can always be made
again. `bug` plants one mistake in the loop; every other line is the healthy run's. The update follows
the reference update loop (`checker.reference.update_loop`): old log-probs and values frozen once per
iteration, each minibatch's statistics measured before its own step, the same whitening and clipping.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from checker.handouts.update_problem import _log_softmax
from checker.reference.update_loop import clip_global_norm

BUGS = ("none", "old-logp-recomputed", "entropy-sign", "adv-not-normalised", "kl-stop-k1", "value-unclipped",
        "rollout-mismatch", "clip-around-zero", "ratio-inverted", "gae-ignores-dones")


@dataclass(frozen=True)
class RunConfig:
    """Everything a run depends on. The defaults are the healthy run's."""
    seed: int = 0
    iterations: int = 10
    n_envs: int = 8
    n_steps: int = 16
    corridor: int = 8             # positions 0 .. corridor - 1; both ends end the episode
    start: int = 2                # where every episode starts
    max_episode_steps: int = 24
    goal_reward: float = 1.0      # at the far (right) end
    near_reward: float = 0.2      # at the near (left) end: the local optimum
    step_reward: float = -0.01
    gamma: float = 0.99
    gae_lambda: float = 0.95
    lr: float = 0.2
    epochs: int = 4
    minibatches: int = 4
    clip_eps: float = 0.2
    clip_vloss: bool = True
    vf_coef: float = 0.5
    ent_coef: float = 0.01
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    norm_adv: bool = True
    rollout_temperature: float = 1.0   # the sampler's temperature (the trainer always uses 1)
    bug: str = "none"

    def __post_init__(self):
        if self.bug not in BUGS:
            raise ValueError(f"unknown bug {self.bug!r}; known: {', '.join(BUGS)}")

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class EpochStats:
    epoch: int
    approx_kl: float      # k3, mean((r - 1) - log r), the epoch's mean over its minibatches
    old_approx_kl: float  # k1, mean(-log r)
    clip_frac: float      # mean(|r - 1| > clip_eps), as CleanRL logs it
    pg_clipfrac: float    # share of samples whose clipped branch is the one taken, as verl logs it
    entropy: float
    policy_loss: float
    value_loss: float


@dataclass
class IterationStats:
    iteration: int
    episode_return: float        # mean undiscounted return of the episodes that ended in this rollout
    episodes: int
    explained_variance: float    # of the rollout's values against the returns, before the update
    adv_std: float               # std of the advantages as they enter the loss (mean over minibatches)
    kl_first_minibatch: float    # approx KL of the first minibatch of the first epoch, before any step
    value_change: float          # mean |V_after - V_before| over the batch
    epochs_run: int
    epochs: list[EpochStats] = field(default_factory=list)


def _obs(pos: np.ndarray, corridor: int) -> np.ndarray:
    """One-hot position plus a constant feature."""
    out = np.zeros((pos.shape[0], corridor + 1))
    out[np.arange(pos.shape[0]), pos] = 1.0
    out[:, -1] = 1.0
    return out


def _explained_variance(values: np.ndarray, returns: np.ndarray) -> float:
    var = returns.var()
    return float("nan") if var == 0 else float(1.0 - (returns - values).var() / var)


def _loss_grads(cfg: RunConfig, theta, phi, obs, actions, old_logp, old_values, adv, returns):
    """Per-minibatch statistics (measured before the step) and the gradient of the total loss."""
    n = obs.shape[0]
    lp_all = _log_softmax(obs @ theta)
    probs = np.exp(lp_all)
    logp = lp_all[np.arange(n), actions]
    log_ratio = (old_logp - logp) if cfg.bug == "ratio-inverted" else (logp - old_logp)
    ratio = np.exp(log_ratio)
    eps = cfg.clip_eps
    lo, hi = (-eps, eps) if cfg.bug == "clip-around-zero" else (1.0 - eps, 1.0 + eps)
    clipped = np.clip(ratio, lo, hi)
    pg = np.maximum(-adv * ratio, -adv * clipped)
    # d pg / d log_ratio: the unclipped branch where it is the one taken
    through = (-adv * ratio) >= (-adv * clipped)
    d_lr = np.where(through, -adv * ratio, 0.0) / n
    d_logp = -d_lr if cfg.bug == "ratio-inverted" else d_lr
    onehot = np.zeros_like(probs)
    onehot[np.arange(n), actions] = 1.0
    g_theta = obs.T @ ((onehot - probs) * d_logp[:, None])

    entropy = -(probs * lp_all).sum(axis=1)
    d_h = -probs * (lp_all + entropy[:, None]) / n          # d mean(H) / d logits
    ent_sign = 1.0 if cfg.bug == "entropy-sign" else -1.0  # the loss subtracts ent_coef * H
    g_theta = g_theta + ent_sign * cfg.ent_coef * (obs.T @ d_h)

    v = obs @ phi
    e1 = (v - returns) ** 2
    if cfg.clip_vloss and cfg.bug != "value-unclipped":
        v_clip = old_values + np.clip(v - old_values, -eps, eps)
        e2 = (v_clip - returns) ** 2
        v_loss = 0.5 * np.maximum(e1, e2).mean()
        inside = np.abs(v - old_values) <= eps
        d_v = np.where(e1 >= e2, v - returns, np.where(inside, v_clip - returns, 0.0)) / n
    else:
        v_loss = 0.5 * e1.mean()
        d_v = (v - returns) / n
    g_phi = cfg.vf_coef * (obs.T @ d_v)

    true_lr = logp - old_logp
    true_r = np.exp(true_lr)
    stats = {"approx_kl": float(((true_r - 1.0) - true_lr).mean()), "old_approx_kl": float((-true_lr).mean()),
             "clip_frac": float((np.abs(true_r - 1.0) > eps).mean()),
             "pg_clipfrac": float(((-adv * clipped) > (-adv * ratio)).mean()), "entropy": float(entropy.mean()),
             "policy_loss": float(pg.mean()), "value_loss": float(v_loss)}
    return stats, g_theta, g_phi


def run(cfg: RunConfig) -> list[IterationStats]:
    """The run's statistics, one `IterationStats` per iteration."""
    rng = np.random.default_rng(cfg.seed)
    D, K = cfg.corridor + 1, 2
    theta = rng.normal(0.0, 0.01, (D, K))
    phi = np.zeros(D)
    pos = np.full(cfg.n_envs, cfg.start, dtype=np.int64)
    steps = np.zeros(cfg.n_envs, dtype=np.int64)
    ep_return = np.zeros(cfg.n_envs)
    history: list[IterationStats] = []
    for it in range(1, cfg.iterations + 1):
        T, N = cfg.n_steps, cfg.n_envs
        obs_buf = np.zeros((T, N, D))
        act_buf = np.zeros((T, N), dtype=np.int64)
        logp_buf = np.zeros((T, N))
        rew_buf = np.zeros((T, N))
        done_buf = np.zeros((T, N))
        val_buf = np.zeros((T, N))
        finished: list[float] = []
        for t in range(T):
            o = _obs(pos, cfg.corridor)
            lp_sampler = _log_softmax((o @ theta) / cfg.rollout_temperature)
            u = rng.random(N)
            a = (u > np.exp(lp_sampler[:, 0])).astype(np.int64)
            obs_buf[t], act_buf[t], val_buf[t] = o, a, o @ phi
            if cfg.bug == "rollout-mismatch":
                logp_buf[t] = lp_sampler[np.arange(N), a]   # the sampler's log-probs kept as pi_old
            else:
                logp_buf[t] = _log_softmax(o @ theta)[np.arange(N), a]
            pos = pos + np.where(a == 1, 1, -1)
            steps += 1
            at_goal, at_near = pos == cfg.corridor - 1, pos == 0
            r = np.where(at_goal, cfg.goal_reward, np.where(at_near, cfg.near_reward, cfg.step_reward))
            done = at_goal | at_near | (steps >= cfg.max_episode_steps)
            rew_buf[t], done_buf[t] = r, done
            ep_return += r
            for i in np.nonzero(done)[0]:
                finished.append(float(ep_return[i]))
            ep_return = np.where(done, 0.0, ep_return)
            pos = np.where(done, cfg.start, pos)
            steps = np.where(done, 0, steps)
        next_value = _obs(pos, cfg.corridor) @ phi
        adv = np.zeros((T, N))
        last = np.zeros(N)
        for t in reversed(range(T)):
            nv = next_value if t == T - 1 else val_buf[t + 1]
            nonterminal = 1.0 if cfg.bug == "gae-ignores-dones" else 1.0 - done_buf[t]
            delta = rew_buf[t] + cfg.gamma * nv * nonterminal - val_buf[t]
            last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
            adv[t] = last
        returns = adv + val_buf
        b_obs, b_act = obs_buf.reshape(T * N, D), act_buf.reshape(-1)
        b_logp, b_adv, b_ret, b_val = logp_buf.reshape(-1), adv.reshape(-1), returns.reshape(-1), val_buf.reshape(-1)
        ev = _explained_variance(b_val, b_ret)
        mb = (T * N) // cfg.minibatches
        epochs: list[EpochStats] = []
        adv_stds: list[float] = []
        kl_first = None
        for e in range(1, cfg.epochs + 1):
            order = rng.permutation(T * N)
            rows = []
            for k in range(cfg.minibatches):
                idx = order[k * mb:(k + 1) * mb]
                a_mb = b_adv[idx]
                if cfg.norm_adv and cfg.bug != "adv-not-normalised":
                    a_mb = (a_mb - a_mb.mean()) / (a_mb.std(ddof=1) + 1e-8)
                adv_stds.append(float(a_mb.std(ddof=1)))
                old = b_logp[idx]
                if cfg.bug == "old-logp-recomputed":
                    old = _log_softmax(b_obs[idx] @ theta)[np.arange(idx.size), b_act[idx]]
                stats, g_theta, g_phi = _loss_grads(cfg, theta, phi, b_obs[idx], b_act[idx], old, b_val[idx], a_mb,
                                                    b_ret[idx])
                if kl_first is None:
                    kl_first = stats["approx_kl"]
                g_theta, g_phi = clip_global_norm([g_theta, g_phi], cfg.max_grad_norm)
                theta = theta - cfg.lr * g_theta
                phi = phi - cfg.lr * g_phi
                rows.append(stats)
            epochs.append(EpochStats(e, *(float(np.mean([r[k] for r in rows])) for k in
                                          ("approx_kl", "old_approx_kl", "clip_frac", "pg_clipfrac", "entropy",
                                           "policy_loss", "value_loss"))))
            if cfg.target_kl is not None:
                watched = epochs[-1].old_approx_kl if cfg.bug == "kl-stop-k1" else epochs[-1].approx_kl
                if watched > cfg.target_kl:
                    break
        value_change = float(np.abs(b_obs @ phi - b_val).mean())
        history.append(IterationStats(it, float(np.mean(finished)) if finished else float("nan"), len(finished), ev,
                                      float(np.mean(adv_stds)), float(kl_first), value_change, len(epochs), epochs))
    return history
