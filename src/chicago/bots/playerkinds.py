"""What kind of card player each opponent is, from its plays in the game's earlier deals
(``master:infer=3``).

A person at the table soon notices that a player "always plays the rules of thumb". Every
card played to a trick is public, and once an opponent has played all five tricks of a
deal, its hand at each of its plays is known exactly: the cards it played from then on. So
each of its earlier plays with a choice (more than one legal card) can be scored under a
few models of how it plays (:data:`KINDS`):

- ``rules``: the rules of thumb of ``basic`` (:func:`chicago.bots.heuristics.rules_card`)
  with a small slip: their card has chance ``1 - eps``, each other legal card an equal
  share of ``eps``;
- ``fitted``: the policy fitted to the experts' plays (:mod:`chicago.bots.playpolicy`, as
  ``infer=2`` uses it);
- ``uniform``: every legal card alike.

The chance of a model for that opponent is the prior times the product of the chances it
gave the opponent's plays with a choice in the earlier deals (Bayes' rule). Within the
current deal a world is then weighed, opponent by opponent, by the mixture of the models'
likelihoods of the cards it played so far, each model counting with its chance
(:func:`kind_weights`). Against a ``basic`` table the rules model wins after a deal or two
and the worlds left are the few that fit every card played; against experts the fitted
policy does.

Where the earlier deals come from: the seat's view itself. Each finished deal of
``view.history`` (:class:`~chicago.engine.viewtypes.DealRecord`) holds its tricks, every
card played to them (the whole table saw them), and who declared Chicago, so every
opponent's five cards of a deal played to the end are known, and its hand at each of its
plays with them (:func:`history_kinds`). The bot keeps no memory between decisions: a bot
built in the middle of a game (a restarted server, the stand-in of an away player, a
review) decides exactly as one that played the whole game. Deals with a Chicago declared
are left out (the defence differs), as the other inferences leave them out, and so are
deals that ended before their tricks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from chicago.bots.heuristics import rules_card
from chicago.bots.playmodel import Play
from chicago.bots.playpolicy import PlayPolicy, legal_cards
from chicago.cards import Card, ids_of_mask
from chicago.engine.viewtypes import DealRecord

__all__ = [
    "DEFAULT_EPS",
    "DEFAULT_PRIOR",
    "KINDS",
    "DealLogs",
    "KindScorer",
    "Triple",
    "deal_log_likelihoods",
    "history_kinds",
    "kind_posterior",
    "kind_weights",
    "play_chances",
    "priors",
]

KINDS = ("rules", "fitted", "uniform")
"""The models of an opponent's card play, in the order of every triple here."""
DEFAULT_EPS = 0.02
"""The rules model's slip: the chance, shared among the other legal cards, that a player of
the rules of thumb plays another card than theirs."""
DEFAULT_PRIOR = 1 / 3
"""The prior chance of the rules model; the fitted policy and the uniform model share the
rest equally."""

Triple = tuple[float, float, float]
"""One number per model of :data:`KINDS`."""


def priors(rules: float) -> Triple:
    """The prior of each model: ``rules`` for the rules model, the rest shared equally."""
    rest = (1.0 - rules) / 2
    return (rules, rest, rest)


def play_chances(
    hand: Sequence[int], table: Sequence[int], gone: int, card: int, policy: PlayPolicy,
    eps: float, players: int,
) -> Triple:
    """The chance each model gives a player holding ``hand`` of playing ``card`` on
    ``table`` (``gone``: mask of the cards of the deal's earlier tricks); (1, 1, 1) for a
    forced play, (0, 0, 0) for a card it may not play (R-TRICK-2)."""
    legal = legal_cards(hand, table)
    if card not in legal:
        return (0.0, 0.0, 0.0)
    if len(legal) == 1:
        return (1.0, 1.0, 1.0)
    cards = [Card(c) for c in legal]
    thumb = rules_card([Card(c) for c in sorted(hand)], [Card(c) for c in table], cards)
    rules = 1.0 - eps if card == thumb else eps / (len(legal) - 1)
    fitted = policy.chance(hand, table, gone, card, players)
    return (rules, fitted, 1.0 / len(legal))


def deal_log_likelihoods(
    tricks: Sequence[Sequence[tuple[int, int]]], me: int, policy: PlayPolicy, eps: float,
    players: int,
) -> dict[int, Triple]:
    """Per opponent of ``me`` in a finished deal (``tricks``: the (seat, card) plays of each
    trick in order): the log of each model's chance of its plays with a choice. Its hand at
    each play is the cards it played from then on; an opponent with a card missing (a deal
    cut short) is left out."""
    out: dict[int, Triple] = {}
    seats = {seat for trick in tricks for seat, _ in trick} - {me}
    for seat in sorted(seats):
        own = [next((c for s, c in trick if s == seat), None) for trick in tricks[:5]]
        cards = [int(c) for c in own if c is not None]
        if len(cards) == 5:
            out[seat] = _log_chances(tricks, seat, cards, policy, eps, players)
    return out


def _log_chances(
    tricks: Sequence[Sequence[tuple[int, int]]], seat: int, cards: Sequence[int],
    policy: PlayPolicy, eps: float, players: int,
) -> Triple:
    """The log of each model's chance of ``seat``'s first four plays (the fifth is forced)
    given that it played ``cards`` to the five tricks, in order."""
    logs = [0.0, 0.0, 0.0]
    gone = 0
    for index, trick in enumerate(tricks[:4]):
        table = []
        for s, c in trick:
            if s == seat:
                break
            table.append(int(c))
        chances = play_chances(cards[index:], table, gone, cards[index], policy, eps, players)
        for m in range(3):
            logs[m] += math.log(chances[m]) if chances[m] > 0 else -math.inf
        for _, c in trick:
            gone |= 1 << int(c)
    return (logs[0], logs[1], logs[2])


