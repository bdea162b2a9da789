r"""Drive the real Codex CLI binary against a scripted Responses-API model on loopback.

Why: only the real ``codex`` shows which hook events it fires, with which payloads, and
how ``apply_patch`` calls look in them. Like :mod:`claude_driver`, no pytest here.

Getting the binary (pinned; ``.e2e/`` is git-ignored)::

    mkdir -p .e2e/codex && cd .e2e/codex && npm install @openai/codex@0.169.0

The npm package wraps a native binary in a per-platform package, here
``node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex``.

What was learnt by experiment with 0.169.0:

* ``codex exec`` runs one turn headless. A ``model_providers.<id>`` table in
  ``$CODEX_HOME/config.toml`` with ``base_url = "http://127.0.0.1:PORT/v1"`` and
  ``wire_api = "responses"`` sends every request to ``POST /v1/responses``; nothing
  else is fetched (a ``GET`` for model lists may 404 harmlessly).
* The tools offered depend on the model's bundled metadata: an unknown slug gets
  ``exec_command`` but no ``apply_patch``; ``gpt-5.5`` gets ``apply_patch`` as a
  freeform ("custom") tool, whose raw input is the ``*** Begin Patch`` text.
* Hooks are on by default (``codex features list``: ``hooks stable true``), read from
  ``$CODEX_HOME/hooks.json``; hooks nobody has reviewed run only with
  ``--dangerously-bypass-hook-trust`` (the TUI asks the user instead).
* ``exec_command`` reaches hooks as ``tool_name: "Bash"`` with ``tool_input.command``,
  ``apply_patch`` as ``tool_name: "apply_patch"`` with the patch in
  ``tool_input.command``.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import claude_driver
from agent_process import run_with_model
from claude_driver import SessionResult

CODEX_VERSION = "0.169.0"
MODEL = "gpt-5.5"  # bundled metadata that offers apply_patch
HERE = Path(__file__).resolve().parent
OPENAI_SCRIPTED_MODEL = HERE / "openai_scripted_model.py"
E2E_INSTALL_DIR = claude_driver.REPO_ROOT / ".e2e" / "codex"
INSTALL_COMMAND = f"mkdir -p .e2e/codex && cd .e2e/codex && npm install @openai/codex@{CODEX_VERSION}"


def find_codex_binary() -> str | None:
    """``$AUDITLOG_CODEX_BIN``, else the native binary of the pinned install under
    ``<repo>/.e2e/codex`` (PATH is not searched: results must not depend on the machine)."""
    override = os.environ.get("AUDITLOG_CODEX_BIN")
    if override:
        return override if os.access(override, os.X_OK) else None
    modules = E2E_INSTALL_DIR / "node_modules" / "@openai"
    for candidate in sorted(modules.glob("codex-*/vendor/*/bin/codex")):
        if os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def codex_version(binary: str) -> str:
    done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    return done.stdout.strip()


def provider_config(base_url: str) -> str:
    """``config.toml`` pointing Codex at the scripted model."""
    return (f'model = "{MODEL}"\nmodel_provider = "scripted"\n\n[model_providers.scripted]\nname = "scripted"\n'
            f'base_url = "{base_url}/v1"\nwire_api = "responses"\nenv_key = "SCRIPTED_MODEL_KEY"\n')


def run_session(project: Path, codex_home: Path, steps: Sequence[Mapping], prompt: str, *, codex_bin: str,
                extra_env: Mapping[str, str] | None = None, timeout: float = 120) -> SessionResult:
    """One ``codex exec`` turn in ``project`` against a fresh scripted model;
    ``codex_home`` must already hold ``hooks.json`` (its ``config.toml`` is written here)."""
    command = [codex_bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
               "--dangerously-bypass-hook-trust", prompt]

    def env_for(url: str) -> dict[str, str]:
        (codex_home / "config.toml").write_text(provider_config(url), encoding="utf-8")
        return {"CODEX_HOME": str(codex_home), "HOME": str(codex_home), "SCRIPTED_MODEL_KEY": "sk-test-dummy",
                **(extra_env or {})}

    return run_with_model(command, project, OPENAI_SCRIPTED_MODEL, steps, codex_home / "scripted-model", env_for,
                          scrub=("OPENAI_", "CODEX"), timeout=timeout)
