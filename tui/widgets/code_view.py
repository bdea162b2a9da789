"""A scrolling view of code lines that highlights only what is on screen.

Diff replay, the detail pane's payload and patch, and the whole-file view all show lists
of ``CodeLine``. Rendering them as one Rich renderable would highlight every line up front
(half a second for 5,000 lines); with the Line API each line is built when it first scrolls
into view and kept in a cache until the lines, the width or the theme change.
"""

from __future__ import annotations

from typing import ClassVar

from auditlog.tui.data.lines import BODY_KINDS, CodeLine
from auditlog.tui.highlight import clean, style_for, tokens
from auditlog.tui.palette import Palette
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

CACHE_LINES = 4000
SIGNS = {"add": "+", "del": "-", "ctx": " ", "mark": "▌", "plain": " "}
ITALIC = Style(italic=True)


class CodeView(ScrollView, can_focus=True):
    """Lines with optional old/new line numbers, diff backgrounds and syntax colours."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "scroll_up", "Scroll up", show=False),
        Binding("down,j", "scroll_down", "Scroll down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown,space", "page_down", "Page down", show=False),
        Binding("shift+left", "scroll_left", "Scroll left", show=False),
        Binding("shift+right", "scroll_right", "Scroll right", show=False),
        Binding("ctrl+home", "scroll_home", "Top", show=False),
        Binding("ctrl+end", "scroll_end", "Bottom", show=False),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[CodeLine] = []
        self._cache: dict[int, Strip] = {}
        self._palette: Palette | None = None
        self._numbers = (0, 0)  # digits of the old and new line-number columns (0: none)
        self._content_width = 0

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        self._palette = None
        self._cache.clear()
        self.refresh()

    @property
    def palette(self) -> Palette:
        if self._palette is None:
            self._palette = Palette.from_app(self.app)
        return self._palette

    @property
    def lines(self) -> list[CodeLine]:
        return self._lines

    def show(self, lines: list[CodeLine], *, top: int | None = 0) -> None:
        """Replace the lines; ``top`` is the line to scroll to (None keeps the position)."""
        self._lines = lines
        self._cache.clear()
        old = max((ln.old or 0 for ln in lines), default=0)
        new = max((ln.new or 0 for ln in lines), default=0)
        diff = any(ln.kind in ("add", "del", "ctx") for ln in lines)
        self._numbers = (max(3, len(str(old))) if diff else 0, max(3, len(str(new))) if (diff or new) else 0)
        longest = max((len(ln.text) for ln in lines), default=0)
        self._content_width = self._gutter_width() + longest + 1
        self.virtual_size = Size(self._content_width, len(lines))
        if top is not None:
            self.scroll_to(0, top, animate=False, immediate=True)
        self.refresh()

    def append(self, lines: list[CodeLine]) -> None:
        """Add lines at the end without moving the view (live follow)."""
        self.show(self._lines + lines, top=None)

    def _gutter_width(self) -> int:
        old, new = self._numbers
        width = (old + 1 if old else 0) + (new + 1 if new else 0)
        return width + 2 if width else 0

    def on_resize(self) -> None:
        self._cache.clear()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if index >= len(self._lines):
            return Strip.blank(width, base)
        strip = self._cache.get(index)
        if strip is None:
            if len(self._cache) > CACHE_LINES:
                self._cache.clear()
            strip = self._cache[index] = self._build(self._lines[index], max(width, self._content_width), base)
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def _build(self, line: CodeLine, width: int, base: Style) -> Strip:
        """One line as segments: gutter, then tokens (or plain text), over the line's
        diff background. Built straight from token styles: no Rich ``Text`` in between."""
        p = self.palette
        background = {"add": p.added_bg, "del": p.removed_bg, "mark": p.added_bg, "file": p.changed_bg}.get(line.kind)
        segments = self._gutter(line, p)
        if line.kind in BODY_KINDS:
            for ttype, value in tokens(line.text, line.path):
                style = style_for(ttype, p.dark) if ttype is not None else None
                segments.append(Segment(value.rstrip("\n"), style))
        else:
            style = {"file": p.accent, "hunk": p.hunk}.get(line.kind, p.muted + ITALIC)
            segments.append(Segment(clean(line.text), style))
        under = base + background if background is not None else base
        strip = Strip(Segment.apply_style(segments, under))
        return strip.extend_cell_length(width, under)

    def _gutter(self, line: CodeLine, p: Palette) -> list[Segment]:
        old, new = self._numbers
        if not (old or new):
            return []
        numbers = ""
        if old:
            numbers += f"{line.old if line.old is not None else '':>{old}} "
        if new:
            numbers += f"{line.new if line.new is not None else '':>{new}} "
        sign = SIGNS.get(line.kind, " ")
        sign_style = p.success if line.kind in ("add", "mark") else p.error if line.kind == "del" else p.muted
        return [Segment(numbers, p.gutter), Segment(sign + " ", sign_style)]
