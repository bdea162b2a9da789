"""Fixtures for the end-to-end tests that drive the real Claude Code binary.

Why these fixtures behave as they do:

* ``claude_bin`` skips when the binary is not installed, so a developer
  without npm can still run the rest of the suite; but in CI (``CI=true``),
  which installs the pinned binary itself, a missing binary is a broken
  install step and must fail loudly rather than silently skip the only tests
  that prove capture works for real.
* ``git_project`` and ``claude_home`` live under ``tmp_path``.  The
  project-wide autouse fixture (``tests/conftest.py``) already points
  ``HOME`` and ``AUDITLOG_HOME`` at temporary directories; these fixtures do
  not touch either variable.  ``claude_home`` is handed to
  :func:`claude_driver.run_session`, which sets ``HOME`` for the Claude Code
  process alone, and ``AUDITLOG_HOME`` passes through to the hooks unchanged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Make the sibling helper modules importable whatever pytest's import mode is
# (with "importlib" mode pytest adds no test directory to sys.path).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from claude_driver import INSTALL_COMMAND, claude_version, find_claude_binary, make_git_project  # noqa: E402


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def claude_bin() -> str:
    """Path of a working Claude Code binary; skip (or, in CI, fail) when there is none."""
    binary = find_claude_binary()
    problem = None
    if binary is None:
        problem = (
            "Claude Code binary not found (set AUDITLOG_CLAUDE_BIN, or install the pinned "
            f"release from the repository root with: {INSTALL_COMMAND})"
        )
    else:
        try:
            version = claude_version(binary)
        except (OSError, subprocess.SubprocessError) as error:
            version = ""
            problem = f"Claude Code binary {binary} does not run: {error}"
        if not problem and "Claude Code" not in version:
            problem = f"{binary} --version printed {version!r}; is the npm postinstall step missing?"
    if problem:
        if _in_ci():
            pytest.fail(f"CI=true but the end-to-end tests cannot run: {problem}", pytrace=False)
        pytest.skip(problem)
    assert binary is not None
    return binary


@pytest.fixture
def git_project(tmp_path: Path) -> Path:
    """A fresh real git repository with one commit holding ``config.ini`` (``port=7000``)."""
    return make_git_project(tmp_path / "project")


@pytest.fixture
def claude_home(tmp_path: Path) -> Path:
    """A throw-away HOME for Claude Code: its ``~/.claude`` and transcripts land here."""
    home = tmp_path / "claude-home"
    home.mkdir()
    return home.resolve()


@pytest.fixture
def capture_dir(tmp_path: Path) -> Path:
    """Where the independent capture hook drops one file per hook payload."""
    directory = tmp_path / "captures"
    directory.mkdir()
    return directory.resolve()
