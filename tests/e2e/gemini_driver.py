r"""Drive the real Gemini CLI against a scripted Gemini-API model on loopback.

Why: only the real ``gemini`` shows which hook events it fires and with which payloads
(for instance that ``AfterTool`` of an edit carries ``returnDisplay.originalContent``/
``newContent``). Like :mod:`claude_driver`, no pytest here.

Getting it (pinned; ``.e2e/`` is git-ignored; Node 20 runs it)::

    mkdir -p .e2e/gemini-cli && cd .e2e/gemini-cli && npm install @google/gemini-cli@0.61.0

What was learnt by experiment with 0.61.0:

* ``GOOGLE_GEMINI_BASE_URL`` redirects the model API; with ``GEMINI_API_KEY`` set and
  ``security.auth.selectedType = "gemini-api-key"`` in ``~/.gemini/settings.json`` no
  other host is contacted. ``-m gemini-2.5-flash`` avoids the model router's extra
  classification request. Each turn is one ``POST
  /v1beta/models/<model>:streamGenerateContent?alt=sse``.
* ``gemini -p PROMPT --yolo`` runs headless and approves every tool.
* Hooks are on by default and read from ``~/.gemini/settings.json`` (project settings
  need the folder trusted; ``security.folderTrust.enabled = false`` sidesteps that).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import claude_driver
from agent_process import run_with_model
from claude_driver import SessionResult

GEMINI_VERSION = "0.61.0"
MODEL = "gemini-2.5-flash"
HERE = Path(__file__).resolve().parent
GEMINI_SCRIPTED_MODEL = HERE / "gemini_scripted_model.py"
E2E_INSTALL_DIR = claude_driver.REPO_ROOT / ".e2e" / "gemini-cli"
INSTALL_COMMAND = f"mkdir -p .e2e/gemini-cli && cd .e2e/gemini-cli && npm install @google/gemini-cli@{GEMINI_VERSION}"
# What the throw-away user settings need besides our hooks: API-key auth, no folder
# trust prompt, no update check or usage statistics (no network).
BASE_SETTINGS = {"security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
                 "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                 "privacy": {"usageStatisticsEnabled": False}}


def find_gemini_binary() -> str | None:
    """``$AUDITLOG_GEMINI_BIN``, else the pinned install under ``<repo>/.e2e/gemini-cli``."""
    override = os.environ.get("AUDITLOG_GEMINI_BIN")
    candidate = override or str(E2E_INSTALL_DIR / "node_modules" / ".bin" / "gemini")
    return candidate if os.access(candidate, os.X_OK) else None


def gemini_version(binary: str) -> str:
    done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    return done.stdout.strip()


def write_user_settings(home: Path, hooks_settings: Mapping) -> Path:
    """``HOME/.gemini/settings.json``: :data:`BASE_SETTINGS` merged with ``hooks_settings``."""
    path = home / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**BASE_SETTINGS, **hooks_settings}, indent=2), encoding="utf-8")
    return path


def run_session(project: Path, home: Path, steps: Sequence[Mapping], prompt: str, *, gemini_bin: str,
                extra_env: Mapping[str, str] | None = None, timeout: float = 120) -> SessionResult:
    """One headless ``gemini -p`` run in ``project`` against a fresh scripted model."""
    command = [gemini_bin, "-p", prompt, "--yolo", "-m", MODEL, "--output-format", "json"]

    def env_for(url: str) -> dict[str, str]:
        return {"HOME": str(home), "GEMINI_API_KEY": "test-dummy-key", "GOOGLE_GEMINI_BASE_URL": url,
                **(extra_env or {})}

    return run_with_model(command, project, GEMINI_SCRIPTED_MODEL, steps, home / "scripted-model", env_for,
                          scrub=("GEMINI", "GOOGLE"), timeout=timeout)
