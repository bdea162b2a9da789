"""Rich styles derived from the running theme, for the widgets that draw their own text.

Tables, the timeline and the diff view build Rich ``Text`` themselves (user data must
never be read as markup), so they cannot use CSS variables; instead they take their
colours from the theme's semantic variables (``text-success``, ``error-muted`` …), which
Textual already tunes for contrast in both dark and light themes. Rebuilt when the theme
changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from textual.app import App
from textual.color import Color


def _solid(variables: dict[str, str], name: str, background: Color) -> Color:
    value = variables.get(name, "")
    if value.startswith("auto"):  # e.g. "auto 60%": a contrast colour at that opacity
        alpha = float(value.split()[1].rstrip("%")) / 100 if " " in value else 1.0
        return background + background.get_contrast_text(alpha)
    return background + Color.parse(value)


@dataclass(frozen=True)
class Palette:
    """The handful of styles every self-drawn widget needs, for one theme."""

    dark: bool
    text: Style
    muted: Style
    accent: Style
    primary: Style
    success: Style
    error: Style
    warning: Style
    added_bg: Style
    removed_bg: Style
    changed_bg: Style
    hunk: Style
    match: Style
    gutter: Style

    @classmethod
    def from_app(cls, app: App) -> Palette:
        # From the current theme: a theme watcher can run before the app's copy is refreshed.
        variables = app.get_css_variables()
        background = Color.parse(variables.get("background", "#000000"))

        def fg(name: str, **extra: bool) -> Style:
            return Style(color=_solid(variables, name, background).rich_color, **extra)

        def bg(name: str) -> Style:
            return Style(bgcolor=_solid(variables, name, background).rich_color)

        return cls(
            dark=app.current_theme.dark,
            text=fg("foreground"),
            muted=fg("foreground-muted"),
            accent=fg("text-accent", bold=True),
            primary=fg("text-primary"),
            success=fg("text-success"),
            error=fg("text-error", bold=True),
            warning=fg("text-warning"),
            added_bg=bg("success-muted"),
            removed_bg=bg("error-muted"),
            changed_bg=bg("primary-muted"),
            hunk=fg("text-primary", bold=True),
            match=Style(bold=True, reverse=True),
            gutter=fg("foreground-muted"),
        )
