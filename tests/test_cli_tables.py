"""The tables of ``chicago review``, ``odds`` and ``simulate`` (issue 15's lean core, issue
17's "rich table in a terminal"): drawn with Rich when ``rich`` is installed and standard
output is a terminal, else exactly the core's plain text (a pipe, a file, no Rich)."""

from __future__ import annotations

import io
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from chicago import Rules, cli
from chicago.commands._review_table import render_review
from chicago.commands._tables import TableOutput, rich_available
from chicago.commands._text import Column, Table
from chicago.review import Review
from chicago.review.graph import score_graph
from chicago.tui.words import Words, symbol_card
from review_helpers import small_game_file

LEVEL = "expert:samples=4,exchange=4,holds=2"
GOLDEN = Path(__file__).resolve().parent / "tables" / "odds-80.txt"
ODDS = ["odds", "Ah Kh Qh Jh 2c", "--dead", "Th 9h"]
SIMULATE = ["simulate", "--bots", "basic,random,random", "--games", "3", "--no-progress"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
RICH_LINES = set("│┼╭╮╰╯├┤┬┴")
"""Characters only Rich draws (the plain text's one line character is ─)."""


class Terminal(io.StringIO):
    """A standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished three-player game of two deals, saved as ``chicago play`` saves one."""
    return small_game_file(tmp_path_factory.mktemp("tables"))


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("NO_COLOR", "FORCE_COLOR", "COLORTERM", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def on_a_terminal(monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    """``chicago ARGS`` with standard output a terminal: what it printed."""
    out, before = Terminal(), sys.stdout
    monkeypatch.setattr(sys, "stdout", out)
    assert cli.main(list(args)) == 0
    monkeypatch.setattr(sys, "stdout", before)
    return out.getvalue()


def piped(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert cli.main(list(args)) == 0
    return capsys.readouterr().out


def width(text: str) -> int:
    return max(len(line) for line in ANSI.sub("", text).splitlines())


def test_rich_is_there_for_these_tests() -> None:
    assert rich_available()  # the [tui] extra is installed in the test environment


@pytest.mark.parametrize("args", [ODDS, SIMULATE], ids=["odds", "simulate"])
def test_on_a_terminal_rich_draws_the_tables_in_80_columns(monkeypatch, args):
    text = on_a_terminal(monkeypatch, *args)
    assert RICH_LINES & set(text) and "\x1b[" in text
    assert width(text) <= 80


def test_a_pipe_gets_todays_plain_text_byte_for_byte(capsys, monkeypatch):
    """The odds through a pipe: exactly the text of the lean core before Rich tables
    (tests/tables/odds-80.txt, printed by that version at 80 columns)."""
    assert piped(capsys, *ODDS) == GOLDEN.read_text(encoding="utf-8")
    # and a terminal without Rich: the same plain text, in the core's ANSI styles
    monkeypatch.setitem(sys.modules, "rich", None)
    assert not rich_available()
    coloured = on_a_terminal(monkeypatch, *ODDS)
    assert not RICH_LINES & set(coloured) and "\x1b[1m" in coloured
    assert ANSI.sub("", coloured) == GOLDEN.read_text(encoding="utf-8")


def test_simulate_through_a_pipe_is_the_plain_table(capsys):
    from chicago.commands.simulate import _table
    from chicago.sim import run_match

    result = run_match(["basic", "random", "random"], 3, Rules.preset("pagat"), seed=0)
    assert piped(capsys, *SIMULATE) == _table(result, "pagat", 0) + "\n"
    assert not RICH_LINES & set(_table(result, "pagat", 0))


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_review_on_a_terminal(game_file, monkeypatch, capsys, lang):
    """Rich boxes and the grades' colours (best and good green, inaccuracy yellow, mistake
    orange, blunder red) of every grade the review gave, in 80 columns, in both
    languages."""
    review = Review.from_json(json.loads(piped(capsys, "review", str(game_file), "--level",
                                               LEVEL, "--json")))
    text = on_a_terminal(monkeypatch, "review", str(game_file), "--level", LEVEL,
                         "--no-progress", "--lang", lang)
    assert RICH_LINES & set(text)
    assert width(text) <= 80
    words = {"en": {"best": "best", "good": "good", "inaccuracy": "inaccuracy",
                    "mistake": "mistake", "blunder": "blunder"},
             "sv": {"best": "bäst", "good": "bra", "inaccuracy": "inexakthet",
                    "mistake": "misstag", "blunder": "blunder"}}[lang]
    colour = {"best": "1;32", "good": "32", "inaccuracy": "33", "mistake": "1;38;5;208",
              "blunder": "1;31"}
    given = {d.grade.value for d in review.decisions}
    assert len(given) >= 2
    for grade in given:
        assert f"\x1b[{colour[grade]}m{words[grade]}" in text, grade


def test_the_review_through_a_pipe_is_the_plain_text(game_file, capsys):
    out = piped(capsys, "review", str(game_file), "--level", LEVEL, "--json")
    review = Review.from_json(json.loads(out))
    text = piped(capsys, "review", str(game_file), "--level", LEVEL)
    record = json.loads(game_file.read_text())
    graph = score_graph(record, review)  # the game graph of issue 25, its seats named
    assert text == render_review(review, width=80, words=Words([], card=symbol_card),
                                 graph=graph, names={0: "Ada", 1: "You"}) + "\n"
    assert "\x1b[" not in text and not RICH_LINES & set(text)
    assert width(text) <= 80


def test_grade_colours_where_rich_draws():
    """Each grade's colour in a Rich table: mistake orange, blunder red."""
    from chicago.review import Grade
    from chicago.tui.review_words import GRADE_COLOUR

    table = Table([Column("grade")])
    for grade in Grade:
        table.add_row([(grade.value, GRADE_COLOUR[grade])])
    drawn = TableOutput(Terminal()).render(table, 40)
    assert "\x1b[1;38;5;208mmistake" in drawn and "\x1b[1;31mblunder" in drawn
    assert TableOutput(io.StringIO()).render(table, 40) == table.render(40)


def test_a_table_too_wide_for_a_box_keeps_its_cells_whole():
    """Where the rounded box does not fit, lines between the columns; where those do not
    either, a rule under the header as the plain text has: no cell is cut."""
    table = Table([Column(f"column {i}", right=True) for i in range(6)], title="wide")
    table.add_row(*[f"{i * 1111:,}" for i in range(6)])
    for room, frame in ((80, "╭"), (65, "│"), (60, "─")):  # cells 48 wide, 6 columns
        drawn = TableOutput(Terminal()).render(table, room)
        assert frame in drawn and width(drawn) <= room
        assert "…" not in drawn and "5,555" in drawn and "column 5" in drawn
    # narrower than the cells: they wrap, and still nothing is cut off
    drawn = ANSI.sub("", TableOutput(Terminal()).render(table, 40))
    assert width(drawn) <= 40 and "…" not in drawn
    shown = Counter("".join(drawn.split()).replace("─", "").replace("wide", "", 1))
    cells = [c.header for c in table.columns] + [str(c) for c in table.rows[0]]
    assert shown == Counter("".join("".join(cells).split()))  # every character, none cut


def test_the_modules_examples() -> None:
    """The examples in the docstring of chicago.commands._tables (a private module, which
    test_doctests.py leaves out)."""
    import doctest

    from chicago.commands import _tables

    result = doctest.testmod(_tables)
    assert result.attempted > 0 and result.failed == 0
