# expect: memory
import torch


def answer(x):
    kept = []
    while True:
        kept.append(torch.ones(16 * 1024 * 1024, dtype=torch.uint8))
