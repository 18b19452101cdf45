"""The changelog, its version policy and the version the package says it is.

CHANGELOG.md's newest version is the package's (pyproject, ``bezique.__version__`` and
``bezique --version`` agree); its versions go down the file in order, each in the Keep a
Changelog form; the reference page of versions shows the changelog's own policy; and the
commands of the page on the manual page and completion parse with the real parser.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from clirun import run

import bezique
from bezique.commands.arguments import build_parser

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
VERSION_HEADING = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def pyproject_version() -> str:
    """The version pyproject.toml gives the project (its one ``version =`` line)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.findall(r'^version = "([^"]+)"$', text, flags=re.MULTILINE)
    assert len(found) == 1
    return str(found[0])


def test_the_newest_version_in_the_changelog_is_the_package_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    newest = VERSION_HEADING.search(CHANGELOG)
    assert newest is not None
    version = ".".join(newest.groups()[:3])
    assert version == bezique.__version__ == pyproject_version()
    status, out, _ = run(capsys, "--version")
    build = " (compiled)" if bezique.COMPILED else ""  # which build is installed
    assert (status, out) == (0, f"bezique {version}{build}\n")


def test_the_versions_go_down_the_file_each_in_keep_a_changelog_form() -> None:
    headings = list(VERSION_HEADING.finditer(CHANGELOG))
    assert len(headings) >= 2
    numbers = [tuple(int(part) for part in h.groups()[:3]) for h in headings]
    dates = [h[4] for h in headings]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    assert dates == sorted(dates, reverse=True)
    ends = [h.start() for h in headings[1:]] + [len(CHANGELOG)]
    for heading, end in zip(headings, ends, strict=True):
        section = CHANGELOG[heading.end() : end]
        kinds = re.findall(r"^### (.+)$", section, flags=re.MULTILINE)
        assert kinds and set(kinds) <= set(KINDS), (heading[0], kinds)
        assert kinds == sorted(kinds, key=KINDS.index)  # in the form's order
        assert re.search(r"^- \S", section, flags=re.MULTILINE), heading[0]


def test_the_version_policy_heads_the_changelog_and_the_reference_page_shows_it() -> None:
    start, end = "<!-- version policy: start -->", "<!-- version policy: end -->"
    newest = VERSION_HEADING.search(CHANGELOG)
    assert newest is not None
    assert CHANGELOG.index(start) < CHANGELOG.index(end) < newest.start()
    policy = CHANGELOG[CHANGELOG.index(start) : CHANGELOG.index(end)]
    for public in (
        "bezique.game",
        "bezique.actions",
        "bezique.cards",
        "bezique.errors",
        "bezique.hookspecs",
        "bezique.testing",
        "bezique.players",
        "notation",
        "records",
        "command line",
        "DeprecationWarning",
        "one minor version",
    ):
        assert public in policy, public
    page = (ROOT / "docs" / "reference" / "versions.md").read_text(encoding="utf-8")
    assert page.startswith("# ")
    include = re.search(
        r"```\{include\} (\S+)\n:start-after: \"(.+)\"\n:end-before: \"(.+)\"\n```", page
    )
    assert include is not None
    assert (ROOT / "docs" / "reference" / include[1]).resolve() == ROOT / "CHANGELOG.md"
    assert (include[2], include[3]) == (start, end)


def console_commands(page: Path) -> list[str]:
    """The ``$ bezique ...`` lines of a page's console blocks, up to a redirection."""
    blocks = re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)
    lines = [line[2:] for block in blocks for line in block.splitlines() if line.startswith("$ ")]
    return [line.split(" > ")[0] for line in lines if line.startswith("bezique ")]


def test_the_manual_and_completion_page_shows_commands_that_parse() -> None:
    commands = console_commands(ROOT / "docs" / "reference" / "cli-extras.md")
    assert {" ".join(c.split()[:2]) for c in commands} == {"bezique manpage", "bezique completion"}
    for command in commands:
        argv = shlex.split(command)[1:]
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:
            pytest.fail(f"{command!r} does not parse (exit {exc.code})")
