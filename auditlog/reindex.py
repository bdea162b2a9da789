"""Rebuilding the index from the journals alone (``auditlog reindex``).

Sessions are indexed in transactions of about 20,000 events, so hooks that fire meanwhile
wait at most for one of them (the hook's busy timeout is 2 s; past it the hook logs and
its session catches up on its next event). Either way every row comes from the journal.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from auditlog import index_schema, indexer, journal, paths
from auditlog.record import decode_record

EVENTS_PER_TRANSACTION = 20_000


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
        # A rebuild can be redone from the journals, so it trades durability for speed:
        # a large page cache, and no sync until the end (the last COMMIT is synced below).
        conn.execute("PRAGMA cache_size = -262144")  # 256 MiB while rebuilding
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN IMMEDIATE")
        indexer.forget_everything(conn)
        in_transaction = 0
        for folder in session_folders(home):
            session = _session_id(folder)
            if session is None:
                continue
            added = indexer.catch_up(conn, folder, session, own_transaction=False)
            events += added
            sessions += 1
            in_transaction += added
            if in_transaction >= EVENTS_PER_TRANSACTION:  # let waiting hooks in now and then
                conn.execute("COMMIT")
                conn.execute("BEGIN IMMEDIATE")
                in_transaction = 0
            if progress:
                progress(os.path.getsize(os.path.join(folder, journal.JOURNAL)))
        conn.execute("COMMIT")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the rebuilt index, synced to disk
        conn.execute("PRAGMA optimize")
    finally:
        conn.close()
    return sessions, events
