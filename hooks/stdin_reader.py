"""Reading a hook payload from stdin: bytes, with a size cap and a deadline.

An agent may leave stdin open; the hook must still finish. We stop reading at EOF, at
the cap, at the deadline, or when the bytes read so far already form a whole JSON value
and no more arrive for a moment.
"""

from __future__ import annotations

import os
import select
import time

MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
DEADLINE_SECONDS = 5.0
IDLE_SECONDS = 0.2
_CHUNK = 1 << 20


class StdinProblem(Exception):
    """The payload could not be read whole (too large, never closed)."""


def read_payload(fd: int = 0, *, limit: int = MAX_PAYLOAD_BYTES, deadline: float = DEADLINE_SECONDS) -> bytes:
    """All of stdin as bytes. Raises :class:`StdinProblem` past the cap or the deadline."""
    chunks: list[bytes] = []
    size = 0
    end = time.monotonic() + deadline
    while True:
        remaining = end - time.monotonic()
        if remaining <= 0:
            raise StdinProblem(f"stdin still open after {deadline:g} s ({size} bytes read)")
        wait = min(remaining, IDLE_SECONDS) if chunks else remaining
        try:
            ready, _, _ = select.select([fd], [], [], wait)
        except (OSError, ValueError):
            ready = [fd]  # not selectable (a regular file): plain reads will not block
        if not ready:
            if chunks and _complete_json(b"".join(chunks)):
                return b"".join(chunks)
            continue
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise StdinProblem(f"payload larger than {limit} bytes")
        chunks.append(chunk)


def _complete_json(data: bytes) -> bool:
    import json

    try:
        json.loads(data)
    except ValueError:
        return False
    return True
