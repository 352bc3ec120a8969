"""A declared Chicago against defenders who play the rules of thumb (``master:rulescall=1``).

The solver's Chicago questions (:func:`~chicago.bots.solver.can_make_chicago`,
:func:`~chicago.bots.solver.chicago_moves`) ask whether the declarer wins every trick
against *any* defence: the defenders see every card and cooperate. A player of the rules
of thumb (``basic``, :func:`~chicago.bots.heuristics.rules_card`) defends a Chicago as it
plays any deal: it saves its keeper, follows with its lowest card and throws from its
shortest suit. Against such defenders far more Chicagos are made than "sure against any
defence" says. This module answers the same questions on one determinized deal with each
defender playing its rules card from its own hand there (the declarer plays its best,
seeing every card):

- :func:`rules_chicago_made`: whether the declarer wins every remaining trick;
- :func:`rules_chicago_moves`: for each legal card of the declarer (to act), whether it
  still does after playing it.

Tricks already completed are not looked at: the position is taken to be one where the
declarer won them all. Pure functions of the position.

>>> from chicago.bots.solver import Position, can_make_chicago
>>> p = Position.from_text(["Ah Kh 4c", "5c 2d 3d"], leader=0, declarer=0)
>>> can_make_chicago(p)  # a defender who keeps 5c beats the 4c
False
>>> rules_chicago_made(p)  # the rules keep the diamonds and throw 5c on a heart
True
>>> sorted((str(c), ok) for c, ok in rules_chicago_moves(p).items())
[('4c', False), ('Ah', True), ('Kh', True)]
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.bots.heuristics import rules_card
from chicago.bots.solver import Position
from chicago.cards import Card, ids_of_mask

__all__ = ["rules_chicago_made", "rules_chicago_moves"]


class _Search:
    """One deal: ``declarer`` plays its best, the other seats their rules cards."""

    __slots__ = ("declarer", "hands", "n")

    def __init__(self, hands: Sequence[int], declarer: int) -> None:
        self.hands = list(hands)
        self.n = len(hands)
        self.declarer = declarer

    def trick(self, leader: int, played: list[int]) -> bool:
        """Whether the declarer wins this trick and every later one, ``played`` on the table
        from ``leader``."""
        n = self.n
        if len(played) == n:
            led = played[0] & 3
            best = max(c for c in played if c & 3 == led)
            winner = (leader + played.index(best)) % n
            if winner != self.declarer:
                return False
            if not self.hands[winner]:
                return True
            return self.trick(winner, [])
        to_act = (leader + len(played)) % n
        if to_act == self.declarer:
            return any(self.after(leader, played, card) for card in self.legal(played))
        hand = [Card(c) for c in ids_of_mask(self.hands[to_act])]
        table = [Card(c) for c in played]
        legal = hand
        if played:
            follow = [c for c in hand if c & 3 == played[0] & 3]
            legal = follow or hand
        card = int(rules_card(hand, table, legal))
        self.hands[to_act] ^= 1 << card
        try:
            return self.trick(leader, [*played, card])
        finally:
            self.hands[to_act] ^= 1 << card

    def legal(self, played: Sequence[int]) -> list[int]:
        """The declarer's legal cards on ``played`` (R-TRICK-2)."""
        cards = ids_of_mask(self.hands[self.declarer])
        if played:
            follow = [c for c in cards if c & 3 == played[0] & 3]
            if follow:
                return follow
        return cards

    def after(self, leader: int, played: list[int], card: int) -> bool:
        """Whether the declarer makes the Chicago after playing ``card``."""
        self.hands[self.declarer] ^= 1 << card
        try:
            return self.trick(leader, [*played, card])
        finally:
            self.hands[self.declarer] ^= 1 << card


def _declarer(position: Position, declarer: int | None) -> int:
    seat = position.declarer if declarer is None else declarer
    if seat is None or not 0 <= seat < position.n_seats:
        raise ValueError("a Chicago declarer (a seat of the position) is needed")
    return seat


def rules_chicago_made(position: Position, declarer: int | None = None) -> bool:
    """Whether the Chicago ``declarer`` (by default the position's) wins every remaining
    trick (R-CHI-4) when each other seat plays its rules card
    (:func:`~chicago.bots.heuristics.rules_card`) and the declarer plays its best, seeing
    every card."""
    seat = _declarer(position, declarer)
    if position.is_over:
        return position.leader == seat
    search = _Search(position.hands, seat)
    return search.trick(position.leader, [int(c) for c in position.played])


def rules_chicago_moves(position: Position, declarer: int | None = None) -> dict[Card, bool]:
    """For each legal card of the declarer, who must be the seat to act: whether after it
    the declarer still wins every remaining trick against the rules defence
    (:func:`rules_chicago_made`)."""
    seat = _declarer(position, declarer)
    if position.to_act != seat:
        raise ValueError("the declarer is not the seat to act")
    search = _Search(position.hands, seat)
    played = [int(c) for c in position.played]
    return {card: search.after(position.leader, played, int(card))
            for card in position.legal_moves()}
