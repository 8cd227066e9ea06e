"""A user's data, and nothing else of the cards: the SQLite progress store (`store`) with its on-disk
`schema` and migrations, portable JSON export / import (`json_io`), the data folder (`paths`) and the
saved drill answers (`drafts`).

Kept at the bottom of `cards/` and free of the decks, the schedule and the plan, so the format a user's
progress is written in can be read, migrated and repaired without loading any content or policy.
"""
