"""When live follow should ask the index for new events.

The hook appends a line to ``events.jsonl`` and then updates the index, a few
milliseconds apart. Asking the index on every tick would cost a query per tick for every
quiet session; asking only when the journal's size changes can miss an event whose index
row lands just after the tick that saw the journal grow. So: ask when the size changed,
and keep asking for a few ticks after that ("grace"), then go quiet again.
"""

from __future__ import annotations

from dataclasses import dataclass

GRACE_TICKS = 3


@dataclass
class JournalWatch:
    size: int = 0
    grace: int = 0

    def should_fetch(self, size: int) -> bool:
        """Given the journal's size now, whether to query the index this tick."""
        if size != self.size:
            self.size = size
            self.grace = GRACE_TICKS
            return True
        if self.grace > 0:
            self.grace -= 1
            return True
        return False
