"""Signed checkpoints: every 100 events and at the session's end, an HMAC-signed note of
(session, seq, chain head, count), kept outside the session folder.

The hash chain shows an edited, inserted, removed or reordered line, but not a cut: a log
truncated after line N is a valid chain of N lines. A checkpoint vouching for a later
line shows the cut, and its signature (keyed with the store's secret) shows a forged or
edited checkpoint. See docs/integrity.md for what this proves and what it cannot.
"""

from __future__ import annotations

import json
import os

from auditlog import paths
from auditlog.digests import hmac_sha256

CHECKPOINTS = "checkpoints"
EVERY = 100
_FIELDS = ("session", "seq", "chain_head", "count", "ts")


def due(seq: int, kind: str) -> bool:
    return seq % EVERY == 0 or kind == "session_end"


def _signature(key: bytes, checkpoint: dict) -> str:
    body = json.dumps([checkpoint.get(f) for f in _FIELDS], separators=(",", ":"), ensure_ascii=True)
    return hmac_sha256(key, body.encode("ascii")).hex()


def path_for(home: str, folder_name: str) -> str:
    return os.path.join(home, CHECKPOINTS, folder_name + ".jsonl")


def write(home: str, key: bytes, folder_name: str, session: str, seq: int, chain_head: str, ts: str) -> dict:
    """Append a signed checkpoint for the journal as it stands after ``seq``."""
    checkpoint = {"session": session, "seq": seq, "chain_head": chain_head, "count": seq, "ts": ts}
    checkpoint["hmac"] = _signature(key, checkpoint)
    paths.ensure_dir(os.path.join(home, CHECKPOINTS))
    line = json.dumps(checkpoint, separators=(",", ":"), ensure_ascii=True) + "\n"
    paths.append_private(path_for(home, folder_name), line.encode("ascii"))
    return checkpoint


def read(home: str, folder_name: str) -> list[dict]:
    """Every checkpoint of a session, each with ``valid`` (its signature checks out)."""
    path = path_for(home, folder_name)
    if not os.path.exists(path):
        return []
    from auditlog import store_key

    key = store_key.load_or_create(home)
    out = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            try:
                checkpoint = json.loads(raw)
                checkpoint["valid"] = isinstance(checkpoint, dict) and checkpoint.get("hmac") == _signature(
                    key, checkpoint)
            except ValueError:
                checkpoint = {"valid": False, "line": number}
            out.append(checkpoint)
    return out


def latest(home: str, folder_name: str) -> dict | None:
    valid = [c for c in read(home, folder_name) if c.get("valid")]
    return max(valid, key=lambda c: c["seq"]) if valid else None
