def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    total = 0.0
    for v, old, r in zip(values, old_values, returns):
        moved = old + min(max(v - old, -clip_eps), clip_eps)
        total += max((v - r) ** 2, (moved - r) ** 2)
    return 0.5 * total / len(values)
