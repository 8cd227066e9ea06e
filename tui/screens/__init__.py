"""The app's screens, one screen's wiring per module: dashboard, review, drill list, workspace, paste,
help, mock, stats, and the two small modal dialogs `confirm` and `code_view`. The parts a screen is
built from live in `tui/widgets/`. `tui.app.PpoDrillApp.make_screen` imports each of them plainly, so a
screen that fails to import is an error to see, not something the app hides."""
