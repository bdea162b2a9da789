"""Running an agent's real binary against a scripted model, for any agent.

Why: Codex CLI and Gemini CLI are driven the same way as Claude Code in
:mod:`claude_driver`: a scripted model on a free loopback port, the binary as a
subprocess with a scrubbed environment, and a :class:`claude_driver.SessionResult`.
Only the model's wire format (its server script) and the environment differ.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from unittest import mock

import claude_driver
from claude_driver import SCRUBBED_ENV_PREFIXES, SessionResult, _stop_process


def run_with_model(command: Sequence[str], cwd: Path, server_script: Path, steps: Sequence[Mapping], workdir: Path,
                   env_for: Callable[[str], dict[str, str]], scrub: tuple[str, ...] = (),
                   timeout: float = 120) -> SessionResult:
    """Run ``command`` in ``cwd`` while ``server_script`` answers from ``steps``.

    The server is started by :func:`claude_driver.scripted_model` (every scripted model
    here takes the same command line); ``env_for(model_url)`` gives the variables to
    set, and the parent's variables starting with ``scrub`` (and Claude's) are dropped
    so no real credentials or endpoints leak in. Never raises for a failed session."""
    with mock.patch.object(claude_driver, "SCRIPTED_MODEL", server_script), \
            claude_driver.scripted_model(steps, workdir) as model:
        env = {k: v for k, v in os.environ.items() if not k.startswith((*SCRUBBED_ENV_PREFIXES, *scrub))}
        overrides = env_for(model.url)
        env.update(overrides)
        started = time.monotonic()
        process = subprocess.Popen(list(command), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True)
        timed_out = False
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop_process(process, grace=2.0)
            out, err = process.communicate()
        records = model.requests()
    return SessionResult(exit_code=None if timed_out else process.returncode, stdout=out.decode("utf-8", "replace"),
                         stderr=err.decode("utf-8", "replace"), wall_time=time.monotonic() - started,
                         requests=[r["body"] for r in records if r.get("method") == "POST"],
                         request_log=model.log_path, command=list(command), timed_out=timed_out,
                         env_overrides=overrides)


def require_binary(label: str, binary: str | None, version_ok: Callable[[str], bool], how: str) -> str:
    """``binary`` when it runs; otherwise skip (a developer without npm can run the rest)
    or, in CI, which installs every pinned binary, fail loudly."""
    import pytest

    problem = None
    if binary is None:
        problem = f"{label} binary not found ({how})"
    elif not version_ok(binary):
        problem = f"{binary} --version does not print a {label} version"
    if problem:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but the {label} end-to-end test cannot run: {problem}", pytrace=False)
        pytest.skip(problem)
    assert binary is not None
    return binary


def journal_records(folder: Path) -> list[dict]:
    """A session's records, with blob references resolved to their text."""
    import json

    from auditlog.blobs import internalize

    return [internalize(json.loads(line), str(folder)) for line in (folder / "events.jsonl").read_bytes().splitlines()]


def assert_recorded_once(captures: list[dict], records: list[dict], agent: str) -> None:
    """Every payload the witness hook saw is recorded exactly once, and nothing else."""
    import json
    from collections import Counter

    assert captures, f"the witness hook saw nothing: did {agent} run the hooks?"
    assert Counter(r["event"] for r in records) == Counter(p["hook_event_name"] for p in captures)
    recorded = [json.dumps(r["payload"], sort_keys=True) for r in records]
    for payload in captures:
        assert recorded.count(json.dumps(payload, sort_keys=True)) == 1, payload["hook_event_name"]
    assert {r["agent"] for r in records} == {agent}


def recorded_session(result: SessionResult, project: Path, capture_dir: Path) -> dict:
    """What a test checks after one session: the run, the project, the store and the
    session's folder in it (exactly one), and the witness hook's payloads."""
    from claude_driver import read_captures

    assert result.exit_code == 0, result.describe()
    store = Path(os.environ["AUDITLOG_HOME"])
    folders = list((store / "sessions").iterdir())
    assert len(folders) == 1, folders
    return {"result": result, "project": project, "store": store, "folder": folders[0],
            "captures": [c.payload for c in read_captures(capture_dir)]}
