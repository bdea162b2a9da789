#!/usr/bin/env python3
"""What the redaction engine costs the hook: fresh-interpreter import + first use, and 1 MiB throughput.

The hook starts a new interpreter for every tool call of the agent, so the figure that matters is the cost
of ``import auditlog.redaction`` plus the first ``redact_json`` of a realistic ~10 KiB payload that holds no
secret (budget: < 2 ms), measured inside 20 fresh subprocesses (median).  Next to it, in the same run and
alternating with it, the same subprocess measures ``import json, sqlite3`` (what any hook pays anyway), and
the wall-clock time of whole ``python -c`` runs of each is compared as a ratio.  Last, the throughput of
``redact_text`` on 1 MiB of source code without secrets (budget: < 30 ms).

Prints ``import_first_use_ms=<median>``, ``ratio_vs_json_sqlite3=<wall ratio>`` and ``mib_ms=<median>``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Measured inside the child: the payload is parsed before the clock starts (the hook has parsed its stdin
# by then, so ``json`` and ``re`` are loaded), then import + construction + first redaction are timed.
CHILD_REDACTION = """
import json, sys, time
payload = json.load(open(sys.argv[1]))
c0, t0 = time.process_time(), time.perf_counter()
from auditlog.redaction import Redactor
out, n = Redactor(b"0" * 32).redact_json(payload)
t1, c1 = time.perf_counter(), time.process_time()
assert n == 0 and out is payload, n
print((t1 - t0) * 1e3, (c1 - c0) * 1e3)
"""
CHILD_BASELINE = """
import time
c0, t0 = time.process_time(), time.perf_counter()
import json, sqlite3
t1, c1 = time.perf_counter(), time.process_time()
print((t1 - t0) * 1e3, (c1 - c0) * 1e3)
"""
# The same without site (no module preloaded by .pth files) and on the raw text, for a cold bound.
CHILD_COLD = """
import sys, time
text = open(sys.argv[1]).read()
c0, t0 = time.process_time(), time.perf_counter()
from auditlog.redaction import Redactor
out, n = Redactor(b"0" * 32).redact_text(text)
t1, c1 = time.perf_counter(), time.process_time()
assert n == 0 and out is text, n
print((t1 - t0) * 1e3, (c1 - c0) * 1e3)
"""


def realistic_payload() -> dict[str, object]:
    """A PostToolUse Write of a ~9 KiB Python module full of the words secret rules key on."""
    module = '''"""Token bucket rate limiting for the public API."""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field

API_KEY_HEADER = "X-Api-Key"
TOKEN_TTL = 3600
PASSWORD_MIN_LENGTH = 12


@dataclass
class Bucket:
    key: str
    capacity: int
    tokens: float = field(default=0.0)
    updated: float = field(default_factory=time.monotonic)

    def take(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate())
        self.updated = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True

    def rate(self) -> float:
        return self.capacity / 60.0


class Limiter:
    """Keeps one bucket per API key; the key is hashed so the table never holds a secret."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret or os.environ.get("LIMITER_SECRET", "").encode()
        self.buckets: dict[str, Bucket] = {}

    def bucket_for(self, api_key: str) -> Bucket:
        digest = hashlib.sha256(self.secret + api_key.encode()).hexdigest()
        bucket = self.buckets.get(digest)
        if bucket is None:
            bucket = self.buckets[digest] = Bucket(key=digest, capacity=120)
        return bucket

    def check(self, headers: dict[str, str]) -> tuple[bool, str]:
        token = headers.get("Authorization", "").removeprefix("Bearer ").strip()
        api_key = headers.get(API_KEY_HEADER) or token
        if not api_key:
            return False, "missing api key or bearer token"
        if not self.bucket_for(api_key).take():
            return False, "rate limited"
        return True, "ok"


def validate_password(password: str, confirm_password: str) -> list[str]:
    problems = []
    if password != confirm_password:
        problems.append("passwords differ")
    if len(password) < PASSWORD_MIN_LENGTH:
        problems.append(f"password shorter than {PASSWORD_MIN_LENGTH}")
    if password.lower() == password:
        problems.append("password needs an upper-case letter")
    return problems
