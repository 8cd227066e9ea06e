"""Test-wide settings: hypothesis is derandomized (same examples every run), no example database,
every test gets a private data folder so no test touches a user's progress, and Pilot waits until an
app under `run_test` is quiet (below) rather than for a moment without CPU; torch keeps to one thread, and
the cyclic collector stays out of collection's way (off while it runs, then what it built frozen)."""
from __future__ import annotations

import gc

# Collection (importing torch, textual and the app, rewriting each test module's asserts, building the
# items) only adds objects that live until the run ends, yet it allocated enough to set off dozens of
# collections of the whole growing heap: about two seconds a worker. The collector is off until
# `pytest_collection_finish` freezes what collection built and turns it back on.
gc.disable()

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path

import pytest
import textual._wait
import textual.app
import textual.pilot
import torch
from hypothesis import HealthCheck, settings
from textual._context import active_app
from textual.timer import Timer
from textual.worker import WorkerState

settings.register_profile(
    "default",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _no_local_constants() -> None:
    """Derandomized is not enough: hypothesis also mixes in literals from whichever local modules happen to
    be imported, so a test would draw different examples alone than in the full suite. Empty that pool
    (a hypothesis without the internals this takes is named in a warning, and tests/test_private_apis.py fails)."""
    from checker.private_apis import check_private_apis

    if check_private_apis():
        from hypothesis.internal.conjecture import providers

        providers._get_local_constants = providers.Constants


_no_local_constants()


def pytest_configure(config):
    """A test process keeps torch to one thread, as the checker's own process does (`prepare_parent`): a
    process that entered an OpenMP parallel region hangs in its forks' next large op, and tests fork this
    one (a multi-threaded parent made to order, an ordinary user); two workers on two cores gain nothing
    from more threads either."""
    torch.set_num_threads(1)


def pytest_collection_finish(session):
    """What collection built (the imported modules, the drills, the parametrised items: most of a worker's
    heap) is frozen out of the cyclic collector's sight: it lives until the run ends, and each collection
    of the whole heap would otherwise walk it again (a few seconds a worker over the suite). The collector,
    off while collection ran (above), is turned back on, with whole-heap collections a tenth as often:
    what the tests keep (each drill's plan and catalogue in the warm checker) made each one take about a
    tenth of a second, and younger garbage is still collected at the usual pace. A process forked from a
    test (an ordinary user's zygote, a parent made to order) collects as the checker's processes do."""
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    os.register_at_fork(after_in_child=lambda: gc.set_threshold(*thresholds))
    gc.set_threshold(thresholds[0], thresholds[1], 100)
    gc.enable()


@pytest.fixture(scope="session", autouse=True)
def _shared_example_cache():
    """One cache of drawn examples for every run of the suite by this user, every worker and every process
    a test starts (the `ppo-drill` command, the app's checker worker): what is cached there is drawn from
    the specs' code alone (a file is used only with the code that drew it, `checker/inputs.py`), never from
    a test's data, so sharing it changes nothing a test sees, only how often hypothesis draws the same
    examples. A test about the cache itself sets its own."""
    folder = Path(tempfile.gettempdir()) / f"ppo-drill-test-examples-{os.getuid()}"
    before = os.environ.get("PPO_DRILL_CACHE")
    os.environ["PPO_DRILL_CACHE"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("PPO_DRILL_CACHE", None)
    else:
        os.environ["PPO_DRILL_CACHE"] = before


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    """Point PPO_DRILL_HOME at a temp folder for every test."""
    home = tmp_path / "ppo-drill-home"
    monkeypatch.setenv("PPO_DRILL_HOME", str(home))
    return home


# ------------------------------------------------------------------------- Textual apps under Pilot
#
# Pilot's `press` and `pause` wait for the app with Textual's `wait_for_idle`, which sleeps in 20 ms
# windows until one passes with (almost) no CPU used by the process: at least 20 ms per call, two calls
# per key, and, on a loaded machine, a window in which the process got no CPU at all reads as idle too.
# Under these tests it waits for what that heuristic stands for, exactly: nothing ready to run in the
# event loop, the top screen painted, no one-shot timer due within a window, every message pump of the
# app (the app, its screens, their widgets) done with its messages and no worker running. Where the app
# waits on something else (a worker, a thread, a later timer, a handler that awaits), it goes on with
# Textual's own wait, as before, and then looks again.

_TIMER_HORIZON = 0.03  # a timer due this soon is waited for, as a 20 ms idle window would have seen it


def _pumps_busy(app) -> bool:
    """True while a message pump of the app has a message queued or is still handling one."""
    pumps = {app, *app._registry}
    for stack in app._screen_stacks.values():
        pumps.update(stack)
    for pump in pumps:
        task = pump._task
        if task is None or task.done():
            continue
        queue = pump._message_queue
        if pump._pending_message is not None or pump._next_callbacks or not queue.empty():
            return True
        if not queue.ready_event._waiters:  # in a handler, awaiting something other than its next message
            return True
    return False


def _workers_running(app) -> bool:
    return any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers)


def _refresh_pending(app) -> bool:
    """True when the top screen has asked for a repaint or a layout, made at its next frame."""
    try:
        timer = app.screen._Screen__update_timer
    except Exception:  # no screen (the app is closing)
        return False
    return timer is not None and timer._active.is_set()


def _next_timer_in(loop) -> float | None:
    """Seconds until the event loop's next timer that would change something (a one-shot Textual timer,
    a sleep, a timeout), or None. A periodic Textual timer (a cursor's blink, an auto-refresh, a clock)
    never settles and a paused one does nothing when it wakes: neither is waited for."""
    handles = [handle for handle in loop._scheduled if not handle.cancelled()]
    if not handles:
        return None
    now = loop.time()
    if any(handle.when() - now <= _TIMER_HORIZON for handle in handles):
        ignored = set()
        for task in asyncio.all_tasks(loop):
            frame = getattr(task.get_coro(), "cr_frame", None)
            timer = frame.f_locals.get("self") if frame is not None else None
            if isinstance(timer, Timer) and (timer._repeat is None or not timer._active.is_set()):
                ignored.add(id(task._fut_waiter))  # the sleep it waits in
        handles = [handle for handle in handles if not (handle._args and id(handle._args[0]) in ignored)]
    return min(handle.when() for handle in handles) - now if handles else None


def _until_quiet(textual_wait_for_idle):
    """`wait_for_idle` for Pilot: `wait_for_idle(0)` with a running app waits until it is quiet (above);
    any other call is Textual's."""

    async def wait_for_idle(min_sleep: float = 1 / 50, max_sleep: float = 1) -> None:
        app = active_app.get(None)
        if min_sleep or app is None or not app.is_running:
            return await textual_wait_for_idle(min_sleep, max_sleep)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max_sleep  # as Textual's: never longer than max_sleep
        waited_as_textual = False
        while loop.time() < deadline:
            await asyncio.sleep(0)
            if app._exception is not None:
                return
            if loop._ready:
                continue  # callbacks ready to run: let them run
            if _refresh_pending(app):  # paint now rather than at the next frame (as `pause` does)
                app.screen._on_timer_update()
                continue
            due = _next_timer_in(loop)
            if due is not None and due <= _TIMER_HORIZON:
                await asyncio.sleep(max(due, 0.0))
                continue
            if waited_as_textual or not (_pumps_busy(app) or _workers_running(app)):
                return
            await textual_wait_for_idle(0, max(deadline - loop.time(), 0.0))
            waited_as_textual = True

    return wait_for_idle


@pytest.fixture(autouse=True)
def _pilot_waits_until_quiet(monkeypatch):
    """Pilot's waits (`press`, `pause`) end when the app is quiet, not after a window without CPU."""
    wait_for_idle = _until_quiet(textual._wait.wait_for_idle)
    monkeypatch.setattr(textual.app, "wait_for_idle", wait_for_idle)
    monkeypatch.setattr(textual.pilot, "wait_for_idle", wait_for_idle)


@pytest.fixture(autouse=True)
def _fewer_collections_while_an_app_runs(monkeypatch):
    """While an app runs under `run_test`, the cyclic collector runs less often: an app makes and drops
    hundreds of thousands of objects, and at the default thresholds about a third of a Pilot test's
    time went to collections of the whole heap. The thresholds are put back when the app ends."""
    run_test = textual.app.App.run_test

    @contextlib.asynccontextmanager
    async def run_test_collecting_less(self, *args, **kwargs):
        thresholds = gc.get_threshold()
        gc.set_threshold(50_000, *thresholds[1:])
        try:
            async with run_test(self, *args, **kwargs) as pilot:
                yield pilot
        finally:
            gc.set_threshold(*thresholds)

    monkeypatch.setattr(textual.app.App, "run_test", run_test_collecting_less)


def pytest_collection_modifyitems(config, items):
    """A test about one drill (a `drill` parameter naming it) goes to the worker of that drill's other tests
    (an xdist group per base drill, with `--dist loadgroup`): the drill's examples, reference results and
    mistake catalogue are then made in one worker's warm checker instead of in both."""
    from drills import get_drill

    for item in items:
        drill = getattr(item, "callspec", None) and item.callspec.params.get("drill")
        if not isinstance(drill, str):
            continue
        try:
            d = get_drill(drill)
        except KeyError:
            continue
        item.add_marker(pytest.mark.xdist_group(d.base or d.id))
