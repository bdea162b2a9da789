"""Writes event records into the SQLite index (standard library only: it runs in the hook).

The same function indexes a record live and during ``auditlog reindex``, and it reads
nothing but the record, so a rebuilt index has the same rows as a live one. Each session
row remembers how many journal bytes it has indexed, so a hook that could not reach the
index (locked, disk full) is caught up by the next one.
"""

from __future__ import annotations

import os
import sqlite3

from auditlog import journal
from auditlog.record import decode_record, line_hash

SEARCH_FIELDS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "description")
MAX_SEARCH_TEXT = 64 * 1024
FIRST_PROMPT_CHARS = 500


def _s(value: object) -> str:
    return value if isinstance(value, str) else ""


def _storable(value: object) -> object:
    """SQLite text must be valid UTF-8; lone surrogates (seen in real payloads) become
    U+FFFD in the index (the journal keeps them exactly)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


class _Writer:
    """A connection whose parameters are made storable on the way in."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: tuple | list = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, [_storable(p) for p in params])


def search_text(record: dict) -> str:
    """The words of an event that full-text search should find."""
    kind = record.get("kind")
    payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
    parts = [_s(record.get("summary"))]
    if kind == "prompt":
        parts = [_s(payload.get("prompt")) or parts[0]]
    elif kind in ("assistant", "subagent_stop"):
        parts.append(_s(payload.get("last_assistant_message")))
    elif kind in ("tool_call", "tool_error", "permission"):
        tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
        parts += [_s(tool_input.get(f)) for f in SEARCH_FIELDS]
        parts.append(_s(payload.get("error")))
    parts += [c.get("path", "") for c in record.get("changes") or []]
    text = "\n".join(p for p in parts if p)
    return text[:MAX_SEARCH_TEXT]


def _session_row(conn: sqlite3.Connection, record: dict, folder: str) -> None:
    conn.execute(
        "INSERT OR IGNORE INTO sessions (id, folder, agent, cwd, started, ended) VALUES (?, ?, ?, ?, ?, ?)",
        (record["session"], folder, record.get("agent") or "unknown", record.get("cwd"), record["ts"], record["ts"]),
    )


def index_record(conn: sqlite3.Connection, folder: str, record: dict, offset: int, line: bytes) -> None:
    """Add one record's rows (the caller holds a write transaction)."""
    conn = _Writer(conn)
    session, seq, ts, kind = record["session"], record["seq"], record["ts"], record.get("kind")
    _session_row(conn, record, folder)
    failed = 1 if record.get("failed") else 0
    conn.execute(
        "INSERT OR REPLACE INTO events (session, seq, ts, event, kind, tool, tool_use_id, subagent, summary, failed,"
        " offset, length, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            session,
            seq,
            ts,
            record.get("event"),
            kind,
            record.get("tool"),
            record.get("tool_use_id"),
            record.get("subagent"),
            record.get("summary"),
            failed,
            offset,
            len(line) + 1,
            line_hash(line),
        ),
    )
    updates = ["events = events + 1", "last_seq = ?", "ended = max(ended, ?)", "indexed_bytes = ?", "chain_head = ?"]
    values: list[object] = [seq, ts, offset + len(line) + 1, line_hash(line)]
    payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
    if kind == "prompt":
        text = _s(payload.get("prompt"))
        conn.execute(
            "INSERT OR REPLACE INTO prompts (session, seq, ts, text) VALUES (?, ?, ?, ?)", (session, seq, ts, text)
        )
        updates += ["prompts = prompts + 1", "first_prompt = coalesce(first_prompt, ?)"]
        values.append(text[:FIRST_PROMPT_CHARS])
        if _s(payload.get("session_title")):
            updates.append("title = ?")
            values.append(payload["session_title"])
    if kind in ("tool_result", "tool_error"):
        updates.append("tool_calls = tool_calls + 1")
    if failed:
        updates.append("failures = failures + 1")
    if kind == "session_end":
        updates.append("end_reason = ?")
        values.append(_s(payload.get("reason")) or None)
    context = record.get("context") if isinstance(record.get("context"), dict) else None
    if context:
        updates += [
            "project = coalesce(project, ?)",
            "branch = coalesce(?, branch)",
            "head_start = coalesce(head_start, ?)",
            "head_end = coalesce(?, head_end)",
        ]
        values += [context.get("project"), context.get("branch"), context.get("head"), context.get("head")]
    if record.get("cwd"):
        updates.append("cwd = coalesce(cwd, ?)")
        values.append(record["cwd"])
    added = removed = new_files = 0
    for change in record.get("changes") or []:
        path = change.get("path", "")
        seen = conn.execute("SELECT 1 FROM changes WHERE session = ? AND path = ? LIMIT 1", (session, path)).fetchone()
        conn.execute(
            "INSERT OR REPLACE INTO changes (session, seq, ts, path, name, op, added, removed, binary, patch,"
            " patch_sha256, post_oid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                session,
                seq,
                ts,
                path,
                path.rsplit("/", 1)[-1],
                change.get("op"),
                change.get("added", 0),
                change.get("removed", 0),
                1 if change.get("binary") else 0,
                change.get("patch"),
                change.get("patch_sha256"),
                change.get("post_oid"),
            ),
        )
        added += int(change.get("added", 0))
        removed += int(change.get("removed", 0))
        new_files += 0 if seen else 1
    if added or removed or new_files:
        updates += ["added = added + ?", "removed = removed + ?", "files_changed = files_changed + ?"]
        values += [added, removed, new_files]
    text = search_text(record)
    if text:
        conn.execute("INSERT INTO search (text, session, seq, kind) VALUES (?, ?, ?, ?)", (text, session, seq, kind))
    conn.execute(f"UPDATE sessions SET {', '.join(updates)} WHERE id = ?", (*values, session))


def forget_session(conn: sqlite3.Connection, session: str) -> None:
    for table in ("events", "changes", "prompts", "search"):
        conn.execute(f"DELETE FROM {table} WHERE session = ?", (session,))
    conn.execute("DELETE FROM sessions WHERE id = ?", (session,))


def catch_up(
    conn: sqlite3.Connection, folder_path: str, session: str, just_written: tuple[int, bytes, dict] | None = None
) -> int:
    """Index every journal line the index has not seen; returns how many were added.

    ``just_written`` (offset, line, record) saves re-reading the line the hook has just
    appended, in the usual case where the index was up to date before it.
    """
    folder = os.path.basename(folder_path)
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT indexed_bytes FROM sessions WHERE id = ?", (session,)).fetchone()
        done = row[0] if row else 0
        size = os.path.getsize(os.path.join(folder_path, journal.JOURNAL))
        if done > size:  # the journal was replaced or cut: index it again from the start
            forget_session(conn, session)
            done = 0
        added = 0
        if just_written is not None and just_written[0] == done:
            offset, line, record = just_written
            index_record(conn, folder, record, offset, line)
            added = 1
        elif done < size:
            for offset, line in journal.iter_lines(os.path.join(folder_path, journal.JOURNAL), done):
                index_record(conn, folder, decode_record(line), offset, line)
                added += 1
        conn.execute("COMMIT")
        return added
    except BaseException:
        conn.execute("ROLLBACK")
        raise
