"""Rebuilding the index from the journals alone (``auditlog reindex``).

The old rows go in one transaction, then the sessions are indexed one by one, each in its
own transaction, so hooks that fire meanwhile wait only for one session; a session whose
hook fires during the rebuild is indexed by that hook's catch-up or by the rebuild,
whichever comes first, from the journal either way.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

from auditlog import index_schema, indexer, journal, paths
from auditlog.record import decode_record


def session_folders(home: str) -> list[str]:
    root = paths.sessions_root(home)
    if not os.path.isdir(root):
        return []
    return sorted(
        os.path.join(root, name)
        for name in os.listdir(root)
        if os.path.isfile(os.path.join(root, name, journal.JOURNAL))
    )


def _session_id(folder: str) -> str | None:
    for _offset, line in journal.iter_lines(os.path.join(folder, journal.JOURNAL)):
        return decode_record(line)["session"]
    return None


def journal_bytes(folders: list[str]) -> int:
    return sum(os.path.getsize(os.path.join(f, journal.JOURNAL)) for f in folders)


def reindex(home: str, progress: Callable[[int], None] | None = None) -> tuple[int, int]:
    """Rebuild every session's rows; returns (sessions, events). ``progress`` is called
    with the journal bytes done after each session."""
    conn = index_schema.connect(home, busy_timeout_ms=30000)
    sessions = events = 0
    try:
        conn.execute("BEGIN IMMEDIATE")
        indexer.forget_everything(conn)
        conn.execute("COMMIT")
        for folder in session_folders(home):
            session = _session_id(folder)
            if session is None:
                continue
            events += indexer.catch_up(conn, folder, session)
            sessions += 1
            if progress:
                progress(os.path.getsize(os.path.join(folder, journal.JOURNAL)))
        conn.execute("PRAGMA optimize")
    finally:
        conn.close()
    return sessions, events


def iter_records(folder: str) -> Iterator[dict]:
    for _offset, line in journal.iter_lines(os.path.join(folder, journal.JOURNAL)):
        yield decode_record(line)
