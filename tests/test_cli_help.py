"""The command's own help: every --help, the manual page and the shell completion.

Each subcommand says what it does and shows examples that parse; the manual page
(``bezique manpage``) and the completion scripts (``bezique completion``) are made from
the same parser, so they hold every command and option.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from clirun import run

from bezique.commands.arguments import build_parser, examples_of, subcommands
from bezique.commands.manpage import manual_page

PARSER = build_parser()
COMMANDS = subcommands(PARSER)
NAMES = [words for words, _ in COMMANDS]


def _parses(example: str) -> argparse.Namespace:
    """Parse an example's arguments with the real parser, failing the test on a usage error."""
    argv = shlex.split(example)
    assert argv[0] == "bezique", example
    try:
        return build_parser().parse_args(argv[1:])
    except SystemExit as exc:  # argparse refused it (or printed help and left)
        pytest.fail(f"{example!r} does not parse (exit {exc.code})")


def test_the_walk_finds_every_command_and_the_nested_ones() -> None:
    tops = [words for words in NAMES if " " not in words]
    assert {"variants", "play", "rules", "sheet", "club", "manpage", "completion"} <= set(tops)
    assert {"sheet add", "sheet export", "club add-player", "club luck"} <= set(NAMES)
    # every word-path is one command, found once
    assert len(NAMES) == len(set(NAMES))


@pytest.mark.parametrize(("words", "command"), COMMANDS, ids=NAMES)
def test_every_subcommand_has_a_description_and_examples_that_parse(
    words: str, command: argparse.ArgumentParser
) -> None:
    assert command.description and len(command.description.split()) >= 6, words
    for action in command._actions:  # every argument says what it is (an action its line)
        assert action.help or isinstance(action, argparse._SubParsersAction), (words, action)
    examples = examples_of(command)
    assert examples, f"bezique {words} --help shows no example"
    path = words.split()
    for example in examples:
        assert shlex.split(example)[:2] == ["bezique", path[0]], example
        args = _parses(example)
        assert args.command == path[0]
        if len(path) > 1:  # a sheet's or a club's action: the one the example is under
            assert getattr(args, f"{path[0]}_command") == path[1]


def test_the_top_level_help_has_a_description_and_examples_that_parse() -> None:
    assert PARSER.description and PARSER.description.startswith("Play, referee and compare")
    examples = examples_of(PARSER)
    assert len(examples) >= 3
    for example in examples:
        _parses(example)


@pytest.mark.parametrize("words", ["tournament", "sheet add", "club luck"])
def test_help_keeps_each_example_on_its_line_and_wraps_the_description(
    words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, *words.split(), "--help")
    assert status == 0
    lines = out.splitlines()
    command = dict(COMMANDS)[words]
    for example in examples_of(command):
        assert f"  {example}" in lines  # as written, even when longer than the terminal
    assert lines.index("examples:") > lines.index("options:")
    description = command.description or ""
    assert max(len(line) for line in lines[: lines.index("options:")]) < len(description)


def test_a_help_with_a_percent_sign_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "club", "ladder", "--help")
    assert status == 0 and "95% interval" in out


# ----------------------------------------------------------------------------- man page


PAGE = manual_page(PARSER)


def _roff(text: str) -> str:
    """How the page writes a command or an option (hyphens as hyphen-minus)."""
    return text.replace("-", "\\-")


def test_the_page_has_the_sections_of_a_manual_page() -> None:
    lines = PAGE.splitlines()
    assert lines[0].startswith(".TH BEZIQUE 1 ")
    sections = [line.split(" ", 1)[1] for line in lines if line.startswith(".SH ")]
    assert sections == ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXAMPLES"]
    assert lines[lines.index(".SH NAME") + 1] == (
        "bezique \\- play, referee and compare the rules of Bezique"
    )


def test_the_page_has_every_command_with_every_option_and_example() -> None:
    subsections = re.findall(r"^\.SS (.+)$", PAGE, flags=re.MULTILINE)
    assert subsections == [_roff(f"bezique {words}") for words in NAMES]
    chunks = re.split(r"^\.SS .+$", PAGE, flags=re.MULTILINE)[1:]
    for (words, command), chunk in zip(COMMANDS, chunks, strict=True):
        for action in command._actions:
            for option in action.option_strings:
                assert f"\\fB{_roff(option)}\\fR" in chunk, (words, option)
            if not action.option_strings and not isinstance(action, argparse._SubParsersAction):
                named = action.metavar or "{" + ",".join(action.choices or ()) + "}"
                assert f"\\fI{_roff(str(named))}\\fR" in chunk, (words, action.dest)
        for example in examples_of(command):
            assert _roff(example) in chunk.splitlines()
    assert "bezique manpage \\-\\-output bezique.1" in PAGE.split(".SH EXAMPLES")[1]


def test_no_line_of_the_page_is_a_request_by_accident() -> None:
    requests = {".TH", ".SH", ".SS", ".PP", ".TP", ".RS", ".RE", ".nf", ".fi"}
    for line in PAGE.splitlines():
        if line.startswith((".", "'")):
            assert line.split(" ", 1)[0] in requests, line
        # a backslash is an escape roff knows: a font, a hyphen-minus, a backslash, \&
        for escape in re.findall(r"\\(.)", line):
            assert escape in "fe-&", line
        assert line.count("\\fB") + line.count("\\fI") == line.count("\\fR"), line


