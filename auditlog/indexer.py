"""Writes event records into the SQLite index (standard library only: it runs in the hook).

The same function indexes a record live and during ``auditlog reindex``, and it reads
nothing but the record, so a rebuilt index has the same rows as a live one. Each session
row remembers how many journal bytes it has indexed, so a hook that could not reach the
index (locked, disk full) is caught up by the next one.
"""

from __future__ import annotations

import json
import os
import sqlite3

from auditlog import journal
from auditlog.record import MESSAGE_EVENT, assistant_text, decode_record, line_hash

SEARCH_FIELDS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "description")
MAX_SEARCH_TEXT = 64 * 1024
FIRST_PROMPT_CHARS = 500
BATCH = 2000  # records per executemany when catching up or reindexing


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


def _row(*values: object) -> tuple:
    return tuple(v if type(v) is not str or v.isascii() else _storable(v) for v in values)


def search_text(record: dict) -> str:
    """The words of an event that full-text search should find."""
    kind = record.get("kind")
    payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
    parts = [_s(record.get("summary"))]
    if kind == "prompt":
        parts = [_s(payload.get("prompt")) or parts[0]]
    elif kind in ("assistant", "subagent_stop"):
        parts += [_s(assistant_text(payload)), _s(payload.get("thinking"))]
    elif kind in ("tool_call", "tool_error", "permission"):
        tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
        parts += [_s(tool_input.get(f)) for f in SEARCH_FIELDS]
        parts.append(_s(payload.get("error")))
    parts += [c.get("path", "") for c in record.get("changes") or []]
    text = "\n".join(p for p in parts if p)
    return text[:MAX_SEARCH_TEXT]


SESSION_COLUMNS = (
    "id",
    "folder",
    "agent",
    "project",
    "cwd",
    "branch",
    "head_start",
    "head_end",
    "started",
    "ended",
    "end_reason",
    "first_prompt",
    "title",
    "prompts",
    "events",
    "tool_calls",
    "failures",
    "files_changed",
    "added",
    "removed",
    "last_seq",
    "indexed_bytes",
    "chain_head",
    "input_tokens",
    "output_tokens",
    "cache_write_tokens",
    "cache_read_tokens",
    "cost_usd",
    "unpriced_turns",
    "model",
)
_UPSERT_SESSION = (
    f"INSERT INTO sessions ({', '.join(SESSION_COLUMNS)}) VALUES ({', '.join('?' * len(SESSION_COLUMNS))})"
    f" ON CONFLICT(id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in SESSION_COLUMNS[1:])}"
)
_COUNTERS = ("prompts", "events", "tool_calls", "failures", "files_changed", "added", "removed")


def _current_session(conn: sqlite3.Connection, session: str, folder: str, first: dict) -> dict:
    cursor = conn.execute(f"SELECT {', '.join(SESSION_COLUMNS)} FROM sessions WHERE id = ?", (session,))
    found = cursor.fetchone()
    if found:
        return dict(zip(SESSION_COLUMNS, found, strict=True))
    row = dict.fromkeys(SESSION_COLUMNS)
    row.update(
        dict.fromkeys(_COUNTERS, 0),
        id=session,
        folder=folder,
        agent=first.get("agent") or "unknown",
        started=first["ts"],
        ended=first["ts"],
        last_seq=0,
        indexed_bytes=0,
    )
    return row


