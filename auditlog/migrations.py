"""Index schema migrations, numbered functions applied in order (``PRAGMA user_version``
counts those applied). Run outside the hot path: the hook imports this module only when
the index is behind. See docs/storage.md for the resulting tables."""

from __future__ import annotations

import sqlite3

import sqlite_utils


def m001_initial(db: sqlite_utils.Database) -> None:
    """Sessions, events, changes, prompts, and full-text search over event text."""
    db["sessions"].create(
        {
            "id": str,
            "folder": str,
            "agent": str,
            "project": str,
            "cwd": str,
            "branch": str,
            "head_start": str,
            "head_end": str,
            "started": str,
            "ended": str,
            "end_reason": str,
            "first_prompt": str,
            "title": str,
            "prompts": int,
            "events": int,
            "tool_calls": int,
            "failures": int,
            "files_changed": int,
            "added": int,
            "removed": int,
            "last_seq": int,
            "indexed_bytes": int,
            "chain_head": str,
        },
        pk="id",
        not_null={"folder", "agent"},
        defaults={
            "prompts": 0,
            "events": 0,
            "tool_calls": 0,
            "failures": 0,
            "files_changed": 0,
            "added": 0,
            "removed": 0,
            "last_seq": 0,
            "indexed_bytes": 0,
        },
    )
    db["sessions"].create_index(["started"])
    db["sessions"].create_index(["project", "started"])
    db["sessions"].create_index(["agent", "started"])
    db["events"].create(
        {
            "session": str,
            "seq": int,
            "ts": str,
            "event": str,
            "kind": str,
            "tool": str,
            "tool_use_id": str,
            "subagent": str,
            "summary": str,
            "failed": int,
            "offset": int,
            "length": int,
            "hash": str,
        },
        pk=("session", "seq"),
        foreign_keys=[("session", "sessions", "id")],
    )
    db["events"].create_index(["ts"])
    db["events"].create_index(["tool", "session"])
    db["events"].create_index(["failed", "session"])
    db["changes"].create(
        {
            "session": str,
            "seq": int,
            "ts": str,
            "path": str,
            "name": str,
            "op": str,
            "added": int,
            "removed": int,
            "binary": int,
            "patch": str,
            "patch_sha256": str,
            "post_oid": str,
        },
        pk=("session", "seq", "path"),
        foreign_keys=[("session", "sessions", "id")],
    )
    db["changes"].create_index(["name", "session"])
    db["changes"].create_index(["path", "session"])
    db["changes"].create_index(["ts"])
    db["changes"].create_index(["session", "path"])
    db["changes"].create_index(["post_oid"])
    db["prompts"].create(
        {"session": str, "seq": int, "ts": str, "text": str},
        pk=("session", "seq"),
        foreign_keys=[("session", "sessions", "id")],
    )
    db["prompts"].create_index(["ts"])
    # Standalone FTS5 table (not external-content): rows are written by the hook as events
    # arrive and never updated. `session` and `kind` are indexed too, so a filter can probe
    # one session's prompts (`session:"<id>" AND kind:prompt AND (...)`) without a scan.
    db.execute(
        "CREATE VIRTUAL TABLE search USING fts5("
        "text, session, seq UNINDEXED, kind, tokenize = 'unicode61 remove_diacritics 2')"
    )


def m003_transcripts(db: sqlite_utils.Database) -> None:
    """What the transcript adds: where each event came from (``origin``), one row per
    model call with its tokens and estimated cost (``turns``), and the session's totals.

    Numbered 3: migration 2 is the git-commits one on another branch (until both merge,
    ``PRAGMA user_version`` counts the migrations this branch applies)."""
    db["events"].add_column("origin", str)
    db["events"].create_index(["tool_use_id"])
    for column, kind in (("input_tokens", int), ("output_tokens", int), ("cache_write_tokens", int),
                         ("cache_read_tokens", int), ("cost_usd", float), ("unpriced_turns", int), ("model", str)):
        db["sessions"].add_column(column, kind)
    db["turns"].create(
        {
            "session": str,
            "message_id": str,
            "seq": int,
            "ts": str,
            "model": str,
            "subagent": str,
            "input_tokens": int,
            "output_tokens": int,
            "cache_write_tokens": int,
            "cache_read_tokens": int,
            "cost_usd": float,
        },
        pk=("session", "message_id"),
        foreign_keys=[("session", "sessions", "id")],
    )
    db["turns"].create_index(["ts"])
    db["turns"].create_index(["session", "seq"])


MIGRATIONS = (m001_initial, m003_transcripts)


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration the index has not had yet; returns the new version.

    The caller holds the store's migration lock, so two processes never migrate at once.
    """
    conn.execute("PRAGMA journal_mode = WAL")
    db = sqlite_utils.Database(conn)
    for number, migration in enumerate(MIGRATIONS, start=1):
        if conn.execute("PRAGMA user_version").fetchone()[0] >= number:
            continue
        migration(db)
        conn.execute(f"PRAGMA user_version = {number}")
    return conn.execute("PRAGMA user_version").fetchone()[0]
