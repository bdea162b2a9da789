"""The read API: every question the CLI and the TUI ask of the store goes through here,
and comes back as model objects (``auditlog.models``), never as cursors or rows.

Reads use the SQLite index (through sqlite-utils) for finding and the journals, patches
and blobs for content, so what is shown is always what the trail holds.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import dataclass

import sqlite_utils

from auditlog import blobs, index_schema, paths
from auditlog.dates import bound
from auditlog.models import Change, ChangedFile, Event, SearchHit, SessionSummary, session_from_row
from auditlog.patches import make_patch
from auditlog.query_git import GitQueries
from auditlog.query_usage import UsageQueries, window

FTS_SET_CAP = 2000  # sessions; beyond this a full-text filter probes sessions one by one
AGENT_ALIASES = {"claude": "claude-code", "gemini": "gemini-cli"}
_GLOB = re.compile(r"[*?\[]")


class QueryError(ValueError):
    """A question the store cannot answer as asked (bad query, unknown session …)."""


class SessionNotFound(QueryError):
    pass


class AmbiguousSession(QueryError):
    def __init__(self, ref: str, candidates: list[SessionSummary]) -> None:
        lines = ", ".join(f"{c.id[:12]} ({c.started[:16]}, {(c.first_prompt or '')[:40]!r})" for c in candidates[:8])
        super().__init__(f"{ref!r} matches {len(candidates)} sessions: {lines}; give more of the id")
        self.candidates = candidates


@dataclass
class SessionFilter:
    """The filters of ``auditlog sessions`` and the TUI's filter bar (all optional)."""

    since: str | None = None
    until: str | None = None
    file: str | None = None
    prompt: str | None = None
    text: str | None = None  # full text: prompts, messages, commands, errors, paths
    project: str | None = None
    agent: str | None = None
    tool: str | None = None
    failed: bool = False
    limit: int | None = None
    commit: str | None = None  # made this commit, or their changes are in it
    branch: str | None = None  # behind the commits of this branch
    repo: str | None = None  # a folder of the git repository for commit/branch (default: cwd)


def fts_words(text: str) -> str:
    """Plain words as an FTS5 query that cannot be malformed: each word quoted, all required."""
    words = re.findall(r"\w+", text, flags=re.UNICODE)
    return " ".join('"' + w.replace('"', '""') + '"' for w in words)


_PATHLIKE = re.compile(r'^[^"()*\s]*[./\\:=@#-][^"()\s]*$')


def forgiving_fts(query: str) -> str:
    """The user's FTS5 query with path-like words (``notes.txt``, ``src/app.py``,
    ``port=8000``) quoted as phrases, which FTS5 would otherwise reject; phrases in
    double quotes, AND/OR/NOT, NEAR() and prefix* keep their meaning."""
    out = []
    for token in query.split():
        if token.upper() not in ("AND", "OR", "NOT") and _PATHLIKE.match(token) and re.search(r"\w", token):
            out.append('"' + token.replace('"', '""') + '"')
        else:
            out.append(token)
    return " ".join(out)


def file_condition(pattern: str, column: str = "path", name_column: str = "name") -> tuple[str, list]:
    """SQL matching a changed path exactly, by suffix (``config.ini`` finds
    ``src/app/config.ini``) or by glob (``src/**.py``, ``*.ini``)."""
    pattern = pattern.strip().lstrip("./") if pattern.startswith("./") else pattern.strip()
    if _GLOB.search(pattern):
        return f"({column} GLOB ? OR {column} GLOB ?)", [pattern, "*/" + pattern]
    base = pattern.rstrip("/").rsplit("/", 1)[-1]
    if "/" not in pattern:
        return f"{name_column} = ?", [pattern]
    return f"({name_column} = ? AND ({column} = ? OR {column} LIKE ?))", [base, pattern, "%/" + pattern]


