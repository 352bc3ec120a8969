"""Trick play against a model of sensible opponents, for the ``expert`` bot.

The exact solver (:mod:`chicago.bots.solver`) answers *sure* questions: every other player
cooperates against the asking seat and sees every card. Real opponents do neither; they play
by rules of thumb from their own cards. This module models them that way and searches the
asking seat's own best play against the model, on one determinized deal:

- :func:`model_card`: the card a sensible player plays from its own hand and the cards on the
  table (the ``basic`` rules: save the top card of its longest suit for the last trick, play
  its lowest cards until then, throw from its shortest suit when it cannot follow, and on
  trick four win cheaply with its other card so as to lead the saved one);
- :func:`model_wins`: whether a seat wins the last trick when every other seat plays
  :func:`model_card` and it plays its best, seeing every card;
- :func:`model_moves`: for each legal card of the seat to act, whether that seat can still
  win the last trick when every other seat plays :func:`model_card` (the seat itself plays
  its best, seeing every card).

Positions are :class:`~chicago.bots.solver.Position` objects; cards are ids (``rank_index * 4
+ suit``), so comparing two cards of one suit compares their ranks.

>>> from chicago.bots.solver import Position
>>> p = Position.from_text(["Kh 3c", "Ah 2c", "Qd 4c", "Jd 5c"], leader=0)
>>> sorted((str(c), ok) for c, ok in model_moves(p).items())  # the others throw their clubs
[('3c', False), ('Kh', True)]
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.bots import accel
from chicago.bots.solver import Position
from chicago.cards import Card, ids_of_mask

__all__ = ["model_card", "model_moves", "model_wins"]


_cards = ids_of_mask


def model_card(hand: Sequence[int], table: Sequence[int]) -> int:
    """The card a sensible player plays from ``hand`` (card ids) with ``table`` (the cards
    already played to the current trick, from the lead) in front of it."""
    if len(hand) == 1:
        return hand[0]
    counts = [0, 0, 0, 0]
    tops = [-1, -1, -1, -1]
    for c in hand:
        s = c & 3
        counts[s] += 1
        if c > tops[s]:
            tops[s] = c
    keep = max((t for t in tops if t >= 0), key=lambda t: (counts[t & 3], t >> 2))
    if table:
        led = table[0] & 3
        legal = [c for c in hand if c & 3 == led] or list(hand)
    else:
        led = -1
        legal = list(hand)
    if len(legal) == 1:
        return legal[0]
    others = [c for c in legal if c != keep]
    if len(hand) == 2:
        if not table:
            return others[0] if others else legal[0]
        best = max(c for c in table if c & 3 == led)
        winners = [c for c in others if c & 3 == led and c > best]
        if winners:
            return min(winners)
        return min(others) if others else min(legal)
    if not table:
        return min(others) if others else legal[0]
    following = [c for c in others if c & 3 == led]
    if following:
        return min(following)
    if others:
        return min(others, key=lambda c: (counts[c & 3], c >> 2))
    return min(legal)


class _Model:
    """One search: ``seat`` plays its best against the model of the others."""

    __slots__ = ("hands", "n", "seat", "table")

    def __init__(self, hands: Sequence[int], seat: int) -> None:
        self.hands = list(hands)
        self.n = len(hands)
        self.seat = seat
        self.table: dict[tuple[int, ...], bool] = {}

    def trick(self, leader: int, played: list[int]) -> bool:
        """Whether the seat wins the last trick from a trick with ``played`` on the table."""
        n = self.n
        hands = self.hands
        while True:
            if len(played) == n:
                led = played[0] & 3
                best = max(c for c in played if c & 3 == led)
                winner = (leader + played.index(best)) % n
                if not hands[winner]:
                    return winner == self.seat
                return self.boundary(winner)
            to_act = (leader + len(played)) % n
            if to_act == self.seat:
                return self.choose(leader, played)
            card = model_card(_cards(hands[to_act]), played)
            hands[to_act] ^= 1 << card
            played = [*played, card]
            try:
                return self.trick(leader, played)
            finally:
                hands[to_act] ^= 1 << card

    def boundary(self, leader: int) -> bool:
        key = (leader, *self.hands)
        result = self.table.get(key)
        if result is None:
            result = self.table[key] = self.trick(leader, [])
        return result

    def legal(self, played: Sequence[int]) -> list[int]:
        hand = self.hands[self.seat]
        cards = _cards(hand)
        if played:
            led = played[0] & 3
            follow = [c for c in cards if c & 3 == led]
            if follow:
                return follow
        return cards

    def choose(self, leader: int, played: list[int]) -> bool:
        return any(self.after(leader, played, card) for card in self.legal(played))

    def after(self, leader: int, played: list[int], card: int) -> bool:
        self.hands[self.seat] ^= 1 << card
        try:
            return self.trick(leader, [*played, card])
        finally:
            self.hands[self.seat] ^= 1 << card


def model_moves(position: Position) -> dict[Card, bool]:
    """For each legal card of the seat to act: whether, after playing it, that seat can win
    the last trick when the others play :func:`model_card` (the seat then plays its best,
    seeing every card). No Chicago is assumed."""
    seat = position.to_act
    played = [int(c) for c in position.played]
    c = accel.active()
    if c is not None:
        moves = position.legal_moves()
        answers = c.model_after(position.hands, seat, position.leader, played, moves)
        return dict(zip(moves, answers, strict=True))
    search = _Model(position.hands, seat)
    return {
        card: search.after(position.leader, played, int(card))
        for card in position.legal_moves()
    }


def model_wins(position: Position, seat: int) -> bool:
    """Whether ``seat`` wins the last trick when the others play :func:`model_card` and it
    plays its best, seeing every card (no Chicago is assumed)."""
    if not 0 <= seat < position.n_seats:
        raise ValueError(f"seat {seat} is not a seat of {position.n_seats}")
    if position.is_over:
        return position.leader == seat
    played = [int(c) for c in position.played]
    c = accel.active()
    if c is not None:
        return bool(c.model_wins(position.hands, seat, position.leader, played))
    search = _Model(position.hands, seat)
    return search.trick(position.leader, played)
