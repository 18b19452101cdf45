"""Running the command line in the test's process, for the tests of its commands."""

from __future__ import annotations

import pytest

from bezique.commands.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``bezique ARGV...``: its exit status, stdout and stderr (never a traceback)."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err