class Store(GitQueries, UsageQueries):
    """A read handle on one store (``$AUDITLOG_HOME`` unless ``home`` is given); the git
    questions (commits, branches, ranges) are in :class:`auditlog.query_git.GitQueries`,
    tokens and cost in :class:`auditlog.query_usage.UsageQueries`."""

    def __init__(self, home: str | None = None) -> None:
        self.home = home or paths.store_home()
        self._conn: sqlite3.Connection | None = None

    # -- plumbing --------------------------------------------------------------------
    @property
    def db(self) -> sqlite_utils.Database:
        if self._conn is None:
            paths.ensure_dir(self.home)
            self._conn = index_schema.connect(self.home)
        return sqlite_utils.Database(self._conn)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _rows(self, sql: str, params: list | tuple = (), *, fts_query: str | None = None) -> list[dict]:
        try:
            return list(self.db.query(sql, params))
        except sqlite3.OperationalError as exc:
            if fts_query is not None:  # the user's FTS5 query did not parse
                raise QueryError(
                    f"can't search for {fts_query!r} ({exc}): quote phrases with double quotes; "
                    "AND, OR, NOT and NEAR() are operators; prefix* matches word starts"
                ) from None
            raise

    def folder(self, session: str) -> str:
        rows = self._rows("SELECT folder FROM sessions WHERE id = ?", [session])
        name = rows[0]["folder"] if rows else paths.session_folder_name(session)
        return os.path.join(paths.sessions_root(self.home), name)

    # -- sessions --------------------------------------------------------------------
    def _session_where(self, f: SessionFilter) -> tuple[str, list]:
        where, params = [], []
        if f.since:
            where.append("s.ended >= ?")
            params.append(bound(f.since))
        if f.until:
            where.append("s.started < ?")
            params.append(bound(f.until, end=True))
        if f.file:
            cond, p = file_condition(f.file)
            where.append(f"s.id IN (SELECT session FROM changes WHERE {cond})")
            params += p
        if f.prompt and fts_words(f.prompt):
            cond, p = self._fts_condition(f"kind:prompt AND text:({fts_words(f.prompt)})")
            where.append(cond)
            params += p
        if f.text and fts_words(f.text):
            cond, p = self._fts_condition(f"text:({fts_words(f.text)})")
            where.append(cond)
            params += p
        if f.project:
            project = (
                os.path.abspath(os.path.expanduser(f.project)) if f.project.startswith((".", "~", "/")) else f.project
            )
            where.append("(s.project = ? OR s.project LIKE ? OR s.cwd = ? OR s.project LIKE ?)")
            params += [project, project.rstrip("/") + "/%", project, "%/" + f.project.strip("/")]
        if f.agent:
            where.append("s.agent = ?")
            params.append(AGENT_ALIASES.get(f.agent, f.agent))
        if f.tool:
            where.append("s.id IN (SELECT session FROM events WHERE tool = ?)")
            params.append(f.tool)
        if f.failed:
            where.append("s.failures > 0")
        if f.commit or f.branch:
            where.append("s.id IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(sorted(self.git_filter_ids(f.commit, f.branch, f.repo))))
        return (" WHERE " + " AND ".join(where)) if where else "", params

    def _fts_condition(self, match: str) -> tuple[str, list]:
        """A full-text session filter whose cost does not grow with the store: when the
        matches are few, the set of their sessions; when they are many (common words),
        a probe of each candidate session (newest first, so a LIMIT stops it early)."""
        rows = self._rows("SELECT DISTINCT session FROM search WHERE search MATCH ? LIMIT ?",
                          [match, FTS_SET_CAP + 1])
        if len(rows) <= FTS_SET_CAP:
            return "s.id IN (SELECT value FROM json_each(?))", [json.dumps([r["session"] for r in rows])]
        probe = ("EXISTS (SELECT 1 FROM search WHERE search MATCH"
                 " ('session:\"' || replace(s.id, '\"', '') || '\" AND ' || ?))")
        return probe, [match]

    def sessions(self, f: SessionFilter | None = None) -> list[SessionSummary]:
        """Sessions matching the filter, newest first."""
        f = f or SessionFilter()
        where, params = self._session_where(f)
        limit = f" LIMIT {int(f.limit)}" if f.limit else ""
        rows = self._rows(f"SELECT * FROM sessions s{where} ORDER BY s.started DESC{limit}", params)
        return [session_from_row(r) for r in rows]

    def count_sessions(self, f: SessionFilter | None = None) -> int:
        where, params = self._session_where(f or SessionFilter())
        return self._rows(f"SELECT count(*) AS n FROM sessions s{where}", params)[0]["n"]

    def resolve(self, ref: str) -> SessionSummary:
        """A session from its full id, a unique prefix, or ``last`` (the newest)."""
        ref = ref.strip()
        if ref in ("last", "latest", "@"):
            rows = self._rows("SELECT * FROM sessions ORDER BY started DESC LIMIT 1")
            if not rows:
                raise SessionNotFound("no sessions recorded yet")
            return session_from_row(rows[0])
        rows = self._rows("SELECT * FROM sessions WHERE id = ?", [ref])
        if rows:
            return session_from_row(rows[0])
        escaped = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = self._rows(
            "SELECT * FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY started DESC LIMIT 20", [escaped + "%"]
        )
        if len(rows) == 1:
            return session_from_row(rows[0])
        if not rows:
            recent = ", ".join(s.id[:8] for s in self.sessions(SessionFilter(limit=5)))
            hint = f"; recent sessions: {recent}" if recent else "; no sessions recorded yet"
            raise SessionNotFound(f"no session matches {ref!r}{hint}")
        raise AmbiguousSession(ref, [session_from_row(r) for r in rows])

    # -- one session -----------------------------------------------------------------
    def events(self, session: str) -> list[Event]:
        rows = self._rows("SELECT * FROM events WHERE session = ? ORDER BY seq", [session])
        return [
            Event(
                r["session"],
                r["seq"],
                r["ts"],
                r["event"],
                r["kind"],
                r["tool"],
                r["tool_use_id"],
                r["subagent"],
                r["summary"] or "",
                bool(r["failed"]),
                r.get("origin"),
            )
            for r in rows
        ]

    def records(self, session: str, *, inline_blobs: bool = False) -> list[dict]:
        """The session's journal records, verbatim (blob references kept unless asked)."""
        folder = self.folder(session)
        out = []
        with open(os.path.join(folder, "events.jsonl"), "rb") as f:
            for line in f:
                if line.endswith(b"\n"):
                    record = json.loads(line)
                    out.append(blobs.internalize(record, folder) if inline_blobs else record)
        return out

    def record(self, session: str, seq: int) -> dict:
        rows = self._rows("SELECT offset, length FROM events WHERE session = ? AND seq = ?", [session, seq])
        if not rows:
            raise QueryError(f"session {session[:12]} has no event {seq}")
        with open(os.path.join(self.folder(session), "events.jsonl"), "rb") as f:
            f.seek(rows[0]["offset"])
            return json.loads(f.read(rows[0]["length"]))

    def changes(
        self,
        session: str | None = None,
        file: str | None = None,
        *,
        since: str | None = None,
        until: str | None = None,
        project: str | None = None,
    ) -> list[Change]:
        """File changes in time order, each with the prompt that preceded it."""
        where, params = [], []
        if session:
            where.append("c.session = ?")
            params.append(session)
        if file:
            cond, p = file_condition(file, "c.path", "c.name")
            where.append(cond)
            params += p
        conditions, values = window("c.ts", since, until, project)
        where += conditions
        params += values
        sql = (
            "SELECT c.*, s.folder, coalesce(s.project, s.cwd) AS root, p.text AS prompt"
            " FROM changes c JOIN sessions s ON s.id = c.session"
            " LEFT JOIN prompts p ON p.session = c.session AND p.seq = c.prompt_seq"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY c.ts, c.session, c.seq, c.path"
        )
        root = paths.sessions_root(self.home)
        return [
            Change(r["session"], r["seq"], r["ts"], r["path"], r["op"], r["added"], r["removed"], bool(r["binary"]),
                   r["patch"], os.path.join(root, r["folder"], r["patch"]), r["tool"], r["prompt"], r["prompt_seq"],
                   r["root"])
            for r in self._rows(sql, params)
        ]

    def changed(
        self, since: str | None = None, until: str | None = None, project: str | None = None
    ) -> list[ChangedFile]:
        """ "What changed": per project and file, the +/- totals and the changes in order."""
        files: dict[tuple[str, str], ChangedFile] = {}
        for change in self.changes(since=since, until=until, project=project):
            key = (change.project or "(no project)", change.path)
            entry = files.setdefault(key, ChangedFile(key[0], key[1]))
            entry.added += change.added
            entry.removed += change.removed
            entry.changes.append(change)
        return sorted(files.values(), key=lambda f: (f.project, f.path))

    def patch_text(self, change: Change) -> str:
        with open(change.patch_path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()

    def _change_images(self, session: str) -> dict[tuple[int, str], dict]:
        return {(r["seq"], c["path"]): c for r in self.records(session) for c in r.get("changes") or []}

    def image_after(self, change: Change) -> bytes | None:
        """The whole file as it stood after this change (``None``: deleted)."""
        entry = self._change_images(change.session).get((change.seq, change.path), {})
        digest = entry.get("post_blob")
        return blobs.read_blob(self.folder(change.session), digest) if digest else None

    def net_patches(self, session: str, file: str | None = None) -> list[tuple[str, str]]:
        """Per file, one patch from its first pre-image to its last post-image in the
        session: ``git apply`` takes them onto the state before the session."""
        folder = self.folder(session)
        first: dict[str, dict] = {}
        last: dict[str, dict] = {}
        for record in self.records(session):
            for change in record.get("changes") or []:
                first.setdefault(change["path"], change)
                last[change["path"]] = change
        wanted = {c.path for c in self.changes(session, file)} if file else set(first)
        out = []
        for path in sorted(wanted):
            before_ref, after_ref = first[path].get("pre_blob"), last[path].get("post_blob")
            if before_ref is None and first[path].get("op") != "add":
                raise QueryError(f"{path}: this session's records keep no whole pre-image; use --steps")
            before = blobs.read_blob(folder, before_ref) if before_ref else None
            after = blobs.read_blob(folder, after_ref) if after_ref else None
            patch = make_patch(path, before, after)
            if patch is not None:
                out.append((path, patch.text))
        return out

    def conversation(self, session: str) -> str:
        with open(
            os.path.join(self.folder(session), "conversation.md"), encoding="utf-8", errors="surrogateescape"
        ) as f:
            return f.read()

    # -- search ----------------------------------------------------------------------
    def search(self, query: str, *, limit: int = 50, session: str | None = None) -> list[SearchHit]:
        """Full-text search over prompts, assistant messages, commands, tool errors and
        changed paths; FTS5 query syntax (phrases, OR, NOT, prefix*). Newest hits first
        (an audit trail is read by time; it also lets SQLite stop at the limit)."""
        if not query.strip():
            raise QueryError("give some words to search for")
        match = f"text:({forgiving_fts(query)})"
        if session:
            match = f'session:"{session.replace(chr(34), "")}" AND {match}'
        rows = self._rows(
            "SELECT h.session, h.seq, h.kind, h.snippet, e.ts, e.summary, s.project FROM"
            " (SELECT session, seq, kind, snippet(search, 0, '[[', ']]', '…', 16) AS snippet, rowid AS r"
            "  FROM search WHERE search MATCH ? ORDER BY rowid DESC LIMIT ?) h"
            " JOIN events e ON e.session = h.session AND e.seq = h.seq"
            " JOIN sessions s ON s.id = h.session ORDER BY h.r DESC",
            [match, int(limit)],
            fts_query=query,
        )
        return [
            SearchHit(r["session"], r["seq"], r["kind"], r["ts"], r["summary"] or "", r["snippet"] or "", r["project"])
            for r in rows
        ]
