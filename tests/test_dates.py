"""The date forms of --since/--until, in the local time zone: around midnight, week and
month boundaries, and daylight-saving changes."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from auditlog.dates import DateError, iso_utc, parse_when


@pytest.fixture
def berlin(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def at(text: str, now: datetime, end: bool = False) -> str:
    return iso_utc(parse_when(text, now=now, end=end))


def test_today_and_yesterday_just_after_midnight(berlin) -> None:
    now = datetime(2026, 11, 29, 0, 0, 30)  # local, 30 s after midnight
    assert at("today", now) == "2026-11-28T23:00:00.000Z"
    assert at("today", now, end=True) == "2026-11-29T23:00:00.000Z"
    assert at("yesterday", now) == "2026-11-27T23:00:00.000Z"
    assert at("yesterday", now, end=True) == "2026-11-28T23:00:00.000Z"


def test_this_week_starts_on_monday(berlin) -> None:
    sunday_night = datetime(2026, 11, 29, 23, 59)
    assert at("this week", sunday_night) == "2026-11-22T23:00:00.000Z"  # Monday 23 Nov 00:00 CET
    monday = datetime(2026, 11, 30, 0, 1)
    assert at("this week", monday) == "2026-11-29T23:00:00.000Z"
    assert at("this week", monday, end=True) == "2026-12-06T23:00:00.000Z"


def test_months_clamp_to_the_month_end(berlin) -> None:
    assert at("last month", datetime(2026, 3, 31, 12, 0)) == "2026-02-28T11:00:00.000Z"
    assert at("this month", datetime(2026, 12, 31, 23, 0), end=True) == "2026-12-31T23:00:00.000Z"
    assert at("2 months ago", datetime(2026, 1, 15, 12, 0)) == "2025-11-15T11:00:00.000Z"


def test_days_ago_across_daylight_saving_keep_the_wall_clock(berlin) -> None:
    after_spring = datetime(2026, 3, 30, 12, 0)  # CEST (UTC+2); DST began 29 March
    assert at("3 days ago", after_spring) == "2026-03-27T11:00:00.000Z"  # 12:00 CET
    assert at("3d", after_spring) == at("3 days ago", after_spring)
    assert at("last week", after_spring) == "2026-03-23T11:00:00.000Z"
    after_autumn = datetime(2026, 10, 26, 12, 0)  # CET; DST ended 25 October
    assert at("yesterday", after_autumn) == "2026-10-24T22:00:00.000Z"  # midnight CEST
    assert at("yesterday", after_autumn, end=True) == "2026-10-25T23:00:00.000Z"  # a 25-hour day


def test_hours_are_exact_durations(berlin) -> None:
    now = datetime(2026, 3, 29, 4, 0)  # two hours after the spring-forward gap
    assert at("3h", now) == "2026-03-28T23:00:00.000Z"
    assert at("90 minutes ago", now) == "2026-03-29T00:30:00.000Z"


def test_iso_forms(berlin) -> None:
    now = datetime(2026, 11, 29, 12, 0)
    assert at("2026-07-01", now) == "2026-06-30T22:00:00.000Z"
    assert at("2026-07-01", now, end=True) == "2026-07-01T22:00:00.000Z"
    assert at("2026-07-01T08:30", now) == "2026-07-01T06:30:00.000Z"
    assert at("2026-07-01T08:30:00Z", now) == "2026-07-01T08:30:00.000Z"
    assert at("2026-07-01T08:30:00+05:00", now) == "2026-07-01T03:30:00.000Z"


@pytest.mark.parametrize("bad", ["soon", "last fortnight", "2026-13-01", "-3d", ""])
def test_unreadable_dates_say_which_forms_work(bad: str) -> None:
    with pytest.raises(DateError, match="use one of"):
        parse_when(bad)
