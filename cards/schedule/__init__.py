"""The FSRS schedule over the decks and the progress store: the card and drill `scheduler`, rating-button
`intervals`, what a checked drill attempt does to the schedule (`training`), practising ahead as a logged
`preview`, predicted `recall` at a date, drill `mastery` and the `solve_clock`.

It reads the decks and writes progress; it knows nothing of mock interviews or statistics, which are
built on top of it in `cards.plan`, nor of the terminal review, which is the command line's
(`cards.review_cli`).
"""
