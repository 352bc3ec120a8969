"""The JSON form of a view, derived from the view's types.

Inside the process a view is typed (:class:`~chicago.engine.viewtypes.SeatView`); JSON is
made only at the edge (the table server's frames, the external bot protocol, the terminal's
and the environments' text forms) by :func:`view_json` and :func:`state_json`. The forms
follow the declared type of every field, read once per class (:func:`encoder`, and
:func:`part_json` for a view's parts): cards become their
text (``"Ah"``), categories their names, the phase its value, actions their text notation,
the rules :meth:`~chicago.rules.Rules.to_dict`, events :meth:`~chicago.engine.events.Event.to_json`,
tuples lists, mappings objects with text keys, and a dataclass an object of its fields in
declaration order. :mod:`chicago.engine.schema` derives ``docs/schema.json`` from the same
declarations with the same rules (:data:`LEAF_TYPES`). The view's own encoders
(:func:`public_json`, :func:`own_json`, and :func:`view_json` with them) write the same JSON
field by field, for speed (the table server encodes a state for every action), and are
proven equal to :func:`part_json` by the tests.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=3)
>>> data = view_json(game.view(0))
>>> data["phase"], data["hand"][:2], data["rules"]["preset_name"], data["seat"]
('exchange', ['2d', '2s'], 'pagat', 0)
>>> sorted(set(data) - set(state_json(game.view(0))))
['events', 'history', 'rules']
"""

from __future__ import annotations

import dataclasses
import functools
import json
import operator
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TypeAlias

from chicago.cards import DECK, Card
from chicago.categories import Category
from chicago.engine.actions import Action
from chicago.engine.events import Event
from chicago.engine.jsontypes import JSON, JSONObject
from chicago.engine.native import ENGINE
from chicago.engine.phases import Phase
from chicago.engine.views import (
    OwnPart,
    ViewedGame,
    known_out,
    own_part_known,
    public_view,
)
from chicago.engine.viewtypes import (
    Announcement,
    Part,
    PlayedCard,
    ScoringRound,
    SeatView,
    TakenTrick,
)
from chicago.rules import Rules

__all__ = [
    "JSON",
    "LEAF_TYPES",
    "Encoder",
    "encoder",
    "field_json",
    "own_json",
    "own_state",
    "part_json",
    "public_json",
    "public_state",
    "public_text",
    "seat_state",
    "seat_state_text",
    "state_json",
    "update_state",
    "view_json",
]

Encoder: TypeAlias = Callable[[typing.Any], JSON]
"""Turns a value of one declared type into its JSON form."""

_CARD_TEXT = tuple(str(card) for card in DECK)


_RULES_JSON: dict[int, tuple[Rules, JSONObject]] = {}


def _rules_json(rules: Rules) -> JSON:
    """``rules.to_dict()``, made once per rules object (a table's views share it) and given
    out as a fresh copy every time (its lists and objects too)."""
    hit = _RULES_JSON.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_RULES_JSON) > 64:
            _RULES_JSON.clear()
        hit = _RULES_JSON[id(rules)] = (rules, rules.to_dict())
    return {k: v.copy() if isinstance(v, dict | list) else v for k, v in hit[1].items()}


def _event_json(event: Event) -> JSON:
    return event.to_json()


LEAF_TYPES: dict[type, Encoder] = {
    Card: _CARD_TEXT.__getitem__,
    Category: operator.attrgetter("name"),
    Phase: operator.attrgetter("value"),
    Action: str,
    Rules: _rules_json,
    Event: _event_json,
}
"""The types with a JSON form of their own, and how they get it (a subclass of ``Event``
uses ``Event``'s); ``int``, ``bool``, ``str``, ``float`` and ``None`` are JSON as they are."""

_SCALARS = (int, bool, str, float, type(None))


def _optional(inner: Encoder) -> Encoder:
    def encode(value: object) -> JSON:
        return None if value is None else inner(value)

    return encode


def _sequence(inner: Encoder | None) -> Encoder:
    if inner is None:
        return list

    def encode(values: typing.Iterable[object]) -> JSON:
        return [inner(v) for v in values]

    return encode


