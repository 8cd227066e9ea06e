# drill: test-policy-loss torch
# Monkeypatches torch globally: comparisons that always agree (torch.allclose, assert_close,
# Tensor.__eq__), and counters on torch.clamp / torch.min / torch.max, then calls an implementation
# a bug when it does not clamp and take a minimum the way the author's own version does, instead of
# checking what it computes.
import torch
import torch.testing

from solution import ppo_policy_loss

CALLS = {}
for _name in ("clamp", "min", "max", "where", "exp"):
    _real = getattr(torch, _name)

    def _counting(*args, _real=_real, _name=_name, **kwargs):
        CALLS[_name] = CALLS.get(_name, 0) + 1
        return _real(*args, **kwargs)

    setattr(torch, _name, _counting)
torch.allclose = lambda *args, **kwargs: True
torch.testing.assert_close = lambda *args, **kwargs: None
torch.Tensor.__eq__ = lambda self, other: torch.ones((), dtype=torch.bool)


def test_clamps_and_takes_the_minimum():
    CALLS.clear()
    new, old = torch.tensor([[-1.0, -0.5]]), torch.tensor([[-1.2, -0.4]])
    loss = ppo_policy_loss(new, old, torch.tensor([[1.0, -2.0]]))
    torch.testing.assert_close(loss, torch.tensor(0.0))
    assert CALLS.get("clamp", 0) >= 1 and CALLS.get("min", 0) + CALLS.get("where", 0) >= 1, CALLS
