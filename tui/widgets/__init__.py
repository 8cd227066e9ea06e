"""Widgets shared by the screens: results panel, countdown, rating bar."""
