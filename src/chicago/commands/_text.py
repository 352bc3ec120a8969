"""Plain-text tables and a progress line for the commands of the core (odds, simulate).

The core of chicago depends on no terminal library, so its commands draw their own tables:
a title, a header row over a rule, aligned columns two spaces apart, and a caption wrapped
to the table's width. A cell is a string or a sequence of ``(text, style)`` spans; styles
(``bold``, ``dim``, ``red``) become ANSI colours only when the output is a terminal that
wants them (:func:`wants_color`: not with ``NO_COLOR`` or ``TERM=dumb``)::

    >>> table = Table(title="odds", columns=[Column("keep"), Column("exp.", right=True)])
    >>> table.add_row("Ah Kh", "1.250")
    >>> table.add_row([("Qh ", ""), ("··", "dim")], "0.5")
    >>> print(table.render(width=40))
        odds
    keep    exp.
    ────────────
    Ah Kh  1.250
    Qh ··    0.5
"""

from __future__ import annotations

import os
import sys
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

__all__ = ["Cell", "Column", "Progress", "Table", "fold", "plain_text", "wants_color"]

Span = tuple[str, str]
Cell = str | Sequence[Span]
"""A cell: plain text, or spans of text each with a style ('' for none)."""

_ANSI = {"bold": "1", "dim": "2", "red": "31"}
_GAP = "  "


def wants_color(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal that shows colours (no ``NO_COLOR``, no dumb TERM)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _spans(cell: Cell) -> list[Span]:
    return [(cell, "")] if isinstance(cell, str) else list(cell)


def plain_text(cell: Cell) -> str:
    """A cell's text without its styles."""
    return "".join(text for text, _ in _spans(cell))


def _styled(spans: Sequence[Span], color: bool, extra: str = "") -> str:
    out = []
    for text, style in spans:
        codes = [_ANSI[s] for s in (style.split() + extra.split()) if s in _ANSI]
        out.append(f"\x1b[{';'.join(codes)}m{text}\x1b[0m" if color and codes and text
                   else text)
    return "".join(out)


@dataclass
class Column:
    """A column: its header, right alignment, a style for every cell, and whether long
    cells may fold onto more lines when the table is wider than the output (``fold``: cut
    anywhere, also in the plain text; ``wrap``: at spaces, where Rich draws the table —
    the plain text leaves such cells whole, its caller wraps them)."""

    header: str
    right: bool = False
    style: str = ""
    fold: bool = False
    wrap: bool = False


@dataclass
class Table:
    """Rows of cells under headers, rendered as aligned plain text (see the module docs)."""

    columns: list[Column]
    title: str = ""
    caption: str = ""
    rows: list[list[Cell]] = field(default_factory=list)

    def add_row(self, *cells: Cell) -> None:
        """Append a row with one cell per column."""
        if len(cells) != len(self.columns):
            raise ValueError(f"{len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(list(cells))

    def _widths(self, width: int) -> list[int]:
        widths = [
            max([len(col.header)] + [len(plain_text(row[i])) for row in self.rows])
            for i, col in enumerate(self.columns)
        ]
        excess = sum(widths) + len(_GAP) * (len(widths) - 1) - width
        for i, col in enumerate(self.columns):
            if excess <= 0:
                break
            if col.fold:
                shrink = min(excess, widths[i] - max(4, len(col.header)))
                widths[i] -= max(0, shrink)
                excess -= max(0, shrink)
        return widths

    def render(self, width: int | None = None, color: bool = False) -> str:
        """The table as text, at most ``width`` columns wide where folding allows (default:
        the terminal's width), with ANSI styles if ``color``."""
        width = width or _terminal_width()
        widths = self._widths(width)
        total = sum(widths) + len(_GAP) * (len(widths) - 1)
        lines: list[str] = []
        if self.title:
            lines.append(self.title.center(total).rstrip())
        lines.append(self._line([[(c.header, "")] for c in self.columns], widths, color,
                                header=True))
        lines.append("─" * total)
        for row in self.rows:
            lines.extend(self._row_lines(row, widths, color))
        if self.caption:
            lines.extend(textwrap.wrap(self.caption, max(total, 40)))
        return "\n".join(lines)

    def _row_lines(self, row: list[Cell], widths: list[int], color: bool) -> list[str]:
        parts: list[list[list[Span]]] = []
        for cell, w, col in zip(row, widths, self.columns, strict=True):
            text = plain_text(cell)
            if col.fold and len(text) > w:
                parts.append([[(text[k:k + w], "")] for k in range(0, len(text), w)])
            else:
                parts.append([_spans(cell)])
        height = max(len(p) for p in parts)
        return [
            self._line([p[k] if k < len(p) else [] for p in parts], widths, color)
            for k in range(height)
        ]

    def _line(self, cells: list[list[Span]], widths: list[int], color: bool,
              header: bool = False) -> str:
        out = []
        for spans, w, col in zip(cells, widths, self.columns, strict=True):
            pad = " " * (w - sum(len(t) for t, _ in spans))
            text = _styled(spans, color, "bold" if header else col.style)
            out.append(pad + text if col.right else text + pad)
        return _GAP.join(out).rstrip()


def fold(text: str, width: int | None = None) -> str:
    """``text`` cut into lines of at most ``width`` characters (default: the terminal's), as
    a long path or command is shown whole on a narrow screen.

    >>> print(fold("cmd:python /a/long/path/bot.py", 12))
    cmd:python /
    a/long/path/
    bot.py
    """
    width = width or _terminal_width()
    return "\n".join(text[k:k + width] for k in range(0, len(text), width)) or text


def _terminal_width() -> int:
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return int(os.environ.get("COLUMNS", "80") or 80)


class Progress:
    """One line on a terminal (``games ━━━━━━──── 37/100 0:00:12``), redrawn at most ten
    times a second and erased at the end; does nothing when disabled or not on a terminal."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        self.label = label
        self.total = max(1, total)
        self.done = 0
        self.stream = sys.stderr if stream is None else stream
        try:
            tty = self.stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        self.enabled = enabled and tty
        self._start = time.monotonic()
        self._drawn = 0.0

    def __enter__(self) -> Progress:
        self._draw(force=True)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more finished items."""
        self.done = min(self.total, self.done + count)
        self._draw(force=self.done == self.total)

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._drawn < 0.1:
            return
        self._drawn = now
        elapsed = int(now - self._start)
        filled = round(30 * self.done / self.total)
        bar = "━" * filled + "─" * (30 - filled)
        clock = f"{elapsed // 3600}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}"
        self.stream.write(f"\r{self.label} {bar} {self.done}/{self.total} {clock}")
        self.stream.flush()
