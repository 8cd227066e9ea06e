"""Sub-commands of `ppo-drill` that belong to the cards: review (its terminal loops are
`cards.review_cli`), cards, export-anki, export-progress, import-progress.

Registered by `tui.cli`; handlers import what they need (fsrs, genanki, sqlite) only when they
run, so `ppo-drill --help` stays fast. Every command finds the progress store through
`cards.progress.paths.data_dir()` (so `--data-dir` and `PPO_DRILL_HOME` apply); a store that cannot be used
safely prints its message and exits 1 without writing anything.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Callable


def register(sub: argparse._SubParsersAction) -> None:
    """Add the cards' sub-commands to the `ppo-drill` parser."""
    decks_help = "load decks from DIR instead of the shipped cards/decks/"

    p = sub.add_parser("review", help="review due flashcards in the terminal (works with piped input)",
                       description="Show each due card's front; Enter reveals the back; then 1 Again, "
                       "2 Hard, 3 Good, 4 Easy; u undoes the last review; q quits. Each review is "
                       "saved the moment you rate it. On the last day before the interview, once nothing "
                       "is due, the study plan's top-up follows (cards whose predicted recall on the day "
                       "is below target), and so do the cards a mock queued as 'study next'. --ahead "
                       "practises ahead when nothing is due: a preview of the cards with the lowest "
                       "predicted recall on the interview day, whose ratings change no schedule.")
    p.add_argument("--deck", metavar="D", help="review only this deck (see `ppo-drill cards`)")
    p.add_argument("--lang", choices=("en", "zh"),
                   help="card language (default: the 'language' setting, else en)")
    p.add_argument("--limit", type=int, metavar="N", help="stop after N reviews")
    p.add_argument("--ahead", action="store_true",
                   help="practise ahead: preview the cards with the lowest predicted recall on the interview "
                        "day (ratings are not recorded; schedules stay as they are)")
    p.add_argument("--decks", metavar="DIR", help=decks_help)
    p.set_defaults(handler=_guarded(cmd_review))

    p = sub.add_parser("cards", help="list decks with unseen / learning / due-review counts",
                       description="Each deck's unseen cards, learning and review cards due now, and its "
                                   "size; then how many new cards today's daily limit still allows.")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--decks", metavar="DIR", help=decks_help)
    p.set_defaults(handler=_guarded(cmd_cards))

    p = sub.add_parser("export-anki", help="export all decks to an Anki package (.apkg)",
                       description="Re-importing a newer export into Anki updates existing notes "
                       "(stable note GUIDs) instead of duplicating them.")
    p.add_argument("path", metavar="PATH.apkg", help="the package file to write (its folder must exist)")
    p.add_argument("--lang", choices=("en", "zh", "both"), default="en",
                   help="which language's text to export (default en; both puts Chinese under English)")
    p.add_argument("--decks", metavar="DIR", help=decks_help)
    p.set_defaults(handler=_guarded(cmd_export_anki))

    p = sub.add_parser("export-progress", help="write all progress (reviews, attempts, mocks, settings, saved "
                       "answers) as JSON",
                       description="Write everything this data folder holds as one JSON file, to move it to "
                                   "another machine with `import-progress` or keep as a backup.")
    p.add_argument("path", metavar="PATH", nargs="?", default="-", help="output file, or - for stdout (default)")
    p.set_defaults(handler=_guarded(cmd_export_progress))

    p = sub.add_parser("import-progress", help="merge a JSON progress export into this data folder",
                       description="Merging is idempotent: importing the same file twice adds nothing.")
    p.add_argument("path", metavar="PATH", help="a file written by export-progress, or - for stdin")
    p.set_defaults(handler=_guarded(cmd_import_progress))


