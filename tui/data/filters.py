"""The sessions screen's filters: what the filter bar holds, checked and turned into a
``SessionFilter``.

Kept apart from the widgets so the same state comes from ``auditlog browse``'s
arguments and from the fields, and so a bad date is caught here (with the field it came
from) instead of as an exception inside a worker.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

from auditlog.dates import DateError, parse_when
from auditlog.query import SessionFilter

AGENTS = ("claude-code", "codex", "gemini-cli", "cursor", "hel")
SCOPES = ("all text", "prompts")


class FilterError(ValueError):
    """A field that cannot be read; ``field`` names it so the bar can mark it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class FilterState:
    """Everything that narrows the sessions table. ``tool``, ``failed`` and ``limit`` come
    only from the command line; the bar shows them but has no field for them."""

    text: str = ""
    scope: str = "all text"  # or "prompts": match the free text against prompts only
    file: str = ""
    since: str = ""
    until: str = ""
    agent: str = ""
    project: str = ""
    tool: str = ""
    failed: bool = False
    limit: int | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace, *, limit: int | None = None) -> FilterState:
        """The filters of ``auditlog browse``; ``--prompt`` fills the free text, scoped to
        prompts. ``limit`` is the cap the caller settled on (see ``app.browse_limit``)."""
        prompt = getattr(args, "prompt", None) or ""
        return cls(text=prompt, scope="prompts" if prompt else "all text", file=args.file or "",
                   since=args.since or "", until=args.until or "", agent=_agent(args.agent or ""),
                   project=args.project or "", tool=args.tool or "", failed=bool(args.failed), limit=limit)

    def with_field(self, name: str, value: str) -> FilterState:
        return replace(self, **{name: value})

    def cleared(self) -> FilterState:
        """The editable fields emptied; the command line's fixed ones stay."""
        return FilterState(tool=self.tool, failed=self.failed, limit=self.limit)

    def to_filter(self) -> SessionFilter:
        """The query's filter; raises ``FilterError`` for a date the CLI would refuse too."""
        for name in ("since", "until"):
            value = getattr(self, name).strip()
            if value:
                try:
                    parse_when(value, end=name == "until")
                except DateError as exc:
                    raise FilterError(name, str(exc)) from None
        text = self.text.strip() or None
        return SessionFilter(
            since=self.since.strip() or None, until=self.until.strip() or None, file=self.file.strip() or None,
            prompt=text if self.scope == "prompts" else None, text=text if self.scope != "prompts" else None,
            project=self.project.strip() or None, agent=self.agent or None, tool=self.tool or None,
            failed=self.failed, limit=self.limit)

    def fixed(self) -> str:
        """The command-line-only filters in force, as the status line shows them."""
        parts = []
        if self.tool:
            parts.append(f"tool {self.tool}")
        if self.failed:
            parts.append("failed only")
        if self.limit:
            parts.append(f"at most {self.limit:,}")
        return ", ".join(parts)

    @property
    def active(self) -> bool:
        return any((self.text.strip(), self.file.strip(), self.since.strip(), self.until.strip(), self.agent,
                    self.project.strip(), self.tool, self.failed))


def _agent(name: str) -> str:
    """The CLI accepts short agent names (``claude``); the bar's choices are the full ones."""
    return {"claude": "claude-code", "gemini": "gemini-cli"}.get(name, name)
