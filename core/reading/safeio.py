"""Reading untrusted files, and writing the files a user names, safely.

A variant file or a game record named on the command line (or inside a record)
may be a FIFO, a device or a folder.  Opening a FIFO for reading waits for a
writer, and ``/dev/zero`` never ends, so :func:`read_regular` opens without
blocking, refuses anything that is not a regular file before reading a byte,
and reads at most the limit it is given.  :func:`decode_text` is how every such file
(a record, a variant file) becomes text: UTF-8, a leading byte order mark (which some
editors write) dropped.

Every file a command writes where the user said (``rules --output``, ``compare
--plot``/``--html``, ``play --save``, ``simulate --save``'s records) goes through
:func:`write_output`: a FIFO, a device, a socket or a folder at the name is
refused (writing would block or fail), and so is a symbolic link (a file is
never written through one) and, unless told to overwrite, a file that exists.
The file is written whole or not at all: into a new file beside it, synced, then
renamed over the name.  :func:`check_output` makes the same checks alone, so a
long command refuses a bad name before its work rather than after.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import suppress

from bezique.errors import OutputError

OVERWRITE_HINT = "add --overwrite to replace it"
"""What a refusal of a file that exists tells the user to do (the commands' flag)."""

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_BINARY", 0)
)
"""Open for reading without waiting (a FIFO opens at once) and without a controlling terminal."""


class NotARegularFileError(OSError):
    """The path names a FIFO, a device, a socket or a folder, or cannot name a file at all."""


def file_kind(mode: int) -> str:
    """Name the kind of file ``mode`` (an ``st_mode``) describes, for messages."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """Return at most ``limit`` bytes of the regular file ``path``.

    Read one byte more than the largest size allowed to tell a file that is too
    big.  Raise :class:`NotARegularFileError` (an :class:`OSError` whose
    ``strerror`` says what the path is) for anything but a regular file, and
    :class:`OSError` when the file cannot be opened or read.
    """
    try:
        fd = os.open(path, _FLAGS)
    except ValueError:  # a NUL character in the name
        raise NotARegularFileError(
            errno.EINVAL, "the name holds a NUL character", os.fspath(path)
        ) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = file_kind(mode)
            raise NotARegularFileError(errno.EINVAL, f"{kind}, not a regular file", os.fspath(path))
        chunks: list[bytes] = []
        left = limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


BOM = "\ufeff"
"""The byte order mark, which some editors write at the start of a UTF-8 file."""


def decode_text(raw: bytes | str) -> str:
    """Return the text of a file's bytes read as UTF-8, without a leading byte order mark.

    Text already decoded loses its leading mark too.  Raise :class:`UnicodeDecodeError`
    for bytes that are not UTF-8.
    """
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    return text[1:] if text.startswith(BOM) else text


def check_output(
    path: str | os.PathLike[str],
    *,
    overwrite: bool,
    label: str | None = None,
    hint: str = OVERWRITE_HINT,
) -> None:
    """Refuse a name that :func:`write_output` could not write a file to.

    Raise :class:`~bezique.errors.OutputError` when the name is a symbolic link, a
    FIFO, a device, a socket or a folder; when a file is there and ``overwrite`` is
    false (``hint`` says what to do); or when its folder is missing or cannot be
    written in.  The message starts with ``label`` (default: the path).
    """
    name = os.fspath(path)
    said = name if label is None else label
    try:
        info: os.stat_result | None = os.lstat(name)
    except FileNotFoundError:
        info = None
    except ValueError:  # a NUL character in the name
        raise OutputError(f"{said}: the name holds a NUL character") from None
    except OSError as exc:
        raise OutputError(f"{said}: cannot be written ({exc.strerror})") from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise OutputError(
                f"{said}: is a symbolic link; a file is never written through one: name "
                "the file itself, or a new one"
            )
        if stat.S_ISDIR(info.st_mode):
            raise OutputError(f"{said}: is a folder; name a file to write")
        if not stat.S_ISREG(info.st_mode):
            raise OutputError(
                f"{said}: is {file_kind(info.st_mode)}, not a regular file; name a file to write"
            )
        if not overwrite:
            raise OutputError(f"{said}: exists; {hint}")
    folder = _folder_of(name)
    if not os.path.isdir(folder):
        raise OutputError(f"{said}: no folder {folder!r} to write it in")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{said}: cannot be written (permission denied in {folder!r})")


def write_output(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    overwrite: bool,
    label: str | None = None,
    hint: str = OVERWRITE_HINT,
    sync: bool = True,
) -> None:
    """Write ``data`` (text as UTF-8) to the file ``path``, whole or not at all.

    The name is checked as :func:`check_output` checks it; then the data goes into
    a new file in the same folder (created exclusively, never through a link),
    which is synced and renamed over the name (a rename replaces a link or a file
    at the name, never writes into what it points to).  Without ``overwrite`` the
    file is put in place only if nothing has taken the name meanwhile.  A new file
    gets the permissions the umask allows; a file replaced keeps its own.  On any
    failure the side file is removed and :class:`~bezique.errors.OutputError` says
    why.
    """
    check_output(path, overwrite=overwrite, label=label, hint=hint)
    name = os.fspath(path)
    said = name if label is None else label
    payload = data.encode("utf-8") if isinstance(data, str) else data
    folder = _folder_of(name)
    try:
        import tempfile  # (here: reading, which most commands do alone, does not need it)

        handle, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(name)}.", suffix=".part", dir=folder
        )
    except OSError as exc:
        raise OutputError(f"{said}: cannot be written ({exc.strerror})") from None
    try:
        try:
            os.fchmod(handle, _mode_for(name))
            _write_all(handle, payload)
            if sync:
                os.fsync(handle)
        finally:
            os.close(handle)
        _put_in_place(temporary, name, overwrite, f"{said}: exists; {hint}")
    except BaseException as exc:
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise OutputError(f"{said}: cannot be written ({exc.strerror or exc})") from None
        raise
    if sync:
        _sync_folder(folder)


def _folder_of(name: str) -> str:
    return os.path.dirname(name) or os.curdir


def _mode_for(name: str) -> int:
    """The permissions of a file replaced, or what the umask leaves of rw for all."""
    with suppress(OSError):
        info = os.lstat(name)
        if stat.S_ISREG(info.st_mode):
            return stat.S_IMODE(info.st_mode)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _write_all(handle: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        view = view[os.write(handle, view) :]


def _put_in_place(temporary: str, name: str, overwrite: bool, exists: str) -> None:
    """Rename ``temporary`` to ``name``; without ``overwrite``, only if ``name`` is free."""
    if overwrite:
        os.replace(temporary, name)
        return
    try:
        os.link(temporary, name)  # fails, rather than replaces, if the name was taken
    except FileExistsError:
        raise OutputError(exists) from None
    except OSError:  # a file system without hard links: check once more, then rename
        if os.path.lexists(name):
            raise OutputError(exists) from None
        os.replace(temporary, name)
        return
    os.unlink(temporary)


def _sync_folder(folder: str) -> None:
    """Sync the folder, so the rename survives a crash (where the system allows it)."""
    with suppress(OSError):
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
