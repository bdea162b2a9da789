"""Shared fixtures. Every test runs with ``AUDITLOG_HOME`` and ``HOME`` in a temporary
folder, so no test can touch the real store or the real ``~/.claude``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_CORPUS = REPO_ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    store = home / "auditlog-store"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("AUDITLOG_HOME", str(store))
    for name in ("XDG_DATA_HOME", "AUDITLOG_DISABLE", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Author")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "author@example.com")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    return home


@pytest.fixture
def store(isolated_home: Path) -> Path:
    """The test's ``AUDITLOG_HOME``."""
    return Path(os.environ["AUDITLOG_HOME"])


@pytest.fixture
def corpus() -> Path:
    """``../shared/corpus``: real payloads and transcripts (skipped where it is absent)."""
    if not SHARED_CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {SHARED_CORPUS} (it lives beside the repository)")
    return SHARED_CORPUS
