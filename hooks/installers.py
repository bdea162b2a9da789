"""Which installer registers the hook in which agent's configuration.

Each installer module offers ``install(scope, directory)``, ``uninstall(scope,
directory)`` (both returning ``(path, backup, changed)``), ``settings_path(scope,
directory)``, ``registered_events(path) -> list[str]``, ``install_notes() -> list[str]``
(lines shown after installing), ``EVENTS``, ``SCOPES`` and ``LABEL``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

INSTALLERS = {
    "claude": "auditlog.hooks.claude_install",
    "codex": "auditlog.hooks.codex_install",
    "gemini": "auditlog.hooks.gemini_install",
    "cursor": "auditlog.hooks.cursor_install",
    "hel": "auditlog.hooks.hel_install",
}


def agents() -> tuple[str, ...]:
    return tuple(INSTALLERS)


def installer(agent: str) -> ModuleType:
    try:
        return importlib.import_module(INSTALLERS[agent])
    except KeyError:
        raise ValueError(f"unknown agent {agent!r}; expected one of {', '.join(INSTALLERS)}") from None
