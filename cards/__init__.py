"""Flashcards: decks as YAML content, their loader, the FSRS schedule and the progress store.

Nothing here imports Textual or torch.
"""