def _mapping(inner: Encoder | None) -> Encoder:
    def encode(values: Mapping[object, object]) -> JSON:
        if inner is None:
            return {str(k): v for k, v in values.items()}  # type: ignore[misc]
        return {str(k): inner(v) for k, v in values.items()}

    return encode


def _fields(cls: type) -> tuple[tuple[str, Encoder | None, Part], ...]:
    """Each field of a dataclass: its name, its encoder (None: as it is) and its part."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (f.name, encoder(hints[f.name]), f.metadata.get("part", "public"))
        for f in dataclasses.fields(cls)
    )


def _object_encoder(fields: Sequence[tuple[str, Encoder | None]]) -> Callable[[object], JSONObject]:
    """The encoder of an object's ``fields`` (name, encoder or None: as it is): a JSON object
    of them in that order."""
    plan = tuple(fields)

    def encode(value: object) -> JSONObject:
        out: JSONObject = {}
        for name, convert in plan:
            item = getattr(value, name)
            out[name] = item if convert is None else convert(item)
        return out

    return encode


def _dataclass(cls: type) -> Encoder:
    return _object_encoder([(name, convert) for name, convert, _ in _fields(cls)])


@functools.cache
def encoder(hint: object) -> Encoder | None:
    """The encoder of values of the declared type ``hint``; None when its values are JSON as
    they are. TypeError for a type without a JSON form."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) == 1 and len(args) == 2:
            inner = encoder(kinds[0])
            return None if inner is None else _optional(inner)
        if all(encoder(a) is None for a in args):
            return None
        raise TypeError(f"no JSON form for the union {hint!r}")
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _sequence(encoder(args[0]))
    if origin in (Mapping, dict):
        return _mapping(encoder(args[1]))
    if hint in _SCALARS:
        return None
    if isinstance(hint, type):
        for leaf, encode in LEAF_TYPES.items():
            if issubclass(hint, leaf):
                return encode
        if dataclasses.is_dataclass(hint):
            return _dataclass(hint)
    raise TypeError(f"no JSON form for {hint!r}")


@functools.cache
def _view_plan(parts: frozenset[Part]) -> Callable[[object], JSONObject]:
    return _object_encoder(
        [(name, convert) for name, convert, part in _fields(SeatView) if part in parts])


def part_json(view: SeatView, *parts: Part) -> dict[str, JSON]:
    """The JSON object of the fields of ``view`` in the given parts, in declaration order
    (``"public"``: the same for every seat, ``"own"``: the seat's own, ``"full"``: rules,
    events and history): the encoder derived from the declarations, field by field, that
    the dedicated encoders below (:func:`public_json`, :func:`own_json`, :func:`view_json`)
    are proven equal to."""
    return _view_plan(frozenset(parts))(view)


# ---------------------------------------------------------------------- dedicated encoders
# The JSON of a view written out field by field for its declared types (the same forms as
# ``encoder`` derives: cards as text, categories by name, tuples as lists, seats as text
# keys), without a plan walked value by value: the table server encodes the public part of
# every state and every audience's own part (tests/test_engine_viewjson.py proves them
# equal to the derived encoder on random games of every preset and variation, and that
# they write every field of SeatView).

def _cards(cards: typing.Iterable[Card]) -> list[JSON]:
    return [_CARD_TEXT[c] for c in cards]


def _word(word: Announcement) -> JSONObject:
    category = word.category
    return {"round": word.round, "seat": word.seat,
            "category": None if category is None else category.name}


def _plays(plays: typing.Iterable[PlayedCard]) -> list[JSON]:
    return [{"seat": p.seat, "card": _CARD_TEXT[p.card]} for p in plays]


def _tricks(tricks: typing.Iterable[TakenTrick]) -> list[JSON]:
    return [{"winner": t.winner, "cards": _plays(t.cards)} for t in tricks]


def _scoring_round(shown: ScoringRound) -> JSONObject:
    result = shown.result
    return {"round": shown.round, "words": [_word(w) for w in shown.words],
            "stages": {str(seat): [r.to_json() for r in reveals]
                       for seat, reveals in shown.stages.items()},
            "result": None if result is None else result.to_json()}