'''
    content = (module * 5)[: 9 * 1024]
    return {
        "session_id": "9b7f2c1e-0d4a-4f7e-8a51-3c2b1d0e9f88",
        "transcript_path": "/home/dev/.claude/projects/-repo/9b7f2c1e.jsonl",
        "cwd": "/home/dev/repo",
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "/home/dev/repo/api/limiter.py", "content": content},
        "tool_response": {"type": "create", "filePath": "/home/dev/repo/api/limiter.py", "success": True},
    }


def one_mebibyte_of_source() -> str:
    """Real source text without secrets: this repository's Python files, repeated up to 1 MiB."""
    parts = []
    for path in sorted((ROOT / "auditlog").glob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py")):
        parts.append(path.read_text(encoding="utf-8", errors="replace"))
    text = "\n".join(parts) or "x = 1\n"
    return (text * (1 + (1 << 20) // len(text)))[: 1 << 20]


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the installed hook runs from bytecode
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return (time.perf_counter() - start) * 1e3, done.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    env = child_env()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "auditlog")], env=env, check=True)

    with tempfile.TemporaryDirectory(prefix="auditlog-redaction-bench-") as tmp:
        payload_path = Path(tmp) / "payload.json"
        payload = realistic_payload()
        payload_path.write_text(json.dumps(payload), encoding="utf-8")
        text_path = Path(tmp) / "payload.txt"
        text_path.write_text(payload["tool_input"]["content"], encoding="utf-8")  # type: ignore[index]
        size = payload_path.stat().st_size

        red_in, base_in, red_wall, base_wall, cold_in = [], [], [], [], []
        red_cpu, base_cpu, cold_cpu = [], [], []
        for _ in range(args.runs):  # alternate, so that machine noise hits both sides alike
            wall, out = timed([sys.executable, "-c", CHILD_REDACTION, str(payload_path)], env)
            red_wall.append(wall)
            red_in.append(float(out.split()[0]))
            red_cpu.append(float(out.split()[1]))
            wall, out = timed([sys.executable, "-c", CHILD_BASELINE], env)
            base_wall.append(wall)
            base_in.append(float(out.split()[0]))
            base_cpu.append(float(out.split()[1]))
            _wall, out = timed([sys.executable, "-S", "-c", CHILD_COLD, str(text_path)], env)
            cold_in.append(float(out.split()[0]))
            cold_cpu.append(float(out.split()[1]))

    med = statistics.median
    print(f"payload: {size} bytes of JSON (a Write of {len(payload['tool_input']['content'])} chars), no secret")  # type: ignore[index]
    print("in-process, ms                              elapsed median (min)    CPU time median (min)")
    for label, elapsed, cpu in (
        ("import + first redact_json", red_in, red_cpu),
        ("import json, sqlite3", base_in, base_cpu),
        ("same without site (-S), redact_text", cold_in, cold_cpu),
    ):
        print(f"  {label:40s} {med(elapsed):7.3f} ({min(elapsed):.3f})     {med(cpu):7.3f} ({min(cpu):.3f})")
    print(f"wall, python -c (json + redaction):          median {med(red_wall):.1f} ms")
    print(f"wall, python -c 'import json, sqlite3':      median {med(base_wall):.1f} ms")

    sys.path.insert(0, str(ROOT))
    from auditlog.redaction import Redactor

    red = Redactor(b"0" * 32)
    text = one_mebibyte_of_source()
    start = time.perf_counter()
    _out, count = red.redact_text(text)
    first = (time.perf_counter() - start) * 1e3
    runs, cpu_runs = [], []
    for _ in range(7):
        c0, start = time.process_time(), time.perf_counter()
        red.redact_text(text)
        runs.append((time.perf_counter() - start) * 1e3)
        cpu_runs.append((time.process_time() - c0) * 1e3)
    print(
        f"1 MiB of source ({count} redactions): first call {first:.1f} ms, then median {med(runs):.1f} ms "
        f"({(1 << 20) / 1e6 / (med(runs) / 1e3):.0f} MB/s; CPU time median {med(cpu_runs):.1f} ms)"
    )
    print(f"import_first_use_ms={med(red_in):.3f}")
    print(f"import_first_use_cpu_ms={med(red_cpu):.3f}")
    print(f"ratio_vs_json_sqlite3={med(red_wall) / med(base_wall):.3f}")
    print(f"mib_ms={med(runs):.1f}")
    print(f"mib_cpu_ms={med(cpu_runs):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