def index_records(conn: sqlite3.Connection, folder: str, batch: list[tuple[int, bytes, dict]]) -> None:
    """Add the rows of a batch of one session's records, in journal order (the caller
    holds a write transaction). Live capture passes one record, ``reindex`` many: the
    same code, so the same rows."""
    if not batch:
        return
    session = batch[0][2]["session"]
    row = _current_session(conn, session, folder, batch[0][2])
    events, prompts, changes, search, turns = [], [], [], [], []
    commits: list[tuple] = []
    commit_files: list[tuple] = []
    new_paths: dict[str, None] = {}
    last_prompt = conn.execute("SELECT max(seq) FROM prompts WHERE session = ?", (session,)).fetchone()[0]
    for offset, line, record in batch:
        seq, ts, kind = record["seq"], record["ts"], record.get("kind")
        digest = line_hash(line)
        failed = 1 if record.get("failed") else 0
        events.append(
            _row(
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
                digest,
                record.get("origin"),
            )
        )
        row["events"] += 1
        row["last_seq"], row["indexed_bytes"], row["chain_head"] = seq, offset + len(line) + 1, digest
        row["ended"] = max(row["ended"] or ts, ts)
        row["started"] = min(row["started"] or ts, ts)
        payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
        if kind == "prompt":
            text = _s(payload.get("prompt"))
            prompts.append(_row(session, seq, ts, text))
            last_prompt = seq
            row["prompts"] += 1
            if row["first_prompt"] is None:
                row["first_prompt"] = _storable(text[:FIRST_PROMPT_CHARS])
            if _s(payload.get("session_title")):
                row["title"] = _storable(payload["session_title"])
        if kind in ("tool_result", "tool_error"):
            row["tool_calls"] += 1
        if record.get("event") == MESSAGE_EVENT and isinstance(payload.get("usage"), dict):
            turns.append(_turn_row(session, seq, ts, record.get("subagent"), payload))
        row["failures"] += failed
        if kind == "session_end":
            row["end_reason"] = _s(payload.get("reason")) or None
        context = record.get("context") if isinstance(record.get("context"), dict) else None
        if context:
            row["project"] = row["project"] or context.get("project")
            row["branch"] = context.get("branch") or row["branch"]
            row["head_start"] = row["head_start"] or context.get("head")
            row["head_end"] = context.get("head") or row["head_end"]
        if kind == "commit" and _s(payload.get("sha")):
            _commit_rows(session, seq, ts, payload, context or {}, commits, commit_files)
        if record.get("cwd") and not row["cwd"]:
            row["cwd"] = _storable(record["cwd"])
        for change in record.get("changes") or []:
            path = change.get("path", "")
            changes.append(
                _row(
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
                    record.get("tool"),
                    last_prompt,
                    change.get("pre_oid"),
                    change.get("pre_blob"),
                    change.get("post_blob"),
                    change.get("via"),
                )
            )
            row["added"] += int(change.get("added", 0))
            row["removed"] += int(change.get("removed", 0))
            new_paths[_storable(path)] = None
        text = search_text(record)
        if text:
            search.append(_row(text, session, seq, kind))
    if new_paths:
        paths_json = json.dumps(list(new_paths))
        seen = conn.execute(
            "SELECT DISTINCT path FROM changes WHERE session = ? AND path IN (SELECT value FROM json_each(?))",
            (session, paths_json),
        ).fetchall()
        row["files_changed"] += len(new_paths) - len(seen)
    conn.executemany(
        "INSERT OR REPLACE INTO events (session, seq, ts, event, kind, tool, tool_use_id, subagent,"
        f" summary, failed, offset, length, hash, origin) VALUES ({', '.join('?' * 14)})",
        events,
    )
    if turns:
        _add_turns(conn, row, turns)
    if prompts:
        conn.executemany("INSERT OR REPLACE INTO prompts (session, seq, ts, text) VALUES (?, ?, ?, ?)", prompts)
    if changes:
        conn.executemany(
            "INSERT OR REPLACE INTO changes (session, seq, ts, path, name, op, added, removed, binary,"
            " patch, patch_sha256, post_oid, tool, prompt_seq, pre_oid, pre_blob, post_blob, via)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            changes,
        )
    if commits:
        conn.executemany(
            "INSERT OR REPLACE INTO commits (session, seq, ts, sha, project, branch, parents, subject,"
            " author, author_email, author_time, committer_time, by_agent, files)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            commits,
        )
        conn.executemany(
            "INSERT OR REPLACE INTO commit_files (session, sha, path, old_path, status, oid, pre_oid)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            commit_files,
        )
    if search:
        conn.executemany("INSERT INTO search (text, session, seq, kind) VALUES (?, ?, ?, ?)", search)
    conn.execute(_UPSERT_SESSION, tuple(row[c] for c in SESSION_COLUMNS))


def _commit_rows(session: str, seq: int, ts: str, commit: dict, context: dict, commits: list, files: list) -> None:
    """A ``commit`` event's rows: the commit, and each file with its blob id in the
    commit (what ``change_commits`` matches the recorded changes against)."""
    entries = [f for f in commit.get("files") or [] if isinstance(f, dict) and _s(f.get("path"))]
    commits.append(
        _row(
            session,
            seq,
            ts,
            commit["sha"],
            context.get("project"),
            context.get("branch"),
            " ".join(commit.get("parents") or []),
            _s(commit.get("subject")),
            _s(commit.get("author")),
            _s(commit.get("author_email")),
            commit.get("author_time"),
            commit.get("committer_time"),
            1 if commit.get("by_agent") else 0,
            commit.get("files_total") or len(entries),
        )
    )
    files += [
        _row(session, commit["sha"], f["path"], f.get("old_path"), f.get("status"), f.get("oid"), f.get("pre_oid"))
        for f in entries
    ]


