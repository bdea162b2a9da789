"""Registering ``auditlog-hook`` in Codex CLI's ``hooks.json``, and taking it out again.

Codex reads ``hooks.json`` beside each active config layer: ``<project>/.codex/`` (only
in a project the user trusts) and ``~/.codex/`` (``$CODEX_HOME``). Handlers are grouped
like Claude Code's; a group without ``matcher`` matches every tool, source and trigger,
and ``timeout`` is in seconds. Codex 0.114 to 0.123 ran hooks only with ``[features]
codex_hooks = true``; from 0.124 they are on by default. When the ``codex`` found on PATH
is older than that, install adds the flag to the ``config.toml`` beside ``hooks.json``,
on a line marked as ours, which uninstall removes again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable

from auditlog.hooks.codex import EVENTS
from auditlog.hooks.settings_files import JsonHooks, config_path, hook_command

LABEL = "Codex CLI"
SCOPES = ("project", "user")
HOOK_TIMEOUT_SECONDS = 30
HOOKS_DEFAULT_ON = (0, 124, 0)
FLAG_MARK = "# added by auditlog install"
FLAG_LINE = f"codex_hooks = true  {FLAG_MARK}"
FEATURES_HEADER = re.compile(r"^\s*\[features\]\s*(#.*)?$")


def _entry(event: str, command: str) -> dict:
    return {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS}]}


HOOKS = JsonHooks("codex", EVENTS, _entry)


def settings_path(scope: str, directory: str | None) -> str:
    return config_path(scope, directory, ".codex", "hooks.json", label=LABEL, scopes=SCOPES,
                       user_dir=os.environ.get("CODEX_HOME"))


registered_events = HOOKS.registered_events


def codex_version() -> tuple[int, ...] | None:
    """The version of the ``codex`` on PATH (``codex-cli 0.169.0``), or ``None``."""
    binary = shutil.which("codex")
    if not binary:
        return None
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=20, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in found.groups()) if found else None


def _feature_state(text: str) -> bool | None:
    """``[features] hooks``/``codex_hooks`` as the file sets it (``None``: not set)."""
    import tomllib

    try:
        features = tomllib.loads(text).get("features")
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"config.toml is not valid TOML ({exc}); fix it, then run install again") from None
    if not isinstance(features, dict):
        return None
    values = [features[k] for k in ("hooks", "codex_hooks") if isinstance(features.get(k), bool)]
    return any(values) if values else None


def with_flag(text: str) -> str:
    """``text`` (a config.toml) with the hooks feature switched on by a line of ours,
    unless the file already says either way."""
    if _feature_state(text) is not None:
        return text
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if FEATURES_HEADER.match(line)), None)
    if header is None:
        lines += ([""] if lines and lines[-1].strip() else []) + [f"[features]  {FLAG_MARK}", FLAG_LINE]
    else:
        lines.insert(header + 1, FLAG_LINE)
    return "\n".join(lines) + "\n"


def without_flag(text: str) -> str:
    """``text`` without the lines install added (a ``[features]`` header of ours goes
    only when nothing of the user's has been put under it since)."""
    if FLAG_MARK not in text:
        return text
    lines = [line for line in text.splitlines() if line != FLAG_LINE]
    kept = []
    for i, line in enumerate(lines):
        if line.endswith(FLAG_MARK) and FEATURES_HEADER.match(line):
            rest = next((x for x in lines[i + 1:] if x.strip()), None)
            if rest is None or rest.lstrip().startswith("["):
                continue
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept) + "\n" if kept else ""


def _edit_config(hooks_path: str, edit: Callable[[str], str]) -> None:
    """Apply ``edit`` to the config.toml beside ``hooks_path`` (writing only on change)."""
    path = os.path.join(os.path.dirname(hooks_path), "config.toml")
    text = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
    new = edit(text)
    if new == text:
        return
    if new or os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)


def install_notes() -> list[str]:
    return [f"Hook command: {hook_command('codex')}",
            "Codex asks you to review and trust new hooks before it runs them (/hooks); project hooks load only in "
            "a trusted project.",
            "Codex older than 0.124 needs [features] codex_hooks = true: install adds it beside hooks.json when the "
            "codex on PATH is that old."]


def install(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
    path = settings_path(scope, directory)
    result = HOOKS.install(path)
    version = codex_version()
    if version is not None and version < HOOKS_DEFAULT_ON:
        _edit_config(path, with_flag)
    return result


def uninstall(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
    path = settings_path(scope, directory)
    _edit_config(path, without_flag)
    return HOOKS.uninstall(path)
