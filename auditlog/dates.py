"""The date forms every ``--since``/``--until`` accepts, read in the local time zone.

``W`` is an ISO date or datetime, ``today``, ``yesterday``, ``Nd``/``Nh``/``Nw``/``Nm``
(days, hours, weeks, minutes), ``N days ago`` (and hours, weeks, months), ``last week``
(seven days ago, as git reads it), ``last month`` (a calendar month ago), ``this week``
(Monday 00:00) and ``this month``. Day-sized forms used with ``--until`` mean the end of
that day (or week, or month). Calendar arithmetic is done on the wall clock, so "3 days
ago" across a daylight-saving change is still 3 days ago at the same local time.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

_RELATIVE = re.compile(r"(\d+)\s*(m|min|mins|minutes?|h|hours?|d|days?|w|weeks?|months?)(\s+ago)?\Z")
FORMS = (
    "2026-11-29",
    "2026-11-29T14:30",
    "today",
    "yesterday",
    "3d",
    "12h",
    "2w",
    "3 days ago",
    "last week",
    "last month",
    "this week",
    "this month",
)


class DateError(ValueError):
    pass


def _add_months(moment: datetime, months: int) -> datetime:
    month_index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(month_index, 12)
    month += 1
    days_in_month = (date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)).day
    return moment.replace(year=year, month=month, day=min(moment.day, days_in_month))


def _local_midnight(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _to_utc(local_naive: datetime) -> datetime:
    """A wall-clock time in the local zone as an aware UTC datetime (DST-correct)."""
    return datetime.fromtimestamp(local_naive.timestamp(), UTC)


def parse_when(text: str, *, end: bool = False, now: datetime | None = None) -> datetime:
    """The moment ``text`` names, as an aware UTC datetime. With ``end``, day-sized
    forms name the end of their day, week or month (for ``--until``)."""
    raw = " ".join(text.strip().lower().split())
    local_now = now.astimezone().replace(tzinfo=None) if now and now.tzinfo else (now or datetime.now())
    today = _local_midnight(local_now)
    if raw in ("today", "yesterday"):
        start = today - timedelta(days=1 if raw == "yesterday" else 0)
        return _to_utc(start + timedelta(days=1) if end else start)
    if raw == "now":
        return _to_utc(local_now)
    if raw == "this week":
        start = today - timedelta(days=today.weekday())
        return _to_utc(start + timedelta(days=7) if end else start)
    if raw == "this month":
        start = today.replace(day=1)
        return _to_utc(_add_months(start, 1) if end else start)
    if raw == "last week":
        return _to_utc(local_now - timedelta(days=7))
    if raw == "last month":
        return _to_utc(_add_months(local_now, -1))
    match = _RELATIVE.match(raw)
    if match:
        count, unit = int(match.group(1)), match.group(2)
        if unit.startswith("mo"):
            return _to_utc(_add_months(local_now, -count))
        if unit in ("m", "min", "mins") or unit.startswith("minute"):
            return _to_utc(local_now) - timedelta(minutes=count)
        if unit.startswith("h"):
            return _to_utc(local_now) - timedelta(hours=count)
        days = count * 7 if unit.startswith("w") else count
        return _to_utc(local_now - timedelta(days=days))
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
            day = datetime.fromisoformat(raw)
            return _to_utc(day + timedelta(days=1) if end else day)
        moment = datetime.fromisoformat(text.strip().replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        raise DateError(f"can't read {text!r} as a date; use one of: {', '.join(FORMS)}") from None
    return moment.astimezone(UTC) if moment.tzinfo else _to_utc(moment)


def iso_utc(moment: datetime) -> str:
    """The store's timestamp form (``2026-11-29T21:30:00.000Z``), which sorts as text."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def bound(text: str | None, *, end: bool = False) -> str | None:
    return iso_utc(parse_when(text, end=end)) if text else None


def local_display(ts: str | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """A stored UTC timestamp shown in the local zone."""
    if not ts:
        return ""
    moment = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    return moment.astimezone().strftime(fmt)


def compact_duration(seconds: float | None) -> str:
    """A duration short enough for a narrow column: ``45s``, ``12m05``, ``3h05``."""
    if seconds is None:
        return ""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}"
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}"