TABLES = ("events", "changes", "prompts", "commits", "commit_files", "turns")


def _turn_row(session: str, seq: int, ts: str, subagent: str | None, payload: dict) -> tuple:
    """One model call's tokens and estimated cost (``pricing``: list prices, see
    docs/transcripts.md); the message id keys it, so a message recorded twice (a join
    and an import of the same transcript) counts once."""
    from auditlog import pricing

    usage, model = payload["usage"], _s(payload.get("model")) or None
    fresh, out, write_5m, write_1h, read = pricing.tokens(usage)
    key = _s(payload.get("message_id")) or _s(payload.get("uuid")) or f"seq:{seq}"
    return _row(
        session, key, seq, ts, model, subagent, fresh, out, write_5m + write_1h, read, pricing.cost_usd(model, usage)
    )


_TURN_SUMS = ("input_tokens", "output_tokens", "cache_write_tokens", "cache_read_tokens", "cost_usd")


def _add_turns(conn: sqlite3.Connection, row: dict, turns: list[tuple]) -> None:
    """Add model calls and update the session's totals by difference (a message seen
    before replaces its old counts), so a join costs the same in a long session."""
    for turn in turns:
        old = conn.execute(
            f"SELECT {', '.join(_TURN_SUMS)} FROM turns WHERE session = ? AND message_id = ?", turn[:2]
        ).fetchone()
        new = turn[6:11]
        for column, before, after in zip(_TURN_SUMS, old or (None,) * 5, new, strict=True):
            if after is not None or before is not None:
                row[column] = (row[column] or 0) + (after or 0) - (before or 0)
        unpriced = new[4] is None and sum(new[:4]) > 0
        was_unpriced = old is not None and old[4] is None and sum(old[:4]) > 0
        row["unpriced_turns"] = (row["unpriced_turns"] or 0) + unpriced - was_unpriced
        if turn[5] is None and turn[4] and turn[4] != "<synthetic>":  # the main agent's latest model
            row["model"] = turn[4]
        conn.execute(
            "INSERT OR REPLACE INTO turns (session, message_id, seq, ts, model, subagent, input_tokens,"
            " output_tokens, cache_write_tokens, cache_read_tokens, cost_usd)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            turn,
        )


def forget_session(conn: sqlite3.Connection, session: str) -> None:
    """Remove one session's rows (its journal was replaced or cut)."""
    for table in TABLES:
        conn.execute(f"DELETE FROM {table} WHERE session = ?", (session,))
    phrase = '"' + session.replace('"', "") + '"'
    conn.execute(
        "DELETE FROM search WHERE rowid IN (SELECT rowid FROM search WHERE search MATCH ?)", (f"session:{phrase}",)
    )
    conn.execute("DELETE FROM sessions WHERE id = ?", (session,))


def forget_everything(conn: sqlite3.Connection) -> None:
    for table in (*TABLES, "sessions"):
        conn.execute(f"DELETE FROM {table}")
    conn.execute("DELETE FROM search")


def catch_up(
    conn: sqlite3.Connection,
    folder_path: str,
    session: str,
    just_written: list[tuple[int, bytes, dict]] | None = None,
    *,
    own_transaction: bool = True,
) -> int:
    """Index every journal line the index has not seen; returns how many were added.

    ``just_written`` [(offset, line, record) …], the lines the caller has just appended,
    saves re-reading them in the usual case where the index was up to date before them.
    """
    folder = os.path.basename(folder_path)
    if own_transaction:
        conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT indexed_bytes FROM sessions WHERE id = ?", (session,)).fetchone()
        done = row[0] if row else 0
        size = os.path.getsize(os.path.join(folder_path, journal.JOURNAL))
        if done > size:  # the journal was replaced or cut: index it again from the start
            forget_session(conn, session)
            done = 0
        added = 0
        if just_written and just_written[0][0] == done:
            for start in range(0, len(just_written), BATCH):
                index_records(conn, folder, just_written[start : start + BATCH])
            added = len(just_written)
        elif done < size:
            batch: list[tuple[int, bytes, dict]] = []
            for offset, line in journal.iter_lines(os.path.join(folder_path, journal.JOURNAL), done):
                batch.append((offset, line, decode_record(line)))
                if len(batch) >= BATCH:
                    index_records(conn, folder, batch)
                    added += len(batch)
                    batch = []
            index_records(conn, folder, batch)
            added += len(batch)
        if own_transaction:
            conn.execute("COMMIT")
        return added
    except BaseException:
        if own_transaction:
            conn.execute("ROLLBACK")
        raise
