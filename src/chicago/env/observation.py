"""A fixed-size numeric encoding of what one seat knows, built from its view alone.

:func:`encode_view` turns ``Game.view(seat)`` (the JSON-able dict every shell and bot uses)
into a ``numpy.float32`` vector of :data:`OBSERVATION_SIZE` numbers. Nothing else is read,
so the encoding cannot hold a card the seat may not see. The same size serves every rule
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

import copy
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from chicago.cards import RANKS, SUITS, parse_card
from chicago.poker import Category

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
"""The engine's phases (``view["phase"]``), in encoding order."""
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

_CARD = {s: parse_card(s) for s in (r + u for r in RANKS for u in SUITS)}
_CATEGORY_INDEX = {c.name: int(c) for c in Category}
_RANK_VALUE = {letter: i + 2 for i, letter in enumerate(RANKS)}


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


def _cards(part: npt.NDArray[np.float32], texts: Iterable[str]) -> None:
    for text in texts:
        part[_CARD[text]] = 1.0


def encode_view(
    view: dict[str, Any], out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """The encoding of one seat's view (see :data:`LAYOUT`); ``out`` is filled if given.

    A spectator's view (seat None) is encoded from seat 0's place with an empty hand.
    """
    if out is None:
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    else:
        out.fill(0.0)
    w = _Writer(out)
    n = int(view["players"])
    me = view["seat"] if view["seat"] is not None else 0

    def rel(seat: int) -> int:
        return (int(seat) - me) % n

    _cards(w["hand"], view.get("hand", ()))
    category = view.get("hand_category")
    if category is not None:
        w["hand_category"][_CATEGORY_INDEX[category]] = 1.0
    _cards(w["discarded"], view.get("discarded", ()))

    counts = view.get("exchanges", [])
    for r, row in enumerate(counts[:R]):
        for seat, count in enumerate(row):
            w["exchange_count"][r, rel(seat)] = count / 5.0

    scoring_round = 0
    for event in view.get("events", ()):
        kind = event["type"]
        seat = event.get("seat")
        if kind == "exchanged" and seat == view["seat"]:
            r = min(int(event["round"]), R)
            _cards(w["exchanged"][r, 0], event.get("discarded", ()))
            _cards(w["exchanged"][r, 1], event.get("drawn", ()))
        elif kind == "exchange":
            r = int(event["round"]) - 1
            if 0 <= r < R:
                w["exchange_done"][r, rel(seat)] = 1.0
        elif kind == "redeal":
            w["redealt"][rel(seat), 1 if event.get("redealt") else 0] = 1.0
        elif kind == "one_up_choice":
            part = "one_up_accepted" if event.get("accepted") else "one_up_rejected"
            w[part][rel(seat), _CARD[event["card"]]] = 1.0
        elif kind in ("announce", "pass"):
            scoring_round = int(event["round"]) - 1
            if 0 <= scoring_round < A:
                index = 0 if kind == "pass" else _CATEGORY_INDEX[event["category"]]
                w["announced"][scoring_round, rel(seat), index] = 1.0
        elif kind == "reveal":
            stage = int(event["stage"]) - 1
            if 0 <= scoring_round < A and 0 <= stage < MAX_STAGES:
                if "rank" in event:
                    value = _RANK_VALUE[event["rank"]] / 14.0
                else:
                    value = (SUITS.index(event["suit"]) + 1) / 4.0
                w["revealed"][scoring_round, rel(seat), stage] = value
        elif kind == "round_result":
            r = int(event["round"]) - 1
            if 0 <= r < A:
                winner = event.get("winner")
                w["round_winner"][r, S if winner is None else rel(winner)] = 1.0
        elif kind == "quads_claim" and event.get("reset"):
            w["quads_claim"][rel(seat)] = 1.0
            if event.get("target") is not None:
                w["quads_target"][rel(seat), rel(int(event["target"]))] = 1.0
        elif kind == "quads_choice" and event.get("target") is not None:
            w["quads_target"][rel(seat), rel(int(event["target"]))] = 1.0
        elif kind == "chicago" and not event.get("declared"):
            w["chicago_declined"][rel(seat)] = 1.0

    one_up = view.get("one_up")
    if one_up:
        w["one_up_pending"][rel(one_up["seat"]), _CARD[one_up["card"]]] = 1.0
    for seat_text, cards in view.get("shown", {}).items():
        _cards(w["shown"][rel(int(seat_text))], cards)
    _cards(w["known_out"], view.get("known_out", ()))
    declarer = view.get("chicago")
    w["chicago_declarer"][S if declarer is None else rel(declarer)] = 1.0

    tricks = [(t["winner"], t["cards"]) for t in view.get("tricks", ())]
    if view.get("trick"):
        tricks.append((None, view["trick"]))
    for t, (winner, plays) in enumerate(tricks[:5]):
        for i, play in enumerate(plays):
            slot = rel(play["seat"])
            w["plays"][t, slot, _CARD[play["card"]]] = 1.0
            if i == 0:
                w["trick_leader"][t, slot] = 1.0
        if winner is not None:
            w["trick_winner"][t, rel(winner)] = 1.0
    w["trick_number"][min(int(view.get("trick_number", 0)), 5)] = 1.0

    rules = view["rules"]
    target = float(rules.get("target", 52)) or 1.0
    for seat, score in enumerate(view["scores"]):
        w["scores"][rel(seat)] = max(-SCORE_CLIP, min(SCORE_CLIP, score / target))
    for seat, locked in enumerate(view["locked"]):
        w["locked"][rel(seat)] = 1.0 if locked else 0.0
    w["seat_present"][:n] = 1.0
    if view.get("to_act") is not None:
        w["to_act"][rel(view["to_act"])] = 1.0
    w["dealer"][rel(view["dealer"])] = 1.0
    w["phase"][PHASES.index(view["phase"])] = 1.0
    w["round"][max(0, min(int(view.get("round", 1)), R) - 1)] = 1.0
    w["players"][n - 2] = 1.0
    w["counts"][:] = (
        view.get("stock", 0) / 52.0,
        view.get("discard_pile", 0) / 52.0,
        min(int(view.get("deal", 0)) / 50.0, 1.0),
    )
    w["rules"][:] = _cached_rule_features(rules)
    for name in ("chicago_declared", "chicago_made"):
        for seat, flag in enumerate(view.get(name) or ()):
            if flag:
                w[name][rel(seat)] = 1.0
    return out


_RULE_CACHE: dict[int, tuple[dict[str, Any], list[float]]] = {}


def _cached_rule_features(rules: dict[str, Any]) -> list[float]:
    """:func:`_rule_features`, remembered for the last rules dicts seen (views share them
    by value, so the cache compares the dicts)."""
    key = len(rules) ^ hash(str(rules.get("preset_name"))) ^ hash(rules.get("target"))
    hit = _RULE_CACHE.get(key)
    if hit is not None and hit[0] == rules:
        return hit[1]
    features = _rule_features(rules)
    if len(_RULE_CACHE) > 64:
        _RULE_CACHE.clear()
    _RULE_CACHE[key] = (copy.deepcopy(rules), features)
    return features


def _rule_features(rules: dict[str, Any]) -> list[float]:
    """The rule options as numbers in about 0-1 (the ``rules`` block), from ``Rules.to_dict``."""
    target = float(rules.get("target", 52)) or 1.0

    def flag(key: str) -> float:
        return 1.0 if rules.get(key) else 0.0

    def scaled(key: str, scale: float) -> float:
        value = rules.get(key)
        return 0.0 if value is None else min(float(value) / scale, SCORE_CLIP)

    table = rules.get("points", {})
    points = [table.get(c.name, 0) for c in Category] if isinstance(table, dict) else list(table)
    redeal = rules.get("redeal_low", "off")
    required = rules.get("chicago_required", "none")
    features = [
        scaled("exchanges", 5.0),
        scaled("max_discard", 5.0),
        flag("show_on_break"),
        scaled("lock_at", target),
        flag("lock_six"),
        flag("one_up"),
        1.0 if redeal == "below-ten" else 0.0,
        1.0 if redeal == "ten-and-below" else 0.0,
        flag("chicago_enabled"),
        scaled("chicago_points", 52.0),
        scaled("chicago_min_score", target),
        1.0 if rules.get("chicago_min_score") is None else 0.0,
        flag("chicago_caller_leads"),
        flag("chicago_final_showdown"),
        scaled("chicago_breaker_points", 52.0),
        1.0 if required == "made" else 0.0,
        1.0 if required == "declared" else 0.0,
        scaled("last_trick_points", 52.0),
        flag("deuce_bonus"),
        min(target / 100.0, SCORE_CLIP),
        flag("negative_scores"),
        flag("win_again"),
        flag("quads_reset"),
        flag("quads_end_deal"),
        1.0 if rules.get("tie_mode") == "category" else 0.0,
        1.0 if rules.get("suit_order") else 0.0,
        flag("royal_separate"),
        flag("royal_wins"),
        flag("straight_flush_wins"),
        flag("wheel_straight"),
        flag("chicago_made_any_size"),
        1.0 if rules.get("instant_win_score") == "keep" else 0.0,
        scaled("deuce_chicago_points", 52.0),
        flag("quads_reset_one"),
        flag("quads_to_target"),
        *(min(float(p) / 52.0, SCORE_CLIP) for p in points),
    ]
    assert len(features) == _RULE_FEATURES, len(features)
    return features


def view_text(view: dict[str, Any]) -> str:
    """A compact one-line text of a view: the OpenSpiel observation string.

    Everything in it comes from the view: deal, dealer, phase, whose turn, scores, own hand,
    exchange counts, announcements and reveals, shown and face-up cards, tricks, who has
    declared or made a Chicago in the game.
    """
    parts = [
        f"seat {view['seat']}",
        f"deal {view['deal']} dealer {view['dealer']}",
        f"phase {view['phase']} round {view.get('round', 1)}",
        f"to_act {view.get('to_act')}",
        "scores " + " ".join(map(str, view["scores"])),
    ]
    if any(view["locked"]):
        parts.append("locked " + " ".join(str(s) for s, x in enumerate(view["locked"]) if x))
    parts.append("hand " + " ".join(view.get("hand", ())))
    if view.get("discarded"):
        parts.append("discarded " + " ".join(view["discarded"]))
    parts.append(f"stock {view.get('stock', 0)} pile {view.get('discard_pile', 0)}")
    for r, row in enumerate(view.get("exchanges", ()), start=1):
        parts.append(f"exchange {r}: " + " ".join(map(str, row)))
    calls: dict[int, list[str]] = {}
    for a in view.get("announcements", ()):
        calls.setdefault(int(a["round"]), []).append(
            f"{a['seat']}:{(a['category'] or 'pass').lower()}"
        )
    for r, texts in calls.items():
        parts.append(f"scoring {r}: " + " ".join(texts))
    for e in view.get("reveals", ()):
        parts.append(f"reveal {e['seat']}:{e.get('rank', e.get('suit'))}")
    for e in view.get("round_results", ()):
        parts.append(f"result {e['round']}: {e['winner']} {e['points']}")
    for seat_text, cards in view.get("shown", {}).items():
        parts.append(f"shown {seat_text}: " + " ".join(cards))
    if view.get("one_up"):
        parts.append(f"one up {view['one_up']['seat']}: {view['one_up']['card']}")
    if view.get("chicago") is not None:
        parts.append(f"chicago {view['chicago']}")
    for t in view.get("tricks", ()):
        plays = " ".join(f"{p['seat']}:{p['card']}" for p in t["cards"])
        parts.append(f"trick {plays} won {t['winner']}")
    if view.get("trick"):
        parts.append("trick " + " ".join(f"{p['seat']}:{p['card']}" for p in view["trick"]))
    for name, words in (("chicago_declared", "declared chicago"), ("chicago_made", "made chicago")):
        seats = [str(s) for s, flag in enumerate(view.get(name) or ()) if flag]
        if seats:
            parts.append(f"{words} " + " ".join(seats))
    if view.get("over"):
        parts.append("over, winners " + " ".join(map(str, view.get("winners", ()))))
    return "; ".join(parts)
