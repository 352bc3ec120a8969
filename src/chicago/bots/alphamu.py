"""αμ for the last tricks: the bot's cards chosen once per information set, not per world.

Plain determinized search solves every sampled world on its own, so in each world the bot
may play a different card at a later turn, as if it could see the hidden cards (*strategy
fusion*). αμ (after Cazenave and Ventos, 2020, written here anew for Chicago's last trick)
searches all the worlds together:

- A node holds the worlds still consistent with the cards played so far. Every card played
  is public, so the seat's *information set* — its own hand, the leader and the cards
  played — is the same in every world of a node: the bot's card there is one card for all of
  them.
- The others see every card (as in the paranoid solver): at their turn each world takes the
  reply that is worst for the bot in that world. A reply that a world's hands cannot make
  does not concern that world.
- A node's value is a set of *outcome vectors* over its worlds, each the result in every
  world of one strategy of the bot from there, kept as a Pareto front (no vector in it is
  beaten or equalled in every world by another). At the bot's turn the fronts of its cards
  are pooled; at another seat's turn the fronts of its replies are combined world by world
  with the minimum (each pair of vectors of the two fronts; a world a reply does not
  concern counts as won for it).
- ``depth`` bounds the bot's decisions searched this way; past it (and with one card left,
  where nothing is chosen any more) every world is solved exactly on its own
  (:func:`~chicago.bots.solver.last_trick_value`), fused as before. With ``depth`` 1 the
  search is plain determinized search; 0 searches every decision to the end of the deal.

An outcome of a world is the last trick's points the bot makes sure of there: 0, ``points``
or, under V-DEUCE, ``deuce_points`` for a last trick won with a 2. A vector stores them as two
bit masks over the worlds — won, and won with a deuce (a subset) — so the minimum of two
vectors is the AND of each mask and one vector beats another where both masks contain the
other's. At the root each card gets its best vector by the worlds' weights, and each world
the points of that vector: what the card keeps sure in that world when the bot must play on
without seeing the world. Never more than the world's own solution.

Two worlds in which the lead of Kh needs a different club next (Qc in the first, 9c in the
second) after the same trick; the solver counts Kh sure in both, αμ in one:

>>> from chicago.bots.solver import Position, last_trick_values
>>> a = Position.from_text(["9c Qc Kh", "9h Jc Qs", "Tc Kd Ks"], leader=0)
>>> b = Position.from_text(["9c Qc Kh", "9h Tc Jc", "Qs Kd Ks"], leader=0)
>>> [last_trick_values(p)[Card("Kh")] for p in (a, b)]
[5, 5]
>>> alphamu_values([a, b], 0)
[{Card('9c'): 0, Card('Qc'): 5, Card('Kh'): 5}, {Card('9c'): 5, Card('Qc'): 5, Card('Kh'): 0}]
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.bots.solver import Position, last_trick_value, trick_winner
from chicago.cards import Card, cards_from_mask

__all__ = ["alphamu_values"]

_SUITS = tuple(sum(1 << (rank * 4 + suit) for rank in range(13)) for suit in range(4))
"""The 52-bit mask of every suit, by suit index."""

_ALL = 64
"""More decisions than any deal has: ``depth`` 0 searches them all."""

Vector = tuple[int, int]
"""An outcome over a node's worlds: the mask of worlds won, and of worlds won with a deuce."""


def alphamu_values(
    positions: Sequence[Position], me: int, *, points: int = 5,
    deuce_points: int | None = None, depth: int = 0,
) -> list[dict[Card, int]]:
    """Per world of ``positions`` (each with ``me`` to act, the same leader, cards on the
    table and hand of ``me``; no Chicago) and per legal card of ``me``: the last trick's
    points ``me`` keeps sure there after that card when its later cards must be chosen
    without seeing the world (module docstring), its ``depth`` next decisions searched so
    (0: all). Equal worlds count once per copy."""
    if not positions:
        return []
    first = positions[0]
    if first.to_act != me or first.declarer is not None:
        raise ValueError("alphamu_values needs positions with the seat to act and no Chicago")
    index: dict[tuple[int, ...], int] = {}
    worlds: list[tuple[int, ...]] = []
    weights: list[int] = []
    for position in positions:
        if (position.leader, position.played, position.hands[me]) != (
                first.leader, first.played, first.hands[me]):
            raise ValueError("the worlds of alphamu_values differ in what the seat sees")
        slot = index.get(position.hands)
        if slot is None:
            slot = index[position.hands] = len(worlds)
            worlds.append(position.hands)
            weights.append(0)
        weights[slot] += 1
    search = _Search(me, len(first.hands), points, deuce_points)
    extra = (deuce_points - points) if deuce_points is not None and deuce_points > points else 0

    def score(vector: Vector) -> int:
        return sum(weights[i] * (points * (vector[0] >> i & 1) + extra * (vector[1] >> i & 1))
                   for i in range(len(worlds)))

    every = dict(enumerate(worlds))
    later = (depth if depth > 0 else _ALL) - 1
    best: dict[Card, Vector] = {}
    for card in first.legal_moves():
        front = search.play(first.leader, first.played, every, card, later)
        best[card] = max(front, key=score)
    out = []
    for position in positions:
        bit = index[position.hands]
        out.append({
            card: (points + extra * (vector[1] >> bit & 1)) if vector[0] >> bit & 1 else 0
            for card, vector in best.items()
        })
    return out