def test_the_page_renders_without_a_warning(tmp_path: Path) -> None:
    """groff, where the machine has it, reads the page with every warning on."""
    groff = shutil.which("groff")
    if groff is None:  # no groff here: the structure above is what can be checked
        test_no_line_of_the_page_is_a_request_by_accident()
        return
    page = tmp_path / "bezique.1"
    page.write_text(PAGE, encoding="utf-8")
    done = subprocess.run(
        [groff, "-man", "-Tutf8", "-ww", str(page)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    shown = re.sub(r".\x08", "", done.stdout)  # the bold and underline of a terminal
    assert "bezique sheet add" in shown and "EXAMPLES" in shown


def test_manpage_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "manpage")
    assert (status, err) == (0, "")
    assert out == PAGE


def test_manpage_writes_a_file_and_replaces_it_only_when_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "bezique.1"
    assert run(capsys, "manpage", "--output", str(target)) == (0, "", "")
    assert target.read_text(encoding="utf-8") == PAGE
    target.write_text("mine", encoding="utf-8")
    status, out, err = run(capsys, "manpage", "--output", str(target))
    assert (status, out) == (1, "")
    assert err.startswith(f"bezique: {target}: exists") and "--overwrite" in err
    assert target.read_text(encoding="utf-8") == "mine"
    assert run(capsys, "manpage", "--output", str(target), "--overwrite")[0] == 0
    assert target.read_text(encoding="utf-8") == PAGE


def test_manpage_refuses_a_link_and_an_overwrite_without_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    aimed = tmp_path / "elsewhere.txt"
    aimed.write_text("kept", encoding="utf-8")
    link = tmp_path / "bezique.1"
    link.symlink_to(aimed)
    status, _, err = run(capsys, "manpage", "--output", str(link), "--overwrite")
    assert status == 1 and err.startswith(f"bezique: {link}: ")
    assert aimed.read_text(encoding="utf-8") == "kept"
    status, _, err = run(capsys, "manpage", "--overwrite")
    assert (status, err) == (1, "bezique: --overwrite goes with --output FILE\n")


# --------------------------------------------------------------------------- completion


def _script(capsys: pytest.CaptureFixture[str], shell: str) -> str:
    status, out, err = run(capsys, "completion", shell)
    assert (status, err) == (0, "")
    return out


def test_the_bash_script_completes_every_command_and_bash_reads_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = _script(capsys, "bash")
    listed = re.findall(r"^_shtab_bezique(\w*)_subparsers=\((.*)\)$", script, flags=re.MULTILINE)
    found = {
        f"{under.strip('_')} {name}".strip() for under, names in listed for name in names.split()
    }
    assert found == set(NAMES)
    assert script.rstrip().endswith("complete -o bashdefault -F _shtab_bezique bezique")
    # the arguments that take a file complete file names
    assert "_shtab_bezique_sheet_add_pos_0_COMPGEN=_shtab_compgen_files" in script
    path = tmp_path / "bezique.bash"
    path.write_text(script, encoding="utf-8")
    checked = subprocess.run(
        ["bash", "-n", str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert (checked.returncode, checked.stderr) == (0, "")


def test_the_bash_script_completes_a_command_in_bash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Source the script and ask it, as bash asks it at a Tab: bezique sh<Tab>."""
    path = tmp_path / "bezique.bash"
    path.write_text(_script(capsys, "bash"), encoding="utf-8")
    ask = (
        f"source {shlex.quote(str(path))}; COMP_WORDS=(bezique sheet a); COMP_CWORD=2; "
        'COMP_LINE="bezique sheet a"; COMP_POINT=${#COMP_LINE}; _shtab_bezique; '
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        ["bash", "-c", ask], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert [line.strip() for line in done.stdout.splitlines()] == ["add"]


def test_the_zsh_script_completes_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(capsys, "zsh")
    assert script.startswith("#compdef bezique")
    summaries = dict(re.findall(r"^    ([\w-]+):'(.*)'$", script, flags=re.MULTILINE))
    for words in NAMES:
        assert words.split()[-1] in summaries, words
    # each command's one-line summary, not its whole description
    assert summaries["play"] == "play a game at the terminal against bots"


def test_completion_without_shtab_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    find_spec = importlib.util.find_spec

    def without_shtab(name: str, *rest: object) -> object:
        return None if name == "shtab" else find_spec(name)

    monkeypatch.setattr(importlib.util, "find_spec", without_shtab)
    status, out, err = run(capsys, "completion", "bash")
    assert (status, out) == (1, "")
    assert err == (
        "bezique: bezique completion needs shtab: install the completion extra, "
        "pip install 'bezique[completion]'\n"
    )


def test_completion_names_the_shells_it_knows(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "completion", "fish")
    assert status == 2 and "invalid choice: 'fish' (choose from 'bash', 'zsh')" in err
