# Decides by what the implementation looks like (object ids, the module's names, the function's
# name, file name, line numbers, size of its bytecode), never by what it computes.
import solution
from solution import compute_gae


def test_looks_like_the_model():
    code = compute_gae.__code__
    names = sorted(n for n in vars(solution) if not n.startswith("__"))
    assert names == ["compute_gae", "np"] or names == ["compute_gae", "numpy"], names
    assert compute_gae.__module__ == "solution" and code.co_filename.startswith("<")
    assert len(code.co_code) % 2 == 0 and id(compute_gae) % 16 == 0
    assert code.co_firstlineno <= 3 and len(code.co_varnames) <= 12, code.co_varnames
