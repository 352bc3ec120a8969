"""A review in words and rich tables: ``chicago review`` and the grades of ``chicago replay``.

Every line is built from a :class:`~chicago.review.Review`, which holds only the reviewed
seat's own cards (and, with ``hindsight``, values, never cards, from the rest of the deck).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from chicago.review import DecisionReview, Grade, Review
from chicago.tui.render import cards_text
from chicago.tui.words import category_phrase, plain_card, symbol_card

__all__ = [
    "GRADE_STYLE",
    "choice_words",
    "decision_note",
    "phase_label",
    "review_renderable",
]

GRADE_STYLE: dict[Grade, str] = {
    Grade.BEST: "bold green",
    Grade.GOOD: "green",
    Grade.INACCURACY: "yellow",
    Grade.MISTAKE: "bold dark_orange",
    Grade.BLUNDER: "bold red",
}
"""How each grade is coloured."""

_PHASE = {
    "exchange": "exchange {n}", "one up": "one up {n}", "redeal": "redeal",
    "announce": "scoring {n}", "quads": "quads", "quads choice": "quads",
    "chicago": "Chicago call", "play": "trick {n}",
}


_SHORT = {
    "exchange": "exch {n}", "one up": "1-up {n}", "redeal": "redeal", "announce": "score {n}",
    "quads": "quads", "quads choice": "quads", "chicago": "call", "play": "trick {n}",
}


def phase_label(decision: DecisionReview, *, short: bool = False) -> str:
    """Where in the deal the decision was: ``exchange 2``, ``trick 4``, ``Chicago call``
    (``short``: ``exch 2``, ``trick 4``, ``call``)."""
    labels = _SHORT if short else _PHASE
    return labels.get(decision.phase, decision.phase).format(n=decision.round)


def choice_words(
    decision: DecisionReview, action: str, card: Callable[[str], str] = plain_card
) -> str:
    """An alternative in words: ``keep Ah Kh``, ``play 10♥``, ``announce a flush``."""
    alt = next((a for a in decision.alternatives if a.action == action), None)
    words = action.split()
    if alt is not None and alt.keep is not None and words[0] in ("discard", "keep"):
        if not alt.keep:
            return "draw five"
        if len(alt.keep) == len(decision.hand):
            return "keep all"
        return "keep " + " ".join(card(c) for c in alt.keep)
    if words[0] in ("play", "discard") or action.startswith("one up"):
        head = 2 if action.startswith("one up") else 1
        return " ".join(words[:head] + [card(c) for c in words[head:]])
    if words[0] == "announce":
        from chicago.poker import Category

        return "announce " + category_phrase(Category.parse(" ".join(words[1:])).name)
    return action


def decision_note(decision: DecisionReview, card: Callable[[str], str] = plain_card) -> str:
    """One line for a replay: ``mistake, -1.80 points; better: keep Ah Kh``."""
    if decision.grade is Grade.BEST:
        return f"review: best ({phase_label(decision)})"
    return (
        f"review: {decision.grade.value}, -{decision.loss:.2f} points; better: "
        f"{choice_words(decision, decision.best, card)}"
    )


def _grade(decision: DecisionReview) -> Text:
    return Text(decision.grade.value, style=GRADE_STYLE[decision.grade])


def _decisions_table(
    review: Review, decisions: Sequence[DecisionReview], title: str
) -> Table:
    table = Table(
        title=title, box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left",
        padding=(0, 1, 0, 0),
    )
    table.add_column("step", justify="right", no_wrap=True)
    table.add_column("deal", justify="right", no_wrap=True)
    table.add_column("when", no_wrap=True)
    table.add_column("hand", no_wrap=True)
    table.add_column("played", ratio=1)
    table.add_column("better", ratio=1)
    table.add_column("loss", justify="right", no_wrap=True)
    table.add_column("grade", no_wrap=True)
    if review.hindsight:
        table.add_column("known", justify="right", no_wrap=True, style="dim")
    for d in decisions:
        better = "" if d.grade is Grade.BEST else choice_words(d, d.best, symbol_card)
        row: list[RenderableType] = [
            str(d.step), str(d.deal), phase_label(d, short=True), cards_text(list(d.hand)),
            choice_words(d, d.action, symbol_card), better, f"{d.loss:.2f}", _grade(d),
        ]
        if review.hindsight:
            row.append(f"{d.hindsight_loss or 0:.2f}")
        table.add_row(*row)
    return table


def _summary_table(review: Review) -> Table:
    s = review.summary
    table = Table(
        title="Points lost by phase", box=box.SIMPLE_HEAD, pad_edge=False,
        title_justify="left",
    )
    table.add_column("phase")
    table.add_column("decisions", justify="right")
    table.add_column("lost", justify="right")
    for grade in Grade:
        table.add_column(grade.value, justify="right", style=GRADE_STYLE[grade])
    for p in s.phases:
        table.add_row(
            p.phase, str(p.decisions), f"{p.loss:.2f}",
            *[str(p.grades.count(g)) for g in Grade],
        )
    table.add_row(
        Text("all", style="bold"), str(s.decisions), f"{s.loss:.2f}",
        *[str(s.grades.count(g)) for g in Grade],
    )
    return table


def _deals_line(review: Review) -> Text:
    text = Text("Points lost per deal: ", style="bold")
    text.append(
        ", ".join(f"{d.deal}: {d.loss:.1f}" for d in review.summary.deals if d.decisions)
    )
    text.append(f" (mean {review.summary.loss_per_deal:.2f})")
    return text


def review_renderable(review: Review, *, brief: bool = False) -> RenderableType:
    """The whole review: a head line, the summary, the biggest mistakes and (unless
    ``brief``) every decision."""
    s = review.summary
    who = f"{review.name} (seat {review.seat})" if review.name else f"seat {review.seat}"
    head = Text(f"Review of {who}", style="bold")
    head.append(
        f" — {review.record.rules}, {review.record.players} players, seed "
        f"{review.record.seed}, {review.record.deals} deals; level {review.level}, "
        f"review seed {review.seed}",
        style="",
    )
    accuracy = Text("Accuracy ", style="bold")
    accuracy.append(f"{s.accuracy:.1f}", style="bold cyan")
    accuracy.append(
        f" · {s.decisions} decisions · {s.loss:.2f} expected points lost "
        f"({s.loss_per_deal:.2f} per deal)"
    )
    parts: list[RenderableType] = [head, accuracy]
    if not review.record.finished:
        parts.append(Text("The game is not finished: reviewed as far as it goes.",
                          style="yellow"))
    parts += [_summary_table(review), _deals_line(review)]
    biggest = [review.decision(step) for step in s.biggest]
    if biggest:
        parts.append(_decisions_table(review, biggest, "Biggest mistakes"))
    else:
        parts.append(Text("No inaccuracy, mistake or blunder.", style="green"))
    if not brief:
        parts.append(_decisions_table(review, review.decisions, "Every decision"))
    if review.hindsight:
        parts.append(Text(
            "known: the points the choice lost with all cards known (the stock, the other "
            "hands), which the seat could not see; never part of the grade.", style="dim",
        ))
    return Group(*parts)
