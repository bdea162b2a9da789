"""The session journal: ``events.jsonl`` appended under an exclusive lock.

Claude Code runs hooks in parallel, so ``seq`` and ``prev`` are assigned while holding
``flock`` on the session's lock file, from the journal's own last line (never from a
cache that could disagree with it). A torn last line (a hook killed mid-write) is moved
to ``events.torn`` before the next record is appended, so the chain continues and
``verify`` can report what was cut.
"""

from __future__ import annotations

import fcntl
import os

from auditlog import paths
from auditlog.record import GENESIS, line_hash, utc_timestamp

JOURNAL = "events.jsonl"
TORN = "events.torn"
LOCK = ".lock"
_TAIL_CHUNK = 65536


class SessionLock:
    """An exclusive ``flock`` on the session folder's lock file (a context manager)."""

    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, LOCK)
        self.fd = -1

    def __enter__(self) -> SessionLock:
        self.fd = paths.open_private(self.path, os.O_RDWR | os.O_CREAT)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


class Tail:
    """What the next record chains onto: the last complete line's seq and hash, and the
    journal's size in bytes (the next line's offset)."""

    __slots__ = ("last_seq", "prev", "size")

    def __init__(self, last_seq: int, prev: str, size: int) -> None:
        self.last_seq = last_seq
        self.prev = prev
        self.size = size


def read_tail(fd: int) -> tuple[bytes, int]:
    """The last complete line of the open journal and the size up to its end.

    Reads backwards in chunks, so the cost does not grow with the journal. Bytes after
    the last newline (a torn write) are not part of the returned size.
    """
    size = os.fstat(fd).st_size
    if size == 0:
        return b"", 0
    end = size
    pos = size
    buf = b""
    # Find the end of the last complete line.
    while True:
        start = max(0, pos - _TAIL_CHUNK)
        buf = os.pread(fd, pos - start, start) + buf
        pos = start
        nl = buf.rfind(b"\n")
        if nl != -1 or pos == 0:
            break
    if nl == -1:
        return b"", 0
    end = pos + nl + 1
    buf = buf[: nl + 1]
    # Find the start of that line.
    while True:
        prev_nl = buf.rfind(b"\n", 0, len(buf) - 1)
        if prev_nl != -1:
            return buf[prev_nl + 1 : -1], end
        if pos == 0:
            return buf[:-1], end
        start = max(0, pos - _TAIL_CHUNK)
        buf = os.pread(fd, pos - start, start) + buf
        pos = start


def _seq_of(line: bytes) -> int:
    # Records start with {"v":1,"seq":N, ... : read seq without parsing a possibly large line.
    head = line[:64]
    key = head.find(b'"seq":')
    if key == -1:
        raise ValueError("last journal line has no seq")
    digits = head[key + 6 :].split(b",", 1)[0]
    return int(digits)


def _move_torn_tail(fd: int, folder: str, complete_size: int, total_size: int) -> None:
    """Move bytes after the last newline to ``events.torn`` and cut them off the journal."""
    torn = os.pread(fd, total_size - complete_size, complete_size)
    header = f"{utc_timestamp()} offset={complete_size} bytes={len(torn)}\n".encode()
    paths.append_private(os.path.join(folder, TORN), header + torn + b"\n")
    os.ftruncate(fd, complete_size)


def open_for_append(folder: str) -> tuple[int, Tail]:
    """Open the journal for appending (the caller holds the session lock) and say what the
    next record chains onto; a torn tail is moved aside first."""
    fd = paths.open_private(os.path.join(folder, JOURNAL), os.O_RDWR | os.O_CREAT | os.O_APPEND)
    try:
        last, complete = read_tail(fd)
        total = os.fstat(fd).st_size
        if total != complete:
            _move_torn_tail(fd, folder, complete, total)
        if not last:
            return fd, Tail(0, GENESIS, complete)
        return fd, Tail(_seq_of(last), line_hash(last), complete)
    except BaseException:
        os.close(fd)
        raise


def append_line(fd: int, line: bytes) -> None:
    """Append one record with a single ``write()`` of the line and its newline."""
    data = line + b"\n"
    written = os.write(fd, data)
    if written != len(data):  # a short write (disk full): never leave half a line behind
        raise OSError(f"short write to journal ({written} of {len(data)} bytes)")


def iter_lines(path: str, start: int = 0):
    """Yield ``(offset, line_without_newline)`` for each complete line from ``start``."""
    with open(path, "rb") as f:
        f.seek(start)
        offset = start
        for raw in f:
            if not raw.endswith(b"\n"):
                return
            yield offset, raw[:-1]
            offset += len(raw)
