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
    db["events"].create_index(["tool", "session"])  # --tool; every other event lookup uses the key
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
            "tool": str,
            "prompt_seq": int,  # the session's latest prompt before this change
        },
        pk=("session", "seq", "path"),
        foreign_keys=[("session", "sessions", "id")],
    )
    # --file matches by name first (suffix and exact matches both know the name); a session's
    # own changes are found by the primary key's prefix.
    db["changes"].create_index(["name", "session"])
    db["changes"].create_index(["ts"])
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


# A change is contained in a commit when the commit leaves that path with the change's
# post-image (same git blob id), or deletes the path the change deleted (from the same
# pre-image). The empty file is no evidence of authorship and links nothing. Written
# once here for the view, and used by the query API for commits read from git.
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
# Changes git made while moving HEAD (``via = 'git'``: a checkout, rebase, pull) are nobody's work.
CONTAINS_WRITE = (
    f"f.status != 'D' AND c.path = f.path AND c.post_oid = f.oid AND f.oid != '{EMPTY_BLOB}' AND c.via IS NULL"
)
CONTAINS_DELETE = "f.status = 'D' AND c.path = f.path AND c.op = 'delete' AND c.pre_oid = f.pre_oid AND c.via IS NULL"


def m002_git(db: sqlite_utils.Database) -> None:
    """Commits recorded in sessions, their files, and which changes each one contains."""
    db["commits"].create(
        {
            "session": str,
            "seq": int,
            "ts": str,
            "sha": str,
            "project": str,
            "branch": str,
            "parents": str,
            "subject": str,
            "author": str,
            "author_email": str,
            "author_time": str,
            "committer_time": str,
            "by_agent": int,
            "files": int,
        },
        pk=("session", "sha"),
        foreign_keys=[("session", "sessions", "id")],
    )
    db["commits"].create_index(["sha"])
    db["commits"].create_index(["branch"])
    db["commit_files"].create(
        {"session": str, "sha": str, "path": str, "old_path": str, "status": str, "oid": str, "pre_oid": str},
        pk=("session", "sha", "path"),
        foreign_keys=[("session", "sessions", "id")],
    )
    db["commit_files"].create_index(["sha"])
    for column in ("pre_oid", "pre_blob", "post_blob", "via"):  # lineage and whole images, for blame
        db["changes"].add_column(column, str)
    db["changes"].create_index(["path", "pre_oid"])
    db.execute(
        "CREATE VIEW change_commits AS"
        f" SELECT c.session, c.seq, c.path, f.sha FROM commit_files f JOIN changes c ON {CONTAINS_WRITE}"
        f" UNION SELECT c.session, c.seq, c.path, f.sha FROM commit_files f JOIN changes c ON {CONTAINS_DELETE}"
    )




def m003_transcripts(db: sqlite_utils.Database) -> None:
    """What the transcript adds: where each event came from (``origin``), one row per
    model call with its tokens and estimated cost (``turns``), and the session's totals."""
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




MIGRATIONS = (m001_initial, m002_git, m003_transcripts)


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
