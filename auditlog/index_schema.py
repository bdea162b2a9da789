"""Opening the SQLite index from the hot path: one pragma, and the migrator only when
the index is behind (importing sqlite-utils costs more than the whole hook budget)."""

from __future__ import annotations

import fcntl
import os
import sqlite3

from auditlog import paths

SCHEMA_VERSION = 3  # the number of migrations in auditlog.migrations
BUSY_TIMEOUT_MS = 2000


class IndexTooNew(RuntimeError):
    """The index was written by a newer auditlog; this one leaves it alone."""


def connect(home: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    """An index connection in autocommit mode (callers use ``BEGIN IMMEDIATE``), migrated."""
    path = paths.index_path(home)
    conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None)  # sets busy_timeout
    conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at commit without an fsync per transaction
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        conn.close()
        raise IndexTooNew(f"{path} has schema {version}; this auditlog knows {SCHEMA_VERSION}: upgrade auditlog")
    if version < SCHEMA_VERSION:
        _migrate(home, conn)
    return conn


def _migrate(home: str, conn: sqlite3.Connection) -> None:
    lock_path = os.path.join(home, ".index-migrate.lock")
    fd = paths.open_private(lock_path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        from auditlog import migrations

        migrations.migrate(conn)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
