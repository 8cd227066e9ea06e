"""Flashcards: decks as YAML content, their loader, the FSRS schedule and the progress store.

Modules (import them directly; this package imports nothing so `ppo-drill --help` stays light):
- `cards.deck`: `load_decks()`, `DeckSet`, `Deck`, `Card`, `DeckError`, `load_checklist()`.
- `cards.yaml_lines`: YAML parsing that keeps line numbers (for located content errors).
- `cards.store`: `open_store()`, `ProgressStore`, `StoreError` (SQLite progress); its on-disk
  schema and migrations are in `cards.schema`, JSON export / import in `cards.progress_io`.
- `cards.scheduler`: `Scheduler` (due queue, preview, review, undo, counts), `DrillSchedule`.
- `cards.intervals`: `format_interval()`, `RATING_NAMES` for rating buttons.
- `cards.anki_export`: `export_apkg()`; `cards.review_loop`: `run_review()`; `cards.cli`: sub-commands.
- `cards.paths`: `data_dir()`, the user data folder.

Nothing here imports Textual or torch.
"""
