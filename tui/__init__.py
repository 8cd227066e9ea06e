"""The Textual app of ppo-drill, and the `ppo-drill` command that opens it.

Screens and widgets only: grading lives in `checker`, scheduling and progress in `cards`,
exercise content in `drills`. Importing this package imports neither Textual nor torch.
"""
