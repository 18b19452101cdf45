"""The command line never crashes on an output encoding that cannot show a character."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BAD = "name: regles\nextends: ordinary\nsummary: R\u00e8gles \u2660.\ncl\u00e9: 1\n"
GOOD = "name: club\nextends: ordinary\nsummary: Le club \u2660.\n"


def bezique(tmp_path: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[bytes]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LC_", "LANG"))}
    return subprocess.run(
        [sys.executable, "-m", "bezique", *argv],
        capture_output=True,
        cwd=tmp_path,
        env={**base, **env},
        timeout=120,
        check=False,
    )


def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "r\u00e8gles-\u00e9.yaml").write_text(BAD, encoding="utf-8")
    (tmp_path / "club-\u00e9.yaml").write_text(GOOD, encoding="utf-8")
    return "r\u00e8gles-\u00e9.yaml", "club-\u00e9.yaml"


def test_an_ascii_output_encoding_gets_backslash_escapes(tmp_path: Path) -> None:
    bad, good = files(tmp_path)
    done = bezique(tmp_path, {"PYTHONIOENCODING": "ascii", "LC_ALL": "C.UTF-8"}, "validate", bad)
    assert b"Traceback" not in done.stderr, done.stderr.decode("ascii", "replace")
    assert done.returncode == 1
    assert done.stderr.decode("ascii").startswith(
        "r\\xe8gles-\\xe9.yaml:4:1: cl\\xe9: unknown key 'cl\\xe9'; the keys allowed here"
    )
    done = bezique(tmp_path, {"PYTHONIOENCODING": "ascii", "LC_ALL": "C.UTF-8"}, "validate", good)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"club-\\xe9.yaml: ok\n", b"")


@pytest.mark.parametrize("command", [["variants"], ["simulate", "--games", "1", "--seed", "3"]])
def test_other_commands_under_ascii_run_clean(tmp_path: Path, command: list[str]) -> None:
    done = bezique(tmp_path, {"PYTHONIOENCODING": "ascii"}, *command)
    assert done.returncode == 0, done.stderr.decode("ascii", "replace")
    assert done.stderr == b""


def test_the_c_locale_keeps_file_name_bytes_and_escapes_the_rest(tmp_path: Path) -> None:
    """Without UTF-8 mode, the C locale is ASCII; names from argv come back byte for byte."""
    bad, _ = files(tmp_path)
    env = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    done = bezique(tmp_path, env, "validate", bad)
    assert b"Traceback" not in done.stderr, done.stderr.decode("ascii", "replace")
    assert done.returncode == 1
    assert done.stderr.startswith(
        bad.encode("utf-8") + b":4:1: cl\\xe9: unknown key 'cl\\xe9'; the keys allowed here"
    )