def _guarded(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn errors into a message on stderr: a usage problem (an unknown deck, a file that cannot be
    read or is not an export, an output path that is a folder) exits 2, as every command's does; a
    progress store that cannot be used, or a failed write, exits 1."""

    def run(args: argparse.Namespace) -> int:
        import sqlite3

        from cards.progress.store import StoreError

        try:
            return handler(args)
        except StoreError as exc:
            print(f"ppo-drill: {exc}", file=sys.stderr)
            return 1
        except sqlite3.Error as exc:
            print(f"ppo-drill: progress database error: {exc}", file=sys.stderr)
            return 1
        except _UsageError as exc:
            print(f"ppo-drill {args.command}: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:  # e.g. an output folder that cannot be written
            where = f"{exc.filename}: " if exc.filename else ""
            print(f"ppo-drill {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
            return 1

    run.__doc__ = handler.__doc__
    return run


class _UsageError(Exception):
    """A usage problem (bad file, unknown deck, an output path that cannot be used); exit 2."""


def _load_decks(args: argparse.Namespace) -> Any:
    from cards.decks.loader import load_decks

    deckset = load_decks(getattr(args, "decks", None))
    for error in deckset.errors:
        print(f"warning: {error}", file=sys.stderr)
    return deckset


def _open() -> Any:
    from cards.progress.store import open_store

    return open_store()


def _drills() -> list:
    try:
        from drills import load_drills

        return list(load_drills())
    except Exception:  # noqa: BLE001 - broken drill content must not stop a card review
        return []


def _now() -> Any:
    """The commands' clock (one place, so tests can fix it)."""
    from datetime import datetime, timezone

    return datetime.now(timezone.utc)


def _scheduler(store: Any, deckset: Any, drills: list | None = None) -> Any:
    from cards.plan.interview import plan_new_per_day
    from cards.schedule.scheduler import Scheduler

    # new cards per day: the study plan's while it counts down to an interview, else the store's setting
    planned = plan_new_per_day(store, deckset, _drills() if drills is None else drills, _now())
    return Scheduler(store, deckset, clock=lambda: _now(), new_per_day=planned)


def _card_text_for(stdout) -> Callable[[str], str]:
    """How a card side is printed: on a terminal, its Markdown drawn (bold, code, lists) at the
    terminal's width; elsewhere (a pipe, a file) as written."""
    if not (hasattr(stdout, "isatty") and stdout.isatty()):
        return str

    def drawn(text: str) -> str:
        import shutil

        from rich.console import Console
        from rich.markdown import Markdown

        console = Console(force_terminal=True, width=min(100, shutil.get_terminal_size().columns))
        with console.capture() as captured:
            console.print(Markdown(text, code_theme="monokai", hyperlinks=False))
        return captured.get().rstrip()

    return drawn


def cmd_review(args: argparse.Namespace) -> int:
    """`ppo-drill review`: the line-based review loop on stdin/stdout, then the plan's last-day top-up;
    `--ahead`: a preview of what practising ahead offers."""
    from cards.plan.interview import plan_cards, practise_ahead, study_plan
    from cards.review_cli import run_preview, run_review

    deckset = _load_decks(args)
    if args.deck and args.deck not in deckset.by_deck:
        raise _UsageError(f"no deck {args.deck!r}; decks: {', '.join(deckset.by_deck) or '(none)'}")
    if args.limit is not None and args.limit < 1:
        raise _UsageError("--limit must be at least 1")
    drills = _drills()
    with _open() as store:
        lang = args.lang or store.get_setting("language", "en")
        if lang not in ("en", "zh"):
            lang = "en"
        scheduler = _scheduler(store, deckset, drills)
        if args.ahead:
            if scheduler.next_card(deck=args.deck) is not None:
                print("Cards are due: review them first (ppo-drill review); practising ahead is for when "
                      "nothing is due.")
                return 0
            cards = [c for c in practise_ahead(store, deckset, drills, scheduler.now())[0]
                     if args.deck is None or deckset.by_id[c].deck == args.deck]
            print(f"Practising ahead: {len(cards)} card{'s' if len(cards) != 1 else ''} with the lowest "
                  f"predicted recall, as a preview (ratings are not recorded; schedules stay as they are).")
            run_preview(scheduler, cards, lang=lang, limit=args.limit, stdin=sys.stdin, stdout=sys.stdout,
                        shown=_card_text_for(sys.stdout))
            return 0
        offered: set[str] = set()

        def plan_top_up() -> Any:
            """The next card today's plan still asks for (study next, the last-day top-up), each
            offered once this session."""
            for cid in plan_cards(store, deckset, drills, scheduler.now()):
                if cid not in offered and (args.deck is None or deckset.by_id[cid].deck == args.deck):
                    offered.add(cid)
                    return deckset.by_id[cid]
            return None

        done = run_review(scheduler, lang=lang, deck=args.deck, limit=args.limit, stdin=sys.stdin,
                          stdout=sys.stdout, then=plan_top_up, shown=_card_text_for(sys.stdout))
        if args.limit is not None and done >= args.limit:
            return 0
        after = _after_review(store, deckset, drills, scheduler, study_plan, practise_ahead, args.deck)
        if after:
            print(after)
    return 0


def _after_review(store: Any, deckset: Any, drills: list, scheduler: Any, study_plan: Any,
                  practise_ahead: Any, deck: str | None) -> str:
    """What else today's plan holds once no card is left: drills, the mock, practising ahead."""
    now = scheduler.now()
    plan = study_plan(store, deckset, drills, now, forecast=False)
    lines = []
    open_drills = [t.ref for t in plan.tasks if t.kind == "drill" and not t.complete]
    if open_drills:
        lines.append(f"Today's plan also has {len(open_drills)} drill{'s' if len(open_drills) != 1 else ''}: "
                     f"{', '.join(open_drills[:5])}{' ...' if len(open_drills) > 5 else ''} "
                     f"(ppo-drill start ID, then ppo-drill check FILE).")
    if any(t.kind == "mock" and not t.complete for t in plan.tasks):
        lines.append("Today's plan has a mock interview: ppo-drill mock.")
    if scheduler.next_card(deck=deck) is None:
        cards, ahead_drills = practise_ahead(store, deckset, drills, now)
        cards = [c for c in cards if deck is None or deckset.by_id[c].deck == deck]
        if cards:
            command = "ppo-drill review --ahead" + (f" --deck {deck}" if deck else "")
            lines.append(f"Nothing is due. Practise ahead: {command} previews {len(cards)} "
                         f"card{'s' if len(cards) != 1 else ''} without changing their schedules.")
        if ahead_drills:
            lines.append(f"Drills to practise ahead: {', '.join(ahead_drills[:3])} (ppo-drill check --preview "
                         f"FILE checks one without changing its schedule).")
    return "\n".join(lines)


def cmd_cards(args: argparse.Namespace) -> int:
    """`ppo-drill cards`: decks with today's counts, as a table or JSON."""
    import json

    deckset = _load_decks(args)
    with _open() as store:
        scheduler = _scheduler(store, deckset)
        counts = scheduler.counts()
        remaining = scheduler.new_remaining()
    rows = [{"deck": d.id, "title": d.title, "title_zh": d.title_zh, "new": counts[d.id].new, "learning": counts[d.id].learning,
             "review": counts[d.id].review, "unseen": counts[d.id].unseen, "total": counts[d.id].total}
            for d in deckset.decks]
    totals = {key: sum(r[key] for r in rows) for key in ("learning", "review", "unseen", "total")}
    totals["new"] = min(totals["unseen"], remaining)
    if args.json:
        print(json.dumps({"decks": rows, "totals": totals, "new_remaining_today": remaining,
                          "errors": [str(e) for e in deckset.errors]}, ensure_ascii=False, indent=2))
        return 0
    width = max([len(r["deck"]) for r in rows] + [len("total")])
    # unseen, learning due, review due and cards all add up to the totals; today's new-card allowance is
    # one number for all decks, so it is said once, below (the dashboard's "New today")
    header = f"{'deck':<{width}}  {'unseen':>6}  {'learn':>5}  {'due':>5}  {'cards':>5}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['deck']:<{width}}  {r['unseen']:>6}  {r['learning']:>5}  {r['review']:>5}  {r['total']:>5}")
    print("-" * len(header))
    print(f"{'total':<{width}}  {totals['unseen']:>6}  {totals['learning']:>5}  {totals['review']:>5}  "
          f"{totals['total']:>5}")
    print(f"due now: {totals['learning'] + totals['review']} (learn + due); new cards today: "
          f"{totals['new']} of the {totals['unseen']} unseen (daily limit {scheduler.new_per_day}, "
          f"{remaining} left today)")
    return 0


