# expect: exception
def answer(rewards, values, dones, gamma=0.99, *, lam=0.95):
    return rewards
