"""``chicago review``'s output for people: the summary, the biggest mistakes, every decision.

In the language of the :class:`~chicago.tui.words.Words` given (the review's words are in
:mod:`chicago.tui.review_words`); the tables are drawn by a
:class:`~chicago.commands._tables.TableOutput`: Rich on a terminal that has it, else the
core's plain text (coloured on a terminal that wants colours). Only the reviewed seat's own
cards are shown.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence

from chicago.cards import Card
from chicago.commands._tables import TableOutput
from chicago.commands._text import Cell, Column, Table, plain_text
from chicago.review import Grade, Review
from chicago.review.graph import ScoreGraph, sparkline
from chicago.tui.review_words import (
    GRADE_COLOUR,
    GRADE_STYLE,
    accuracy_scale,
    choice_words,
    grade_word,
    loss_text,
    phase_label,
    phase_name,
    reason_text,
)
from chicago.tui.words import Words, symbol_card

__all__ = ["HAND_FROM", "fold_words", "render_review"]


def _cards(cards: Sequence[str]) -> Cell:
    spans = []
    for index, text in enumerate(cards):
        if index:
            spans.append((" ", ""))
        spans.append((symbol_card(text), "red" if Card(text).suit in (1, 2) else "bold"))
    return spans


_DEFAULT_NAMES = ("You", "Du")
"""The name ``chicago play`` gives the player when none is chosen, in either language."""

HAND_FROM = 110
"""The width from which the table of every decision has a column of the seat's hand."""


class _Writer:
    """The pieces of one review's text: its words, its table output and its width."""

    def __init__(self, words: Words, output: TableOutput, width: int) -> None:
        self.words = words
        self.output = output
        self.width = width
        self.styles = GRADE_COLOUR if output.rich else GRADE_STYLE

    def t(self, key: str, **params: object) -> str:
        return self.words.t(key, **params)

    def col(self, name: str, *, right: bool = False, style: str = "",
            wrap: bool = False) -> Column:
        return Column(self.t(f"tui.review.col.{name}"), right=right, style=style, wrap=wrap)

    def grade(self, grade: Grade) -> Cell:
        return [(grade_word(grade, self.words), self.styles[grade])]

    def loss(self, value: float) -> str:
        return loss_text(value, self.words)

    def fold(self, text: str) -> str:
        return fold_words(text, self.width)

    def draw(self, table: Table) -> str:
        return self.output.render(table, self.width)


