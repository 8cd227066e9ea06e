"""cards.progress.drafts: saved answers under data_dir()/answers/<drill>/<framework>.py, written atomically."""
from __future__ import annotations

import os

import pytest

from cards.progress import drafts
from cards.progress.paths import data_dir


def test_round_trip_under_the_data_dir():
    assert drafts.load_draft("gae", "numpy") is None
    path = drafts.save_draft("gae", "numpy", "def compute_gae():\n    pass\n")
    assert path == data_dir() / "answers" / "gae" / "numpy.py"
    assert drafts.load_draft("gae", "numpy") == "def compute_gae():\n    pass\n"
    assert drafts.saved_frameworks("gae") == ["numpy"]
    assert path.stat().st_mode & 0o777 == 0o644
    path.chmod(0o600)
    drafts.save_draft("gae", "numpy", "again")
    assert path.stat().st_mode & 0o777 == 0o600  # the user's choice survives the atomic replace
    assert drafts.delete_draft("gae", "numpy") and not drafts.delete_draft("gae", "numpy")


def test_a_failed_write_leaves_the_old_answer_and_no_temp_file(monkeypatch):
    drafts.save_draft("gae", "torch", "old answer")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", boom)
        with pytest.raises(OSError):
            drafts.save_draft("gae", "torch", "new answer")
    assert drafts.load_draft("gae", "torch") == "old answer"
    assert [p.name for p in drafts.draft_path("gae", "torch").parent.iterdir()] == ["torch.py"]


def test_names_that_could_escape_the_folder_are_refused():
    for bad in ("../x", "a/b", "", ".hidden/.."):
        with pytest.raises(ValueError, match="invalid"):
            drafts.draft_path(bad, "numpy")
    with pytest.raises(ValueError, match="framework"):
        drafts.draft_path("gae", "../../etc")


def test_an_undecodable_answer_is_an_error_naming_the_file_not_absent():
    path = drafts.draft_path("gae", "numpy")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe\x00 not utf-8")
    with pytest.raises(OSError, match="numpy.py"):
        drafts.load_draft("gae", "numpy")
    assert path.read_bytes() == b"\xff\xfe\x00 not utf-8"


def test_set_aside_keeps_the_bytes_under_a_new_name():
    path = drafts.draft_path("gae", "numpy")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff one")
    first = drafts.set_aside("gae", "numpy")
    path.write_bytes(b"\xff two")
    second = drafts.set_aside("gae", "numpy")
    assert (first.name, second.name) == ("numpy.py.unreadable", "numpy.py.unreadable-2")
    assert (first.read_bytes(), second.read_bytes()) == (b"\xff one", b"\xff two")
    assert not path.exists()


def test_the_drill_clock_round_trips_and_a_damaged_one_reads_as_zero():
    assert drafts.load_clock("gae") == 0.0  # never opened
    drafts.save_clock("gae", 123.46)
    assert drafts.load_clock("gae") == 123.5
    assert drafts.saved_frameworks("gae") == []  # the clock is not an answer
    for junk in ("{not json", '{"elapsed_s": -5}', '{"other": 1}', '[1, 2]'):
        drafts.clock_path("gae").write_text(junk)
        assert drafts.load_clock("gae") == 0.0
