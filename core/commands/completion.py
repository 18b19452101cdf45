"""Shell completion for ``bezique``: the script shtab makes from the command's parser.

shtab (the optional extra ``completion``) reads the argparse parser and writes a bash
or zsh script that completes the commands, their options and the choices of each, so
the completion is never written by hand beside the parser.  The arguments that take a
file or a folder (their value is named ``FILE``, ``OUT``, ``DIR``, ``SHEET.json`` ...)
are marked to complete file or folder names, and zsh's menu shows each command's
one-line summary (its line in ``bezique --help``), not its whole description.
"""

from __future__ import annotations

import argparse
import importlib.util

from bezique.commands.arguments import subcommands
from bezique.errors import BeziqueError

__all__ = ["EXTRA", "completion_script"]

EXTRA = "pip install 'bezique[completion]'"
"""How to install what ``bezique completion`` needs."""

_FILE_NAMES = ("FILE", "OUT", "SHEET.json", "FILE.yaml")
"""The value names of the arguments that take a file."""
_FOLDER_NAMES = ("DIR",)
"""The value names of the arguments that take a folder."""


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell`` (``bash`` or ``zsh``).

    The parser is changed for shtab, so it is one built for the purpose: its file and
    folder arguments are marked (an attribute ``complete`` on each, which nothing
    else reads), and each subcommand's description is its one-line summary.  Without
    shtab installed, a :class:`~bezique.errors.BeziqueError` says which extra brings it.
    """
    if importlib.util.find_spec("shtab") is None:
        raise BeziqueError(f"bezique completion needs shtab: install the completion extra, {EXTRA}")
    import shtab

    for parser_of in [parser, *(command for _, command in subcommands(parser))]:
        _mark_paths(parser_of, shtab.FILE, shtab.DIRECTORY)
        _summaries_for_descriptions(parser_of)
    script: str = shtab.complete(parser, shell=shell)
    return script


def _mark_paths(parser: argparse.ArgumentParser, file: object, folder: object) -> None:
    """Complete file names for the arguments that take a file, folders for a folder's."""
    for action in parser._actions:
        if action.metavar in _FILE_NAMES:
            action.complete = file  # type: ignore[attr-defined]
        elif action.metavar in _FOLDER_NAMES:
            action.complete = folder  # type: ignore[attr-defined]


def _summaries_for_descriptions(parser: argparse.ArgumentParser) -> None:
    """Give each subcommand of ``parser`` its summary line as description (zsh shows it)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for listed in action._choices_actions:
                summary = (listed.help or "").replace("%%", "%")
                action.choices[listed.dest].description = summary
