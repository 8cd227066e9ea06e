"""The `ppo-drill` command: one argparse front for the checker, the cards and the app.

Each package registers its own sub-commands (`checker.cli`, `cards.cli`, `tui.commands`); a
handler imports what it needs only when it runs, so `--help` and `--version` stay fast and never
import torch or Textual. With no sub-command the Textual app opens.
"""
from __future__ import annotations

import argparse
import sys
from importlib import metadata


def _version() -> str:
    try:
        return metadata.version("ppo-drill")
    except metadata.PackageNotFoundError:  # running from a source tree without install
        return "0+unknown"


class _VersionAction(argparse.Action):
    """--version, looking the version up only when asked (importlib.metadata costs ~70 ms)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"ppo-drill {_version()}")
        parser.exit()


class _AnyOrderParser(argparse.ArgumentParser):
    """A sub-command parser that takes options and positionals in any order
    (`start gae --framework torch my_gae.py`), through argparse's intermixed parsing."""

    _intermixing = False

    def parse_known_args(self, args=None, namespace=None):
        if self._intermixing:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


DATA_DIR_HELP = ("where progress and saved answers live (default: $PPO_DRILL_HOME, else the user data "
                 "folder); before or after the command name")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ppo-drill",
        description="Practise PPO for RL / LLM post-training interviews: flashcards on an FSRS "
        "schedule, timed coding drills and a checker that names your mistake. "
        "Run with no command to open the app.",
    )
    parser.add_argument("--version", action=_VersionAction, nargs=0, help="show the version and exit")
    parser.add_argument("--data-dir", metavar="DIR", help=DATA_DIR_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_AnyOrderParser)
    from checker import cli as checker_cli
    from cards import cli as cards_cli
    from cards.plan import cli as plan_cli
    from tui import commands as tui_commands
    from tui import mock_command

    for module in (checker_cli, cards_cli, plan_cli, tui_commands, mock_command):
        module.register(sub)
    for command in sub.choices.values():  # before or after the command name, and in every command's help
        # SUPPRESS: not given after the command, it leaves the value given before it (or None) alone
        command.add_argument("--data-dir", metavar="DIR", default=argparse.SUPPRESS, help=DATA_DIR_HELP)
    if tui_commands.record_cli_check not in checker_cli.REPORT_HOOKS:  # CLI checks count as attempts
        checker_cli.REPORT_HOOKS.append(tui_commands.record_cli_check)
    if tui_commands.drill_statuses_for_cli not in checker_cli.STATUS_SOURCES:  # `drills` shows where you stand
        checker_cli.STATUS_SOURCES.append(tui_commands.drill_statuses_for_cli)
    return parser


def main(argv: list[str] | None = None, *, checker=None) -> int:
    """Run `ppo-drill` with `argv`. `checker`: a `checker.engine.Checker` for the commands that check
    answers to use instead of making their own (a long-lived caller's warm one, a test session's)."""
    before = _unreadable_rows()
    parser = build_parser()
    args = parser.parse_args(argv)
    args.checker = checker
    if args.data_dir is not None:
        if not args.data_dir.strip():  # never the current folder by accident
            parser.error("--data-dir needs a folder, got an empty value")
        import os

        os.environ["PPO_DRILL_HOME"] = args.data_dir
    from cards.progress.paths import DataDirError, ensure_data_dir

    try:  # one clear message for every command (and the app) when the folder cannot be used
        ensure_data_dir()
    except DataDirError as exc:
        print(f"ppo-drill: {exc}", file=sys.stderr)
        return 2
    handler = getattr(args, "handler", None)
    if handler is None:
        from tui import commands as tui_commands

        handler = tui_commands.run_app
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `ppo-drill ... | head`: the reader left; say nothing more
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        _say_unreadable_rows(before)


def _unreadable_rows() -> list[str]:
    """The rows of the progress this process could not read so far (none before the store was loaded)."""
    store = sys.modules.get("cards.progress.store")
    return store.reported_problems() if store is not None else []


def _say_unreadable_rows(before: list[str]) -> None:
    """Name, on stderr, the rows of the user's progress the command could not read (it went on
    without them; they are still in the database as they were): those met since `before`, so a
    process that runs several commands (a test session) names each command's own."""
    problems = [what for what in _unreadable_rows() if what not in before]
    if problems:
        print(f"ppo-drill: {len(problems)} row(s) of your progress could not be read and were skipped "
              "(left in the database as they are):", file=sys.stderr)
        for what in problems[:10]:
            print(f"  {what}", file=sys.stderr)
        if len(problems) > 10:
            print(f"  ... and {len(problems) - 10} more", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
