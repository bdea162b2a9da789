"""``errors.log``: one line per internal failure of the hook, so a broken logger is
visible to its user without ever disturbing the agent."""

from __future__ import annotations

import os
import sys

from auditlog import paths
from auditlog.record import utc_timestamp

ERRORS_LOG = "errors.log"
MAX_MESSAGE = 500


def one_line_message(message: str) -> str:
    flat = " ".join(str(message).split())
    return flat if len(flat) <= MAX_MESSAGE else flat[: MAX_MESSAGE - 1] + "…"


def _redacted(home: str | None, text: str) -> str:
    """Failure messages can quote what failed (a path, a command): they are redacted like
    everything else the store keeps, with the store's key when it has one."""
    try:
        with open(os.path.join(home or "", "store.key"), "rb") as f:
            key = f.read()
        from auditlog.redaction import Redactor

        return Redactor(key).redact_text(text)[0]
    except Exception:
        return text


def report(home: str | None, where: str, message: str, *, to_stderr: bool = True) -> None:
    """Write ``<ts> <where>: <message>`` to errors.log (when the store is writable) and
    to stderr, redacted. Never raises."""
    line = _redacted(home, f"{utc_timestamp()} {where}: {one_line_message(message)}")
    if to_stderr:
        try:
            sys.stderr.write(f"auditlog: {line}\n")
            sys.stderr.flush()
        except Exception:
            pass
    if not home:
        return
    try:
        paths.ensure_dir(home)
        paths.append_private(os.path.join(home, ERRORS_LOG), (line + "\n").encode("utf-8", "replace"))
    except Exception:
        pass