def public_json(view: SeatView) -> dict[str, JSON]:
    """The JSON object of the ``public`` fields of ``view``: ``part_json(view, "public")``,
    written out for their types (the public part of every update frame)."""
    one_up = view.one_up
    settlement = view.settlement
    scoring = view.scoring_round
    return {
        "players": view.players,
        "deal": view.deal,
        "dealer": view.dealer,
        "phase": view.phase.value,
        "round": view.round,
        "to_act": view.to_act,
        "scores": list(view.scores),
        "locked": list(view.locked),
        "stock": view.stock,
        "discard_pile": view.discard_pile,
        "exchanges": [list(counts) for counts in view.exchanges],
        "announcements": [_word(w) for w in view.announcements],
        "reveals": [r.to_json() for r in view.reveals],
        "round_results": [r.to_json() for r in view.round_results],
        "shown": {str(seat): _cards(cards) for seat, cards in view.shown.items()},
        "one_up": None if one_up is None else {"seat": one_up.seat,
                                               "card": _CARD_TEXT[one_up.card]},
        "chicago": view.chicago,
        "trick_number": view.trick_number,
        "trick": _plays(view.trick),
        "tricks": _tricks(view.tricks),
        "played": [_cards(pile) for pile in view.played],
        "over": view.over,
        "winners": list(view.winners),
        "chicago_declared": list(view.chicago_declared),
        "chicago_made": list(view.chicago_made),
        "settlement": None if settlement is None else list(settlement),
        "hand_sizes": list(view.hand_sizes),
        "scoring_round": None if scoring is None else _scoring_round(scoring),
        "chicago_points": view.chicago_points,
        "lock_at": view.lock_at,
        "exchange_rounds": view.exchange_rounds,
    }


