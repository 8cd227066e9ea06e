"""The checker: a trusted reference PPO core, drill probes and properties, a catalogue of known
mistakes, and a sandbox that runs a candidate's answer in isolation.

Nothing here imports Textual; the app and the `ppo-drill check` command call the same functions.
Importing this package is cheap: torch is imported only by the modules that compute with it.
"""
