"""The app's screens, one screen's wiring per module: dashboard, review, drill list, workspace, paste,
help, mock, stats, and the two small modal dialogs `confirm` and `code_view`. The parts a screen is
built from live in `tui/widgets/`. `mock` and `stats` are optional (`tui.app.OPTIONAL_SCREENS`): the
dashboard offers them when they import, so a broken optional screen never stops the app opening."""
