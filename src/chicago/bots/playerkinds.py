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

Where the earlier deals come from: a seat's view (:class:`~chicago.engine.viewtypes.
SeatView`) carries the tricks of the current deal only (``history`` has each finished
deal's points, not its cards), so :class:`KindMemory` remembers them, from the views the
bot is shown and nothing else: the tricks it saw by its last decision of each deal. An
opponent that played after the bot's last card of a deal held, at its first four plays,
one card the bot never saw; each model's chance of those plays is then the mean over the
cards the bot had not seen (a uniform guess of that card). The memory checks every view
against what it holds (the deal numbers, the finished deals of ``view.history``, the
bot's own five cards) and forgets what does not fit, so a bot moved to another game or
seat starts afresh, and a bot built anew (a restarted server) knows no earlier deal: it
then weighs the worlds by the prior mixture, the plays of the current deal alone. Deals
with a Chicago declared are left out (the defence differs), as the other inferences leave
them out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from chicago.bots.heuristics import rules_card
from chicago.bots.playmodel import Play, hands_at_plays
from chicago.bots.playpolicy import PlayPolicy, legal_cards
from chicago.cards import Card, ids_of_mask
from chicago.engine.viewtypes import DealRecord, SeatView

__all__ = [
    "DEFAULT_EPS",
    "DEFAULT_PRIOR",
    "KINDS",
    "KindMemory",
    "Triple",
    "deal_log_likelihoods",
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

_ALL = (1 << 52) - 1
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
    players: int, unseen: int = 0,
) -> dict[int, Triple]:
    """Per opponent of ``me`` in a finished deal (``tricks``: the (seat, card) plays of each
    trick in order, the last possibly cut short where ``me`` saw no more): the log of each
    model's chance of its plays with a choice. Its hand at each play is the cards it played
    from then on. An opponent whose fifth card ``me`` did not see (it played after ``me``'s
    last card) held one more card at its first four plays, one of ``unseen`` (a mask of the
    cards ``me`` never saw): each model's chance is then the mean over those cards (a
    uniform guess of the one the seat did not see); with ``unseen`` 0, or any other card
    missing, the opponent is left out."""
    out: dict[int, Triple] = {}
    seats = {seat for trick in tricks for seat, _ in trick} - {me}
    candidates = ids_of_mask(unseen)
    for seat in sorted(seats):
        own = [next((c for s, c in trick if s == seat), None) for trick in tricks[:5]]
        own += [None] * (5 - len(own))
        if any(c is None for c in own[:4]):
            continue
        seen = [int(c) for c in own if c is not None]
        if len(seen) == 5:
            out[seat] = _log_chances(tricks, seat, seen, policy, eps, players)
        elif candidates:
            sums = [0.0, 0.0, 0.0]
            for extra in candidates:
                logs = _log_chances(tricks, seat, [*seen, extra], policy, eps, players)
                for m in range(3):
                    sums[m] += math.exp(logs[m])
            means = [math.log(total / len(candidates)) if total > 0 else -math.inf
                     for total in sums]
            out[seat] = (means[0], means[1], means[2])
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


def kind_weights(
    worlds: Sequence[Sequence[int]], plays: Sequence[Play], kinds: Mapping[int, Triple],
    policy: PlayPolicy, eps: float, players: int, prior: Triple,
) -> list[float]:
    """The weight of each world (a card mask per seat, the cards held now): the product
    over the opponents of the mixture, by that opponent's model chances (``kinds``;
    ``prior`` for one not in it), of each model's likelihood of its ``plays`` this deal
    from the hand it held then in that world. Hands that recur are scored once."""
    seen: dict[tuple[int, int], Triple] = {}
    out = []
    seats = sorted({play.seat for play in plays})
    for hands in worlds:
        products = {seat: [1.0, 1.0, 1.0] for seat in seats}
        for index, play, held in hands_at_plays(hands, plays):
            chances = seen.get((index, held))
            if chances is None:
                chances = seen[(index, held)] = play_chances(
                    ids_of_mask(held), play.table, play.gone, play.card, policy, eps, players)
            product = products[play.seat]
            for m in range(3):
                product[m] *= chances[m]
        weight = 1.0
        for seat in seats:
            share = kinds.get(seat, prior)
            product = products[seat]
            weight *= sum(share[m] * product[m] for m in range(3))
        out.append(weight)
    return out


@dataclass
class _Pending:
    """The deal being watched from one seat: what identifies it, and its plays so far."""

    deal: int
    history: tuple[DealRecord, ...]
    own: int
    """Mask of the seat's own five cards of the trick play."""
    tricks: tuple[tuple[tuple[int, int], ...], ...] = ()
    chicago: bool = False
    unseen: int = 0
    """Mask of the cards the seat had not seen by its last view of the deal."""


@dataclass
class _SeatLog:
    """What one seat remembers: per finished deal, ``view.history`` up to it and each
    opponent's log-likelihoods; the deal being played."""

    finished: list[tuple[tuple[DealRecord, ...], dict[int, Triple]]] = field(
        default_factory=list)
    pending: _Pending | None = None


class KindMemory:
    """The earlier deals' card play, remembered from the views a bot is shown (module
    docstring): per seat it played, each opponent's log-likelihood under every model in
    each finished deal in which it was seen to play all five tricks."""

    def __init__(self, policy: PlayPolicy, eps: float = DEFAULT_EPS) -> None:
        self.policy = policy
        self.eps = eps
        self._logs: dict[int, _SeatLog] = {}

    def observe(self, view: SeatView) -> None:
        """Take in one view of the bot's seat: finish the deal watched before if the view
        shows it over, forget what does not fit the view's game, and note the tricks seen."""
        seat = view.seat
        if seat is None:
            return
        log = self._logs.setdefault(seat, _SeatLog())
        history = tuple(view.history)
        pending = log.pending
        if pending is not None and (pending.deal, pending.history) != (view.deal, history):
            if (len(history) >= pending.deal and history[: pending.deal - 1] == pending.history
                    and history[pending.deal - 1].deal == pending.deal):
                logs = {} if pending.chicago else deal_log_likelihoods(
                    pending.tricks, seat, self.policy, self.eps, view.players,
                    pending.unseen)
                log.finished.append((history[: pending.deal], logs))
            log.pending = pending = None
        kept = 0
        for fingerprint, _ in log.finished:
            if history[: len(fingerprint)] != fingerprint:
                break
            kept += 1
        del log.finished[kept:]
        if str(view.phase) != "play":
            return
        own = 0
        for card in (*view.hand, *view.played[seat]):
            own |= 1 << int(card)
        if pending is None or pending.own != own or pending.deal != view.deal:
            pending = log.pending = _Pending(view.deal, history, own)
        tricks = [tuple((p.seat, int(p.card)) for p in t.cards) for t in view.tricks]
        if view.trick:
            tricks.append(tuple((p.seat, int(p.card)) for p in view.trick))
        if len(tricks) > len(pending.tricks) or (
                len(tricks) == len(pending.tricks) and tricks
                and len(tricks[-1]) >= len(pending.tricks[-1])):
            pending.tricks = tuple(tricks)
        pending.chicago = pending.chicago or view.chicago is not None
        known = own
        for trick in tricks:
            for _, played in trick:
                known |= 1 << played
        for out_of_play in (*view.discarded, *view.known_out):
            known |= 1 << int(out_of_play)
        pending.unseen = _ALL & ~known

    def posteriors(self, seat: int, prior: Triple) -> dict[int, Triple]:
        """Each opponent's chance of every model, as the seat's finished deals say (only
        opponents seen to the end of at least one of them)."""
        log = self._logs.get(seat)
        if log is None:
            return {}
        rows: dict[int, list[Triple]] = {}
        for _, logs in log.finished:
            for other, row in logs.items():
                rows.setdefault(other, []).append(row)
        return {other: kind_posterior(r, prior) for other, r in sorted(rows.items())}

    def deals_seen(self, seat: int) -> int:
        """How many finished deals the memory holds for ``seat``."""
        log = self._logs.get(seat)
        return 0 if log is None else len(log.finished)
