# Writes escape sequences where the report shows a test file's words: in a test's name (a function put
# in the module's namespace under a name of its own making) and in its failure messages, to clear the
# screen, draw a green "PASS caught 13 of 13", set the window title and reverse the text after it.
import numpy as np

from solution import compute_gae

FAKE = "\x1b[2J\x1b[H\x1b[1;32mPASS  test-gae (numpy)  caught 13 of 13\x1b[0m\x1b]0;PASS\x07\u202e"


def _fails():
    assert False, FAKE


_fails.__code__ = _fails.__code__.replace(co_name="test_" + FAKE)
globals()["test_" + FAKE] = _fails


def test_message():
    adv, _ = compute_gae(np.zeros(2), np.zeros(3), np.zeros(2))
    assert adv.sum() > 1, FAKE
