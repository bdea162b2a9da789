"""Tokens and estimated cost: the price table, the index's per-session and per-day sums,
and what ``sessions`` and ``changed`` show."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from store_builder import MODEL, USAGE, ClaudeSession, make_repo

from auditlog import pricing
from auditlog.query import Store

CLI = [sys.executable, "-m", "auditlog.cli"]


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("claude-opus-4-20250514", "claude-opus-4"),
        ("claude-opus-4-6", "claude-opus-4-6"),
        ("us.anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet"),
        ("claude-opus-4-6[1m]", "claude-opus-4-6"),
        ("claude-opus-5-5", None),
        ("<synthetic>", None),
        (None, None),
    ],
)
def test_model_ids_find_their_price(model: str | None, key: str | None) -> None:
    assert pricing.price_key(model) == key


def test_cost_counts_every_kind_of_token() -> None:
    usage = {"input_tokens": 1_000_000, "output_tokens": 1_000_000, "cache_read_input_tokens": 1_000_000,
             "cache_creation_input_tokens": 2_000_000, "cache_creation": {"ephemeral_1h_input_tokens": 1_000_000}}
    # input 3 + output 15 + cache read 0.30 + 5-minute write 3.75 + 1-hour write 6.00
    assert pricing.cost_usd("claude-sonnet-4-5-20250929", usage) == pytest.approx(28.05)
    assert pricing.cost_usd("claude-opus-5-5", usage) is None
    assert pricing.tokens({"input_tokens": -3, "output_tokens": "x"}) == (0, 0, 0, 0, 0)


@pytest.fixture
def two_sessions(tmp_path: Path, store: Path) -> list[ClaudeSession]:
    project = make_repo(tmp_path / "proj", {"a.txt": "one\n"})
    sessions = []
    for n, words in enumerate(("first", "second")):
        s = ClaudeSession(project, f"usage-{n}")
        s.start()
        s.prompt(f"the {words} change")
        s.say("Editing.")
        s.edit("a.txt", "one" if n == 0 else "two", "two" if n == 0 else "three")
        s.stop(f"{words} done")
        sessions.append(s)
    return sessions


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, check=True)


def test_sessions_and_days_carry_tokens_and_cost(two_sessions: list[ClaudeSession], store: Path) -> None:
    per_call = pricing.cost_usd(MODEL, USAGE)
    rows = json.loads(_cli("sessions", "--json").stdout)
    assert len(rows) == 2
    for row in rows:  # two model calls each: the edit, the final answer
        assert (row["input_tokens"], row["output_tokens"], row["cache_read_tokens"]) == (200, 40, 2000)
        assert row["total_tokens"] == 2240 and row["model"] == MODEL and row["unpriced_turns"] == 0
        assert row["cost_usd"] == pytest.approx(2 * per_call)
    days = json.loads(_cli("sessions", "--by-day", "--json").stdout)
    assert len(days) == 1 and days[0]["sessions"] == 2 and days[0]["turns"] == 4
    assert days[0]["cost_usd"] == pytest.approx(4 * per_call)
    only = json.loads(_cli("sessions", "--by-day", "--json", "--prompt", "second").stdout)
    assert only[0]["sessions"] == 1 and only[0]["turns"] == 2
    table = _cli("sessions").stdout
    assert "tokens" in table and "cost" in table and "2.2k" in table
    with Store() as s:
        turns = s.turns("usage-0")
        assert [t.model for t in turns] == [MODEL, MODEL] and turns[0].total_tokens == 1120


def test_changed_reports_the_cost_of_its_sessions(two_sessions: list[ClaudeSession], store: Path) -> None:
    report = _cli("changed", "--since", "today").stdout
    assert "Tokens and estimated cost of these sessions" in report and "usage-0" in report
    days = json.loads(_cli("changed", "--since", "today", "--by-day", "--json").stdout)
    assert days[0]["sessions"] == 2 and days[0]["total_tokens"] == 4480
    assert isinstance(json.loads(_cli("changed", "--since", "today", "--json").stdout), list)  # the files, as before


def test_reindex_gives_the_same_totals(two_sessions: list[ClaudeSession], store: Path) -> None:
    before = _cli("sessions", "--json").stdout
    _cli("reindex")
    assert _cli("sessions", "--json").stdout == before