class _Search:
    """The αμ search of one decision: the seat ``me``, the seats, the last trick's points."""

    def __init__(self, me: int, seats: int, points: int, deuce_points: int | None) -> None:
        self.me = me
        self.seats = seats
        self.points = points
        self.deuce_points = deuce_points
        self.solved: dict[tuple[tuple[int, ...], int, tuple[Card, ...]], int] = {}

    def play(
        self, leader: int, played: tuple[Card, ...], worlds: dict[int, tuple[int, ...]],
        card: Card, depth: int,
    ) -> list[Vector]:
        """The front after the seat to act plays ``card`` in every world of ``worlds`` (all
        of which hold it)."""
        seat = (leader + len(played)) % self.seats
        bit = 1 << card
        moved = {i: (*h[:seat], h[seat] ^ bit, *h[seat + 1:]) for i, h in worlds.items()}
        table = (*played, card)
        if len(table) == self.seats:
            return self.node(trick_winner(table, leader, self.seats), (), moved, depth)
        return self.node(leader, table, moved, depth)

    def node(
        self, leader: int, played: tuple[Card, ...], worlds: dict[int, tuple[int, ...]],
        depth: int,
    ) -> list[Vector]:
        """The Pareto front of the bot's outcomes over ``worlds`` from this node."""
        seat = (leader + len(played)) % self.seats
        mask = 0
        for i in worlds:
            mask |= 1 << i
        if seat == self.me:
            hand = next(iter(worlds.values()))[seat]
            if hand.bit_count() <= 1 or depth <= 0:
                return [self.leaf(leader, played, worlds)]
            top: Vector = (mask, mask if self.deuce_points else 0)
            front: list[Vector] = []
            for card in _legal(hand, played):
                child = self.play(leader, played, worlds, card, depth - 1)
                front = _maxima(front + child)
                if top in front:
                    break
            return front
        moves: dict[Card, dict[int, tuple[int, ...]]] = {}
        for i, hands in worlds.items():
            for card in _legal(hands[seat], played):
                moves.setdefault(card, {})[i] = hands
        result: list[Vector] = [(mask, mask)]
        for card in sorted(moves):
            sub = moves[card]
            rest = mask
            for i in sub:
                rest &= ~(1 << i)
            child = [(w | rest, d | rest) for w, d in self.play(leader, played, sub, card, depth)]
            result = _maxima([(w1 & w2, d1 & d2) for w1, d1 in result for w2, d2 in child])
            if result == [(0, 0)]:
                break
        return result

    def leaf(
        self, leader: int, played: tuple[Card, ...], worlds: dict[int, tuple[int, ...]],
    ) -> Vector:
        """Every world solved on its own (the bot's later cards chosen seeing it)."""
        won = deuce = 0
        for i, hands in worlds.items():
            key = (hands, leader, played)
            value = self.solved.get(key)
            if value is None:
                value = self.solved[key] = last_trick_value(
                    Position(hands, leader, played), self.me, points=self.points,
                    deuce_points=self.deuce_points)
            if value:
                won |= 1 << i
                if value > self.points:
                    deuce |= 1 << i
        return won, deuce


def _legal(hand: int, played: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to the trick ``played`` (R-TRICK-2)."""
    if played:
        follow = hand & _SUITS[played[0] & 3]
        if follow:
            return cards_from_mask(follow)
    return cards_from_mask(hand)


def _maxima(vectors: list[Vector]) -> list[Vector]:
    """The Pareto front of ``vectors``: each kept once, none contained in another, in the
    order first met."""
    out: list[Vector] = []
    for vector in sorted(set(vectors), key=lambda v: (-v[0].bit_count() - v[1].bit_count(), v)):
        w, d = vector
        if not any(w & ~w2 == 0 and d & ~d2 == 0 for w2, d2 in out):
            out.append(vector)
    return out
