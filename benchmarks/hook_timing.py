"""Shared pieces of the hook benchmarks: the payload, bytecode, and side-by-side timing.

Why side by side: these machines are shared and noisy, so absolute times drift; two
commands timed alternately in one run share the drift, and their ratio is what the
budgets are written in.
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS_EDIT = REPO_ROOT.parent / "shared" / "corpus" / "claude-hooks" / "payloads" / "20_PostToolUse_Edit__ccka.json"
HOOK = str(Path(sys.executable).parent / "auditlog-hook")
BASELINE = [sys.executable, "-c", "import json, sqlite3"]


def precompile() -> None:
    """Write the package's bytecode, as ``pip install`` does for an installed package
    (an editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile
    every module on every run, which no installed copy does)."""
    import auditlog.hooks

    import auditlog

    for package in (auditlog, auditlog.hooks):
        compileall.compile_dir(os.path.dirname(package.__file__), quiet=1, force=False)


def edit_payload(project: Path) -> tuple[bytes, str]:
    """A real PostToolUse Edit payload (the corpus's smallest Edit, 22 KiB), with its
    paths moved into ``project`` and the edited file put there as the edit left it.
    Without the shared corpus, a payload of the same shape built here (10 KiB)."""
    if CORPUS_EDIT.exists():
        payload = json.loads(CORPUS_EDIT.read_text())
        source = "corpus " + CORPUS_EDIT.name
    else:
        original = "".join(f"line {i}: some ordinary source text here\n" for i in range(240))
        payload = {
            "session_id": "bench",
            "hook_event_name": "PostToolUse",
            "tool_name": "Edit",
            "cwd": "/p",
            "tool_input": {"file_path": "/p/src/module.py", "old_string": "line 120:", "new_string": "LINE 120:"},
            "tool_response": {
                "filePath": "/p/src/module.py",
                "originalFile": original,
                "structuredPatch": [],
                "userModified": False,
            },
            "tool_use_id": "toolu_bench",
        }
        source = "built (no shared corpus)"
    old_cwd = payload["cwd"]
    old_path = payload["tool_input"]["file_path"]
    new_path = str(project / os.path.relpath(old_path, old_cwd))
    text = json.dumps(payload).replace(old_cwd, str(project))
    payload = json.loads(text)
    original = payload["tool_response"]["originalFile"]
    edited = original.replace(payload["tool_input"]["old_string"], payload["tool_input"]["new_string"], 1)
    Path(new_path).parent.mkdir(parents=True, exist_ok=True)
    Path(new_path).write_text(edited)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    return json.dumps(payload).encode(), source


def run(command: list[str], stdin: bytes, env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, input=stdin, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or done.stdout:
        raise SystemExit(f"{command[0]} failed: exit {done.returncode}, stdout {done.stdout[:200]!r}")
    return elapsed


def alternate(runs: int, commands: dict[str, tuple[list[str], bytes, dict]]) -> dict[str, float]:
    """Median seconds of each command, run alternately ``runs`` times each."""
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, stdin, env) in commands.items():
            samples[name].append(run(command, stdin, env))
    return {name: statistics.median(values) for name, values in samples.items()}


def check_errors(store: Path) -> None:
    log = store / "errors.log"
    if log.exists() and log.read_text().strip():
        raise SystemExit(f"the hook reported errors: {log.read_text().strip().splitlines()[-1]}")
