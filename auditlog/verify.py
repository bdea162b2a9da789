"""Verifying a session's trail: the hash chain, the sequence, and the patches and blobs
whose hashes the records hold (``auditlog verify``)."""

from __future__ import annotations

import json
import os

from auditlog import blobs, journal
from auditlog.digests import sha256_hex
from auditlog.record import GENESIS, line_hash


class Problem:
    """The first thing wrong with one session's files."""

    __slots__ = ("line", "message", "path", "warning")

    def __init__(self, path: str, line: int | None, message: str, warning: bool = False) -> None:
        self.path = path
        self.line = line
        self.message = message
        self.warning = warning  # reported, but the trail is still intact

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


def _blob_refs(value: object, found: list[str]) -> None:
    if blobs.is_blob_ref(value):
        found.append(value["$blob"].split(":", 1)[-1])
    elif isinstance(value, dict):
        for v in value.values():
            _blob_refs(v, found)
    elif isinstance(value, list):
        for v in value:
            _blob_refs(v, found)


def _check_files(folder: str, record: dict, seq: int, problems: list[Problem]) -> None:
    """The patches and blobs a record names must hold what their recorded hashes say."""
    for change in record.get("changes") or []:
        patch_path = os.path.join(folder, change.get("patch", ""))
        try:
            with open(patch_path, "rb") as pf:
                digest = sha256_hex(pf.read())
        except OSError:
            problems.append(Problem(patch_path, None, f"patch named by seq {seq} is missing"))
            continue
        if digest != change.get("patch_sha256"):
            problems.append(Problem(patch_path, None, f"patch differs from the one recorded at seq {seq}"))
    refs: list[str] = [c[k] for c in record.get("changes") or [] for k in ("pre_blob", "post_blob") if c.get(k)]
    _blob_refs(record.get("payload"), refs)
    for digest in refs:
        blob = os.path.join(folder, "blobs", digest)
        try:
            actual = sha256_hex(blobs.read_blob(folder, digest))
        except (OSError, ValueError):
            problems.append(Problem(blob, None, f"blob named by seq {seq} is missing"))
            continue
        if actual != digest:
            problems.append(Problem(blob, None, f"blob named by seq {seq} does not match its hash"))


def _check_checkpoints(path: str, hashes: list[str], checkpoints: list[dict], problems: list[Problem]) -> None:
    for checkpoint in checkpoints:
        if not checkpoint.get("valid"):
            problems.append(Problem(path, None, "a checkpoint's signature does not verify (forged or edited)"))
            continue
        seq = checkpoint["seq"]
        if seq > len(hashes):
            problems.append(Problem(path, len(hashes), f"the journal ends at seq {len(hashes)} but a signed checkpoint "
                                    f"vouches for seq {seq}: lines were cut off the end"))
        elif hashes[seq - 1] != checkpoint["chain_head"]:
            problems.append(Problem(path, seq, "line differs from the one a signed checkpoint vouches for"))


def verify_session(folder: str, *, checkpoints: list[dict] | None = None,
                   index_hashes: dict[int, str] | None = None) -> tuple[list[Problem], int, str]:
    """Problems found (the first break of the chain, and every bad file, checkpoint or
    line the index remembers otherwise), the number of records, and the chain head.

    The chain shows an edited, removed, inserted or reordered line anywhere but in the
    last line; the index's line hashes and the signed checkpoints cover the last line
    and a cut-off tail.
    """
    path = os.path.join(folder, journal.JOURNAL)
    problems: list[Problem] = []
    prev, hashes = GENESIS, []
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        problems.append(Problem(path, len(lines), "last line is torn (an interrupted write; the session's next "
                                "event moves it aside)", warning=True))
        lines.pop()
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except ValueError as exc:
            problems.append(Problem(path, number, f"not a JSON record ({exc})"))
            break
        if not isinstance(record, dict):
            problems.append(Problem(path, number, "not a JSON object"))
            break
        if record.get("seq") != number:
            problems.append(Problem(path, number, f"seq is {record.get('seq')!r}, expected {number}"))
            break
        if record.get("prev") != prev:
            problems.append(Problem(path, number, "prev does not match the hash of the line before "
                                    "(a line was edited, removed, inserted or reordered)"))
            break
        _check_files(folder, record, number, problems)
        prev = line_hash(line)
        hashes.append(prev)
    if index_hashes:
        for seq, digest in sorted(index_hashes.items()):
            if seq <= len(hashes) and hashes[seq - 1] != digest:
                problems.append(Problem(path, seq, "line differs from the one the index recorded when it was written"))
                break
    _check_checkpoints(path, hashes, checkpoints or [], problems)
    torn = os.path.join(folder, journal.TORN)
    if os.path.exists(torn):
        problems.append(Problem(torn, None, "holds the torn tail of an interrupted write (moved aside; the chain "
                                "continues)", warning=True))
    return problems, len(hashes), prev


def index_agreement(folder: str, row: dict | None, count: int, head: str) -> list[Problem]:
    """Whether the index holds what the journal holds. A disagreement is reported as
    broken (queries would miss events) with its remedy: ``auditlog reindex``."""
    index = os.path.join(os.path.dirname(os.path.dirname(folder)), "index.sqlite")
    if row is None:
        return [Problem(index, None, "the index has no row for this session; run `auditlog reindex`")]
    size = os.path.getsize(os.path.join(folder, journal.JOURNAL))
    if row["events"] != count or row["chain_head"] != head or row["indexed_bytes"] != size:
        return [
            Problem(
                index,
                None,
                f"the index disagrees with the journal ({row['events']} events indexed, "
                f"{count} in the journal); run `auditlog reindex`",
            )
        ]
    return []


def transcript_agreement(folder: str) -> list[Problem]:
    """Tool calls in the session's transcripts that no record names (the hook missed
    them): a warning, since the trail itself is intact, with its remedy."""
    from auditlog.completeness import missing_tool_calls

    gaps, notes = missing_tool_calls(folder)
    problems = [Problem(path, None, f"transcript: {why}", warning=True) for path, why in notes if "malformed" in why]
    by_file: dict[str, list[str]] = {}
    for gap in gaps:
        by_file.setdefault(gap.transcript, []).append(f"{gap.name} {gap.tool_use_id}")
    for path, calls in by_file.items():
        shown = ", ".join(calls[:5]) + (f" and {len(calls) - 5} more" if len(calls) > 5 else "")
        problems.append(Problem(path, None, f"{len(calls)} tool call(s) in the transcript have no record ({shown}); "
                                f"`auditlog backfill {os.path.basename(folder)}` records them", warning=True))
    return problems
