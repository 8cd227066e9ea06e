# expect: memory
import torch


def answer(x):
    return torch.empty(50 * 1024 ** 3, dtype=torch.uint8)
