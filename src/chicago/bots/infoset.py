"""The trick play against players of the rules of thumb, searched without strategy fusion.

``master``'s trick search solves each dealt world on its own: in every world the others see
every card and play together against the bot (the solver is *paranoid*), and the bot's
later cards may differ from world to world, as if it could see the hidden cards (*strategy
fusion*). Against players of ``basic``'s rules of thumb neither holds: each plays
:func:`~chicago.bots.model.model_card` from its own hand and the trick, the same card in
every world that gives it the same hand, and the bot sees only the cards played.

:func:`infoset_values` searches that game exactly on a set of worlds (the bot's weighed
deals of the hidden cards): at the bot's turn it plays one card in all the worlds it cannot
tell apart; each opponent plays its rules card in each world; after the opponents' cards
the worlds split by what the bot has seen (the cards they played), and each part is
searched on its own. A card is worth, summed over the worlds (each counted as often as it
was dealt), the last trick's points in every world where the bot, playing on at its best
*without seeing the world*, takes the last trick. No Chicago is assumed (``basic`` defends a
declared Chicago by the same rules, but the value here is the last trick's).

Pure Python; the work is the worlds times the bot's lines of play (at most 5·4·3·2 at the
first trick), each a few rules cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from chicago.bots.model import model_card
from chicago.cards import ids_of_mask

__all__ = ["infoset_values"]

_World = tuple[list[int], float]
"""One world in a search: every seat's hand (masks, changed as cards are played) and its
weight."""


def infoset_values(
    worlds: Sequence[Sequence[int]], seat: int, leader: int, played: Sequence[int], *,
    points: float = 1.0, weights: Sequence[float] | None = None,
) -> dict[int, float]:
    """For each legal card of ``seat`` (to act in every world): the weighted count of the
    ``worlds`` (hands as masks, the bot's hand the same in all) in which the bot takes the
    last trick, times ``points``, when it plays that card, every other seat then plays its
    rules card (:func:`~chicago.bots.model.model_card`) and the bot chooses each later card
    once for all the worlds in which it has seen the same cards played (the best such
    choice). ``leader`` led the current trick, ``played`` its cards so far (card ids).
    ``weights`` default to 1 per world; equal worlds are merged."""
    if not worlds:
        raise ValueError("no worlds to search")
    n = len(worlds[0])
    if not 0 <= seat < n or not 0 <= leader < n:
        raise ValueError("seat or leader out of range")
    if (leader + len(played)) % n != seat:
        raise ValueError("the seat is not to act")
    merged: dict[tuple[int, ...], float] = {}
    for index, hands in enumerate(worlds):
        if len(hands) != n:
            raise ValueError("every world needs the same number of seats")
        key = tuple(int(h) for h in hands)
        weight = 1.0 if weights is None else float(weights[index])
        merged[key] = merged.get(key, 0.0) + weight
    mine = {key[seat] for key in merged}
    if len(mine) != 1:
        raise ValueError("the worlds disagree on the bot's own hand")
    group = [(list(key), weight) for key, weight in merged.items()]
    search = _Search(n, seat)
    values = search.cards(group, leader, [int(c) for c in played])
    return {card: value * points for card, value in values.items()}


class _Search:
    """One search of the bot's best play on information sets (module docstring)."""

    __slots__ = ("memo", "n", "seat")

    def __init__(self, n: int, seat: int) -> None:
        self.n = n
        self.seat = seat
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def cards(self, group: list[_World], leader: int, played: list[int]) -> dict[int, float]:
        """Each legal card's value over ``group`` (the worlds the bot cannot tell apart)."""
        hand = group[0][0][self.seat]
        legal = ids_of_mask(hand)
        if played:
            led = played[0] & 3
            follow = [c for c in legal if c & 3 == led]
            if follow:
                legal = follow
        return {card: self._after(group, leader, played, card) for card in legal}

    def _best(self, group: list[_World], leader: int, played: list[int]) -> float:
        return max(self.cards(group, leader, played).values())

    def _after(self, group: list[_World], leader: int, played: list[int], card: int) -> float:
        """The value of the bot's ``card`` over ``group``: each world played on by the rules
        cards to the bot's next turn (or the end), the worlds then split by the cards seen."""
        seat = self.seat
        total = 0.0
        parts: dict[tuple[int, ...], list[_World]] = {}
        states: dict[tuple[int, ...], tuple[int, list[int]]] = {}
        for hands, weight in group:
            hands = list(hands)
            hands[seat] ^= 1 << card
            result = self._advance(hands, leader, [*played, card])
            if isinstance(result, bool):
                if result:
                    total += weight
                continue
            seen, next_leader, table = result
            part = parts.get(seen)
            if part is None:
                parts[seen] = part = []
                states[seen] = (next_leader, table)
            part.append((hands, weight))
        for seen, part in parts.items():
            next_leader, table = states[seen]
            total += self._best(part, next_leader, table)
        return total

    def _advance(
        self, hands: list[int], leader: int, played: list[int],
    ) -> bool | tuple[tuple[int, ...], int, list[int]]:
        """Play the others' rules cards in ``hands`` (changed in place) until the bot is to
        act (the cards they played, the leader and the trick so far) or the deal is over
        (whether the bot took the last trick)."""
        n = self.n
        seat = self.seat
        seen: list[int] = []
        while True:
            if len(played) == n:
                led = played[0] & 3
                best = max(c for c in played if c & 3 == led)
                leader = (leader + played.index(best)) % n
                played = []
                if not hands[leader]:
                    return leader == seat
            to_act = (leader + len(played)) % n
            if to_act == seat:
                return tuple(seen), leader, played
            key = (hands[to_act], tuple(played))
            card = self.memo.get(key, -1)
            if card < 0:
                card = self.memo[key] = model_card(ids_of_mask(hands[to_act]), played)
            hands[to_act] ^= 1 << card
            played = [*played, card]
            seen.append(card)
