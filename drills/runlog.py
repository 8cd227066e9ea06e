"""A read-the-run drill's log as text, and the answer sheet a candidate fills in.

The log (`drills/<id>/run.json`, made by `python -m checker.runs`) holds the run's config and, per
iteration, the statistics a person watching a PPO run would see. Here it becomes what the candidate
reads: the config in words, a table per iteration, a table per epoch, and a terminal plot (one
character per point) of each statistic; then the causes offered and two lines to fill in,
`cause:` (a letter) and `why:` (one line on what gives it away). Plain Python, no numpy: the loader and
the app use it.
"""
from __future__ import annotations

import math
import re
import unicodedata

SPARK = "▁▂▃▄▅▆▇█"
LETTERS = "ABCDEF"
_CAUSE = re.compile(r"^\s*cause\s*[:：]\s*(.*?)\s*$", re.I)
_WHY = re.compile(r"^\s*why\s*[:：]\s*(.*?)\s*$", re.I)

#: Columns of the per-iteration table: (key, header, format).
ITERATION_COLUMNS = (
    ("iteration", "it", "{:>2d}"),
    ("episode_return", "return", "{:>7.3f}"),
    ("episodes", "episodes", "{:>8d}"),
    ("explained_variance", "expl_var", "{:>8.3f}"),
    ("adv_std", "adv_std", "{:>7.3f}"),
    ("kl_first_minibatch", "kl_first_mb", "{:>11.5f}"),
    ("value_change", "v_change", "{:>8.3f}"),
    ("epochs_run", "epochs", "{:>6d}"),
)
#: Columns of the per-epoch table (the iteration and epoch come first).
EPOCH_COLUMNS = (
    ("approx_kl", "approx_kl", "{:>9.5f}"),
    ("old_approx_kl", "old_kl", "{:>8.5f}"),
    ("clip_frac", "clip_frac", "{:>9.3f}"),
    ("pg_clipfrac", "pg_clipfrac", "{:>11.3f}"),
    ("entropy", "entropy", "{:>7.3f}"),
    ("policy_loss", "pg_loss", "{:>8.4f}"),
    ("value_loss", "v_loss", "{:>8.4f}"),
)
#: What is plotted: (key, label, per "iteration" or per "epoch").
PLOTS = (
    ("episode_return", "return", "iteration"),
    ("explained_variance", "expl_var", "iteration"),
    ("adv_std", "adv_std", "iteration"),
    ("kl_first_minibatch", "kl_first_mb", "iteration"),
    ("value_change", "v_change", "iteration"),
    ("approx_kl", "approx_kl", "epoch"),
    ("old_approx_kl", "old_kl", "epoch"),
    ("clip_frac", "clip_frac", "epoch"),
    ("pg_clipfrac", "pg_clipfrac", "epoch"),
    ("entropy", "entropy", "epoch"),
    ("policy_loss", "pg_loss", "epoch"),
    ("value_loss", "v_loss", "epoch"),
)

