"""The flashcard decks: the content (one YAML file per deck in this folder; `cards/checklist.yaml` beside
it) and the code that loads, validates and exports it (`loader`, `yaml_lines`, `anki_export`).

Content is data, never Python literals. This package knows nothing of the user's progress or the
schedule, so the content linters and the Anki export run without a database.
"""
