# expect: crash
import ctypes


def answer(x):
    return ctypes.string_at(0)