def cmd_export_anki(args: argparse.Namespace) -> int:
    """`ppo-drill export-anki PATH.apkg`."""
    from cards.decks.anki_export import export_apkg

    deckset = _load_decks(args)
    if not deckset.cards:
        raise _UsageError("no cards to export")
    try:
        count = export_apkg(deckset, args.path, lang=args.lang)
    except ValueError as exc:
        raise _UsageError(str(exc)) from exc
    except OSError as exc:  # the temp file beside it could not be written: name what the user gave
        raise _UsageError(f"cannot write {args.path}: {exc.strerror or exc}") from exc
    print(f"wrote {count} notes in {len(deckset.decks)} decks to {args.path}")
    return 0


def cmd_export_progress(args: argparse.Namespace) -> int:
    """`ppo-drill export-progress [PATH|-]`: JSON to a file (written atomically) or stdout."""
    import json
    from pathlib import Path

    from cards.progress.json_io import MAX_STORED_CODE, write_atomically

    with _open() as store:
        data = store.export_json()
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if data["drafts_left_out"]:
        print(f"left out saved answers over {MAX_STORED_CODE:,} characters or unreadable: "
              f"{', '.join(data['drafts_left_out'])}", file=sys.stderr)
    if args.path == "-":
        sys.stdout.write(text)
        return 0
    path = Path(args.path)
    write_atomically(path, text)  # no export.json.tmp is left behind on a full disk
    print(f"exported {len(data['reviews'])} reviews, {len(data['drill_attempts'])} drill attempts, "
          f"{len(data['mocks'])} mock interviews and {len(data['drafts'])} saved answers to {path}",
          file=sys.stderr)
    return 0


