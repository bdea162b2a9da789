"""Tokens and estimated cost, read from the index's ``turns`` table (one row per model
call, from the transcript): per session (in ``SessionSummary``), per call and per day.
Mixed into ``auditlog.query.Store``, whose ``_rows`` it uses."""

from __future__ import annotations

import os
from collections.abc import Callable

from auditlog.dates import bound
from auditlog.models import DailyUsage, Turn

_SUMS = (
    "sum(t.input_tokens) AS input_tokens, sum(t.output_tokens) AS output_tokens,"
    " sum(t.cache_write_tokens) AS cache_write_tokens, sum(t.cache_read_tokens) AS cache_read_tokens,"
    " sum(t.cost_usd) AS cost_usd, sum(t.cost_usd IS NULL AND t.input_tokens + t.output_tokens"
    " + t.cache_write_tokens + t.cache_read_tokens > 0) AS unpriced_turns"
)


def window(column: str, since: str | None, until: str | None, project: str | None) -> tuple[list[str], list]:
    """SQL conditions for a time window on ``column`` and a project (``s`` is the
    sessions table), shared by the questions that take ``--since/--until/--project``."""
    where, params = [], []
    if since:
        where.append(f"{column} >= ?")
        params.append(bound(since))
    if until:
        where.append(f"{column} < ?")
        params.append(bound(until, end=True))
    if project:
        absolute = os.path.abspath(os.path.expanduser(project))
        where.append("(s.project = ? OR s.project LIKE ?)")
        params += [absolute, absolute.rstrip("/") + "/%"]
    return where, params


class UsageQueries:
    """The usage questions of the CLI (``sessions --by-day``, ``changed --by-day``) and the TUI."""

    _rows: Callable[..., list[dict]]  # Store's: runs a read query

    def turns(self, session: str) -> list[Turn]:
        """The session's model calls in order, each with its tokens and estimated cost."""
        rows = self._rows("SELECT * FROM turns WHERE session = ? ORDER BY seq", [session])
        return [Turn(r["session"], r["seq"], r["ts"], r["message_id"], r["model"], r["subagent"], r["input_tokens"],
                     r["output_tokens"], r["cache_write_tokens"], r["cache_read_tokens"], r["cost_usd"])
                for r in rows]

    def usage_by_day(self, since: str | None = None, until: str | None = None, project: str | None = None,
                     sessions: list[str] | None = None) -> list[DailyUsage]:
        """Model calls per local day (by when each call was made), oldest day first;
        optionally only a project's sessions, or only the given sessions."""
        where, params = window("t.ts", since, until, project)
        if sessions is not None:
            import json

            where.append("t.session IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(sessions))
        rows = self._rows(
            f"SELECT date(t.ts, 'localtime') AS day, count(DISTINCT t.session) AS sessions, count(*) AS turns, {_SUMS}"
            " FROM turns t JOIN sessions s ON s.id = t.session"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " GROUP BY day ORDER BY day",
            params,
        )
        return [DailyUsage(r["day"], r["sessions"], r["turns"], r["input_tokens"] or 0, r["output_tokens"] or 0,
                           r["cache_write_tokens"] or 0, r["cache_read_tokens"] or 0, r["cost_usd"],
                           r["unpriced_turns"] or 0) for r in rows]
