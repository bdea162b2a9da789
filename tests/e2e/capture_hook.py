#!/usr/bin/env python3
"""Independent witness hook: save each hook payload byte-exact to its own file.

Usage (as a Claude Code command hook)::

    python3 capture_hook.py CAPTURE_DIR EVENT_NAME

Why it exists: the end-to-end tests must compare what auditlog recorded with
what Claude Code actually sent.  This script shares no code with auditlog, so
a bug in auditlog's parsing cannot hide itself in both places.  It is stdlib
only and does the least possible work:

* stdin is read as bytes and written unchanged to
  ``CAPTURE_DIR/<ns-timestamp>-<pid>-<EVENT_NAME>-<random>.json``; nothing is
  decoded, so encoding or JSON quirks are preserved for the test to see;
* a sidecar ``<same name>.meta.json`` records what is not in the payload but
  matters to a hook author: argv, cwd, pid, start/end time and the
  ``CLAUDE*`` environment variables (values of secret-looking ones redacted);
* both files are written to a dot-named temporary file and renamed into place,
  so a reader never sees a partial file, and concurrent hooks (Claude Code
  runs hooks of one event in parallel) never clobber each other;
* it prints nothing and exits 0: on several events Claude Code feeds a hook's
  stdout back to the model, and a non-zero exit can block the tool call.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path

#: Environment variable names containing these words have their values redacted.
SECRET_WORDS = ("TOKEN", "KEY", "SECRET", "PASSWORD")


def atomic_write(directory: Path, name: str, data: bytes) -> None:
    """Write ``data`` to ``directory/name`` via a temporary file and a rename."""
    tmp = directory / f".{name}.tmp"
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, directory / name)


def redact(key: str, value: str) -> str:
    """Hide per-session secrets Claude Code hands its hooks (e.g. a messaging token)."""
    return "<redacted>" if any(word in key for word in SECRET_WORDS) else value


def main(argv: list[str]) -> int:
    """Capture one payload; never fail the agent, whatever happens."""
    started_ns = time.time_ns()
    if len(argv) < 2:
        print("usage: capture_hook.py CAPTURE_DIR [EVENT_NAME]", file=sys.stderr)
        return 0
    directory = Path(argv[1])
    event = argv[2] if len(argv) > 2 else "unknown"
    payload = sys.stdin.buffer.read()
    stem = f"{started_ns:020d}-{os.getpid()}-{event}-{uuid.uuid4().hex[:8]}"
    meta = {
        "argv": argv,
        "event_arg": event,
        "cwd": os.getcwd(),
        "pid": os.getpid(),
        "ppid": os.getppid(),
        "started_ns": started_ns,
        "finished_ns": time.time_ns(),
        "stdin_bytes": len(payload),
        "env": {key: redact(key, value) for key, value in os.environ.items() if key.startswith("CLAUDE")},
    }
    try:
        directory.mkdir(parents=True, exist_ok=True)
        atomic_write(directory, f"{stem}.json", payload)
        atomic_write(directory, f"{stem}.meta.json", json.dumps(meta, indent=1).encode())
    except OSError as error:  # a witness must not break the session it watches
        print(f"capture_hook: {error}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
