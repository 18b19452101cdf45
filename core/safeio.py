"""Reading untrusted files: regular files only, never more than a limit, text as UTF-8.

A variant file or a game record named on the command line (or inside a record)
may be a FIFO, a device or a folder.  Opening a FIFO for reading waits for a
writer, and ``/dev/zero`` never ends, so :func:`read_regular` opens without
blocking, refuses anything that is not a regular file before reading a byte,
and reads at most the limit it is given.  :func:`decode_text` is how every such file
(a record, a variant file) becomes text: UTF-8, a leading byte order mark (which some
editors write) dropped.
"""

from __future__ import annotations

import errno
import os
import stat

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
