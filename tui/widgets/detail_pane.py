"""The session screen's right-hand side: the conversation as Markdown, the selected
event's record, and the patch it produced, one tab each.

The conversation is loaded once and then extended as live follow brings events
(``conversation.md`` only grows), so a long session is not re-rendered per event.
"""

from __future__ import annotations

from auditlog.tui.data.lines import CodeLine, note_lines
from auditlog.tui.widgets.code_view import CodeView
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, TabbedContent, TabPane

TABS = ("conversation", "event", "patch")


class DetailPane(Vertical):
    """Three tabs; ``show_tab`` switches by name (the screen binds 1, 2, 3)."""

    def __init__(self, *, id: str | None = None, initial: str = "conversation") -> None:
        super().__init__(id=id)
        self._initial = initial
        self._markdown = ""

    def compose(self) -> ComposeResult:
        with TabbedContent(initial=f"tab-{self._initial}", id="detail-tabs"):
            with TabPane("1 Conversation", id="tab-conversation"), VerticalScroll(id="conversation-scroll"):
                yield Markdown("", id="conversation", open_links=False)
            with TabPane("2 Event", id="tab-event"):
                yield CodeView(id="record")
            with TabPane("3 Patch", id="tab-patch"):
                yield CodeView(id="patch")

    def show_tab(self, name: str) -> None:
        self.query_one(TabbedContent).active = f"tab-{name}"

    @property
    def tab(self) -> str:
        return self.query_one(TabbedContent).active.removeprefix("tab-")

    async def show_conversation(self, markdown: str) -> None:
        """Show the conversation; when it only grew, render just the new part."""
        view = self.query_one("#conversation", Markdown)
        if self._markdown and markdown.startswith(self._markdown) and len(markdown) > len(self._markdown):
            tail = markdown[len(self._markdown):]
            self._markdown = markdown
            await view.append(tail)
        elif markdown != self._markdown:
            self._markdown = markdown
            await view.update(markdown)

    def scroll_to_prompt(self, index: int) -> None:
        """Bring the heading of the ``index``-th prompt (0-based) to the top of the tab."""
        headings = list(self.query_one("#conversation", Markdown).query("MarkdownH2"))
        if 0 <= index < len(headings):
            self.query_one("#conversation-scroll", VerticalScroll).scroll_to_widget(headings[index], top=True,
                                                                                     animate=False)

    def show_event(self, record: list[CodeLine], patch: list[CodeLine]) -> None:
        self.query_one("#record", CodeView).show(record)
        self.query_one("#patch", CodeView).show(patch or note_lines("This event changed no file."))
