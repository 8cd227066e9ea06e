# Tries to tell implementations apart by their source, comments or file name instead of behaviour.
import inspect

from solution import compute_gae


def test_source_has_no_bug_comment():
    source = inspect.getsource(compute_gae)
    assert "bug" not in source.lower() and "mistake" not in source.lower()


def test_file_name():
    assert "mistakes" not in compute_gae.__code__.co_filename
