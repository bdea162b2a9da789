"""Every read the browser makes of the store, through ``auditlog.query`` only.

The screens call these from thread workers. Each call opens its own ``Store`` because a
``Store`` holds one sqlite3 connection, which may only be used by the thread that opened
it, and Textual starts a new thread for every thread worker. Opening costs about a
millisecond (one connect and one pragma), far below what the queries themselves take.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from auditlog.export import export_html, export_md
from auditlog.models import Change, Event, SearchHit, SessionSummary
from auditlog.query import QueryError, SessionFilter, Store, fts_words

EXPORT_FORMATS = {"md": export_md, "html": export_html}


@dataclass(frozen=True)
class SessionPage:
    """The first ``len(sessions)`` sessions matching a filter, and how many there are."""

    sessions: list[SessionSummary]
    matching: int
    total: int


@dataclass(frozen=True)
class SearchResult:
    """Hits for a query; ``note`` says when the query was read as plain words instead."""

    hits: list[SearchHit]
    query: str
    note: str = ""


@dataclass(frozen=True)
class SessionData:
    """What the session screen needs at once: the summary, the timeline and the changes."""

    summary: SessionSummary
    events: list[Event]
    changes: list[Change]
    journal: str  # the events.jsonl path, watched for live follow
    journal_size: int


class Reader:
    """Read access to one store (``$AUDITLOG_HOME`` unless ``home`` is given)."""

    def __init__(self, home: str | None = None) -> None:
        self.home = home

    def _store(self) -> Store:
        return Store(self.home)

    # -- sessions --------------------------------------------------------------------
    def page(self, flt: SessionFilter, limit: int) -> SessionPage:
        """The newest ``limit`` matches (capped by the filter's own limit) and the counts:
        the table shows a page at once and asks for more as the cursor nears its end."""
        cap = min(limit, flt.limit) if flt.limit else limit
        paged = SessionFilter(**{**flt.__dict__, "limit": cap})
        with self._store() as store:
            sessions = store.sessions(paged)
            matching = store.count_sessions(flt)
            if flt.limit:
                matching = min(matching, flt.limit)
            total = store.count_sessions(SessionFilter())
        return SessionPage(sessions, matching, total)

    def resolve(self, ref: str) -> SessionSummary:
        with self._store() as store:
            return store.resolve(ref)

    # -- one session -----------------------------------------------------------------
    def session(self, session_id: str) -> SessionData:
        with self._store() as store:
            summary = store.resolve(session_id)
            journal = _journal(store, summary.id)
            return SessionData(summary, store.events(summary.id), store.changes(summary.id), journal, _size(journal))

    def events_after(self, session_id: str, seq: int) -> tuple[list[Event], list[Change]]:
        """Events past ``seq`` and, when there are any, the session's changes again."""
        with self._store() as store:
            fresh = [e for e in store.events(session_id) if e.seq > seq]
            return fresh, (store.changes(session_id) if fresh else [])

    def changes(self, session_id: str) -> list[Change]:
        with self._store() as store:
            return store.changes(store.resolve(session_id).id)

    def summary(self, session_id: str) -> SessionSummary:
        with self._store() as store:
            return store.resolve(session_id)

    def conversation(self, session_id: str) -> str:
        with self._store() as store:
            return store.conversation(session_id)

    def record(self, session_id: str, seq: int) -> dict:
        with self._store() as store:
            return store.record(session_id, seq)

    def patch(self, change: Change) -> str:
        with self._store() as store:
            return store.patch_text(change)

    def image_after(self, change: Change) -> bytes | None:
        with self._store() as store:
            return store.image_after(change)

    # -- search and export -----------------------------------------------------------
    def search(self, query: str, limit: int = 200) -> SearchResult:
        """FTS5 search as typed; a query that does not parse (often a half-typed one) is
        retried as plain words, so results keep coming while the user types."""
        with self._store() as store:
            try:
                return SearchResult(store.search(query, limit=limit), query)
            except QueryError as exc:
                words = fts_words(query)
                if not words:
                    raise
                note = f"read as plain words: {exc}"
                return SearchResult(store.search(words, limit=limit), words, note)

    def export(self, session_id: str, fmt: str, directory: str) -> str:
        """Write the session as Markdown or HTML into ``directory``; returns the path.
        An existing file is never overwritten: a numbered name is taken instead."""
        writer = EXPORT_FORMATS[fmt]
        with self._store() as store:
            summary = store.resolve(session_id)
            path = _free_path(directory, f"auditlog-{summary.id[:8]}", fmt)
            with open(path, "x", encoding="utf-8") as out:
                writer(store, [summary], out)
        return path


def _journal(store: Store, session_id: str) -> str:
    return os.path.join(store.folder(session_id), "events.jsonl")


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def journal_size(path: str) -> int:
    """The journal's length in bytes (0 when it is not there yet)."""
    return _size(path)


def _free_path(directory: str, stem: str, ext: str) -> str:
    path = os.path.join(directory, f"{stem}.{ext}")
    n = 2
    while os.path.exists(path):
        path = os.path.join(directory, f"{stem}-{n}.{ext}")
        n += 1
    return os.path.abspath(path)
