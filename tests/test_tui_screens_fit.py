"""Screens at 80x24 and 100x30 as a candidate reads them: the workspace footer shows back and the
tab key, the review header agrees with the dashboard and stays on one line, rating buttons show the
fuzzed range, the help has sections for mock, stats and f3, the editor auto-indents, the dashboard's
weakest topics use one vocabulary, and the command palette opens drills and cards by name."""
from __future__ import annotations

import re

import pytest

from tests.terminal_sizes import SIZES, at_sizes
from tui.app import PpoDrillApp
from tui.screens.help import HelpScreen, help_markdown
from tui.screens.review import ReviewScreen
from tui.screens.workspace import WorkspaceScreen
from tui.testing import FixedClock, ScriptedChecker

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def make_app(fuzz: bool = False):
    app = PpoDrillApp(clock=FixedClock(), checker_factory=ScriptedChecker, fuzz=fuzz)
    app.animation_level = "none"
    return app


async def ready(pilot):
    for _ in range(500):
        if pilot.app.session is not None:
            break
        await pilot.pause(0.01)
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def screen_text(app) -> str:
    """What the terminal shows, as plain text, one string."""
    svg = app.export_screenshot()
    return re.sub(r"<[^>]+>", "", svg).replace("&#160;", " ").replace("&gt;", ">").replace("&lt;", "<")


async def test_the_workspace_footer_shows_back_and_the_tab_key():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        app.push_screen(WorkspaceScreen(app.session.drill("gae")))
        await pilot.pause()
        footer = app.screen.query_one("Footer")
        async for size in at_sizes(pilot):
            for _ in range(100):  # the footer recomposes its keys a refresh after the screen is shown
                if footer.query("FooterKey"):
                    break
                await pilot.pause(0.02)
            await pilot.pause()
            keys = [(w.key_display, w.region.right) for w in footer.query("FooterKey")]
            shown = {k for k, right in keys if right <= size[0]}
            assert {"esc", "^r", "^t", "f2", "f3"} <= shown, size


async def test_editor_auto_indents_after_enter():
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        app.push_screen(WorkspaceScreen(app.session.drill("gae")))
        await pilot.pause()
        editor = app.screen.editor
        async for size in at_sizes(pilot):  # the same keys at each size
            editor.load_text("")
            editor.focus()
            await pilot.press(*"def f(x):", "enter", *"if x:", "enter", *"return 1", "enter", *"y = 2")
            assert editor.text == "def f(x):\n    if x:\n        return 1\n        y = 2", size
            editor.load_text("    total = 0  # no colon here\n")
            editor.move_cursor((0, len(editor.document[0])))
            await pilot.press("enter")
            assert editor.document[1] == "    ", size
            editor.load_text("for t in range(3):  # a comment after the colon\n")
            editor.move_cursor((0, len(editor.document[0])))
            await pilot.press("enter")
            assert editor.document[1] == "    ", size
            paste_area = editor
            paste_area.load_text("")
            await pilot.pause()
            # a terminal paste arrives as one Paste event and is inserted exactly as copied
            code = "def g():\n    return 2\n"
            pilot.app.post_message(events.Paste(code))  # as the terminal driver delivers it
            await pilot.pause()
            assert paste_area.text == code, size


async def test_review_header_counts_like_the_dashboard_stays_one_line_and_the_last_rating_shows_whole():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        async for size in at_sizes(pilot):
            dash = screen_text(app)
            assert re.search(r"Due now\s+0", dash) and re.search(r"New today\s+20", dash), size
        await pilot.press("r")
        meta = app.screen.query_one("#review-meta")
        async for size in at_sizes(pilot):
            assert "0 due · 20 new" in str(meta.render()), size
            app.screen._last = "pitfall-a-very-long-card-identifier-indeed: Good, due in 10m " * 3
            app.screen._meta()
            await pilot.pause()
            assert meta.region.height == 1, size
            assert app.screen.query_one("#review-card").region.y == meta.region.bottom, size
            # what the last rating did is shown whole, under the next card's prompt
            app.screen._last = "pitfall-a-very-long-card-identifier-indeed: Good, due in 10m"
            app.screen._meta()
            await pilot.pause()
            assert app.screen._last in screen_text(app), size


