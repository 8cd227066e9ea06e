"""Flashcards and the study plan built on them, one concern per subpackage (the arrows run one way):

- `cards.progress`: the user's data. `store` (`open_store()`, `ProgressStore`, `StoreError`: one SQLite
  file), its on-disk `schema` and migrations, `json_io` (portable export / import), `paths`
  (`data_dir()`, the user data folder) and `drafts` (saved drill answers). Uses nothing else here.
- `cards.decks`: the deck content (`cards/decks/*.yaml`) and its code: `loader` (`load_decks()`,
  `DeckSet`, `Card`, `DeckError`, `load_checklist()`), `yaml_lines` (line-keeping YAML for located
  content errors), `anki_export` (`export_apkg()`). Uses nothing else here.
- `cards.schedule`: FSRS over decks and progress: `scheduler` (`Scheduler`, `DrillSchedule`),
  `intervals` (button labels), `training` (what a checked attempt does to the plan), `preview`
  (practising ahead, logged). Uses decks and progress.
- `cards.plan`: what is built on the schedule: timed mock interviews (`mock`, over `mock_plan`,
  `mock_session`, `mock_score`), `stats`, `progress_summary` (drill status, streak, weakest topics),
  the pitfall `profile` and their `cli`. Uses all three.
- `cards.cli`: the `ppo-drill` sub-commands for cards and progress; `cards.review_cli`: the plain
  terminal review it runs (`run_review()`, and `run_preview()` for practising ahead).

Import modules directly; the packages import nothing, so `ppo-drill --help` stays light. Nothing here
imports Textual, torch or the checker; `tests/test_project.py` enforces these rules.
"""
