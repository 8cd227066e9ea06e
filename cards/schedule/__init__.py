"""The FSRS schedule over the decks and the progress store: the card and drill `scheduler`, rating-button
`intervals`, what a checked drill attempt does to the schedule (`training`) and the plain terminal
review (`review_loop`).

It reads the decks and writes progress; it knows nothing of mock interviews or statistics, which are
built on top of it in `cards.plan`.
"""
