#!/usr/bin/env python3
"""Run the redaction engine over every text file of a source tree and list what it would replace.

The tree holds no real secret, so every replacement is a false positive (the fake secrets of the test
corpus, tests/data/secrets_corpus.json, are skipped).  Prints ``<file>:<line>: <kind>  <excerpt>`` for each
replacement, then ``false_positives=N files=M``.  Usage: ``redaction_false_positives.py [ROOT]`` (default:
the repository root).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".ruff_cache", ".pytest_cache", ".mypy_cache"}
CORPUS = Path("tests") / "data" / "secrets_corpus.json"
MAX_BYTES = 8 << 20


def text_of(path: Path) -> str | None:
    """The file as text, or None for binary files (a NUL byte, or not UTF-8)."""
    try:
        data = path.read_bytes()[:MAX_BYTES]
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=str(ROOT))
    args = parser.parse_args()
    root = Path(args.root).resolve()
    sys.path.insert(0, str(ROOT))
    from auditlog.redaction import secret_spans

    files = found = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(root)
            if rel == CORPUS or path.resolve() == (ROOT / CORPUS).resolve():
                continue
            text = text_of(path)
            if text is None:
                continue
            files += 1
            for start, end, kind in secret_spans(text):
                found += 1
                line = text.count("\n", 0, start) + 1
                line_start = text.rfind("\n", 0, start) + 1
                excerpt = text[line_start : min(end, line_start + 100)].replace("\n", "\\n")
                print(f"{rel}:{line}: {kind}  {excerpt!r}")
    print(f"false_positives={found} files={files}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
