"""One screen per module: dashboard, review, drill list, workspace, paste, help, and the small
modal dialogs. `mock` and `stats` (issue 6) are optional: the dashboard offers them when present."""
