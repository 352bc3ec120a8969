"""The end of a deal and the score sheet, from the events a seat saw.

:func:`deal_summary` says how a deal ended: the last trick with every card in it (or the
trick that broke a Chicago, R-CHI-3), the Chicago's result, the final showdown, and the
points. :func:`score_history` collects every finished deal's points and totals for the
score sheet (``s`` in the full screen, ``scores`` in the line mode) and
:func:`score_lines` words it for the line mode.

Both read only events a seat was sent, so they show nothing that seat did not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from chicago.engine.events import (
    ChicagoResult,
    Deal,
    DealEnd,
    Event,
    Play,
    QuadsReset,
    Score,
    Showdown,
    Trick,
)
from chicago.tui.words import Words

__all__ = ["DealScore", "deal_summary", "score_history", "score_lines"]

E = TypeVar("E", bound=Event)


@dataclass(frozen=True)
class DealScore:
    """One finished deal on the score sheet."""

    deal: int
    dealer: int
    points: tuple[int, ...]
    """What each seat gained (or lost) in the deal."""
    scores: tuple[int, ...]
    """Each seat's total after the deal."""
    reasons: tuple[tuple[tuple[str, int], ...], ...] = field(default=())
    """Per seat: what scored in the deal, ``(engine reason, points)`` in order."""


def score_history(events: Iterable[Event]) -> list[DealScore]:
    """Every finished deal in ``events`` (a seat's events of the game), in order."""
    deals: list[DealScore] = []
    reasons: dict[int, list[tuple[str, int]]] = {}
    for ev in events:
        if isinstance(ev, Deal):
            reasons = {}
        elif isinstance(ev, Score):
            reasons.setdefault(ev.seat, []).append((ev.reason, ev.points))
        elif isinstance(ev, DealEnd):
            points = ev.points
            deals.append(DealScore(
                ev.deal, ev.dealer, points, ev.scores,
                tuple(tuple(reasons.get(s, [])) for s in range(len(points))),
            ))
            reasons = {}
    return deals


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def score_lines(deals: Sequence[DealScore], words: Words) -> list[str]:
    """The score sheet as plain lines: a line per deal with what scored, then the totals."""
    if not deals:
        return [words.t("score.none")]
    lines = [words.t("tui.sheet_head", n=len(deals))]
    for deal in deals:
        seats = []
        for seat, points in enumerate(deal.points):
            what = ", ".join(
                f"{words.reason(reason)} {_signed(p)}" for reason, p in deal.reasons[seat]
            ) if deal.reasons else ""
            seats.append(
                f"{words.who(seat)} {_signed(points)}"
                + (f" ({what})" if what else "")
                + f" = {deal.scores[seat]}"
            )
        lines.append(f"{words.deal_line(deal.deal, deal.dealer)}: " + "; ".join(seats) + ".")
    lines.append(words.t("tui.sheet_total", scores=words.scores(deals[-1].scores)))
    return lines


def _plays(events: Sequence[Event], trick: int) -> list[Play]:
    return [ev for ev in events if isinstance(ev, Play) and ev.trick == trick]


def _first(events: Iterable[Event], kind: type[E]) -> E | None:
    return next((ev for ev in events if isinstance(ev, kind)), None)


def deal_summary(events: Sequence[Event], words: Words) -> list[str]:
    """How the deal of ``events`` (one deal's events, up to its ``deal_end``) ended.

    The first line is the title; then the deciding trick with every card played to it,
    what it meant (last trick, Chicago made or broken), the showdown, and the points.
    """
    end = _first(reversed(events), DealEnd)
    lines = [words.t("sum.title", deal=end.deal if end else "?")]
    tricks = [ev for ev in events if isinstance(ev, Trick)]
    chicago = _first(events, ChicagoResult)
    scores = [ev for ev in events if isinstance(ev, Score)]
    if tricks:
        last = tricks[-1]
        plays = _plays(events, last.trick)
        lines.append(words.t("tui.sum.trick", n=last.trick, plays=words.plays(plays)))
        if chicago is not None and not chicago.made:
            lines.append(words.t(
                "sum.chicago_failed", breaker=words.subject(chicago.broken_by),
                **words.person(chicago.seat),
            ))
        elif chicago is not None:
            lines.append(words.t("sum.chicago_made", **words.person(chicago.seat)))
        else:
            points = next((ev.points for ev in scores if ev.reason == "last trick"), 0)
            lines.append(words.t(
                "sum.last_trick_text", card=words.card(str(last.card)), points=points,
                **words.person(last.winner),
            ))
    if any(isinstance(ev, QuadsReset) for ev in events):
        lines.append(words.t("sum.quads"))
    showdown = _first(events, Showdown)
    if showdown is not None:
        cat = words.category_a(showdown.category)
        if showdown.winner is None:
            lines.append(words.t("sum.showdown_tie", cat=cat))
        else:
            lines.append(words.t(
                "sum.showdown_win", cat=cat, points=showdown.points,
                **words.person(showdown.winner),
            ))
        for seat, cards in enumerate(showdown.hands):
            lines.append(f"  {words.who(seat)}: {words.cards(cards)}")
    if end is not None:
        lines.append(f"{words.t('sum.points')}: {words.gains(end.points)}.")
        lines.append(f"{words.t('sum.total')}: {words.scores(end.scores)}.")
    return lines
