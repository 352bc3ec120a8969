"""A fixed-size numeric encoding of what one seat knows, built from its view alone.

:func:`encode_view` turns ``Game.view(seat)`` (the typed view every shell and bot uses) into
a ``numpy.float32`` vector of :data:`OBSERVATION_SIZE` numbers. Nothing else is read, so the
encoding cannot hold a card the seat may not see. The same size serves every rule
set and table size: seats are numbered *relative to the observer* (slot 0 is the observer,
slot 1 the player on its left …, slots beyond the table size stay 0), rounds up to the
rules' maximum (5 exchange rounds, 4 scoring rounds).

Cards are one-hot over the 52 card ids of :mod:`chicago.cards`; counts and scores are
scaled to about 0-1 (a score is divided by the target and clipped to [-2, 2]). The blocks,
in order, are listed by :data:`LAYOUT` (name, shape, meaning); ``docs/ENVIRONMENTS.md``
prints the table.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=7)
>>> obs = encode_view(game.view(game.to_act))
>>> obs.shape == (OBSERVATION_SIZE,), obs.dtype.name, int(obs[block("hand")].sum())
(True, 'float32', 5)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from chicago.cards import SUITS, Card
from chicago.engine.events import (
    Announce,
    ChicagoCall,
    Exchange,
    Exchanged,
    OneUpChoice,
    Pass,
    QuadsChoice,
    QuadsClaim,
    Redeal,
    Reveal,
    RoundResult,
)
from chicago.engine.viewtypes import PlayedCard, SeatView
from chicago.poker import Category
from chicago.rules import Rules

__all__ = [
    "LAYOUT",
    "MAX_EXCHANGES",
    "MAX_SCORING_ROUNDS",
    "MAX_SEATS",
    "OBSERVATION_SIZE",
    "PHASES",
    "block",
    "encode_view",
    "view_text",
]

MAX_SEATS = 6
MAX_EXCHANGES = 5
MAX_SCORING_ROUNDS = MAX_EXCHANGES - 1
MAX_STAGES = 6
"""Tie-break stages per hand: up to five ranks, then the V-TIE-SUIT suit."""
PHASES = ("redeal", "exchange", "one up", "announce", "quads choice", "quads", "chicago",
          "play", "over")
"""The engine's phases (``view.phase``), in encoding order."""
SCORE_CLIP = 2.0

S, R, A = MAX_SEATS, MAX_EXCHANGES, MAX_SCORING_ROUNDS
_RULE_FEATURES = 45

LAYOUT: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("hand", (52,), "own cards"),
    ("hand_category", (10,), "own hand's category, high card … royal flush (5 cards only)"),
    ("discarded", (52,), "own discards this deal"),
    ("exchanged", (R + 1, 2, 52),
     "own exchanges per round (0 = V-REDEAL-LOW redeal): cards discarded, cards drawn"),
    ("exchange_count", (R, S), "cards each seat exchanged per exchange round, / 5"),
    ("exchange_done", (R, S), "1 once the seat has had its turn in that exchange round"),
    ("redealt", (S, 2), "V-REDEAL-LOW: the seat kept (0) or redealt (1) its hand"),
    ("one_up_pending", (S, 52), "V-ONE-UP face-up card waiting for the seat's decision"),
    ("one_up_accepted", (S, 52), "face-up cards the seat took this deal"),
    ("one_up_rejected", (S, 52), "face-up cards the seat rejected this deal"),
    ("announced", (A, S, 10), "per scoring round: pass, or the category announced (pair …)"),
    ("revealed", (A, S, MAX_STAGES),
     "tie-break stages revealed (rank value / 14; the V-TIE-SUIT stage: (suit + 1) / 4)"),
    ("round_winner", (A, S + 1), "scoring-round winner (last slot: nobody)"),
    ("shown", (S, 52), "hands shown to everyone (R-EX-4, quads reset)"),
    ("known_out", (52,),
     "cards the seat knows are not in the stock (the view's known_out: the engine's seat "
     "knowledge)"),
    ("quads_claim", (S,), "V-QUADS-RESET: the seat claimed a reset in the quads round"),
    ("quads_target", (S, S),
     "V-QUADS-ONE: the seat (row) chose to lower that seat (column) in a reset claim or choice"),
    ("chicago_declined", (S,), "the seat said no chicago this deal"),
    ("chicago_declarer", (S + 1,), "who declared Chicago (last slot: nobody)"),
    ("plays", (5, S, 52), "card each seat played to each trick"),
    ("trick_leader", (5, S), "who led each trick"),
    ("trick_winner", (5, S), "who won each finished trick"),
    ("trick_number", (6,), "current trick, 0 = not in the trick play"),
    ("scores", (S,), "scores / target, clipped to [-2, 2]"),
    ("locked", (S,), "locked this deal (R-EX-5)"),
    ("seat_present", (S,), "1 for the seats of the table"),
    ("to_act", (S,), "whose turn it is"),
    ("dealer", (S,), "the dealer"),
    ("phase", (len(PHASES),), "the phase: " + ", ".join(PHASES)),
    ("round", (R,), "the current exchange / scoring round"),
    ("players", (5,), "table size 2 … 6"),
    ("counts", (3,), "cards in the stock / 52, in the discard pile / 52, deal number / 50"),
    ("rules", (_RULE_FEATURES,), "the rule options (see _rule_features)"),
    ("chicago_declared", (S,),
     "the seat has declared a Chicago in this game, any deal (V-CHI-DECLARED)"),
    ("chicago_made", (S,), "the seat has made a Chicago in this game, any deal (V-CHI-REQ3)"),
)
"""The blocks of the encoding: name, shape and meaning, in order."""