_TEXT = {
    "en": {
        "run": ("The run: PPO on a corridor of {corridor} cells. Every episode starts in cell {start}; stepping "
                "onto the left end pays {near_reward:g}, onto the right end {goal_reward:g}, every other step "
                "{step_reward:g}; either end, or {max_episode_steps} steps, ends the episode. A linear softmax "
                "policy (2 actions: left, right) and a linear critic, both on the one-hot cell plus a constant, "
                "start near zero; seed {seed}, {iterations} iterations."),
        "batch": ("Each iteration: {n_envs} environments x {n_steps} steps = {batch} samples, then {epochs} "
                  "epochs of {minibatches} shuffled minibatches of {mb}; one plain gradient step (lr {lr:g}) "
                  "per minibatch, the gradient's global norm clipped to {max_grad_norm:g}."),
        "loss": ("Loss per minibatch: clipped surrogate (clip eps {clip_eps:g}) + {vf_coef:g} x value loss "
                 "{value} - {ent_coef:g} x entropy. Advantages: GAE (gamma {gamma:g}, lambda {gae_lambda:g}) "
                 "with the done mask, {whiten}. pi_old and the old values are frozen once per iteration, "
                 "before the first epoch."),
        "value_clipped": "(clipped: max of the squared errors of V and of V_old + clip(V - V_old, +-{clip_eps:g}))",
        "value_plain": "(0.5 x squared error, not clipped)",
        "whiten_yes": "whitened per minibatch (mean 0, std 1)",
        "whiten_no": "not whitened",
        "stop": "Early stop: after an epoch whose mean approx_kl exceeds {target_kl:g}, the iteration's epochs end.",
        "nostop": "No early stop: every iteration runs all its epochs.",
        "sampler": ("Sampling: the actions are drawn at temperature {rollout_temperature:g}; pi_old is the "
                    "trainer's own log-prob of each action (temperature 1), computed before the update."),
        "per_iteration": "Per iteration (kl_first_mb: approx_kl of the first minibatch, before any step; "
                         "v_change: mean |V after the update - V before|):",
        "per_epoch": "Per epoch (means over the epoch's minibatches, each measured before its own step):",
        "plots": "Plots, one character per iteration or per epoch, from the lowest value to the highest:",
        "question": "One line of the training loop does not do what the description above says. Which one?",
        "fill": "Write its letter after `cause:`, and after `why:` one line: which statistic gives it away.",
    },
    "zh": {
        "run": ("这次训练：在长 {corridor} 格的走廊上跑 PPO。每个回合从第 {start} 格开始；走到左端得 {near_reward:g}，"
                "走到右端得 {goal_reward:g}，其余每步 {step_reward:g}；到达任一端或走满 {max_episode_steps} 步，回合结束。"
                "线性 softmax 策略（两个动作：左、右）和线性 critic，输入都是格子的 one-hot 加一个常数，参数从接近 0 开始；"
                "种子 {seed}，共 {iterations} 轮迭代。"),
        "batch": ("每轮迭代：{n_envs} 个环境 × {n_steps} 步 = {batch} 个样本，然后 {epochs} 个 epoch，每个 epoch 打乱后分成 "
                  "{minibatches} 个 {mb} 样本的 minibatch；每个 minibatch 做一步普通梯度下降（lr {lr:g}），梯度的全局范数裁剪到 "
                  "{max_grad_norm:g}。"),
        "loss": ("每个 minibatch 的损失：裁剪的替代目标（clip eps {clip_eps:g}）+ {vf_coef:g} × 价值损失{value} − "
                 "{ent_coef:g} × 熵。优势：GAE（gamma {gamma:g}，lambda {gae_lambda:g}），带 done 掩码，{whiten}。"
                 "pi_old 和旧的价值在每轮迭代的第一个 epoch 之前冻结一次。"),
        "value_clipped": "（裁剪：V 与 V_old + clip(V − V_old, ±{clip_eps:g}) 两者平方误差取大）",
        "value_plain": "（0.5 × 平方误差，不裁剪）",
        "whiten_yes": "在每个 minibatch 内白化（均值 0，标准差 1）",
        "whiten_no": "不白化",
        "stop": "提前停止：某个 epoch 的平均 approx_kl 超过 {target_kl:g} 后，本轮迭代的 epoch 结束。",
        "nostop": "不提前停止：每轮迭代都跑满全部 epoch。",
        "sampler": ("采样：动作在温度 {rollout_temperature:g} 下抽取；pi_old 是训练器自己（温度 1）对每个动作算出的 "
                    "log-prob，在更新之前计算。"),
        "per_iteration": "每轮迭代（kl_first_mb：第一个 minibatch 在任何一步之前的 approx_kl；"
                         "v_change：更新后与更新前 V 之差的绝对值的均值）：",
        "per_epoch": "每个 epoch（该 epoch 各 minibatch 的均值，每个都在它自己那一步之前测量）：",
        "plots": "曲线：每轮迭代或每个 epoch 一个字符，从最低值到最高值：",
        "question": "训练循环里有一行代码没有照上面的描述去做。是哪一行？",
        "fill": "在 `cause:` 后写它的字母，在 `why:` 后写一行：哪个统计量暴露了它。",
    },
}


def _num(fmt: str, value) -> str:
    width = int(re.search(r"(\d+)", fmt).group(1))
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"{'nan':>{width}}"
    return fmt.format(value)


