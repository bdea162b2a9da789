"""Reading an agent's JSONL transcript from the byte offset reached last time.

The hook joins the transcript at Stop and a few other events, and a long session's
transcript grows to tens of megabytes: reading it whole each time would make every turn
slower than the last. So a read starts where the previous one ended, takes complete
lines only (the agent may be half-way through writing the next), and checks that the
bytes just before the offset are still the ones read last time: a transcript that was
cut or rewritten in between is reported, never silently misread. Standard library only
(it runs in the hook).
"""

from __future__ import annotations

import json
import os
import stat

from auditlog.digests import sha256_hex

TAIL_CHECK_BYTES = 256  # the bytes before the offset whose hash says "same file as last time"
MAX_READ_BYTES = 32 * 1024 * 1024  # per read: a huge backlog is taken over several joins


class Chunk:
    """What one read found: complete lines with their offsets, where the next read
    starts, and the problem that stopped it (``missing``, ``rewritten``) if any."""

    __slots__ = ("end", "lines", "partial", "problem", "size", "tail")

    def __init__(self, end: int, tail: str, size: int = 0, problem: str | None = None) -> None:
        self.lines: list[tuple[int, bytes]] = []
        self.end = end
        self.tail = tail
        self.size = size
        self.partial = 0  # bytes after the last newline (a line still being written, or cut)
        self.problem = problem


def _tail_digest(fd: int, offset: int) -> str:
    start = max(0, offset - TAIL_CHECK_BYTES)
    return sha256_hex(os.pread(fd, offset - start, start))[:32] if offset else ""


def read_new(path: str, offset: int = 0, tail: str = "", limit: int = MAX_READ_BYTES) -> Chunk:
    """The complete lines of ``path`` after ``offset`` (at most ``limit`` bytes of them).

    ``tail`` is the digest :attr:`Chunk.tail` gave last time; when the file is now
    shorter than ``offset``, or its bytes before ``offset`` differ, the chunk says
    ``rewritten`` and starts again at the file's last complete line (what was there
    before cannot be told from what is new).
    """
    try:  # non-blocking: a path that names a FIFO must not hold the hook
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except (OSError, ValueError):
        return Chunk(offset, tail, problem="missing")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return Chunk(offset, tail, problem="missing")
        size = st.st_size
        if size < offset or (offset and _tail_digest(fd, offset) != tail):
            from auditlog.journal import read_tail

            _last, end = read_tail(fd)
            return Chunk(end, _tail_digest(fd, end), size, problem="rewritten")
        data = os.pread(fd, min(size - offset, limit), offset)
        cut = data.rfind(b"\n") + 1
        chunk = Chunk(offset + cut, "", size)
        chunk.partial = size - chunk.end
        position = offset
        for raw in data[:cut].split(b"\n")[:-1]:
            chunk.lines.append((position, raw))
            position += len(raw) + 1
        chunk.tail = _tail_digest(fd, chunk.end) if cut else tail
        return chunk
    finally:
        os.close(fd)


def parse(line: bytes) -> dict | None:
    """One transcript line as a JSON object; ``None`` when it is not one (malformed)."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def read_all(path: str) -> tuple[list[dict], list[int]]:
    """Every line of a whole transcript (``import``, ``verify``, ``backfill``): the JSON
    objects in order, and the numbers of the lines that were not one (skipped)."""
    entries: list[dict] = []
    malformed: list[int] = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            entry = parse(raw)
            if entry is None:
                malformed.append(number)
            else:
                entries.append(entry)
    return entries, malformed
