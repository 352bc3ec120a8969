"""Pop-up windows shared by the full-screen apps: a scrollable text (keys and rules, odds,
the score sheet).

A window opens with the keyboard in it, so arrows, PageUp/PageDown and Home/End scroll it at
once (no Tab first) and the end of a long text (the key list, the last option) is reached at
any terminal size. Esc, Enter, q or the key that opened it closes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import RenderableType
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from chicago.tui.words import Words

__all__ = ["MIN_SIZE", "SizeNotice", "TextScreen", "keys_markdown"]

MIN_SIZE = (80, 24)
"""The smallest terminal (columns, rows) the full-screen apps are laid out for
(docs/TERMINAL.md); below it they say so instead of showing a cut table."""


class SizeNotice(Static):
    """Covers the app with a message while the terminal is smaller than :data:`MIN_SIZE`;
    hidden otherwise. :meth:`fit` is called with each new size."""

    DEFAULT_CSS = """
    SizeNotice {
        dock: top; width: 100%; height: 100%; display: none; padding: 1 2;
        background: $error-darken-3; color: $text; content-align: center middle;
    }
    """

    def __init__(self, words: Words, plain: str) -> None:
        """``plain``: the command that shows the same in lines (``chicago play --plain``)."""
        super().__init__(id="size-notice")
        self.words = words
        self.plain = plain

    def fit(self, width: int, height: int) -> None:
        """Show the message for a terminal of ``width`` × ``height`` if it is too small."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.display = small
        if small:
            self.update(self.words.t("tui.too_small", w=width, h=height, min_w=MIN_SIZE[0],
                                     min_h=MIN_SIZE[1], plain=self.plain))


def keys_markdown(keys: Sequence[tuple[str, str]], words: Words) -> str:
    """A key list as Markdown: ``keys`` are (key, catalogue key of what it does)."""
    lines = [f"## {words.t('table.keys')}", ""]
    lines.extend(f"- `{key}` {words.t(what)}" for key, what in keys)
    return "\n".join(lines) + "\n"


class TextScreen(ModalScreen[None]):
    """A pop-up with a title and a scrollable renderable, focused when it opens.

    ``close_keys`` (comma-separated Textual key names) close it besides Esc, q and Enter;
    ``footer`` is the line on its lower border (how to scroll and close). ``pages``: more
    bodies to turn to with → and ← (the odds table's columns that do not fit at once).
    """

    DEFAULT_CSS = """
    TextScreen {
        align: center middle;
    }
    TextScreen > VerticalScroll {
        width: 90%;
        height: 90%;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "Close"),
        Binding("right", "turn(1)", "Next page", show=False, priority=True),
        Binding("left", "turn(-1)", "Previous page", show=False, priority=True),
    ]

    def __init__(
        self,
        title: str,
        body: RenderableType,
        screen_id: str,
        *,
        close_keys: str = "question_mark,h,f1",
        footer: str = "↑↓ PgUp PgDn Home End · Esc",
        pages: Sequence[RenderableType] = (),
    ) -> None:
        super().__init__(id=screen_id)
        self._title = title
        self._body = body
        self._pages = [body, *pages]
        self.page = 0
        """The page shown (0: ``body``)."""
        self._footer = footer
        self._close_keys = {key.strip() for key in close_keys.split(",") if key.strip()}

    def compose(self) -> ComposeResult:
        """A scrolling box with the body."""
        box = VerticalScroll(id=f"{self.id}-box")
        box.border_title = self._title
        box.border_subtitle = self._footer
        with box:
            yield Static(self._body, id=f"{self.id}-body")

    def on_mount(self) -> None:
        """The keyboard goes to the text, so it scrolls at once."""
        self.query_one(VerticalScroll).focus()

    def on_key(self, event: events.Key) -> None:
        """The key that opened the window closes it again."""
        if event.key in self._close_keys:
            event.stop()
            self.dismiss(None)

    def action_turn(self, step: int) -> None:
        """Show the next (``step`` 1) or the previous (-1) page, if there is one."""
        page = self.page + step
        if 0 <= page < len(self._pages):
            self.page = page
            self.query_one(f"#{self.id}-body", Static).update(self._pages[page])

    def action_close(self) -> None:
        """Close the pop-up."""
        self.dismiss(None)
