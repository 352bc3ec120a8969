"""Where the tables of ``chicago review``, ``odds`` and ``simulate`` go: Rich or plain text.

The commands describe their tables once, as the core's :class:`~chicago.commands._text.Table`.
:class:`TableOutput` chooses how they are drawn: with Rich (boxes, colours, cells wrapped to
the width) when the ``rich`` package can be imported (the ``tui`` extra brings it) *and* the
output is a terminal; otherwise exactly as the core's plain text, so a pipe, a file or an
installation without extras sees no difference. Rich is imported only when it is used, never
at import time, so the core still needs no extra.

>>> from chicago.commands._text import Column, Table
>>> import io
>>> out = TableOutput(io.StringIO())  # not a terminal: plain text
>>> out.rich
False
>>> table = Table([Column("keep"), Column("exp.", right=True)])
>>> table.add_row("Ah Kh", "1.250")
>>> print(out.render(table, width=40))
keep    exp.
────────────
Ah Kh  1.250
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from chicago.commands._text import Cell, Column, Table, plain_text, wants_color

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["TableOutput", "rich_available"]


def rich_available() -> bool:
    """Whether the ``rich`` package can be imported (it is not imported here)."""
    try:
        return importlib.util.find_spec("rich") is not None
    except (ImportError, ValueError):
        return False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class TableOutput:
    """Draws :class:`~chicago.commands._text.Table` objects for ``stream`` (standard output
    by default): with Rich on a terminal where Rich is installed, else as plain text.

    ``color`` is for the plain text only (default: :func:`~chicago.commands._text.wants_color`
    of the stream); Rich decides its colours itself (``NO_COLOR``, ``TERM=dumb``, the
    terminal's colour system). ``use_rich=False`` forces the plain text.
    """

    def __init__(
        self, stream: TextIO | None = None, *, color: bool | None = None,
        use_rich: bool | None = None,
    ) -> None:
        self.stream = sys.stdout if stream is None else stream
        self.color = wants_color(self.stream) if color is None else color
        if use_rich is None:
            use_rich = _is_terminal(self.stream) and rich_available()
        self.rich = use_rich
        """True when the tables are drawn with Rich."""

    def render(self, table: Table, width: int | None = None) -> str:
        """``table`` as text for the stream, at most ``width`` columns (default: the
        terminal's) where its cells can wrap."""
        if self.rich:
            try:
                return self._rich(table, width)
            except ImportError:  # rich was found but does not import: plain text
                self.rich = False
        return table.render(width, self.color)

    def _console(self, width: int | None) -> Console:
        from rich.console import Console

        return Console(file=self.stream, width=width, highlight=False, emoji=False,
                       soft_wrap=False)

    def _rich(self, table: Table, width: int | None) -> str:
        console = self._console(width)
        cells, columns = _cell_width(table), len(table.columns)
        if cells + 3 * columns + 1 <= console.width:
            frame = "box"
        elif cells + 3 * columns - 3 <= console.width:
            frame = "lines"  # no room for the box: the lines between the columns
        else:
            frame = "rule"  # nor for those: a rule under the header, as the plain text
        drawn = _rich_table(table, frame)
        with console.capture() as captured:
            console.print(drawn)
        return captured.get().rstrip("\n")


def _cell_width(table: Table) -> int:
    """The width of the table's cells, none cut: the cells that may wrap at their longest
    word, the others whole."""
    need = []
    for index, column in enumerate(table.columns):
        texts = [column.header] + [plain_text(row[index]) for row in table.rows]
        if column.fold or column.wrap:
            need.append(max(len(word) for text in texts for word in [*text.split(), ""]))
        else:
            need.append(max(len(text) for text in texts))
    return sum(need)


def _rich_table(table: Table, frame: str) -> Any:
    """``table`` as a Rich table framed by ``frame``: ``box`` (a rounded box), ``lines``
    (lines between the columns and under the header, no edges) or ``rule`` (a rule under the
    header and two spaces between the columns)."""
    from rich import box
    from rich.table import Table as RichTable

    boxed = frame == "box"
    drawn = RichTable(
        title=table.title or None, caption=table.caption or None,
        box={"box": box.ROUNDED, "lines": box.MINIMAL}.get(frame, box.SIMPLE_HEAD),
        show_edge=boxed, pad_edge=boxed, collapse_padding=frame == "rule",
        header_style="bold", title_style="bold", caption_style="dim",
        caption_justify="left", padding=(0, 1), expand=False,
    )
    for column in table.columns:
        drawn.add_column(column.header, **_column_options(column))
    for row in table.rows:
        drawn.add_row(*(_text(cell) for cell in row))
    return drawn


def _column_options(column: Column) -> dict[str, Any]:
    """A core column as Rich's: its alignment and style. Every cell may wrap (at spaces,
    long words folded) but only has to where the table is wider than the terminal even with
    a rule for a frame: then nothing is cut off, a number goes on over two lines at worst.
    (The frame is chosen so that only the ``wrap`` and ``fold`` columns wrap.)"""
    return {
        "justify": "right" if column.right else "left",
        "style": column.style or None,
        "overflow": "fold",
        "no_wrap": False,
    }


def _text(cell: Cell) -> Any:
    from rich.text import Text

    if isinstance(cell, str):
        return Text(cell)
    spans: Sequence[tuple[str, str]] = cell
    return Text.assemble(*((text, style or "") for text, style in spans))