def kind_posterior(logs: Sequence[Triple], prior: Triple) -> Triple:
    """The chance of each model after the deals whose log-likelihoods are ``logs``
    (Bayes' rule from ``prior``); ``prior`` itself when there are none."""
    totals = [math.log(p) if p > 0 else -math.inf for p in prior]
    for row in logs:
        for m in range(3):
            totals[m] += row[m]
    top = max(totals)
    if top == -math.inf:
        return prior
    shares = [math.exp(t - top) if t > -math.inf else 0.0 for t in totals]
    total = sum(shares)
    return (shares[0] / total, shares[1] / total, shares[2] / total)


class KindScorer:
    """Each opponent's factor of a world's weight under ``infer=3`` (:func:`kind_weights`):
    the mixture, by that opponent's model chances (``kinds``; ``prior`` for one not in it),
    of each model's likelihood of its ``plays`` this deal from the hand it held then, given
    the cards it holds now. A world's weight is the product of its opponents' factors, so a
    change of two hands changes two factors only (:mod:`chicago.bots.worldchain`). Hands
    already scored are remembered (a memo only: the numbers are the same without it)."""

    def __init__(
        self, plays: Sequence[Play], kinds: Mapping[int, Triple], policy: PlayPolicy,
        eps: float, players: int, prior: Triple,
    ) -> None:
        self.seats = sorted({play.seat for play in plays})
        """The opponents who played a card this deal, in seat order."""
        self._plays = {seat: [(i, p) for i, p in enumerate(plays) if p.seat == seat]
                       for seat in self.seats}
        self._shares = {seat: kinds.get(seat, prior) for seat in self.seats}
        self._policy = policy
        self._eps = eps
        self._players = players
        self._chances: dict[tuple[int, int], Triple] = {}
        self._factors: dict[tuple[int, int], float] = {}

    def factor(self, seat: int, held: int) -> float:
        """``seat``'s factor when it holds the cards of mask ``held`` now (1 for a seat
        that played nothing this deal)."""
        factor = self._factors.get((seat, held))
        if factor is not None:
            return factor
        plays = self._plays.get(seat)
        if not plays:
            return 1.0
        product = [1.0, 1.0, 1.0]
        later = 0
        for index, play in reversed(plays):
            later |= 1 << play.card
            before = held | later
            chances = self._chances.get((index, before))
            if chances is None:
                chances = self._chances[(index, before)] = play_chances(
                    ids_of_mask(before), play.table, play.gone, play.card, self._policy,
                    self._eps, self._players)
            for m in range(3):
                product[m] *= chances[m]
        share = self._shares[seat]
        factor = self._factors[(seat, held)] = sum(share[m] * product[m] for m in range(3))
        return factor

    def weight(self, hands: Sequence[int]) -> float:
        """The weight of the world ``hands`` (a card mask per seat, the cards held now)."""
        weight = 1.0
        for seat in self.seats:
            weight *= self.factor(seat, hands[seat])
        return weight


def kind_weights(
    worlds: Sequence[Sequence[int]], plays: Sequence[Play], kinds: Mapping[int, Triple],
    policy: PlayPolicy, eps: float, players: int, prior: Triple,
) -> list[float]:
    """The weight of each world (a card mask per seat, the cards held now): the product
    over the opponents of the mixture, by that opponent's model chances (``kinds``;
    ``prior`` for one not in it), of each model's likelihood of its ``plays`` this deal
    from the hand it held then in that world (:class:`KindScorer`). Hands that recur are
    scored once."""
    scorer = KindScorer(plays, kinds, policy, eps, players, prior)
    return [scorer.weight(hands) for hands in worlds]


DealLogs = dict[tuple[DealRecord, int], dict[int, Triple]]
"""A memo of :func:`deal_log_likelihoods` per finished deal and seat (for one policy and
slip): what it holds is worked out again the same way when it is not there."""
_MEMO_SIZE = 256
"""The most deals a :data:`DealLogs` memo keeps (then it starts afresh)."""


def history_kinds(
    history: Sequence[DealRecord], me: int, policy: PlayPolicy, eps: float, players: int,
    prior: Triple, memo: DealLogs | None = None,
) -> dict[int, Triple]:
    """Each opponent of ``me``'s chance of every model after the finished deals
    ``history`` (a view's): Bayes' rule over the deals played to the end without a
    Chicago declared (:func:`deal_log_likelihoods`, :func:`kind_posterior`); only the
    opponents seen in at least one of them. ``memo`` (of this ``policy`` and ``eps``)
    saves working a deal out again at the next decision; the result is the same without."""
    rows: dict[int, list[Triple]] = {}
    for record in history:
        if record.chicago is not None or not record.tricks:
            continue
        logs = memo.get((record, me)) if memo is not None else None
        if logs is None:
            tricks = [tuple((p.seat, int(p.card)) for p in t.cards) for t in record.tricks]
            logs = deal_log_likelihoods(tricks, me, policy, eps, players)
            if memo is not None:
                if len(memo) >= _MEMO_SIZE:
                    memo.clear()
                memo[(record, me)] = logs
        for other, row in logs.items():
            rows.setdefault(other, []).append(row)
    return {other: kind_posterior(r, prior) for other, r in sorted(rows.items())}
