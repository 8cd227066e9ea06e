# Tries to leave a mark that the next run (the next implementation) can see: files in /tmp,
# /dev/shm and the home folder, a folder made without any descriptor (os.mkdir), an environment
# variable. The run that finds no mark is the first, which is always the model answer; every later
# run is called a bug.
import os

from solution import compute_gae

MARKS = ["/tmp/ppo-drill-hostile-mark", "/dev/shm/ppo-drill-hostile-mark",
         os.path.expanduser("~/ppo-drill-hostile-mark")]


def _seen_before():
    seen = os.environ.get("PPO_DRILL_HOSTILE_MARK") == "1" or any(os.path.exists(m) for m in MARKS)
    os.environ["PPO_DRILL_HOSTILE_MARK"] = "1"
    for mark in MARKS:
        try:
            os.mkdir(mark)
        except OSError:
            pass
        try:
            with open(mark + ".txt", "w") as fh:
                fh.write("seen")
        except OSError:
            pass
    return seen


def test_first_run_only():
    assert compute_gae is not None
    assert not _seen_before()
