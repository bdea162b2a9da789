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


def verify_session(folder: str) -> tuple[list[Problem], int, str]:
    """Problems found (the first per kind), the number of records, and the chain head."""
    path = os.path.join(folder, journal.JOURNAL)
    problems: list[Problem] = []
    prev, expected_seq, count = GENESIS, 1, 0
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        problems.append(Problem(path, len(lines), "last line is torn (no newline at the end)"))
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
        if record.get("seq") != expected_seq:
            problems.append(Problem(path, number, f"seq is {record.get('seq')!r}, expected {expected_seq}"))
            break
        if record.get("prev") != prev:
            problems.append(
                Problem(
                    path,
                    number,
                    "prev does not match the hash of the line before "
                    "(a line was edited, removed, inserted or reordered)",
                )
            )
            break
        for change in record.get("changes") or []:
            patch_path = os.path.join(folder, change.get("patch", ""))
            try:
                with open(patch_path, "rb") as pf:
                    digest = sha256_hex(pf.read())
            except OSError:
                problems.append(Problem(patch_path, None, f"patch named by seq {expected_seq} is missing"))
                continue
            if digest != change.get("patch_sha256"):
                problems.append(Problem(patch_path, None, f"patch differs from the one recorded at seq {expected_seq}"))
        refs: list[str] = [c[k] for c in record.get("changes") or [] for k in ("pre_blob", "post_blob") if c.get(k)]
        _blob_refs(record.get("payload"), refs)
        for digest in refs:
            try:
                actual = sha256_hex(blobs.read_blob(folder, digest))
            except (OSError, ValueError):
                problems.append(
                    Problem(os.path.join(folder, "blobs", digest), None, f"blob named by seq {expected_seq} is missing")
                )
                continue
            if actual != digest:
                problems.append(
                    Problem(os.path.join(folder, "blobs", digest), None, "blob content does not match its hash")
                )
        prev = line_hash(line)
        expected_seq += 1
        count += 1
    torn = os.path.join(folder, journal.TORN)
    if os.path.exists(torn):
        problems.append(
            Problem(
                torn, None, "holds the torn tail of an interrupted write (moved aside; chain continues)", warning=True
            )
        )
    return problems, count, prev


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
