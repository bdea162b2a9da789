#!/usr/bin/env python3
"""Queries on a large store against the same queries on a small one (budgets: each ≤ 50 ms
median in-process on 10,000 sessions / 1,000,000 events / 200,000 changes, and ≤ 3x the
100-session store), and ``reindex`` throughput (budget: ≥ 20,000 events/s).

Prints each query's medians and ratio, the reindex rate, and last
``query_scale_ratio=<worst large/small>``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic_store import NEEDLE_COMMAND, NEEDLE_FILE, NEEDLE_PROMPT, build

from auditlog.query import SessionFilter, Store

BUDGET_MS, BUDGET_RATIO, BUDGET_RATE = 50.0, 3.0, 20_000


def queries() -> dict:
    """The CLI's queries as the CLI runs them (``sessions`` lists the newest 50). The
    file, prompt words and command searched for occur in the same 5 sessions of either
    store, so the two stores give the same answers and only the store's size differs."""
    return {
        "sessions --file": lambda s: s.sessions(SessionFilter(file=NEEDLE_FILE.rsplit("/", 1)[-1], limit=50)),
        "sessions --prompt": lambda s: s.sessions(SessionFilter(prompt=NEEDLE_PROMPT, limit=50)),
        'changed --since "last week"': lambda s: s.changed(since="last week"),
        "search": lambda s: s.search(NEEDLE_COMMAND),
    }


def result_size(value: object) -> int:
    return len(value) if isinstance(value, list) else 0


def median_ms(store: Store, query, runs: int) -> float:
    query(store)  # warm the page cache and the statement cache
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        query(store)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=100, help="events per session")
    parser.add_argument("--changes", type=int, default=20, help="changes per session")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="auditlog-bench-") as tmp:
        large, small = Path(tmp) / "large", Path(tmp) / "small"
        big = build(large, args.sessions, args.events, args.changes)
        build(small, 100, args.events, args.changes)
        print(
            f"large store: {big['sessions']} sessions, {big['events']} events, {big['changes']} changes "
            f"(journals written in {big['write_seconds']:.0f} s)"
        )
        print(
            f"reindex: {big['events']} events in {big['reindex_seconds']:.1f} s = {big['reindex_rate']:,.0f} events/s "
            f"(budget ≥ {BUDGET_RATE:,}: {'met' if big['reindex_rate'] >= BUDGET_RATE else 'NOT met'})"
        )
        worst = 0.0
        with Store(str(large)) as s_large, Store(str(small)) as s_small:
            for name, query in queries().items():
                t_large = median_ms(s_large, query, args.runs)
                t_small = median_ms(s_small, query, args.runs)
                ratio = t_large / max(t_small, 1e-6)
                worst = max(worst, ratio)
                verdict = "met" if t_large <= BUDGET_MS and ratio <= BUDGET_RATIO else "NOT met"
                sizes = f"{result_size(query(s_large))}/{result_size(query(s_small))} results"
                print(
                    f"{name:30} large {t_large:7.2f} ms   small {t_small:6.2f} ms   ratio {ratio:5.2f}   "
                    f"{sizes:>16}   {verdict}"
                )
        print(f"store size on disk: {sum(f.stat().st_size for f in large.rglob('*') if f.is_file()) / 1e6:.0f} MB")
        os.environ.pop("AUDITLOG_HOME", None)
    print(f"reindex_events_per_second={big['reindex_rate']:.0f}")
    print(f"query_scale_ratio={worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
