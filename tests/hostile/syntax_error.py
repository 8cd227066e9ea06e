# expect: syntax
def answer(x):
    return x +
