"""The files a command writes where it is told, and the command's own output and processes.

Every output file (``rules --output``, ``compare --plot``/``--html``, ``play --save``,
``simulate --save``'s records) is written by :func:`bezique.reading.safeio.write_output`: a FIFO,
a folder or a link at the name is refused without blocking and without touching
anything, a file that exists is replaced only with ``--overwrite``, and no side file is
left behind.  A command whose standard output is closed fails; one whose reader goes
away ends quietly.  Ctrl-C to a command playing in processes ends them all.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import run as run_cli

from bezique.commands.play import Options, run
from bezique.errors import OutputError
from bezique.reading.safeio import write_output

COMPARE = ("compare", "eb1875", "modern-article", "--games", "1", "--players", "random")
"""A comparison played in a moment."""

WRITERS = {
    "rules --output": ("rules", "eb1875", "--format", "html", "--output"),
    "compare --html": (*COMPARE, "--html"),
    "compare --plot": (*COMPARE, "--plot"),
}
"""Each command that writes one file the user names, before that name."""

OLD = "the file that was here\n"


def names(folder: Path) -> list[str]:
    """Every entry of ``folder`` (a side file left behind would show here)."""
    return sorted(path.name for path in folder.iterdir())


def target(option: str) -> str:
    """A file name the option takes (a plot's must say PNG or SVG)."""
    return "out.svg" if option.endswith("--plot") else "out.html"


def bezique(*argv: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``bezique ARGV`` in a process of its own, waiting at most ``timeout`` seconds."""
    return subprocess.run(
        [sys.executable, "-m", "bezique", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )


# ------------------------------------------------------------------ one writer for every file


@pytest.mark.parametrize("command", WRITERS)
def test_a_fifo_is_refused_without_blocking(tmp_path: Path, command: str) -> None:
    name = target(command)
    os.mkfifo(tmp_path / name)
    done = bezique(*WRITERS[command], name, "--overwrite", cwd=tmp_path)  # (a timeout if it waits)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith("bezique: ") and "Traceback" not in done.stderr
    assert f"{name}: is a FIFO (named pipe), not a regular file; name a file to write" in (
        done.stderr
    )
    assert names(tmp_path) == [name]


@pytest.mark.parametrize("command", WRITERS)
def test_a_file_that_exists_is_replaced_only_with_overwrite(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    name = target(command)
    (tmp_path / name).write_text(OLD, encoding="utf-8")
    status, out, err = run_cli(capsys, *WRITERS[command], name)
    assert (status, out) == (1, "")
    assert err.endswith(f"{name}: exists; add --overwrite to replace it\n")
    assert len(err.splitlines()) == 1
    assert (tmp_path / name).read_text(encoding="utf-8") == OLD
    assert names(tmp_path) == [name]
    status, _, err = run_cli(capsys, *WRITERS[command], name, "--overwrite")
    assert (status, err) == (0, "")
    written = (tmp_path / name).read_text(encoding="utf-8")
    assert written != OLD and ("<svg" in written if name.endswith(".svg") else "<html" in written)
    assert names(tmp_path) == [name]


@pytest.mark.parametrize("command", WRITERS)
def test_a_symbolic_link_is_refused_and_what_it_points_to_is_untouched(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    name = target(command)
    (tmp_path / "elsewhere").write_text(OLD, encoding="utf-8")
    (tmp_path / name).symlink_to("elsewhere")
    status, out, err = run_cli(capsys, *WRITERS[command], name, "--overwrite")
    assert (status, out) == (1, "")
    assert f"{name}: is a symbolic link; a file is never written through one" in err
    assert (tmp_path / "elsewhere").read_text(encoding="utf-8") == OLD
    assert (tmp_path / name).is_symlink()
    assert names(tmp_path) == sorted(["elsewhere", name])


def test_a_new_file_is_written_and_no_side_file_is_left(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_cli(capsys, "rules", "eb1875", "--format", "markdown", "--output", "eb.md") == (
        0,
        "",
        "",
    )
    assert (tmp_path / "eb.md").read_text(encoding="utf-8").startswith("# Bezique after")
    assert names(tmp_path) == ["eb.md"]


def test_overwrite_alone_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "rules", "eb1875", "--overwrite") == (
        1,
        "",
        "bezique: --overwrite goes with --output FILE\n",
    )
    status, out, err = run_cli(capsys, *COMPARE, "--overwrite")
    assert (status, out, err) == (
        1,
        "",
        "bezique: --overwrite goes with --plot FILE or --html FILE\n",
    )


def test_a_write_that_fails_leaves_the_old_file_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "out.txt"
    path.write_text(OLD, encoding="utf-8")

    def full(handle: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    refused = re.escape("out.txt: cannot be written (No space left on device")
    with pytest.raises(OutputError, match=refused):
        write_output(path, "new text\n", overwrite=True)
    assert path.read_text(encoding="utf-8") == OLD
    assert names(tmp_path) == ["out.txt"]


def test_a_file_replaced_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text(OLD, encoding="utf-8")
    path.chmod(0o640)
    write_output(path, "new\n", overwrite=True)
    assert (path.read_text(encoding="utf-8"), path.stat().st_mode & 0o777) == ("new\n", 0o640)


# ------------------------------------------------------------------------------- play


def play(save: Path, overwrite: bool = False) -> int:
    """Start a game saved to ``save``; the empty input saves it and leaves."""
    options = Options(against="random", seed=3, save=str(save), overwrite=overwrite)
    return run(options, io.StringIO(""), io.StringIO())


def test_play_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game.json")
    done = bezique("play", "--save", "game.json", "--overwrite", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "bezique: game.json: is a FIFO (named pipe), not a regular file" in done.stderr
    assert names(tmp_path) == ["game.json"]


def test_play_replaces_a_file_only_with_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(OLD, encoding="utf-8")
    refused = re.escape("game.json: exists; give another file with --save")
    with pytest.raises(OutputError, match=refused):
        play(path)
    assert path.read_text(encoding="utf-8") == OLD
    assert play(path, overwrite=True) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["headers"]["players"] == [
        "human",
        "random",
    ]
    assert names(tmp_path) == ["game.json"]


def test_play_refuses_a_link_and_leaves_its_target(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_text(OLD, encoding="utf-8")
    (tmp_path / "game.json").symlink_to("elsewhere")
    with pytest.raises(OutputError, match=re.escape("game.json: is a symbolic link")):
        play(tmp_path / "game.json", overwrite=True)
    assert (tmp_path / "elsewhere").read_text(encoding="utf-8") == OLD


def test_resume_saves_to_its_own_file_and_replaces_another_only_with_overwrite(
    tmp_path: Path,
) -> None:
    game = tmp_path / "game.json"
    assert play(game) == 0
    other = tmp_path / "other.json"
    other.write_text(OLD, encoding="utf-8")
    assert run(Options(resume=str(game)), io.StringIO(""), io.StringIO()) == 0  # its own file
    with pytest.raises(OutputError, match=re.escape("other.json: exists; give --save a new file")):
        run(Options(resume=str(game), save=str(other)), io.StringIO(""), io.StringIO())
    assert other.read_text(encoding="utf-8") == OLD
    again = Options(resume=str(game), save=str(other), overwrite=True)
    assert run(again, io.StringIO(""), io.StringIO()) == 0
    assert json.loads(other.read_text(encoding="utf-8")) == json.loads(game.read_text("utf-8"))
    assert names(tmp_path) == ["game.json", "other.json"]


def test_resume_refuses_to_save_through_a_link(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert play(game) == 0
    before = game.read_bytes()
    (tmp_path / "link.json").symlink_to("game.json")
    with pytest.raises(OutputError, match=re.escape("link.json: is a symbolic link")):
        run(Options(resume=str(tmp_path / "link.json")), io.StringIO(""), io.StringIO())
    assert game.read_bytes() == before


# --------------------------------------------------------------------------- simulate


def test_simulate_refuses_a_fifo_for_its_folder_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "runs")
    done = bezique("simulate", "--games", "1", "--save", "runs", "--overwrite", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "bezique: runs: is not a folder" in done.stderr


def test_simulate_overwrite_refuses_a_link_among_the_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    assert run_cli(capsys, "simulate", "--games", "2", "--save", str(runs))[0] == 0
    (tmp_path / "elsewhere").write_text(OLD, encoding="utf-8")
    (runs / "game-0002.json").symlink_to(tmp_path / "elsewhere")
    status, _, err = run_cli(capsys, "simulate", "--games", "3", "--save", str(runs), "--overwrite")
    assert status == 1 and "holds other things too: game-0002.json" in err
    assert (tmp_path / "elsewhere").read_text(encoding="utf-8") == OLD
    (runs / "game-0002.json").unlink()
    status, _, err = run_cli(capsys, "simulate", "--games", "3", "--save", str(runs), "--overwrite")
    assert (status, names(runs)) == (0, ["game-0000.json", "game-0001.json", "game-0002.json"])


# ------------------------------------------------------------- the command's standard output

CLOSED = [
    ("variants",),
    ("plugins",),
    ("schema",),
    ("sources",),
    ("rules", "eb1875"),
    ("diff", "eb1875", "eb1875"),
    ("genealogy", "eb1875"),
    ("simulate", "--games", "1"),
    ("bench", "--deals", "1"),
    ("tournament", "--players", "random,random", "--games", "1"),
]
"""A command of each kind that prints its result."""


@pytest.mark.parametrize("argv", CLOSED, ids=lambda argv: argv[0])
def test_a_command_with_its_output_closed_fails_and_says_so(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    done = closed_output(*argv, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        "bezique: standard output: closed; the command's output cannot be written\n"
    )


def closed_output(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``bezique ARGV`` with its standard output closed (``>&-`` in a shell)."""
    return subprocess.run(
        ["sh", "-c", '"$0" -m bezique "$@" >&-', sys.executable, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def test_a_command_that_writes_only_a_file_needs_no_standard_output(tmp_path: Path) -> None:
    done = closed_output("rules", "eb1875", "--output", "x", cwd=tmp_path)
    assert (done.returncode, done.stderr, names(tmp_path)) == (0, "", ["x"])


def test_a_reader_that_went_away_ends_the_command_quietly(tmp_path: Path) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # (gone before a byte is written: every write is a broken pipe)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bezique", "rules", "eb1875"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")


# --------------------------------------------------------------- Ctrl-C and the --jobs workers


def _group(pgid: int) -> Iterator[tuple[int, int, str]]:
    """Each live process of the group ``pgid``: its id, its parent's, its command line."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # (gone meanwhile)
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            yield int(entry.name), int(fields[1]), command


def _default_signals() -> None:
    """In the child: Ctrl-C as at a shell, whatever the test process inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ("tournament", "--players", "heuristic,random", "--games", "5000"),
        ("compare", "eb1875", "modern-article", "--games", "100000", "--players", "random"),
    ],
    ids=["tournament", "compare"],
)
def test_ctrl_c_ends_every_worker_before_the_command_exits(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    main = subprocess.Popen(
        [sys.executable, "-m", "bezique", *argv, "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        start_new_session=True,  # (its own process group, so every descendant is found)
        preexec_fn=_default_signals,
    )
    try:
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            assert main.poll() is None, main.communicate()
            workers = [
                pid
                for pid, parent, command in _group(main.pid)
                if parent == main.pid and "multiprocessing.spawn" in command
            ]
            time.sleep(0.05)
        assert len(workers) == 2, "the workers did not start in 120 s"
        time.sleep(0.5)  # (playing games, not starting)
        main.send_signal(signal.SIGINT)
        _, err = main.communicate(timeout=60)
    finally:
        if main.poll() is None:
            os.killpg(main.pid, signal.SIGKILL)
            main.communicate()
    assert main.returncode == 130 and "Traceback" not in err
    alive = [pid for pid, _, _ in _group(main.pid) if pid in workers]
    assert alive == [], "workers still ran when the command had exited"
    deadline = time.monotonic() + 10  # (multiprocessing's resource tracker sees its end too)
    while list(_group(main.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(_group(main.pid)) == []
