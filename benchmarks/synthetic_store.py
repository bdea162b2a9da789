"""Large synthetic stores for the query and browser benchmarks.

Journals are written with the hook's own record encoder (the same bytes and hash chain),
then indexed by ``auditlog reindex``'s code path, which is also timed: that is the
reindex throughput figure.

The model of a user: about 20 sessions a day across 20 projects, so a larger store is a
longer history, not a busier week (10,000 sessions are 500 days; 100 sessions, 5 days).
Prompts and commands draw words from a vocabulary of 4,000 with Zipf frequencies (a few
words very common, most rare), as natural text does; file names from a pool of 2,000.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from auditlog import paths, reindex
from auditlog.record import GENESIS, encode_record, line_hash, utc_timestamp

WORDS = [
    "parser",
    "refactor",
    "timeout",
    "config",
    "port",
    "cache",
    "retry",
    "login",
    "session",
    "token",
    "schema",
    "migration",
    "index",
    "query",
    "render",
    "button",
    "modal",
    "layout",
    "test",
    "fixture",
    "flaky",
    "async",
    "worker",
    "queue",
    "deploy",
    "docker",
    "build",
    "lint",
    "format",
    "logging",
    "metrics",
    "error",
    "handler",
    "router",
    "endpoint",
    "pagination",
    "search",
    "filter",
    "sort",
    "export",
    "import",
    "csv",
    "json",
    "yaml",
    "upload",
    "download",
    "image",
    "thumbnail",
    "email",
    "notify",
    "webhook",
    "billing",
    "invoice",
    "tax",
    "currency",
    "locale",
]
FOLDERS = ("src", "src/app", "src/api", "lib", "tests", "web/components", "cmd", "internal/db", "docs", "scripts")
EXTS = (".py", ".ts", ".go", ".md", ".ini", ".json", ".tsx", ".sql")


def file_pool(rng: random.Random, size: int = 2000) -> list[str]:
    pool = set()
    while len(pool) < size:
        pool.add(f"{rng.choice(FOLDERS)}/{rng.choice(WORDS)}_{rng.choice(WORDS)}{rng.choice(EXTS)}")
    return sorted(pool)


SESSIONS_PER_DAY = 20
SYLLABLES = ("ka", "lo", "mi", "ren", "tor", "vek", "sa", "pu", "dri", "mon", "zel", "fa", "qui", "bor", "nex", "ti")


def vocabulary(size: int = 4000) -> tuple[list[str], list[float]]:
    """Words in frequency order (the domain words first) and their Zipf weights."""
    rng = random.Random(99)
    words = list(WORDS)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words, [1.0 / rank for rank in range(1, size + 1)]


VOCABULARY, WEIGHTS = vocabulary()
CUM_WEIGHTS = [sum(WEIGHTS[: i + 1]) for i in range(len(WEIGHTS))]


def _prompt(rng: random.Random) -> str:
    return " ".join(rng.choices(VOCABULARY, cum_weights=CUM_WEIGHTS, k=rng.randint(4, 14))).capitalize()


NEEDLE_FILE = "src/app/needle_config.toml"
NEEDLE_PROMPT = "zanzibar quokka"
NEEDLE_COMMAND = "marmalade periscope"


def write_session(
    store: Path,
    sid: str,
    start: float,
    events: int,
    changes: int,
    project: str,
    files: list[str],
    rng: random.Random,
    needle: bool = False,
) -> int:
    """One session's journal; a ``needle`` session also changes NEEDLE_FILE, asks about
    NEEDLE_PROMPT and runs a command with NEEDLE_COMMAND (so that a query can find the
    same number of sessions in a small store and a large one)."""
    folder = Path(paths.sessions_root(str(store))) / paths.session_folder_name(sid)
    folder.mkdir(parents=True)
    change_at = set(rng.sample(range(3, events - 1), min(changes, events - 4)))
    prev, t, lines = GENESIS, start, []
    for seq in range(1, events + 1):
        t += rng.uniform(0.5, 20)
        base = {"session_id": sid, "cwd": project}
        record = {"v": 1, "seq": seq, "ts": utc_timestamp(t), "agent": "claude-code", "session": sid, "cwd": project}
        if seq == 1:
            record.update(
                event="SessionStart",
                kind="session_start",
                summary="Session started (startup)",
                context={"project": project, "branch": "main", "head": f"{rng.getrandbits(160):040x}"},
                payload={**base, "hook_event_name": "SessionStart", "source": "startup"},
            )
        elif seq == events:
            record.update(
                event="SessionEnd",
                kind="session_end",
                summary="Session ended (other)",
                payload={**base, "hook_event_name": "SessionEnd", "reason": "other"},
            )
        elif seq == 2 or rng.random() < 0.04:
            text = _prompt(rng) + (f" {NEEDLE_PROMPT}" if needle and seq == 2 else "")
            record.update(
                event="UserPromptSubmit",
                kind="prompt",
                summary=text[:100],
                payload={**base, "hook_event_name": "UserPromptSubmit", "prompt": text},
            )
        elif seq in change_at:
            path = NEEDLE_FILE if needle and seq == min(change_at) else rng.choice(files)
            added, removed = rng.randint(0, 40), rng.randint(0, 20)
            record.update(
                event="PostToolUse",
                kind="tool_result",
                tool="Edit",
                summary=f"Edit {path} (+{added} −{removed})",
                files=[path],
                patches=[f"patches/{seq:04d}-Edit-x.patch"],
                changes=[
                    {
                        "path": path,
                        "op": "modify",
                        "added": added,
                        "removed": removed,
                        "patch": f"patches/{seq:04d}-Edit-x.patch",
                        "patch_sha256": "0" * 64,
                    }
                ],
                payload={
                    **base,
                    "hook_event_name": "PostToolUse",
                    "tool_name": "Edit",
                    "tool_input": {
                        "file_path": f"{project}/{path}",
                        "old_string": _prompt(rng),
                        "new_string": _prompt(rng),
                    },
                },
            )
        else:
            word = rng.choices(VOCABULARY, cum_weights=CUM_WEIGHTS, k=2)
            command = f"pytest -q tests/test_{word[0]}.py -k {word[1]}"
            if needle and seq == 3:
                command = f"echo {NEEDLE_COMMAND}"
            failed = rng.random() < 0.05
            record.update(
                event="PostToolUseFailure" if failed else "PreToolUse",
                kind="tool_error" if failed else "tool_call",
                tool="Bash",
                summary=f"Bash {command}",
                payload={
                    **base,
                    "hook_event_name": "PreToolUse",
                    "tool_name": "Bash",
                    "tool_input": {"command": command, "description": _prompt(rng)},
                },
            )
            if failed:
                record["failed"] = True
        record["prev"] = prev
        line = encode_record(record)
        lines.append(line)
        prev = line_hash(line)
    (folder / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    return len(lines)


def build(
    store: Path, sessions: int, events_per_session: int, changes_per_session: int, seed: int = 1, needles: int = 5
) -> dict:
    """Write the journals and index them; returns counts and the reindex rate. The
    ``needles`` newest-but-one-day sessions carry the needle file, prompt and command."""
    rng = random.Random(seed)
    files = file_pool(rng)
    projects = [f"/home/dev/project{i:02d}" for i in range(20)]
    now = time.time()
    total = 0
    started = time.perf_counter()
    days = sessions / SESSIONS_PER_DAY
    for i in range(sessions):
        needle = i < needles
        start = now - (rng.uniform(86400, 3 * 86400) if needle else rng.uniform(0, days * 86400))
        total += write_session(
            store,
            f"{rng.getrandbits(128):032x}",
            start,
            events_per_session,
            changes_per_session,
            rng.choice(projects),
            files,
            rng,
            needle,
        )
    written = time.perf_counter() - started
    started = time.perf_counter()
    indexed_sessions, indexed_events = reindex.reindex(str(store))
    seconds = time.perf_counter() - started
    return {
        "sessions": indexed_sessions,
        "events": indexed_events,
        "changes": sessions * changes_per_session,
        "write_seconds": written,
        "reindex_seconds": seconds,
        "reindex_rate": indexed_events / seconds,
        "files": files,
    }