#: The largest progress export read (years of daily practice with every answer kept are a few MB).
MAX_EXPORT_BYTES = 256 * 1024 * 1024


def _read_bounded(stream, path: str, name: str) -> bytes:
    """The bytes of the export at `path` (or `stream`): only a regular file or a pipe, at most
    `MAX_EXPORT_BYTES` (a device like /dev/zero is endless, a FIFO may never end)."""
    import os
    import stat

    if stream is None:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise _UsageError(f"{name} is not a file (a device, a FIFO or a folder); give the path of an export")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            data = f.read(MAX_EXPORT_BYTES + 1)
    else:
        data = stream.read(MAX_EXPORT_BYTES + 1)
    if len(data) > MAX_EXPORT_BYTES:
        raise _UsageError(f"{name} is over {MAX_EXPORT_BYTES // 2 ** 20} MiB: not a progress export; nothing "
                          "was imported")
    return data


def cmd_import_progress(args: argparse.Namespace) -> int:
    """`ppo-drill import-progress PATH`: merge an export into this data folder (idempotent)."""
    import json

    name = "<stdin>" if args.path == "-" else args.path
    try:
        raw = _read_bounded(sys.stdin.buffer if args.path == "-" else None, args.path, name)
    except OSError as exc:
        raise _UsageError(f"cannot read {name}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _UsageError(f"{name} is not a progress export (not UTF-8 text: byte {exc.start} cannot be "
                          f"decoded); nothing was imported") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _UsageError(f"{name}:{exc.lineno}: not valid JSON ({exc.msg}); nothing was imported") from exc
    except RecursionError:
        raise _UsageError(f"{name} is not a progress export (its JSON is nested too deeply); nothing was "
                          "imported") from None
    except ValueError:  # an integer of thousands of digits
        raise _UsageError(f"{name} is not a progress export (it holds a number of thousands of digits); "
                          "nothing was imported") from None
    with _open() as store:
        try:
            result = store.import_json(data, source_name=name)
        except ValueError as exc:
            raise _UsageError(str(exc)) from exc
    print("imported: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in result.added.items()))
    if result.skipped:
        print(f"skipped {len(result.skipped)}:", file=sys.stderr)
        for reason in result.skipped[:20]:
            print(f"  {name}: {reason}", file=sys.stderr)
        if len(result.skipped) > 20:
            print(f"  ... and {len(result.skipped) - 20} more", file=sys.stderr)
    return 0