_OFFSETS: dict[str, tuple[int, int, tuple[int, ...]]] = {}
_position = 0
for _name, _shape, _ in LAYOUT:
    _size = int(np.prod(_shape))
    _OFFSETS[_name] = (_position, _position + _size, _shape)
    _position += _size
OBSERVATION_SIZE: int = _position
"""Length of the vector :func:`encode_view` returns."""
del _position, _name, _shape, _size



def block(name: str) -> slice:
    """The slice of the flat vector that holds block ``name`` of :data:`LAYOUT`."""
    start, stop, _ = _OFFSETS[name]
    return slice(start, stop)


class _Writer:
    """Named, shaped windows onto one flat vector."""

    def __init__(self, out: npt.NDArray[np.float32]) -> None:
        self.out = out
        self.parts = {
            name: out[start:stop].reshape(shape) for name, (start, stop, shape) in _OFFSETS.items()
        }

    def __getitem__(self, name: str) -> npt.NDArray[np.float32]:
        return self.parts[name]


def _cards(part: npt.NDArray[np.float32], cards: Iterable[Card]) -> None:
    for card in cards:
        part[card] = 1.0


def encode_view(
    view: SeatView, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """The encoding of one seat's view (see :data:`LAYOUT`); ``out`` is filled if given.

    A spectator's view (seat None) is encoded from seat 0's place with an empty hand.
    """
    if out is None:
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    else:
        out.fill(0.0)
    w = _Writer(out)
    n = view.players
    me = view.seat if view.seat is not None else 0

    def rel(seat: int) -> int:
        return (seat - me) % n

    _cards(w["hand"], view.hand)
    if view.hand_category is not None:
        w["hand_category"][int(view.hand_category)] = 1.0
    _cards(w["discarded"], view.discarded)

    for r, row in enumerate(view.exchanges[:R]):
        for seat, count in enumerate(row):
            w["exchange_count"][r, rel(seat)] = count / 5.0

    scoring_round = 0
    for event in view.events:
        if isinstance(event, Exchanged):
            if event.seat == view.seat:
                r = min(event.round, R)
                _cards(w["exchanged"][r, 0], event.discarded)
                _cards(w["exchanged"][r, 1], event.drawn)
        elif isinstance(event, Exchange):
            r = event.round - 1
            if 0 <= r < R:
                w["exchange_done"][r, rel(event.seat)] = 1.0
        elif isinstance(event, Redeal):
            w["redealt"][rel(event.seat), 1 if event.redealt else 0] = 1.0
        elif isinstance(event, OneUpChoice):
            part = "one_up_accepted" if event.accepted else "one_up_rejected"
            w[part][rel(event.seat), event.card] = 1.0
        elif isinstance(event, Announce | Pass):
            scoring_round = event.round - 1
            if 0 <= scoring_round < A:
                index = int(event.category) if isinstance(event, Announce) else 0
                w["announced"][scoring_round, rel(event.seat), index] = 1.0
        elif isinstance(event, Reveal):
            stage = event.stage - 1
            if 0 <= scoring_round < A and 0 <= stage < MAX_STAGES:
                if event.rank is not None:
                    value = _rank_value(event.rank) / 14.0
                else:
                    value = (SUITS.index(event.suit or "") + 1) / 4.0
                w["revealed"][scoring_round, rel(event.seat), stage] = value
        elif isinstance(event, RoundResult):
            r = event.round - 1
            if 0 <= r < A:
                winner = event.winner
                w["round_winner"][r, S if winner is None else rel(winner)] = 1.0
        elif isinstance(event, QuadsClaim):
            if event.reset:
                w["quads_claim"][rel(event.seat)] = 1.0
                if event.target is not None:
                    w["quads_target"][rel(event.seat), rel(event.target)] = 1.0
        elif isinstance(event, QuadsChoice):
            if event.target is not None:
                w["quads_target"][rel(event.seat), rel(event.target)] = 1.0
        elif isinstance(event, ChicagoCall) and not event.declared:
            w["chicago_declined"][rel(event.seat)] = 1.0

    one_up = view.one_up
    if one_up is not None:
        w["one_up_pending"][rel(one_up.seat), one_up.card] = 1.0
    for seat, cards in view.shown.items():
        _cards(w["shown"][rel(seat)], cards)
    _cards(w["known_out"], view.known_out)
    declarer = view.chicago
    w["chicago_declarer"][S if declarer is None else rel(declarer)] = 1.0

    tricks: list[tuple[int | None, tuple[PlayedCard, ...]]] = [
        (t.winner, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((None, view.trick))
    for t, (winner, plays) in enumerate(tricks[:5]):
        for i, play in enumerate(plays):
            slot = rel(play.seat)
            w["plays"][t, slot, play.card] = 1.0
            if i == 0:
                w["trick_leader"][t, slot] = 1.0
        if winner is not None:
            w["trick_winner"][t, rel(winner)] = 1.0
    w["trick_number"][min(view.trick_number, 5)] = 1.0

    rules = view.rules
    target = float(rules.target) or 1.0
    for seat, score in enumerate(view.scores):
        w["scores"][rel(seat)] = max(-SCORE_CLIP, min(SCORE_CLIP, score / target))
    for seat, locked in enumerate(view.locked):
        w["locked"][rel(seat)] = 1.0 if locked else 0.0
    w["seat_present"][:n] = 1.0
    if view.to_act is not None:
        w["to_act"][rel(view.to_act)] = 1.0
    w["dealer"][rel(view.dealer)] = 1.0
    w["phase"][PHASES.index(view.phase)] = 1.0
    w["round"][max(0, min(view.round, R) - 1)] = 1.0
    w["players"][n - 2] = 1.0
    w["counts"][:] = (
        view.stock / 52.0,
        view.discard_pile / 52.0,
        min(view.deal / 50.0, 1.0),
    )
    w["rules"][:] = _rule_features(rules)
    for name, flags in (("chicago_declared", view.chicago_declared),
                        ("chicago_made", view.chicago_made)):
        for seat, flag in enumerate(flags):
            if flag:
                w[name][rel(seat)] = 1.0
    return out


def _rank_value(rank: int) -> int:
    """A revealed rank's value as its letter had it: an ace low in a wheel (1) counts 14."""
    return 14 if rank < 2 else rank


@functools.lru_cache(maxsize=64)
def _rule_features(rules: Rules) -> tuple[float, ...]:
    """The rule options as numbers in about 0-1 (the ``rules`` block)."""
    target = float(rules.target) or 1.0

    def flag(value: object) -> float:
        return 1.0 if value else 0.0

    def scaled(value: float | None, scale: float) -> float:
        return 0.0 if value is None else min(float(value) / scale, SCORE_CLIP)

    redeal = rules.redeal_low
    required = rules.chicago_required
    features = (
        scaled(rules.exchanges, 5.0),
        scaled(rules.max_discard, 5.0),
        flag(rules.show_on_break),
        scaled(rules.lock_at, target),
        flag(rules.lock_six),
        flag(rules.one_up),
        1.0 if redeal == "below-ten" else 0.0,
        1.0 if redeal == "ten-and-below" else 0.0,
        flag(rules.chicago_enabled),
        scaled(rules.chicago_points, 52.0),
        scaled(rules.chicago_min_score, target),
        1.0 if rules.chicago_min_score is None else 0.0,
        flag(rules.chicago_caller_leads),
        flag(rules.chicago_final_showdown),
        scaled(rules.chicago_breaker_points, 52.0),
        1.0 if required == "made" else 0.0,
        1.0 if required == "declared" else 0.0,
        scaled(rules.last_trick_points, 52.0),
        flag(rules.deuce_bonus),
        min(target / 100.0, SCORE_CLIP),
        flag(rules.negative_scores),
        flag(rules.win_again),
        flag(rules.quads_reset),
        flag(rules.quads_end_deal),
        1.0 if rules.tie_mode == "category" else 0.0,
        1.0 if rules.suit_order else 0.0,
        flag(rules.royal_separate),
        flag(rules.royal_wins),
        flag(rules.straight_flush_wins),
        flag(rules.wheel_straight),
        flag(rules.chicago_made_any_size),
        1.0 if rules.instant_win_score == "keep" else 0.0,
        scaled(rules.deuce_chicago_points, 52.0),
        flag(rules.quads_reset_one),
        flag(rules.quads_to_target),
        *(min(float(rules.points[c]) / 52.0, SCORE_CLIP) for c in Category),
    )
    assert len(features) == _RULE_FEATURES, len(features)
    return features


def view_text(view: SeatView) -> str:
    """A compact one-line text of a view: the OpenSpiel observation string.

    Everything in it comes from the view: deal, dealer, phase, whose turn, scores, own hand,
    exchange counts, announcements and reveals, shown and face-up cards, tricks, who has
    declared or made a Chicago in the game.
    """
    parts = [
        f"seat {view.seat}",
        f"deal {view.deal} dealer {view.dealer}",
        f"phase {view.phase.value} round {view.round}",
        f"to_act {view.to_act}",
        "scores " + " ".join(map(str, view.scores)),
    ]
    if any(view.locked):
        parts.append("locked " + " ".join(str(s) for s, x in enumerate(view.locked) if x))
    parts.append("hand " + _text(view.hand))
    if view.discarded:
        parts.append("discarded " + _text(view.discarded))
    parts.append(f"stock {view.stock} pile {view.discard_pile}")
    for r, row in enumerate(view.exchanges, start=1):
        parts.append(f"exchange {r}: " + " ".join(map(str, row)))
    calls: dict[int, list[str]] = {}
    for a in view.announcements:
        name = a.category.name if a.category is not None else "pass"
        calls.setdefault(a.round, []).append(f"{a.seat}:{name.lower()}")
    for r, texts in calls.items():
        parts.append(f"scoring {r}: " + " ".join(texts))
    for e in view.reveals:
        parts.append(f"reveal {e.seat}:{e.rank_text if e.rank is not None else e.suit}")
    for result in view.round_results:
        parts.append(f"result {result.round}: {result.winner} {result.points}")
    for seat, cards in view.shown.items():
        parts.append(f"shown {seat}: " + _text(cards))
    if view.one_up is not None:
        parts.append(f"one up {view.one_up.seat}: {view.one_up.card}")
    if view.chicago is not None:
        parts.append(f"chicago {view.chicago}")
    for t in view.tricks:
        plays = " ".join(f"{p.seat}:{p.card}" for p in t.cards)
        parts.append(f"trick {plays} won {t.winner}")
    if view.trick:
        parts.append("trick " + " ".join(f"{p.seat}:{p.card}" for p in view.trick))
    for flags, words in ((view.chicago_declared, "declared chicago"),
                         (view.chicago_made, "made chicago")):
        seats = [str(s) for s, flag in enumerate(flags) if flag]
        if seats:
            parts.append(f"{words} " + " ".join(seats))
    if view.over:
        parts.append("over, winners " + " ".join(map(str, view.winners)))
    return "; ".join(parts)


def _text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)