async def test_the_dashboard_drill_table_shows_every_column_whole():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        await pilot.pause()
        table = app.screen.query_one("#dash-drills")
        ids = [d.id for d in app.session.drills]
        async for size in at_sizes(pilot):
            header = next(line for line in screen_text(app).splitlines() if " drill " in line and " min " in line)
            assert re.search(r" status +best *$", header.rstrip("▕▎ ") + " "), (size, header)  # last column whole
            shown = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
            assert len(shown) == len(ids), size
            for name, drill_id in zip(shown, ids):  # a drill id gives way, with a mark where it is cut
                assert name == drill_id or (name.endswith("…") and drill_id.startswith(name[:-1])), \
                    (size, name, drill_id)
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        await pilot.pause()
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == ids  # room again: whole ids


async def test_the_drill_table_keeps_its_columns_when_drawn_before_it_measured_its_rows():
    """Coming back from help a moment after opening it, the dashboard refills its drill table and a frame
    can be drawn before the table has measured the new rows: the columns must not stay as narrow as their
    headers ("polic", "never")."""
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        dash = app.screen
        table = dash.query_one("#dash-drills")
        async for size in at_sizes(pilot):  # the same steps at each size
            dash._fill_drills(table, *dash._drills_shown)
            for y in range(table.size.height):  # a frame drawn now, before the table's next idle
                table.render_line(y)
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            assert re.search(r"policy-loss +6 +never tried", text), (size, text)
            await pilot.press("question_mark")
            await pilot.press("escape")
            for _ in range(3):
                await pilot.pause(0.05)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert re.search(r"policy-loss +6 +never tried", screen_text(app)), size


async def test_coming_back_to_the_dashboard_rewrites_only_what_changed():
    """Back from a screen with the same figures, the drill table keeps its rows (a refill has it measure
    every cell again); a drill whose status changed gets that cell rewritten, its row kept."""
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        dash = app.screen
        table = dash.query_one("#dash-drills")
        await app.workers.wait_for_complete()
        await pilot.pause()
        rows = dict(table.rows)
        await pilot.press("question_mark")
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is dash and all(table.rows.get(k) is row for k, row in rows.items())  # no refill
        now = app.session.now()
        app.session.store.record_attempt("gae", framework="numpy", started_at=now, passed=True, elapsed_s=75.0)
        dash.refresh_numbers()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert str(table.get_row("gae")[2]) == "passed" and str(table.get_row("gae")[3]) == "1:15"
        assert all(table.rows.get(k) is row for k, row in rows.items())  # the cells rewritten in place
        assert str(table.get_row("policy-loss")[2]) == "never tried"


async def test_the_workspace_bar_keeps_the_target_of_a_long_title_and_marks_the_cut():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        app.push_screen(WorkspaceScreen(app.session.drill("token-logprobs")))  # a 39-character title
        await pilot.pause()
        bar = next(line for line in screen_text(app).splitlines() if "left" in line)
        assert "target 8 min" in bar and "…" in bar, bar  # the difficulty gives way, marked


async def test_a_card_code_line_wider_than_the_screen_is_wrapped_not_cropped():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        app.push_screen(ReviewScreen(card_ids=["value-clipped-loss"]))
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        lines = [line.replace(" ", "") for line in screen_text(app).splitlines()]  # highlighted: spaces apart
        # the card's 94-column line, broken after a comma and continued on the next line
        at = next(i for i, line in enumerate(lines) if "torch.clamp(values-old_values," in line)
        assert lines[at + 1].strip().endswith("-clip_eps,clip_eps)"), lines[at:at + 2]


async def test_rating_buttons_show_the_fuzzed_range_when_fuzz_is_on():
    app = make_app(fuzz=True)
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        await pilot.press("r", "space")
        async for size in at_sizes(pilot):
            labels = [str(b.label) for b in app.screen.query("RatingBar Button")]
            assert labels[:3] == ["1 Again · 1m", "2 Hard · 6m", "3 Good · 10m"], size
            assert re.fullmatch(r"4 Easy · \d+-\d+d", labels[3]), (size, labels[3])


async def test_rating_buttons_follow_the_review_language():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        await pilot.press("r", "l", "space")  # 中文, then the answer
        await pilot.pause()
        async for size in at_sizes(pilot):
            labels = [str(b.label) for b in app.screen.query("RatingBar Button")]
            assert labels == ["1 重来 · 1m", "2 困难 · 6m", "3 良好 · 10m", labels[3]], size
            assert labels[3].startswith("4 简单 · "), size
            text = screen_text(app)
            assert "重来" in text and "简单" in text, size  # whole on screen
        await pilot.press("l")  # back to English while the answer is up
        await pilot.pause()
        async for size in at_sizes(pilot):
            assert [str(b.label).split(" · ")[0] for b in app.screen.query("RatingBar Button")] == \
                ["1 Again", "2 Hard", "3 Good", "4 Easy"], size


