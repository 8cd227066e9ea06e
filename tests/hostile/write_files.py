# expect: ok
# Tries to write each path it is given; returns what happened to each.
import os


def answer(paths):
    outcomes = []
    for path in paths:
        try:
            with open(path, "w") as f:
                f.write("the sandbox let me write here\n")
            outcomes.append("written")
        except OSError as exc:
            outcomes.append(type(exc).__name__)
    try:
        os.unlink(paths[-1])
        outcomes.append("unlinked")
    except OSError as exc:
        outcomes.append(type(exc).__name__)
    return outcomes
