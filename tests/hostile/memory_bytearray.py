# expect: memory
def answer(x):
    blob = bytearray(50 * 1024 ** 3)
    return len(blob)