def _decisions(review: Review, w: _Writer) -> Table:
    """Every decision, one row each (in the plain text wrapped at spaces onto more rows
    where needed; Rich wraps the cells itself)."""
    words = w.words
    with_hand = w.width >= HAND_FROM
    columns = [w.col("step", right=True), w.col("deal", right=True), w.col("when")]
    if with_hand:
        columns.append(w.col("hand"))
    columns += [w.col("played", wrap=True), w.col("better", wrap=True),
                w.col("loss", right=True), w.col("grade")]
    if review.hindsight:
        columns.append(w.col("known", right=True, style="dim"))
    rows: list[list[Cell]] = []
    for d in review.decisions:
        better = "" if d.grade is Grade.BEST else choice_words(d, d.best, words)
        row: list[Cell] = [str(d.step), str(d.deal), phase_label(d, words, short=True)]
        if with_hand:
            row.append(_cards(d.hand))
        row += [choice_words(d, d.action, words), better, w.loss(d.loss), w.grade(d.grade)]
        if review.hindsight:
            row.append(w.loss(d.hindsight_loss or 0))
        rows.append(row)
    table = Table(columns, title=w.t("review.all"))
    if w.output.rich:
        for row in rows:
            table.add_row(*row)
        return table
    played = len(columns) - (5 if review.hindsight else 4)
    fixed = [
        max([len(c.header)] + [len(plain_text(r[i])) for r in rows])
        for i, c in enumerate(columns) if i not in (played, played + 1)
    ]
    room = max(12, (w.width - sum(fixed) - 2 * (len(columns) - 1)) // 2)
    for row in rows:
        for line in _wrapped(row, (played, played + 1), room):
            table.add_row(*line)
    return table


def _wrapped(row: list[Cell], at: tuple[int, ...], room: int) -> list[list[Cell]]:
    """``row`` with the plain cells ``at`` wrapped at spaces to ``room`` characters: the
    first row and as many continuation rows (other cells empty) as the longest needs."""
    parts = {i: textwrap.wrap(plain_text(row[i]), room) or [""] for i in at}
    height = max(len(p) for p in parts.values())
    out = []
    for k in range(height):
        line: list[Cell] = []
        for i, cell in enumerate(row):
            if i in parts:
                line.append(parts[i][k] if k < len(parts[i]) else "")
            else:
                line.append(cell if k == 0 else "")
        out.append(line)
    return out


def _biggest(review: Review, w: _Writer) -> str:
    """The costliest decisions as sentences (with the seat's hand), wrapped to the width."""
    words = w.words
    lines = [w.t("review.biggest") + ":"]
    for step in review.summary.biggest:
        d = review.decision(step)
        text = w.t(
            "tui.review.biggest_item", step=d.step, deal=d.deal,
            where=phase_label(d, words), hand=" ".join(symbol_card(c) for c in d.hand),
            done=choice_words(d, d.action, words),
            better=w.t("review.better", choice=choice_words(d, d.best, words)),
            grade=grade_word(d.grade, words), loss=w.loss(d.loss),
        )
        if d.hindsight_loss is not None:
            text += " " + w.t("tui.review.known_loss", loss=w.loss(d.hindsight_loss))
        why = reason_text(d, words)
        lines.append(textwrap.fill(text + "." + (" " + why if why else ""), w.width,
                                   initial_indent="- ", subsequent_indent="  "))
    return "\n".join(lines)


def _phases(review: Review, w: _Writer) -> Table:
    s = review.summary
    columns = [w.col("phase"), w.col("decisions", right=True), w.col("lost", right=True)]
    columns += [Column(grade_word(g, w.words), right=True, style=w.styles[g]) for g in Grade]
    table = Table(columns, title=w.t("tui.review.by_phase"))
    for p in s.phases:
        table.add_row(phase_name(p.phase, w.words), str(p.decisions), w.loss(p.loss),
                      *[str(p.grades.count(g)) for g in Grade])
    table.add_row([(w.t("tui.review.all_phases"), "bold")], str(s.decisions), w.loss(s.loss),
                  *[str(s.grades.count(g)) for g in Grade])
    return table


GRAPH_SOME = 0.5
"""Points lost in a deal above which the graph marks it (``·``; the browser draws a ring)."""
GRAPH_MUCH = 2.5
"""Points lost in a deal from which the mark is ``▲``."""


def graph_lines(graph: ScoreGraph, w: _Writer, names: dict[int, str]) -> str:
    """The game graph as sparklines: each seat's score after every deal, and under the
    reviewed seat's line where it lost points (``·`` some, ``▲`` 2.5 or more in a deal)."""
    words = w.words
    labels = {s: names.get(s) or w.t("tui.review.who_seat", n=s) for s in range(graph.players)}
    room = max(len(label) for label in labels.values())
    top = max(graph.target, *(max(row) for row in graph.scores))
    lines = [w.t("tui.review.graph", target=graph.target)]
    for seat in range(graph.players):
        values = [row[seat] for row in graph.scores]
        lines.append(f"{labels[seat]:<{room}} {sparkline(values, top)} {values[-1]}")
        if seat == graph.seat and graph.losses:
            marks = "".join(
                " " if loss <= GRAPH_SOME else ("▲" if loss >= GRAPH_MUCH else "·")
                for loss in graph.losses
            )
            lines.append(f"{'':<{room}} {marks} {words.t('tui.review.graph_lost')}")
    return "\n".join(lines)


def render_review(
    review: Review, *, brief: bool = False, width: int | None = None, color: bool = False,
    words: Words | None = None, output: TableOutput | None = None,
    graph: ScoreGraph | None = None, names: dict[int, str] | None = None,
) -> str:
    """The whole review as text: a head, the summary, the biggest mistakes and (unless
    ``brief``) every decision; at most ``width`` columns (default: the terminal's) where
    the tables can fold. ``words`` gives the language (English by default); ``output``
    draws the tables (default: the plain text, with ANSI styles if ``color``); ``graph``
    adds the game graph (seats named by ``names``)."""
    width = width or shutil.get_terminal_size((80, 24)).columns
    words = words or Words([], card=symbol_card)
    output = output or TableOutput(color=color, use_rich=False)
    w = _Writer(words, output, width)
    s = review.summary
    name = review.name
    if name in _DEFAULT_NAMES:  # the player's own default name, as the language says it
        name = w.t("you_obj")
    who = (
        w.t("tui.review.who_named", name=name, n=review.seat) if name
        else w.t("tui.review.who_seat", n=review.seat)
    )
    r = review.record
    lines = [
        w.t("tui.review.head", who=who, rules=r.rules, players=r.players, seed=r.seed,
            deals=r.deals, level=review.level, review_seed=review.seed),
        w.t("tui.review.totals", accuracy=words.decimal(s.accuracy, 1), n=s.decisions,
            loss=w.loss(s.loss), per_deal=w.loss(s.loss_per_deal)),
        accuracy_scale(words),
    ]
    if not r.finished:
        lines.append(w.t("tui.review.unfinished"))
    blocks = ["\n".join(w.fold(line) for line in lines)]
    blocks.append(w.draw(_phases(review, w)))
    per_deal = w.t("tui.review.sep").join(
        w.t("tui.review.deal_loss", deal=d.deal, loss=words.decimal(d.loss, 1))
        for d in s.deals if d.decisions
    )
    blocks.append(w.fold(w.t("tui.review.per_deal", deals=per_deal,
                             mean=w.loss(s.loss_per_deal))))
    if graph is not None:
        blocks.append(graph_lines(graph, w, names or {}))
    blocks.append(_biggest(review, w) if s.biggest else w.t("review.none_big"))
    if not brief:
        blocks.append(w.draw(_decisions(review, w)))
    if review.hindsight:
        blocks.append(w.fold(w.t("tui.review.known_note")))
    return "\n\n".join(blocks)


def fold_words(text: str, width: int) -> str:
    """``text`` wrapped at spaces to ``width`` columns."""
    return "\n".join(textwrap.wrap(text, width)) or text
