"""Diff replay's position: the session's changes in order, optionally limited to one
file, and which of them is on screen.

Pure state (no widgets, no store) so the stepping rules — clamp at both ends, keep the
same change in view when the file limit is switched on or off — are tested directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditlog.models import Change


@dataclass
class ReplayState:
    changes: list[Change]
    only: str | None = None  # limit to this path
    position: int = 0  # index into ``steps``
    steps: list[Change] = field(init=False)

    def __post_init__(self) -> None:
        self.steps = self._steps()
        self.position = max(0, min(self.position, len(self.steps) - 1))

    def _steps(self) -> list[Change]:
        return [c for c in self.changes if self.only is None or c.path == self.only]

    @property
    def current(self) -> Change | None:
        return self.steps[self.position] if self.steps else None

    @property
    def count(self) -> int:
        return len(self.steps)

    def go(self, position: int) -> bool:
        """Move to ``position`` (clamped); False when that is where it already was."""
        target = max(0, min(position, len(self.steps) - 1))
        moved = target != self.position
        self.position = target
        return moved

    def step(self, delta: int) -> bool:
        return self.go(self.position + delta)

    def first(self) -> bool:
        return self.go(0)

    def last(self) -> bool:
        return self.go(len(self.steps) - 1)

    def show_change(self, session_seq: int, path: str | None = None) -> None:
        """Put the change made at ``session_seq`` (to ``path``, if given) on screen."""
        for i, c in enumerate(self.steps):
            if c.seq == session_seq and (path is None or c.path == path):
                self.position = i
                return
        for i, c in enumerate(self.steps):  # else the first change after it
            if c.seq >= session_seq:
                self.position = i
                return

    def toggle_only(self) -> None:
        """Limit to the current change's file, or lift the limit; the current change stays."""
        here = self.current
        self.only = None if self.only is not None or here is None else here.path
        self.steps = self._steps()
        self.position = 0
        if here is not None:
            key = (here.seq, here.path)
            self.position = next((i for i, c in enumerate(self.steps) if (c.seq, c.path) == key), 0)

    def extend(self, changes: list[Change]) -> None:
        """New changes from live follow; the position stays on the same change."""
        here = self.current
        self.changes = changes
        self.steps = self._steps()
        if here is not None:
            key = (here.seq, here.path)
            self.position = next((i for i, c in enumerate(self.steps) if (c.seq, c.path) == key), self.position)
