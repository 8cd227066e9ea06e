# expect: ok
# Overwrites its input in place and returns what it saw first.
def answer(x):
    first = float(x[0])
    x[:] = -1.0
    return first
