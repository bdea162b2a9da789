"""How the browser writes times, durations and paths.

The app takes one ``Display`` instead of formatting inline, for two reasons: the zone the
times are shown in is a choice (local by default, any ``tzinfo`` on request), and what
depends on the clock must be replaceable as a whole — the snapshot tests pass a subclass
that masks times and temporary paths, so that screenshots of a store written through the
real hook compare equal from run to run. Nothing here changes what the store holds; it
only decides how a value is drawn.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, tzinfo

from auditlog.dates import compact_duration


def _parse(ts: str) -> datetime:
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


def _home() -> str:
    return os.path.expanduser("~")


@dataclass(frozen=True)
class Display:
    """Formats for the values the screens show; ``tz=None`` means the local zone."""

    tz: tzinfo | None = None
    home: str = field(default_factory=_home)

    def _local(self, ts: str) -> datetime:
        return _parse(ts).astimezone(self.tz)

    def when(self, ts: str | None) -> str:
        """A start time in the sessions table: date and minute."""
        return self._local(ts).strftime("%Y-%m-%d %H:%M") if ts else ""

    def clock(self, ts: str | None) -> str:
        """An event time in a timeline: the date is in the screen's title already."""
        return self._local(ts).strftime("%H:%M:%S") if ts else ""

    def stamp(self, ts: str | None) -> str:
        """A full time for headers, to the millisecond the hook recorded."""
        if not ts:
            return ""
        moment = self._local(ts)
        return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d} {moment.strftime('%Z')}"

    def duration(self, seconds: float | None) -> str:
        """Compact, so the column stays narrow at 80 columns (``45s``, ``12m05``, ``3h05``)."""
        return compact_duration(seconds)

    def path(self, path: str | None) -> str:
        """A folder with the home directory written as ``~``, as a shell user reads it."""
        if not path:
            return ""
        home = self.home.rstrip("/")
        if home and (path == home or path.startswith(home + "/")):
            return "~" + path[len(home):]
        return path

    def text(self, text: str) -> str:
        """Free text from the store (conversation, payloads): shown as recorded."""
        return text


def count(n: int, noun: str) -> str:
    """``1 session``, ``10,000 sessions``: counts are read at a glance, so group digits."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
