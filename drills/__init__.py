"""Drills as content: one folder per drill (drill.yaml, prompt, hints, starters, model solutions,
catalogued mistakes) plus the small loader that reads and validates them.

Nothing here imports Textual or torch.
"""