async def test_help_has_sections_for_mock_stats_and_the_f3_key():
    text = help_markdown()
    for heading in ("## Mock interview", "## Statistics", "## Drill workspace", "## Paste and check"):
        assert heading in text
    assert "`f3`" in text and "How pastes count" in text
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        async for size in at_sizes(pilot):
            assert isinstance(app.screen, HelpScreen), size
            shown = screen_text(app)
            assert "Statistics" in shown and "refresh" in shown, size  # its section, without scrolling


async def test_weakest_topics_use_deck_ids_for_cards_and_drills():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        store = app.session.store
        now = app.session.now()
        store.record_attempt("gae", framework="numpy", started_at=now, passed=False)
        store.record_attempt("value-loss", framework="numpy", started_at=now, passed=False)
        app.screen.refresh_numbers()
        await ready(pilot)
        async for size in at_sizes(pilot):
            text = screen_text(app)
            assert "1/1 gae" in text and "1/1 value-and-total-loss" in text, size
            # the drill's own topic (value-loss, also its id, shown in the drill table) is not a weakest topic
            assert "GAE: generalised" not in text and "1/1 value-loss" not in text, size


async def test_the_command_palette_opens_a_drill_its_fix_variant_and_its_cards():
    from tui.palette import DrillCommands

    def label(hit) -> str:
        return re.sub(r"\s+", " ", str(getattr(hit.match_display, "plain", hit.match_display)))

    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        async for size in at_sizes(pilot):  # the searches and the keys at each size, from the dashboard
            if isinstance(app.screen, WorkspaceScreen):  # what the last size's keys opened
                await pilot.press("escape")
                await pilot.pause()
                assert not isinstance(app.screen, WorkspaceScreen), size
            provider = DrillCommands(app.screen)
            hits = [hit async for hit in provider.search("gae")]
            plain = [label(h) for h in hits]
            assert any(p.startswith("Drill: gae") for p in plain), (size, plain)
            assert any(p.startswith("Fix the bug: fix-gae-direction") for p in plain), (size, plain)
            assert any(p.startswith("Cards of gae") for p in plain), (size, plain)
            whiten = [label(h) for h in [hit async for hit in provider.search("whiten")]]
            assert any(p.startswith("Review cards about 'whiten'") for p in whiten), (size, whiten)
            # the drill asked for comes first, its variants after; a test-writing drill says so
            ranked = sorted([hit async for hit in provider.search("whiten")], key=lambda h: -h.score)
            top = [label(h) for h in ranked]
            assert top[0].startswith("Drill: masked-whiten"), (size, top[:4])
            tests = {label(h): h.help for h in [hit async for hit in provider.search("test-gae")]}
            name = next(p for p in tests if "test-gae" in p and not p.startswith("Cards"))
            assert name.startswith("Write tests: test-gae") and "write it" not in tests[name], \
                (size, name, tests[name])
            assert tests[name].startswith("write tests that catch the known bugs"), size
            # through the real palette, with keys
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press(*"fix-gae-direction")
            for _ in range(50):
                await pilot.pause(0.05)
                options = app.screen.query("CommandList")
                if options and options.first().option_count:
                    break
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, WorkspaceScreen) and app.screen.drill.id == "fix-gae-direction", size


async def test_the_palette_finds_a_drill_by_its_id_typed_with_underscores():
    """Drill ids are kebab-case; typed as an older version spelled them (loss_aggregation) the palette
    finds the drill first all the same, and a function typed as it is written (ppo_policy_loss) still finds
    its drill."""
    from tui.palette import DrillCommands

    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        provider = DrillCommands(app.screen)
        for typed, label in (("loss_aggregation", "Drill: loss-aggregation"), ("policy_loss", "Drill: policy-loss"),
                             ("ppo_policy_loss", "Drill: policy-loss")):
            ranked = sorted([hit async for hit in provider.search(typed)], key=lambda h: -h.score)
            top = [re.sub(r"\s+", " ", str(getattr(h.match_display, "plain", h.match_display))) for h in ranked]
            assert top and top[0].startswith(label), (typed, top[:4])


