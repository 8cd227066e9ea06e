"""The plain terminal review behind `ppo-drill review`, as two loops over stdin and stdout:

- `run_review()`: real reviews. Due cards, then `then()`'s once nothing is due (the study plan's
  study-next cards and last-day top-up: real, early reviews); every rating is committed to the store
  the moment it is given, and `u` undoes the last one.
- `run_preview()`: practising ahead (`ppo-drill review --ahead`). Goes through the cards it is given;
  ratings are logged by `cards.schedule.preview` and change no schedule, so there is nothing to undo.

Line-based on purpose, so it works in any terminal and with piped stdin (scripts, tests): the front is
shown, Enter reveals the back, then a line `1`-`4` rates, `u` undoes and `q` (or end of input) quits.
A face of the command line over the schedule, beside `cards.cli`, which calls it; no room of `cards/`
imports it.
"""
from __future__ import annotations

import time
from typing import Callable, Sequence, TextIO

from cards.decks.loader import Card
from cards.schedule.intervals import RATING_NAMES, format_interval
from cards.schedule.preview import record_preview
from cards.schedule.scheduler import Scheduler

HELP = "Enter: show answer   u: undo   q: quit"
RATINGS = ("1", "2", "3", "4")
NOT_RECORDED = "Nothing to undo: previews are not recorded."
TOP_UP = ("\nNothing is due: now the cards today's study plan still asks for (a mock's study next; on the "
          "last day, those below target recall on the interview day).")


class _Lines:
    """One conversation on a pair of text streams: `say()` a line, `ask()` for one. Piped input is
    echoed after the prompt (a terminal echoes what is typed, a pipe does not), so transcripts read
    well."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout
        self.echo = not (hasattr(stdin, "isatty") and stdin.isatty())

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str | None:
        """The next line, stripped and lower-cased; None at the end of input."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if self.echo or not line:
            self.stdout.write(line.rstrip("\n") + "\n")
        if not line:
            return None
        return line.strip().lower()


def _show_front(lines: _Lines, scheduler: Scheduler, card: Card, lang: str, shown: Callable[[str], str]) -> str:
    """Print the card's deck, id and front; return its back."""
    front, back = card.text(lang)
    title = scheduler.deckset.by_deck[card.deck].display_title(lang)
    lines.say(f"\n── {title} · {card.id} ──")
    lines.say(shown(front.rstrip()))
    return back


def _ask_rating(lines: _Lines, buttons: str) -> str | None:
    """Ask until the answer is a rating, `u` or `q`; None at the end of input."""
    while True:
        answer = lines.ask(f"{buttons}   u undo  q quit > ")
        if answer is None or answer in ("q", "u", *RATINGS):
            return answer
        lines.say("Type 1, 2, 3 or 4 to rate, u to undo, q to quit.")


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def _buttons(scheduler: Scheduler, card_id: str) -> str:
    """The four ratings, each with the interval it would give the card now."""
    now = scheduler.now()
    preview = scheduler.preview(card_id, now)
    return "  ".join(f"{r} {RATING_NAMES[r]} ({format_interval(preview[r] - now)})" for r in (1, 2, 3, 4))


def run_review(scheduler: Scheduler, *, lang: str = "en", deck: str | None = None,
               limit: int | None = None, stdin: TextIO, stdout: TextIO,
               monotonic: Callable[[], float] = time.monotonic,
               then: Callable[[], Card | None] | None = None,
               shown: Callable[[str], str] = str) -> int:
    """Review due cards (then `then()`'s) until none are left, `limit` reviews are done, or the user
    quits. Returns the number of reviews recorded (after undos).

    `monotonic` times each answer for the review's duration (injected so tests are deterministic).
    `shown` turns a card side's Markdown into what is printed (as written, by default: piped output
    stays plain).
    """
    lines = _Lines(stdin, stdout)
    done = 0
    topped_up = False

    def undo() -> None:
        nonlocal done
        card_id = scheduler.undo_last()
        if card_id is None:
            lines.say("Nothing to undo.")
        else:
            done -= 1
            lines.say(f"Undone: {card_id}")

    while limit is None or done < limit:
        card = scheduler.next_card(deck=deck)
        if card is None and then is not None:
            card = then()
            if card is not None and not topped_up:
                topped_up = True
                lines.say(TOP_UP)
        if card is None:
            lines.say("No cards due." if done == 0 else "No more cards due.")
            break
        back = _show_front(lines, scheduler, card, lang, shown)
        started = monotonic()
        answer = lines.ask(f"[{HELP}] > ")
        if answer is None or answer == "q":
            break
        if answer == "u":
            undo()
            continue
        lines.say("\n" + shown(back.rstrip()))
        answer = _ask_rating(lines, _buttons(scheduler, card.id))
        if answer is None or answer == "q":
            break
        if answer == "u":
            undo()
            continue
        duration_ms = int(max(0.0, monotonic() - started) * 1000)
        outcome = scheduler.review(card.id, int(answer), duration_ms=duration_ms)
        done += 1
        lines.say(f"→ {RATING_NAMES[outcome.rating]}: next in "
                  f"{format_interval(outcome.due - outcome.reviewed_at)}")
    lines.say(f"Reviewed {_cards(done)}.")
    return done


def run_preview(scheduler: Scheduler, card_ids: Sequence[str], *, lang: str = "en",
                limit: int | None = None, stdin: TextIO, stdout: TextIO,
                shown: Callable[[str], str] = str) -> int:
    """Go through `card_ids` in order as a preview (practising ahead) until they run out, `limit` are
    rated, or the user quits: each rating is logged by `cards.schedule.preview` and no schedule
    changes. Returns the number of cards previewed. `shown` as for `run_review()`.
    """
    lines = _Lines(stdin, stdout)
    ahead = list(card_ids)
    buttons = "  ".join(f"{r} {RATING_NAMES[r]}" for r in (1, 2, 3, 4)) + "   (a preview: not recorded)"
    done = 0
    while limit is None or done < limit:
        card = scheduler.deckset.by_id.get(ahead.pop(0)) if ahead else None
        if card is None:
            lines.say("Nothing to practise ahead: every studied card is due or new." if done == 0
                      else "No more cards to practise ahead.")
            break
        back = _show_front(lines, scheduler, card, lang, shown)
        answer = lines.ask(f"[{HELP}] > ")
        if answer is None or answer == "q":
            break
        if answer != "u":
            lines.say("\n" + shown(back.rstrip()))
            answer = _ask_rating(lines, buttons)
            if answer is None or answer == "q":
                break
        if answer == "u":  # at the front or at the ratings: the card comes again
            lines.say(NOT_RECORDED)
            ahead.insert(0, card.id)
            continue
        record_preview(scheduler.store, "card", card.id, scheduler.now(), rating=int(answer))
        done += 1
        lines.say(f"→ {RATING_NAMES[int(answer)]}: a preview, the schedule is unchanged")
    lines.say(f"Previewed {_cards(done)}; no schedule changed.")
    return done
