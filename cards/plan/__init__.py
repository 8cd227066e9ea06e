"""The study plan built on the schedule: timed mock interviews (`mock`, the import point over
`mock_plan`, `mock_session` and `mock_score`), progress statistics (`stats`), where the candidate
stands (`progress_summary`: drill status, streak, weakest topics), the pitfall profile (`profile`)
and their `ppo-drill` sub-commands (`cli`).

The top room of `cards/`: it may use the schedule, the decks and the progress store; none of them uses
it. Inside, the mock session knows nothing of scoring: the scorecard is read off a session.
"""
