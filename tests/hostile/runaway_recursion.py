# expect: exception
def answer(x):
    return answer(x) + 1
