"""Settlement in money at the end of a game (R-END-2, R-END-3).

>>> from chicago.rules import Rules
>>> settlement([53, 45, 53, 47], Rules.preset("pagat"))
[7.0, -8.0, 7.0, -6.0]
>>> settlement([54, 45, 53, 47], Rules.preset("pagat"))
[17.0, -9.0, -1.0, -7.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.rules import Rules

__all__ = ["finish_places", "settlement", "top_scorers"]


def top_scorers(scores: Sequence[int]) -> list[int]:
    """Seats with the most points."""
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def finish_places(winners: Sequence[int], scores: Sequence[int]) -> list[int]:
    """Each seat's place (1 = best) at the end of a game: winners first, then by final
    score, higher first; seats equal on both share the place (the next place is skipped:
    1, 1, 3). The ratings (:mod:`chicago.club.ratings`), tournaments and matches rank by it.

    >>> finish_places([2], [40, 53, 55, 40])
    [3, 2, 1, 3]
    """
    keys = [(0 if seat in winners else 1, -score) for seat, score in enumerate(scores)]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def settlement(
    final_scores: Sequence[int], rules: Rules, winners: Sequence[int] | None = None
) -> list[float]:
    """Money per seat at the end of a game; positive receives, negative pays.

    Each player who is not a winner pays the stake times the difference between the top
    winning score and their own score (R-END-2); under V-NEG a negative score pays double
    (R-END-3). The winners share what is paid equally. ``winners`` defaults to the players
    with the most points; a rule that makes someone else the winner (V-WIN-AGAIN, V-SF-WIN,
    V-CHI-DECLARED) passes them, and a player with more points than that winner pays nothing.
    """
    if not final_scores:
        raise ValueError("settlement needs at least one score")
    winner_seats = list(winners) if winners is not None else top_scorers(final_scores)
    if not winner_seats:
        return [0.0] * len(final_scores)
    if any(not 0 <= w < len(final_scores) for w in winner_seats):
        raise ValueError(f"winners {winner_seats} are not seats of {len(final_scores)} players")
    top = max(final_scores[w] for w in winner_seats)
    money = [0.0] * len(final_scores)
    pot = 0.0
    for seat, score in enumerate(final_scores):
        if seat in winner_seats:
            continue
        difference = max(0, top - score)
        if rules.negative_scores and score < 0:
            difference *= 2
        payment = difference * rules.stake
        money[seat] = -float(payment)
        pot += payment
    share = pot / len(winner_seats)
    for seat in winner_seats:
        money[seat] = float(share)
    return [m + 0.0 for m in money]  # no negative zeros
