"""Progress-file faults told apart: a read-only folder, a read-only bind mount of an intact file, a
full disk and a damaged file each get their own advice, and only damage says "damaged"; a file
written by a newer ppo-drill with an un-checkpointed -wal is refused before SQLite opens it (so it
and its -wal stay byte for byte as they were); export-progress on a full disk leaves no .tmp file.

The mount cases run in a forked child with its own mount namespace (the mounts vanish with it), as
root and again after dropping to an unused ordinary uid; they need root to mount and skip without
it. The same messages are also checked with injected errors, which need nothing."""
from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import select
import shutil
import signal
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest

from cards.progress import faults
from cards.progress.header import peek
from cards.progress.schema import SCHEMA_VERSION
from cards.progress.store import ProgressStore, StoreError

ROOT = os.geteuid() == 0
USER = 1_400_100_000 + os.getpid() % 100_000
CLONE_NEWNS = 0x00020000
needs_root = pytest.mark.skipif(not ROOT, reason="mounting a tmpfs or a read-only bind mount needs root")
AS = pytest.mark.parametrize("uid", [None, USER], ids=["root", "ordinary-user"])


def in_child(script, mounts=(), uid=None) -> dict:
    """Run `script()` in a fork with a private mount namespace (after running each `mounts`
    command there), as `uid` if given; return its JSON dict."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the fork
        code = 0
        try:
            os.close(r)
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.unshare(CLONE_NEWNS) != 0:
                raise OSError(ctypes.get_errno(), "unshare")
            subprocess.run(["mount", "--make-rprivate", "/"], check=True)
            for argv in mounts:
                subprocess.run(argv, check=True, capture_output=True)
            if uid is not None:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
            out = script()
            os.write(w, json.dumps(out).encode())
        except BaseException as exc:  # noqa: BLE001
            os.write(w, json.dumps({"crash": repr(exc)}).encode())
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    data = b""
    try:
        while select.select([r], [], [], 60)[0]:
            chunk = os.read(r, 1 << 16)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(r)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    out = json.loads(data or b'{"crash": "no report"}')
    assert "crash" not in out, out["crash"]
    return out


@pytest.fixture
def tmp_path():
    """A temp folder an ordinary uid can reach (pytest's own sits under a 0700 folder of root)."""
    folder = Path(tempfile.mkdtemp(prefix="ppo-drill-faults-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def intact_db(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "progress.sqlite3"
    with ProgressStore(path) as store:
        store.set_setting("theme", "textual-dark")
    return path


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def open_and_write(path: Path) -> dict:
    try:
        with ProgressStore(path) as store:
            store.set_setting("theme", "textual-light")
        return {"message": None}
    except StoreError as exc:
        return {"message": str(exc)}


def give(paths, uid):
    for p in paths:
        os.chown(p, uid, uid)


def assert_advice(message: str | None, kind: str, existing: bool = True) -> None:
    """The advice for `kind`; it says an existing file is intact, and where no progress file
    existed yet, that nothing was lost (never that a file that was not there is "intact")."""
    assert message, "expected a StoreError"
    assert "damaged" not in message and "move it aside" not in message and "restore" not in message, message
    words = {"permission": "permission denied", "read-only": "read-only file system", "full": "is full"}
    assert words[kind] in message, message
    if existing:
        assert "intact" in message, message
    else:
        assert "intact" not in message and "nothing was lost" in message, message


def test_a_read_only_folder_is_a_permission_problem(tmp_path):
    if not ROOT:
        pytest.skip("simulating an ordinary user needs root to drop to one")
    folder = tmp_path / "data"
    path = intact_db(folder)
    tmp_path.chmod(0o755)
    give([folder, path], USER)
    folder.chmod(0o555)
    before = digest(folder)
    out = in_child(lambda: open_and_write(path), uid=USER)  # root may write anywhere: an ordinary user
    assert_advice(out["message"], "permission")
    assert digest(folder) == before


@needs_root
@AS
def test_a_read_only_bind_mount_of_an_intact_file_is_not_called_damaged(tmp_path, uid):
    folder, view = tmp_path / "data", tmp_path / "view"
    path = intact_db(folder)
    view.mkdir()
    tmp_path.chmod(0o755)
    if uid:
        give([folder, path, view], uid)
    before = digest(folder)
    out = in_child(lambda: open_and_write(view / path.name), uid=uid,
                   mounts=[["mount", "--bind", str(folder), str(view)],
                           ["mount", "-o", "remount,bind,ro", str(view)]])
    assert_advice(out["message"], "read-only")
    assert digest(folder) == before


def _fill(folder: Path) -> None:
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


@needs_root
@AS
def test_a_full_disk_is_a_full_disk(tmp_path, uid):
    """An intact file on a full disk: opening it, and saving to it once open."""
    source = intact_db(tmp_path / "source")
    disk = tmp_path / "disk"
    disk.mkdir()
    tmp_path.chmod(0o755)

    def script():
        shutil.copy(source, disk / source.name)
        # opened while there is room, then a write when there is none
        store = ProgressStore(disk / source.name)
        _fill(disk)
        try:
            store.set_setting("theme", "x" * 200_000)
            late = None
        except StoreError as exc:
            late = str(exc)
        finally:
            store.close()
        return {"open": open_and_write(disk / source.name)["message"], "late": late}

    mount = ["mount", "-t", "tmpfs", "-o", f"size=256k,mode=0777{',uid=%d' % uid if uid else ''}", "tmpfs", str(disk)]
    out = in_child(script, uid=uid, mounts=[mount])
    assert_advice(out["open"], "full")
    assert out["late"] and "is full" in out["late"] and "not saved" in out["late"], out["late"]


@needs_root
@AS
def test_a_full_disk_before_any_progress_was_saved_says_nothing_was_lost(tmp_path, uid):
    """No progress file yet on a full disk: the message must not call a file that was never there
    intact; it says that nothing was lost, and nothing of the failed attempt is left behind that
    would later read as progress."""
    disk = tmp_path / "disk"
    disk.mkdir()
    tmp_path.chmod(0o755)

    def script():
        _fill(disk)
        path = disk / "progress.sqlite3"
        message = open_and_write(path)["message"]
        return {"open": message, "left": path.exists() and path.stat().st_size}

    mount = ["mount", "-t", "tmpfs", "-o", f"size=256k,mode=0777{',uid=%d' % uid if uid else ''}", "tmpfs", str(disk)]
    out = in_child(script, uid=uid, mounts=[mount])
    assert_advice(out["open"], "full", existing=False)
    assert not out["left"], out


@needs_root
@AS
def test_export_progress_on_a_full_disk_leaves_no_tmp_file(tmp_path, uid):
    from tui.cli import main

    home, disk = tmp_path / "home", tmp_path / "disk"
    intact_db(home)
    disk.mkdir()
    tmp_path.chmod(0o755)
    if uid:
        give([home, *home.iterdir()], uid)

    def script():
        os.environ["PPO_DRILL_HOME"] = str(home)
        _fill(disk)
        code = main(["export-progress", str(disk / "export.json")])
        return {"code": code, "left": sorted(p.name for p in disk.iterdir())}

    mount = ["mount", "-t", "tmpfs", "-o", f"size=64k,mode=0777{',uid=%d' % uid if uid else ''}", "tmpfs", str(disk)]
    out = in_child(script, uid=uid, mounts=[mount])
    assert out["code"] == 1 and out["left"] == ["filler"], out


def test_a_damaged_file_is_still_called_damaged(tmp_path):
    path = intact_db(tmp_path / "data")
    data = bytearray(path.read_bytes())
    data[100:4096] = os.urandom(3996)  # page 1's b-tree: the schema is gone
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged"):
        ProgressStore(path)


def _newer_with_unflushed_wal(folder: Path) -> Path:
    """A file a newer ppo-drill migrated, killed before it checkpointed: the new schema version is
    only in the -wal file (copied while the writer still holds it open)."""
    path = intact_db(folder / "writer")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("CREATE TABLE newer_feature (x)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    crashed = folder / "crashed"
    crashed.mkdir()
    for name in (path.name, path.name + "-wal"):
        shutil.copy(folder / "writer" / name, crashed / name)
    db.close()
    return crashed / path.name


@pytest.mark.parametrize("uid", [None, USER] if ROOT else [None], ids=["this-user", "ordinary-user"][:2 if ROOT else 1])
def test_a_newer_file_with_an_unflushed_wal_is_left_byte_for_byte_untouched(tmp_path, uid):
    path = _newer_with_unflushed_wal(tmp_path)
    head = peek(path)
    assert head.from_wal and head.user_version == SCHEMA_VERSION + 1
    folder = path.parent
    tmp_path.chmod(0o755)
    if uid:
        give([folder, *folder.iterdir()], uid)
    before = digest(folder)

    def script():
        from tui.cli import main

        os.environ["PPO_DRILL_HOME"] = str(folder)
        return {"open": open_and_write(path)["message"], "cards": main(["cards"])}

    out = in_child(script, uid=uid) if ROOT else script()
    assert "newer ppo-drill" in out["open"] and "untouched" in out["open"]
    assert out["cards"] == 1
    assert digest(folder) == before  # the -wal is still there, the file was not checkpointed


@pytest.mark.parametrize("err, kind", [(errno.ENOSPC, "full"), (errno.EROFS, "read-only"),
                                       (errno.EACCES, "permission")])
@pytest.mark.parametrize("existing", [True, False], ids=["existing-file", "no-file-yet"])
def test_injected_os_errors_get_their_own_advice(tmp_path, err, kind, existing):
    path = intact_db(tmp_path) if existing else tmp_path / "progress.sqlite3"
    message = faults.describe_fault(path, OSError(err, os.strerror(err)), "written")
    assert_advice(message, kind, existing)


@pytest.mark.parametrize("err, kind", [(errno.ENOSPC, "full"), (errno.EROFS, "read-only"),
                                       (errno.EACCES, "permission")])
def test_an_empty_file_or_a_missing_folder_holds_no_progress(tmp_path, err, kind):
    """SQLite creates the file before its first write: an empty one left by a failed first write,
    and a data folder that could not be created, are reported as holding nothing yet."""
    empty = tmp_path / "progress.sqlite3"
    empty.touch()
    for path in (empty, tmp_path / "not-created" / "data"):
        assert_advice(faults.describe_fault(path, OSError(err, os.strerror(err)), "created"), kind, False)


@pytest.mark.parametrize("kind", ["full", "read-only", "permission"])
def test_sqlite_errors_are_told_apart_by_probing_the_folder(tmp_path, monkeypatch, kind):
    """What a mount cannot show where mounting is impossible: SQLite's vague errors plus what the
    folder probe finds (injected)."""
    path = intact_db(tmp_path / "data")
    monkeypatch.setattr(faults, "probe", lambda folder, files=(): kind)
    real_connect = sqlite3.connect

    def failing_connect(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        db.close()
        exc = sqlite3.OperationalError("disk I/O error" if kind == "full" else "unable to open database file")
        exc.sqlite_errorcode = 10 if kind == "full" else 14
        raise exc

    monkeypatch.setattr(sqlite3, "connect", failing_connect)
    with pytest.raises(StoreError) as info:
        ProgressStore(path)
    assert_advice(str(info.value), kind)


@needs_root
def test_commands_that_only_read_run_on_a_read_only_file_system(tmp_path):
    """As on a full disk: the cards, the statistics, the plan and a check run over progress on a
    read-only file system (the check says its attempt was not recorded, and why); a change is refused
    with the read-only advice. The file is not touched."""
    import sys

    folder, view = tmp_path / "data", tmp_path / "view"
    intact_db(folder)
    view.mkdir()
    answer = tmp_path / "gae.py"
    from drills import get_drill

    answer.write_text(get_drill("gae").solution("numpy"))
    before = digest(folder)
    ppo = [sys.executable, "-m", "tui", "--data-dir", str(view)]

    def script():
        out = {}
        for name, argv in (("cards", ["cards"]), ("stats", ["stats"]), ("plan", ["plan"]),
                           ("check", ["check", str(answer)]), ("set", ["plan", "--interview", "2026-12-20"])):
            done = subprocess.run(ppo + argv, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
            out[name] = [done.returncode, done.stdout[:300], done.stderr[-600:]]
        return out

    out = in_child(script, mounts=[["mount", "--bind", str(folder), str(view)],
                                   ["mount", "-o", "remount,bind,ro", str(view)]])
    for name in ("cards", "stats", "plan"):
        code, _, err = out[name]
        assert code == 0 and "Traceback" not in err, (name, err)
    code, stdout, err = out["check"]
    assert code == 0 and stdout.startswith("PASS"), out["check"]
    assert "not recorded" in err and "read-only file system" in err, err
    code, _, err = out["set"]
    assert code != 0 and "read-only file system" in err and "damaged" not in err, err
    assert digest(folder) == before
