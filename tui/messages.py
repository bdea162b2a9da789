"""Every message the browser's screens and widgets exchange, in one place.

Workers run in threads and hand their results back by posting one of these (posting is
thread-safe); widgets tell their screen what the user asked for the same way. Keeping
them together shows at a glance what flows where.
"""

from __future__ import annotations

from auditlog.tui.data.filters import FilterState
from auditlog.tui.data.lines import CodeLine
from auditlog.tui.data.reader import SearchResult, SessionData, SessionPage
from textual.message import Message

from auditlog.models import Change, Event

# -- requests from widgets --------------------------------------------------------------


class FiltersChanged(Message):
    """The filter bar's fields settled (debounced): the table should follow."""

    def __init__(self, state: FilterState) -> None:
        super().__init__()
        self.state = state


class OpenSession(Message):
    """Open a session, optionally at one event (a search hit)."""

    def __init__(self, session_id: str, seq: int | None = None) -> None:
        super().__init__()
        self.session_id = session_id
        self.seq = seq


class NearEnd(Message):
    """The sessions table's cursor is close to the last loaded row: load the next page."""


# -- results from workers ---------------------------------------------------------------


class SessionsLoaded(Message):
    def __init__(self, page: SessionPage, generation: int, append: bool) -> None:
        super().__init__()
        self.page = page
        self.generation = generation
        self.append = append


class LoadFailed(Message):
    """A read failed; ``where`` says which part of the screen was waiting for it."""

    def __init__(self, where: str, error: str) -> None:
        super().__init__()
        self.where = where
        self.error = error


class SessionLoaded(Message):
    def __init__(self, data: SessionData) -> None:
        super().__init__()
        self.data = data


class EventsArrived(Message):
    """Live follow found events past the last one shown (and the changes as they stand)."""

    def __init__(self, events: list[Event], changes: list[Change]) -> None:
        super().__init__()
        self.events = events
        self.changes = changes


class EventDetailLoaded(Message):
    def __init__(self, seq: int, record: list[CodeLine], patch: list[CodeLine]) -> None:
        super().__init__()
        self.seq = seq
        self.record = record
        self.patch = patch


class ConversationLoaded(Message):
    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown


class StepLoaded(Message):
    """One replay step's lines, keyed by (session seq, path, whole-file view)."""

    def __init__(self, key: tuple[int, str, bool], lines: list[CodeLine]) -> None:
        super().__init__()
        self.key = key
        self.lines = lines


class ChangesLoaded(Message):
    def __init__(self, changes: list[Change]) -> None:
        super().__init__()
        self.changes = changes


class SearchDone(Message):
    def __init__(self, result: SearchResult, generation: int) -> None:
        super().__init__()
        self.result = result
        self.generation = generation
