"""Read-the-run drills: the short training runs behind them (`trainer`), their logs made again from a
seed (`generate`, `python -m checker.runs`), and the grade of a filled-in answer sheet (`grade`)."""
