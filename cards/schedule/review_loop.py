"""The plain terminal review loop behind `ppo-drill review`: `run_review()`.

Line-based on purpose, so it works in any terminal and with piped stdin (scripts, tests): the
front is shown, Enter reveals the back, then a line `1`-`4` rates, `u` undoes the last review and
`q` (or end of input) quits. Every rating is committed to the store the moment it is given.

`then` supplies cards to review once nothing is due (the study plan's study-next cards and last-day
top-up: real, early reviews). With `preview` the loop goes through exactly those cards as a preview (practising ahead):
ratings are logged by `cards.schedule.preview` and change no schedule.
"""
from __future__ import annotations

import time
from typing import Callable, Sequence, TextIO

from cards.decks.loader import Card
from cards.schedule.intervals import RATING_NAMES, format_interval
from cards.schedule.scheduler import Scheduler

HELP = "Enter: show answer   u: undo   q: quit"


def _buttons(scheduler: Scheduler, card_id: str) -> str:
    now = scheduler.now()
    preview = scheduler.preview(card_id, now)
    return "  ".join(f"{r} {RATING_NAMES[r]} ({format_interval(preview[r] - now)})" for r in (1, 2, 3, 4))


def run_review(scheduler: Scheduler, *, lang: str = "en", deck: str | None = None,
               limit: int | None = None, stdin: TextIO, stdout: TextIO,
               monotonic: Callable[[], float] = time.monotonic,
               then: Callable[[], Card | None] | None = None,
               preview: Sequence[str] | None = None,
               shown: Callable[[str], str] = str) -> int:
    """Review due cards (then `then()`'s) until none are left, `limit` reviews are done, or the user
    quits; with `preview`, go through those card ids without recording a review.

    Returns the number of reviews recorded (after undos), or of cards previewed. `monotonic` times
    each answer for the review's duration (injected so tests are deterministic). `shown` turns a
    card side's Markdown into what is printed (as written, by default: piped output stays plain).
    """
    done = 0
    ahead = list(preview) if preview is not None else None
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

    topped_up = False
    while limit is None or done < limit:
        if ahead is not None:
            card = scheduler.deckset.by_id.get(ahead.pop(0)) if ahead else None
            if card is None:
                say("Nothing to practise ahead: every studied card is due or new." if done == 0
                    else "No more cards to practise ahead.")
                break
        else:
            card = scheduler.next_card(deck=deck)
            if card is None and then is not None:
                card = then()
                if card is not None and not topped_up:
                    topped_up = True
                    say("\nNothing is due: now the cards today's study plan still asks for (a mock's "
                        "study next; on the last day, those below target recall on the interview day).")
            if card is None:
                say("No cards due." if done == 0 else "No more cards due.")
                break
        front, back = card.text(lang)
        title = scheduler.deckset.by_deck[card.deck].display_title(lang)
        say(f"\n── {title} · {card.id} ──")
        say(shown(front.rstrip()))
        started = monotonic()
        answer = ask(f"[{HELP}] > ")
        if answer is None or answer == "q":
            break
        if answer == "u":
            if ahead is not None:
                say("Nothing to undo: previews are not recorded.")
                ahead.insert(0, card.id)
            else:
                undo()
            continue
        say("\n" + shown(back.rstrip()))
        if ahead is not None:
            buttons = "  ".join(f"{r} {RATING_NAMES[r]}" for r in (1, 2, 3, 4)) + "   (a preview: not recorded)"
        else:
            buttons = _buttons(scheduler, card.id)
        while True:
            answer = ask(f"{buttons}   u undo  q quit > ")
            if answer is None or answer in ("q", "u", "1", "2", "3", "4"):
                break
            say("Type 1, 2, 3 or 4 to rate, u to undo, q to quit.")
        if answer is None or answer == "q":
            break
        if ahead is not None:
            if answer == "u":
                say("Nothing to undo: previews are not recorded.")
                ahead.insert(0, card.id)
                continue
            from cards.schedule.preview import record_preview

            record_preview(scheduler.store, "card", card.id, scheduler.now(), rating=int(answer))
            done += 1
            say(f"→ {RATING_NAMES[int(answer)]}: a preview, the schedule is unchanged")
            continue
        if answer == "u":
            undo()
            continue
        duration_ms = int(max(0.0, monotonic() - started) * 1000)
        outcome = scheduler.review(card.id, int(answer), duration_ms=duration_ms)
        done += 1
        say(f"→ {RATING_NAMES[outcome.rating]}: next in "
            f"{format_interval(outcome.due - outcome.reviewed_at)}")
    if ahead is not None:
        say(f"Previewed {done} card{'s' if done != 1 else ''}; no schedule changed.")
    else:
        say(f"Reviewed {done} card{'s' if done != 1 else ''}.")
    return done
