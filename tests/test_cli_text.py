"""The plain-text tables and the progress line of the core's commands (no terminal library)."""

from __future__ import annotations

import io

import pytest

from chicago.cli import main
from chicago.commands._text import Column, Progress, Table, wants_color


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_columns_align_a_caption_wraps_and_colours_only_when_asked() -> None:
    table = Table(title="t", caption="word " * 30,
                  columns=[Column("name"), Column("n", right=True, style="bold")])
    table.add_row([("Ah", "red"), (" ", ""), ("··", "dim")], "7")
    table.add_row("long name", "12")
    plain = table.render(width=80).splitlines()
    assert plain[1:5] == ["name        n", "─" * 13, "Ah ··       7", "long name  12"]
    assert all(len(line) <= 40 for line in plain[5:]) and len(plain) > 6
    coloured = table.render(width=80, color=True)
    assert "\x1b[31mAh\x1b[0m" in coloured and "\x1b[2m··\x1b[0m" in coloured
    assert "\x1b[1m12\x1b[0m" in coloured  # the column's style
    with pytest.raises(ValueError, match="1 cells for 2 columns"):
        table.add_row("only one")


def test_a_folding_column_wraps_to_fit_the_width() -> None:
    table = Table(columns=[Column("bot", fold=True), Column("wins", right=True)])
    table.add_row("x" * 30, "1")
    lines = table.render(width=20).splitlines()
    assert max(len(line) for line in lines) <= 20
    assert "".join(line.split()[0] for line in lines[2:] if line.startswith("x")) == "x" * 30


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert wants_color(_Terminal()) and not wants_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_color(_Terminal())


def test_progress_draws_one_line_on_a_terminal_and_erases_it() -> None:
    screen = _Terminal()
    with Progress("games", 4, stream=screen) as progress:
        progress.advance(4)
    text = screen.getvalue()
    assert "\rgames " in text and "4/4" in text and text.endswith("\r\x1b[2K")
    quiet = io.StringIO()
    with Progress("games", 4, stream=quiet) as progress:
        progress.advance(2)
    assert quiet.getvalue() == ""
    with Progress("games", 4, stream=_Terminal(), enabled=False) as progress:
        assert not progress.enabled


def test_odds_table_fits_80_columns(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["odds", "Ah Kh Qh Jh 2c", "--rules", "wikipedia"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "\x1b[" not in out  # not a terminal: no colours
