"""The layer contracts in pyproject.toml ([tool.importlinter]), checked by import-linter
on an installed copy of the package: in the source tree ``hooks/`` and ``tui/`` become
``auditlog.hooks`` and ``auditlog.tui`` only through the build backend's mapping, which
import-linter cannot follow, so the test installs the package into a scratch folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def test_import_contracts_hold(tmp_path: Path) -> None:
    lint = shutil.which("lint-imports") or os.path.join(os.path.dirname(sys.executable), "lint-imports")
    if not os.path.exists(lint):
        pytest.fail("import-linter is not installed (pip install -e '.[dev]')")
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--target", str(target), str(REPO)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run([lint, str(REPO / "pyproject.toml")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 3 kept, 0 broken" in done.stdout