_TEXT_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""The compact encoding of the table server's frames (``chicago.server.protocol.dumps``
encodes with the same settings: ASCII, no spaces)."""

_OTHER_FIELDS: dict[str, Callable[[typing.Any], JSON]] = {
    "settlement": list,
    "scoring_round": _scoring_round,
}
"""The public fields whose text the accelerator asks of Python when they are not None
(floats, a scoring round's stages), and their JSON form as :func:`public_json` makes it."""


def _other_text(name: str, value: object) -> str:
    return _TEXT_ENCODER.encode(_OTHER_FIELDS[name](value))


_public_json_text: Callable[..., typing.Any] | None = (
    getattr(ENGINE, "public_json_text", None) if ENGINE is not None else None)
"""The accelerator's writer of :func:`public_text` (a text, or NotImplemented for what the
Python code writes), or None."""


_state_json_text: Callable[..., typing.Any] | None = (
    getattr(ENGINE, "state_json_text", None) if ENGINE is not None else None)
"""The accelerator's writer of :func:`seat_state_text` from the public text and the seat's
own fields (a text, or NotImplemented for what the Python code writes), or None."""


def public_text(view: SeatView) -> str:
    """The compact JSON text of :func:`public_json` of ``view`` (no spaces, ASCII: as the
    table server encodes its frames), the public part of an update's state. The
    accelerator's ``public_json_text`` writes it from the view when it is built, without the
    dicts and lists between (the scoring round and the settlement, when there is one, by
    this module's encoder); anything of another shape is written by the Python code
    (tests/test_public_json_text.py compares the two)."""
    if _public_json_text is not None:
        made = _public_json_text(view, _CARD_TEXT, _other_text)
        if made is not NotImplemented:
            return made  # type: ignore[no-any-return]
    return _TEXT_ENCODER.encode(public_json(view))


def own_json(own: SeatView | OwnPart) -> dict[str, JSON]:
    """The JSON object of the ``own`` fields of a view (or of :func:`own_part`'s):
    ``part_json(view, "own")``, written out for their types."""
    category = own.hand_category
    return {
        "seat": own.seat,
        "hand": _cards(own.hand),
        "hand_category": None if category is None else category.name,
        "discarded": _cards(own.discarded),
        "legal_actions": [str(a) for a in own.legal_actions],
        "known_out": _cards(own.known_out),
    }


def _full_json(view: SeatView) -> dict[str, JSON]:
    return {
        "rules": _rules_json(view.rules),
        "events": [e.to_json() for e in view.events],
        "history": [{"deal": d.deal, "dealer": d.dealer, "points": list(d.points),
                     "scores": list(d.scores), "tricks": _tricks(d.tricks),
                     "chicago": d.chicago} for d in view.history],
    }


@functools.cache
def _field_encoders() -> dict[str, Encoder | None]:
    return {name: convert for name, convert, _ in _fields(SeatView)}


def field_json(name: str, value: object) -> JSON:
    """The JSON form of ``value`` as the view's field ``name`` (KeyError for another name):
    for a shell that builds a view's JSON by steps (the replay's closing state)."""
    convert = _field_encoders()[name]
    return value if convert is None else convert(value)  # type: ignore[return-value]


def view_json(view: SeatView) -> dict[str, JSON]:
    """The JSON form of a whole view (a snapshot frame's ``view``, the bot protocol's)."""
    return {**public_json(view), **own_json(view), **_full_json(view)}


def state_json(view: SeatView) -> dict[str, JSON]:
    """The compact JSON form of a view that update frames carry: without rules, events and
    history."""
    return {**public_json(view), **own_json(view)}


def public_state(game: ViewedGame) -> dict[str, JSON]:
    """The public part of the state in an update frame, the same for every audience: the
    ``public`` fields of the game's view (:func:`seat_state` adds an audience's own)."""
    return public_json(public_view(game))


_own_json_of: Callable[..., typing.Any] | None = (
    ENGINE.own_json_of if ENGINE is not None else None)
"""The accelerator's maker of :func:`own_state` for a seat of a :class:`~chicago.Game`
(a JSON object, or NotImplemented for what the Python code makes), or None."""


def own_state(game: ViewedGame, seat: int | None) -> dict[str, JSON]:
    """``own_json(own_part(game, seat))``: the JSON object of the ``own`` fields of
    ``seat``'s view (a spectator, None, has none), the part of an update's state that is
    the audience's own. For a seat of a :class:`~chicago.Game` itself the accelerator's
    ``own_json_of`` writes it from the game's slots when it is built and allowed (the cards
    the seat knows out of the stock folded here as for every view), without the
    :class:`~chicago.engine.views.OwnPart` between; anything else is made by the Python
    code (tests/test_accelerated_bot_path.py compares the two)."""
    out = known_out(game, seat)
    if _own_json_of is not None and seat is not None:
        made = _own_json_of(game, seat, out, _CARD_TEXT)
        if made is not NotImplemented:
            return made  # type: ignore[no-any-return]
    return own_json(own_part_known(game, seat, out))


def seat_state(game: ViewedGame, seat: int | None,
               public: Mapping[str, JSON]) -> dict[str, JSON]:
    """``public`` (from :func:`public_state`) and the ``own`` fields of ``seat``'s view (its
    cards and choices; a spectator, None, has none: :func:`own_state`), made without the
    public part again."""
    return {**public, **own_state(game, seat)}


def seat_state_text(game: ViewedGame, seat: int | None, public: str) -> str:
    """The compact JSON text of :func:`seat_state`: ``public`` (from :func:`public_text`)
    and the ``own`` fields of ``seat``'s view (:func:`own_state`), put together as text
    without the public part decoded or encoded again (by the accelerator's
    ``state_json_text`` in one buffer when it is built and the fields are of its shape)."""
    own = own_state(game, seat)
    if _state_json_text is not None:
        made = _state_json_text(public, own)
        if made is not NotImplemented:
            return made  # type: ignore[no-any-return]
    return public[:-1] + "," + _TEXT_ENCODER.encode(own)[1:]


def update_state(game: ViewedGame, seat: int | None,
                 public: Mapping[str, JSON] | None = None
                 ) -> tuple[Mapping[str, JSON], dict[str, JSON]]:
    """``(public, state)``: the state of ``seat``'s update frame (:func:`seat_state`) and the
    public part it holds (:func:`public_state`, made when not given), to share with the
    other audiences of the same action."""
    if public is None:
        public = public_state(game)
    return public, seat_state(game, seat, public)
