#!/usr/bin/env python3
"""The hook's latency against a bare ``python -c "import json, sqlite3"`` on the same
interpreter, on a real PostToolUse Edit payload (budget: median ratio <= 1.3).

Claude Code waits for the hook on every tool call, so this ratio is what auditlog adds
to each of them beyond starting Python at all. Prints both medians and, last,
``hook_latency_ratio=<hook/baseline>``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hook_timing import BASELINE, HOOK, alternate, check_errors, edit_payload, precompile, run

BUDGET = 1.3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    precompile()
    with tempfile.TemporaryDirectory(prefix="auditlog-bench-") as tmp:
        store = Path(tmp) / "store"
        env = {**os.environ, "AUDITLOG_HOME": str(store)}
        payload, source = edit_payload(Path(tmp) / "project")
        run([HOOK, "--agent", "claude"], payload, env)  # first event: creates the store and migrates the index
        medians = alternate(
            args.runs, {"baseline": (BASELINE, payload, env), "hook": ([HOOK, "--agent", "claude"], payload, env)}
        )
        check_errors(store)
    ratio = medians["hook"] / medians["baseline"]
    print(f"payload: {source} ({len(payload)} bytes), {args.runs} runs each, alternating")
    print(f"baseline (python -c 'import json, sqlite3'): {medians['baseline'] * 1000:.1f} ms median")
    print(f"auditlog-hook --agent claude:              {medians['hook'] * 1000:.1f} ms median")
    print(f"budget: <= {BUDGET} ({'met' if ratio <= BUDGET else 'NOT met'})")
    print(f"hook_latency_ratio={ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