async def test_drill_times_plot_has_no_legend_over_the_data_and_counts_are_whole():
    from datetime import timedelta

    from textual.widgets import DataTable

    from tui.screens.stats import StatsScreen

    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        store = app.session.store
        now = app.session.now()
        for i, drill in enumerate(["fix-ratio-division", "gae", "fix-ratio-division"]):
            store.record_attempt(drill, framework="numpy", started_at=now - timedelta(days=i), passed=True,
                                 finished_at=now - timedelta(days=i), elapsed_s=100.0 + 20 * i)
        store.record_attempt("gae", framework="numpy", started_at=now, passed=False, elapsed_s=-50.0)
        await pilot.press("s")
        await ready(pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        async for size in at_sizes(pilot):  # each tab opened again at each size
            screen.query_one("#stats-tabs").active = "tab-drills"
            await pilot.pause()
            table = screen.query_one("#drill-table", DataTable)
            names = [str(table.get_row(key)[0]) for key in ("fix-ratio-division", "gae")]
            assert names == ["fix-ratio-division", "gae"], size  # whole names, coloured like their lines
            assert table.get_row("gae")[4] == "1/1", size  # the impossible -50 s attempt is not plotted
            plot = screen.query_one("#plot-drills").plt
            assert "fix-ratio-division" not in screen_text(app).split("Solve time")[1].split("drill")[0], size
            assert plot, size  # drawn
            screen.query_one("#stats-tabs").active = "tab-forecast"
            await pilot.pause()
            ticks = [line.split("┤")[0].strip() for line in screen_text(app).splitlines() if "┤" in line]
            assert ticks and all(t.isdigit() for t in ticks if t), (size, ticks)


async def test_a_long_signature_breaks_after_commas_not_mid_name():
    from rich.console import Console

    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        app.push_screen(WorkspaceScreen(app.session.drill("actor-loss")))
        await pilot.pause()
        prompt = app.screen.query_one("#ws-prompt")
        widths = []
        async for size in at_sizes(pilot):
            width = prompt.content_region.width
            widths.append(width)
            console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
            console.print(prompt._render_md(prompt.source))  # what the pane draws, at the pane's width
            lines = [line.strip() for line in console.export_text().splitlines()]
            for name in ("compute_actor_loss(", "log_probs_new,", "log_probs_old,", "response_mask=None,",
                         "clip_range=0.2,"):
                assert any(name in line for line in lines), (size, name, width)
        assert widths[0] < widths[1], widths  # the pane was laid out again at the larger size


def test_wrap_code_line_breaks_after_brackets_and_commas():
    from tui.widgets.markdown_text import wrap_code_line

    line = "compute_gae(rewards, values, dones, gamma=0.99, lam=0.95)"
    assert wrap_code_line(line, 80) == [line]
    assert wrap_code_line(line, 30) == ["compute_gae(rewards, values,", "    dones, gamma=0.99,", "    lam=0.95)"]
    assert all(len(piece) <= 24 for piece in wrap_code_line(line, 24))
    # a formula breaks at its commas while they are enough, not inside its brackets
    formula = "loss = 0.5 * mean(max((V - R)^2, (V_clip - R)^2))"
    assert wrap_code_line(formula, 36) == ["loss = 0.5 * mean(max((V - R)^2,", "    (V_clip - R)^2))"]


async def _footer_keys(pilot, screen) -> list:
    footer = screen.query_one("Footer")
    for _ in range(100):  # the footer recomposes its keys a refresh after the screen changes
        if footer.query("FooterKey"):
            break
        await pilot.pause(0.02)
    await pilot.pause()
    return list(footer.query("FooterKey"))


async def test_no_footer_key_is_cut_off_on_any_screen():
    """Every screen a new user walks through, each state that changes its keys: each footer key ends
    inside the terminal."""
    from tui.screens.mock import MockScreen

    app = make_app()
    seen = []

    async def fits(where: str) -> None:
        """The state at the terminal's size, then at the other (where the next key is pressed)."""
        await pilot.pause()
        async for size in at_sizes(pilot):
            keys = await _footer_keys(pilot, app.screen)
            assert keys, (size, where)
            cut = [f"{k.key_display} {k.description}" for k in keys if k.region.right > size[0]]
            assert not cut, (size, where, cut)
            seen.append((where, size))

    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        await fits("dashboard")
        await pilot.press("r")
        await fits("review: front")
        await pilot.press("space")
        await fits("review: answer")
        await pilot.press("escape", "d")
        await fits("drill list")
        await pilot.press("escape")
        await pilot.pause()
        app.push_screen(WorkspaceScreen(app.session.drill("gae")))
        await fits("workspace")
        await pilot.press("escape", "p")
        await fits("paste")
        await pilot.press("escape", "s")
        await fits("stats")
        await pilot.press("escape", "m")
        await fits("mock: start panel")
        mock = app.screen
        assert isinstance(mock, MockScreen)
        await pilot.press("enter")
        await fits("mock: coding item")
        await pilot.press("ctrl+n", "y")
        await fits("mock: question")
        await pilot.press("ctrl+r")
        await fits("mock: question revealed")
        await pilot.press("ctrl+f", "y")
        await fits("mock: scorecard")
        await pilot.press("h")
        await fits("mock history")
        await pilot.press("enter")
        await fits("mock history: scorecard")
        await pilot.press("f1")
        await fits("help")
    assert len(seen) == 15 * len(SIZES) and {size for _, size in seen} == set(SIZES)


def test_help_lists_every_key_of_every_screen_from_its_bindings():
    """The key tables are made from each screen's BINDINGS: every key is there, with what it does, in
    its own screen's section, and each screen has one section (the mock's `n` and `h` included)."""
    from textual.binding import Binding

    from tui.screens.help import SECTIONS, _key_name, _screen_classes, key_rows, section

    text = help_markdown()
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert len(headings) == len(set(headings)) == len(SECTIONS)
    classes = _screen_classes()
    assert set(classes) == set(SECTIONS)
    for name, cls in classes.items():
        own = section(name, cls)
        assert own in text
        rows = dict(key_rows(cls))
        for b in cls.BINDINGS:
            b = b if isinstance(b, Binding) else Binding(*b)
            keys = " / ".join(f"`{_key_name(k)}`" for k in b.key.split(","))
            assert keys in rows and (b.tooltip or b.description) in rows[keys], (name, b.key)
            assert f"| {keys} | {rows[keys]} |" in own, (name, b.key)
    mock = section("MockScreen", classes["MockScreen"])
    assert "| `n` | " in mock and "| `h` | " in mock and "| `s` | " in mock
    assert "| `ctrl+r` | coding item: run the checks · question: reveal the card's answer |" in mock
    history = section("MockHistoryScreen", classes["MockHistoryScreen"])
    assert "| `r` | " in history and "| `enter` | " in history


async def test_every_stats_table_fits_the_screen():
    """Long drill ids and mistake titles give way (cut with …); every column of every table shows."""
    from datetime import timedelta

    from textual.widgets import DataTable

    from tui.screens.stats import StatsScreen

    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        store, now = app.session.store, app.session.now()
        for drill, mistake in (("policy-loss-full", "logprob-gather-wrong-dim"), ("explained-variance", None),
                               ("fix-agg-seq-mean-token-sum", "gae-forward-scan")):
            store.record_attempt(drill, framework="torch", started_at=now - timedelta(minutes=30),
                                 finished_at=now, elapsed_s=900.0, passed=mistake is None,
                                 mistakes=[mistake] if mistake else [])
        store.record_mock(seed=123456, started_at=now - timedelta(minutes=50), finished_at=now, payload={})
        await pilot.press("s")
        await ready(pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        async for size in at_sizes(pilot):  # each tab opened again at each size
            for tab, table_id in (("tab-drills", "drill-table"), ("tab-mocks", "mock-table"),
                                  ("tab-readiness", "readiness-table"), ("tab-pitfalls", "pitfall-table")):
                screen.query_one("#stats-tabs").active = tab
                await pilot.pause()
                await pilot.pause()
                table = screen.query_one(f"#{table_id}", DataTable)
                widths = [c.get_render_width(table) for c in table.columns.values()]
                assert widths and sum(widths) + 2 <= size[0], (size, tab, widths)
                labels = [str(c.label) for c in table.columns.values()]
                header = next(line for line in screen_text(app).splitlines()
                              if f" {labels[0]} " in line and f" {labels[1]} " in line)
                last = labels[-1]
                assert header.rstrip().endswith(last), (size, tab, header)  # the last column is whole
