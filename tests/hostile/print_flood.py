# expect: output
def answer(x):
    line = "x" * 1000
    for _ in range(100_000):  # 100 MB
        print(line)
    return x
