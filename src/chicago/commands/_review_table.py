"""``chicago review``'s output for people: the summary, the biggest mistakes, every decision.

Plain-text tables of the core (:mod:`chicago.commands._text`), coloured on a terminal that
wants colours; only the reviewed seat's own cards are shown.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence

from chicago.cards import Card
from chicago.commands._text import Cell, Column, Table
from chicago.review import DecisionReview, Grade, Review
from chicago.tui.review_words import GRADE_STYLE, choice_words, phase_label
from chicago.tui.words import symbol_card

__all__ = ["render_review"]


def _cards(cards: Sequence[str]) -> Cell:
    spans = []
    for index, text in enumerate(cards):
        if index:
            spans.append((" ", ""))
        spans.append((symbol_card(text), "red" if Card(text).suit in (1, 2) else "bold"))
    return spans


def _grade(decision: DecisionReview) -> Cell:
    return [(decision.grade.value, GRADE_STYLE[decision.grade])]


HAND_FROM = 110
"""The width from which the table of every decision has a column of the seat's hand."""


def _decisions(review: Review, width: int) -> Table:
    """Every decision, one row each (wrapped at spaces onto more rows where needed)."""
    decisions = review.decisions
    with_hand = width >= HAND_FROM
    columns = [Column("step", right=True), Column("deal", right=True), Column("when")]
    if with_hand:
        columns.append(Column("hand"))
    columns += [Column("played"), Column("better"), Column("loss", right=True),
                Column("grade")]
    if review.hindsight:
        columns.append(Column("known", right=True, style="dim"))
    rows: list[list[Cell]] = []
    for d in decisions:
        better = "" if d.grade is Grade.BEST else choice_words(d, d.best, symbol_card)
        row: list[Cell] = [str(d.step), str(d.deal), phase_label(d, short=True)]
        if with_hand:
            row.append(_cards(d.hand))
        row += [choice_words(d, d.action, symbol_card), better, f"{d.loss:.2f}", _grade(d)]
        if review.hindsight:
            row.append(f"{d.hindsight_loss or 0:.2f}")
        rows.append(row)
    played = len(columns) - (5 if review.hindsight else 4)
    fixed = [
        max([len(c.header)] + [len(_plain(r[i])) for r in rows])
        for i, c in enumerate(columns) if i not in (played, played + 1)
    ]
    room = max(12, (width - sum(fixed) - 2 * (len(columns) - 1)) // 2)
    table = Table(columns, title="Every decision")
    for row in rows:
        for line in _wrapped(row, (played, played + 1), room):
            table.add_row(*line)
    return table


def _plain(cell: Cell) -> str:
    return cell if isinstance(cell, str) else "".join(text for text, _ in cell)


def _wrapped(row: list[Cell], at: tuple[int, ...], room: int) -> list[list[Cell]]:
    """``row`` with the plain cells ``at`` wrapped at spaces to ``room`` characters: the
    first row and as many continuation rows (other cells empty) as the longest needs."""
    parts = {i: textwrap.wrap(_plain(row[i]), room) or [""] for i in at}
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


def _biggest(review: Review, width: int) -> str:
    """The costliest decisions as sentences (with the seat's hand), wrapped to ``width``."""
    lines = ["Biggest mistakes:"]
    for step in review.summary.biggest:
        d = review.decision(step)
        text = (
            f"step {d.step} (deal {d.deal}, {phase_label(d)}), hand "
            f"{' '.join(symbol_card(c) for c in d.hand)}: "
            f"{choice_words(d, d.action, symbol_card)}; better "
            f"{choice_words(d, d.best, symbol_card)}. {d.grade.value}, "
            f"{d.loss:.2f} points lost"
        )
        if d.hindsight_loss is not None:
            text += f" ({d.hindsight_loss:.2f} with all cards known)"
        lines.append(textwrap.fill(text + ".", width, initial_indent="- ",
                                   subsequent_indent="  "))
    return "\n".join(lines)


def _phases(review: Review) -> Table:
    s = review.summary
    columns = [Column("phase"), Column("decisions", right=True), Column("lost", right=True)]
    columns += [Column(g.value, right=True, style=GRADE_STYLE[g]) for g in Grade]
    table = Table(columns, title="Points lost by phase")
    for p in s.phases:
        table.add_row(p.phase, str(p.decisions), f"{p.loss:.2f}",
                      *[str(p.grades.count(g)) for g in Grade])
    table.add_row([("all", "bold")], str(s.decisions), f"{s.loss:.2f}",
                  *[str(s.grades.count(g)) for g in Grade])
    return table


def render_review(
    review: Review, *, brief: bool = False, width: int | None = None, color: bool = False
) -> str:
    """The whole review as text: a head, the summary, the biggest mistakes and (unless
    ``brief``) every decision; at most ``width`` columns (default: the terminal's) where
    the tables can fold."""
    width = width or shutil.get_terminal_size((80, 24)).columns
    s = review.summary
    who = f"{review.name} (seat {review.seat})" if review.name else f"seat {review.seat}"
    r = review.record
    lines = [
        f"Review of {who}: {r.rules}, {r.players} players, seed {r.seed}, {r.deals} deals; "
        f"level {review.level}, review seed {review.seed}.",
        f"Accuracy {s.accuracy:.1f} · {s.decisions} decisions · {s.loss:.2f} expected "
        f"points lost ({s.loss_per_deal:.2f} per deal).",
    ]
    if not r.finished:
        lines.append("The game is not finished: reviewed as far as it goes.")
    blocks = ["\n".join(fold_words(line, width) for line in lines)]
    blocks.append(_phases(review).render(width, color))
    per_deal = ", ".join(f"{d.deal}: {d.loss:.1f}" for d in s.deals if d.decisions)
    blocks.append(fold_words(f"Points lost per deal: {per_deal} (mean {s.loss_per_deal:.2f})",
                             width))
    if s.biggest:
        blocks.append(_biggest(review, width))
    else:
        blocks.append("No inaccuracy, mistake or blunder.")
    if not brief:
        blocks.append(_decisions(review, width).render(width, color))
    if review.hindsight:
        blocks.append(fold_words(
            "known: the points the choice lost with all cards known (the stock, the other "
            "hands), which the seat could not see; never part of the grade.", width,
        ))
    return "\n\n".join(blocks)


def fold_words(text: str, width: int) -> str:
    """``text`` wrapped at spaces to ``width`` columns."""
    return "\n".join(textwrap.wrap(text, width)) or text