def _cells(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap; a text with Chinese in it is cut by display width (a CJK character takes two
    terminal cells), so no line is wider than `width` cells."""
    if any(_cells(ch) == 2 for ch in text):  # units: a CJK character, a space, or a run of anything else
        lines, line, used = [], "", 0
        for unit in re.findall(r"[^\s\u2e80-\uffff]+|\s|.", " ".join(text.split())):
            size = sum(_cells(ch) for ch in unit)
            if used + size > width and line.strip():
                lines.append(line.rstrip())
                line, used = ("", 0) if unit == " " else (unit, size)
            else:
                line, used = line + unit, used + size
        return lines + ([line.rstrip()] if line.strip() else [])
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def describe(config: dict, lang: str = "en") -> list[str]:
    """The run's config in words, as paragraphs."""
    t = _TEXT["zh" if lang == "zh" else "en"]
    c = dict(config)
    c["batch"] = c["n_envs"] * c["n_steps"]
    c["mb"] = c["batch"] // c["minibatches"]
    c["value"] = (t["value_clipped"] if c["clip_vloss"] else t["value_plain"]).format(**c)
    c["whiten"] = t["whiten_yes"] if c["norm_adv"] else t["whiten_no"]
    out = [t["run"].format(**c), t["batch"].format(**c), t["loss"].format(**c)]
    out.append(t["stop"].format(**c) if c.get("target_kl") is not None else t["nostop"])
    out.append(t["sampler"].format(**c))
    return out


def iteration_table(log: dict) -> list[str]:
    rows = [" ".join(h.rjust(int(re.search(r"(\d+)", f).group(1))) for _, h, f in ITERATION_COLUMNS)]
    for it in log["iterations"]:
        rows.append(" ".join(_num(f, it.get(k)) for k, _, f in ITERATION_COLUMNS))
    return rows


def epoch_table(log: dict) -> list[str]:
    head = "it ep " + " ".join(h.rjust(int(re.search(r"(\d+)", f).group(1))) for _, h, f in EPOCH_COLUMNS)
    rows = [head]
    for it in log["iterations"]:
        for ep in it["epochs"]:
            rows.append(f"{it['iteration']:>2d} {ep['epoch']:>2d} " + " ".join(_num(f, ep.get(k)) for k, _, f in EPOCH_COLUMNS))
    return rows


def series(log: dict, key: str, per: str) -> list[float | None]:
    if per == "iteration":
        return [it.get(key) for it in log["iterations"]]
    return [ep.get(key) for it in log["iterations"] for ep in it["epochs"]]


def spark(values: list[float | None]) -> str:
    """One character per value, ▁ (the lowest) to █ (the highest); a blank for a missing value."""
    finite = [v for v in values if v is not None and math.isfinite(v)]
    if not finite:
        return " " * len(values)
    lo, hi = min(finite), max(finite)
    out = []
    for v in values:
        if v is None or not math.isfinite(v):
            out.append(" ")
        elif hi == lo:
            out.append(SPARK[0])
        else:
            out.append(SPARK[min(len(SPARK) - 1, int((v - lo) / (hi - lo) * len(SPARK)))])
    return "".join(out)


def _short(x: float) -> str:
    return "nan" if x is None or not math.isfinite(x) else f"{x:.4g}"


def plots(log: dict) -> list[str]:
    rows = []
    for key, label, per in PLOTS:
        values = series(log, key, per)
        finite = [v for v in values if v is not None and math.isfinite(v)]
        lo, hi = (min(finite), max(finite)) if finite else (None, None)
        rows.append(f"{label:<12} {spark(values)}  {_short(lo)} .. {_short(hi)}")
    return rows


def choice_lines(drill, lang: str = "en") -> list[str]:
    out = []
    for letter, cause_id in zip(LETTERS, drill.choices):
        cause = drill.causes[cause_id]
        out.append(f"  {letter}. {cause.zh if lang == 'zh' else cause.text}")
    return out


def log_text(drill, lang: str = "en", width: int = 78) -> list[str]:
    """The run as a candidate reads it: the config in words, the tables and the plots."""
    t = _TEXT["zh" if lang == "zh" else "en"]
    log = drill.run_log
    lines: list[str] = []
    for paragraph in describe(log["config"], lang):
        lines += _wrap(paragraph, width) + [""]
    lines += _wrap(t["per_iteration"], width) + iteration_table(log) + [""]
    lines += _wrap(t["per_epoch"], width) + epoch_table(log) + [""]
    lines += _wrap(t["plots"], width) + plots(log)
    return lines


def question_lines(drill, lang: str = "en", width: int = 78) -> list[str]:
    t = _TEXT["zh" if lang == "zh" else "en"]
    return _wrap(t["question"], width) + choice_lines(drill, lang) + _wrap(t["fill"], width)


def answer_sheet(drill, answered: bool = False, lang: str = "en") -> str:
    """The sheet `ppo-drill start` writes and the app's editor shows: the log and the question as `#`
    comments, then `cause:` and `why:`. `answered`: the model answer (the planted cause's letter and
    the line that names what gives it away)."""
    body = [f"{drill.title} ({drill.id})", "", *log_text(drill, lang, 76), "", *question_lines(drill, lang, 76)]
    lines = [("# " + ln).rstrip() for ln in body]
    if answered:
        letter = LETTERS[drill.choices.index(drill.answer)]
        lines += [f"cause: {letter}", f"why: {drill.giveaway['line']}"]
    else:
        lines += ["cause: ", "why: "]
    return "\n".join(lines) + "\n"


def is_chinese_sheet(text: str) -> bool:
    """Whether the sheet is the Chinese one (its question, as `answer_sheet(..., lang="zh")` writes it)."""
    return _TEXT["zh"]["question"][:12] in text


def parse_sheet(text: str) -> tuple[str | None, str]:
    """(what follows `cause:`, what follows `why:`) in a filled-in sheet; comment lines are skipped and the
    last of each line counts. None when there is no `cause:` line at all."""
    cause, why = None, ""
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        if m := _CAUSE.match(line):
            cause = m.group(1)
        elif m := _WHY.match(line):
            why = m.group(1)
    return cause, why


def resolve_cause(drill, written: str | None) -> str | None:
    """The cause id a `cause:` line names: a letter of the choices (A, b, "C.", "(D)") or a cause id;
    None for nothing or anything else."""
    if not written:
        return None
    token = written.strip().strip("().[]").strip()
    if len(token) == 1 and token.upper() in LETTERS[:len(drill.choices)]:
        return drill.choices[LETTERS.index(token.upper())]
    m = re.match(r"^([A-Fa-f])[.):\s]", written.strip())
    if m and m.group(1).upper() in LETTERS[:len(drill.choices)]:
        return drill.choices[LETTERS.index(m.group(1).upper())]
    lowered = written.strip().lower()
    return lowered if lowered in drill.choices else None
