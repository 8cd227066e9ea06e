# expect: ok
def answer(x):
    x = x * 2  # forgot the return
