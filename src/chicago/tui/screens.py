"""Pop-up screens shared by the full-screen apps: a scrollable text (rules help, odds)."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["TextScreen"]


class TextScreen(ModalScreen[None]):
    """A pop-up with a title and a scrollable renderable; Escape, q or Enter closes it."""

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
        Binding("question_mark,h,f1", "close", "Close", show=False),
    ]

    def __init__(self, title: str, body: RenderableType, screen_id: str) -> None:
        super().__init__(id=screen_id)
        self._title = title
        self._body = body

    def compose(self) -> ComposeResult:
        """A scrolling box with the body."""
        box = VerticalScroll()
        box.border_title = self._title
        box.border_subtitle = "Esc to close"
        with box:
            yield Static(self._body, id=f"{self.id}-body")

    def action_close(self) -> None:
        """Close the pop-up."""
        self.dismiss(None)
