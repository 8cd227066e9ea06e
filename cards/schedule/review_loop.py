"""The plain terminal review loop behind `ppo-drill review`: `run_review()`.

Line-based on purpose, so it works in any terminal and with piped stdin (scripts, tests): the
front is shown, Enter reveals the back, then a line `1`-`4` rates, `u` undoes the last review and
`q` (or end of input) quits. Every rating is committed to the store the moment it is given.
"""
from __future__ import annotations

import time
from typing import Callable, TextIO

from cards.schedule.intervals import RATING_NAMES, format_interval
from cards.schedule.scheduler import Scheduler

HELP = "Enter: show answer   u: undo   q: quit"


def _buttons(scheduler: Scheduler, card_id: str) -> str:
    now = scheduler.now()
    preview = scheduler.preview(card_id, now)
    return "  ".join(f"{r} {RATING_NAMES[r]} ({format_interval(preview[r] - now)})" for r in (1, 2, 3, 4))


def run_review(scheduler: Scheduler, *, lang: str = "en", deck: str | None = None,
               limit: int | None = None, stdin: TextIO, stdout: TextIO,
               monotonic: Callable[[], float] = time.monotonic) -> int:
    """Review due cards until none are left, `limit` reviews are done, or the user quits.

    Returns the number of reviews recorded (after undos). `monotonic` times each answer for the
    review's duration (injected so tests are deterministic).
    """
    done = 0
    echo = not (hasattr(stdin, "isatty") and stdin.isatty())  # piped input is not echoed by a terminal

    def say(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    def ask(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if echo or not line:
            stdout.write(line.rstrip("\n") + "\n")
        if not line:
            return None
        return line.strip().lower()

    def undo() -> None:
        nonlocal done
        card_id = scheduler.undo_last()
        if card_id is None:
            say("Nothing to undo.")
        else:
            done -= 1
            say(f"Undone: {card_id}")

    while limit is None or done < limit:
        card = scheduler.next_card(deck=deck)
        if card is None:
            say("No cards due." if done == 0 else "No more cards due.")
            break
        front, back = card.text(lang)
        title = scheduler.deckset.by_deck[card.deck].display_title(lang)
        say(f"\n── {title} · {card.id} ──")
        say(front.rstrip())
        shown = monotonic()
        answer = ask(f"[{HELP}] > ")
        if answer is None or answer == "q":
            break
        if answer == "u":
            undo()
            continue
        say("\n" + back.rstrip())
        buttons = _buttons(scheduler, card.id)
        while True:
            answer = ask(f"{buttons}   u undo  q quit > ")
            if answer is None or answer in ("q", "u", "1", "2", "3", "4"):
                break
            say("Type 1, 2, 3 or 4 to rate, u to undo, q to quit.")
        if answer is None or answer == "q":
            break
        if answer == "u":
            undo()
            continue
        duration_ms = int(max(0.0, monotonic() - shown) * 1000)
        outcome = scheduler.review(card.id, int(answer), duration_ms=duration_ms)
        done += 1
        say(f"→ {RATING_NAMES[outcome.rating]}: next in "
            f"{format_interval(outcome.due - outcome.reviewed_at)}")
    say(f"Reviewed {done} card{'s' if done != 1 else ''}.")
    return done
