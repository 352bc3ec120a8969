"""Events: what happened, and who may see it, one type per kind.

Every change of the game emits events. An event is **public** (``audience`` is None:
everyone at the table, spectators too) or **private** to one seat (the cards that seat was
dealt, discarded or drew: :class:`Dealt`, :class:`Exchanged`). Views and logs are built only
from the events a seat may see, so a private event is the only place where hidden cards
ever appear.

Each kind is a class (``Play``, ``Announce``, ``Score`` …) with typed fields: cards are
:class:`~chicago.cards.Card`, categories :class:`~chicago.categories.Category`, seats and
numbers ``int``. Events are immutable values: each kind is a slotted class written out in
full (its slots, its fields, its ``__init__``; no generated code) whose fields are read-only
properties, as cheap to build as a tuple, so that the engine makes one per action at little
cost and a copy of a game can share them. Two events are equal when they are of the same kind
with equal fields; an event is never equal to a tuple, cannot be added to one and has no order.
Why classes and not TypedDicts: a TypedDict *is* its JSON dict, mutable and
typed only for the checker; these are typed at run time too (``isinstance``, ``match``),
cannot be changed by a caller, and carry their audience and their JSON form.

The JSON form (:meth:`Event.to_json`, what views, logs, records and websocket messages
carry) is exactly the dict of earlier versions: ``{"type": "play", "seat": 2, "card": "Ah",
"trick": 3}``, cards as text, categories by name, ``"to"`` naming the seat of a private
event; optional fields are left out when they do not apply. :func:`event_from_json` reads
it back. ``docs/schema.json`` describes every kind and field (generated from these classes,
see :mod:`chicago.engine.schema`).

>>> from chicago.cards import parse_card
>>> e = Play(seat=2, card=parse_card("Ah"), trick=3)
>>> e.to_json()
{'type': 'play', 'seat': 2, 'card': 'Ah', 'trick': 3}
>>> event_from_json(e.to_json()) == e, e.public, Play.type
(True, True, 'play')
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from chicago.cards import DECK, RANKS, Card
from chicago.categories import Category
from chicago.engine.jsontypes import JSON, JSONObject

__all__ = [
    "EVENT_TYPES",
    "PUBLIC",
    "Announce",
    "ChicagoCall",
    "ChicagoResult",
    "Deal",
    "DealEnd",
    "Dealt",
    "Event",
    "Exchange",
    "Exchanged",
    "GameEnd",
    "OneUp",
    "OneUpChoice",
    "Pass",
    "Play",
    "QuadsChoice",
    "QuadsClaim",
    "QuadsObjection",
    "QuadsReset",
    "Redeal",
    "Reshuffle",
    "Reveal",
    "RoundResult",
    "Score",
    "Show",
    "Showdown",
    "Trick",
    "event_from_json",
]

PUBLIC = None
"""The audience of a public event."""

EVENT_TYPES: dict[str, type[Event]] = {}
"""Every kind of event by its ``type`` name, in the order they are defined."""

_CARD_TEXT = tuple(str(c) for c in DECK)
_CARD_OF_TEXT = {text: card for text, card in zip(_CARD_TEXT, DECK, strict=True)}


def _card_of(text: object) -> Card:
    card = _CARD_OF_TEXT.get(text) if isinstance(text, str) else None
    if card is None:
        raise ValueError(f"{text!r} is not a card")
    return card


# How a field of each declared type becomes JSON and comes back (the types are written as
# in the class bodies: annotations are strings here).
_TO_JSON: dict[str, Callable[[Any], JSON] | None] = {
    "int": None, "bool": None, "str": None, "float": None,
    "int | None": None, "str | None": None, "bool | None": None,
    "Card": _CARD_TEXT.__getitem__,
    "tuple[Card, ...]": lambda cards: [_CARD_TEXT[c] for c in cards],
    "tuple[int, ...]": list, "tuple[bool, ...]": list, "tuple[float, ...]": list,
    "Category": operator.attrgetter("name"),
    "Category | None": lambda c: None if c is None else c.name,
}
_FROM_JSON: dict[str, Callable[[Any], Any] | None] = {
    "int": int, "bool": bool, "str": str, "float": float,
    "int | None": lambda v: None if v is None else int(v),
    "str | None": lambda v: None if v is None else str(v),
    "bool | None": lambda v: None if v is None else bool(v),
    "Card": _card_of,
    "tuple[Card, ...]": lambda cards: tuple(_card_of(c) for c in cards),
    "tuple[int, ...]": lambda v: tuple(int(x) for x in v),
    "tuple[bool, ...]": lambda v: tuple(bool(x) for x in v),
    "tuple[float, ...]": lambda v: tuple(float(x) for x in v),
    "Category": lambda name: Category[name],
    "Category | None": lambda name: None if name is None else Category[name],
}


class _Values(Protocol):
    """An event's field values, in field order (an ``operator.attrgetter`` of its slots)."""

    def __call__(self, event: Event, /) -> tuple[Any, ...]: ...


class Event:
    """One thing that happened: the base of every kind (see the module docstring).

    A kind declares its ``type`` name (``class Play(Event, type="play")``; ``private=True``
    for a kind seen only by its ``seat``), its fields as annotations in JSON order, the slots
    that hold them (``_`` + the field's name) and an ``__init__`` that takes them in that
    order and fills those slots; an ``__init__`` parameter's default makes the field optional
    (left out of the JSON form while it has it). Each field is read through a read-only
    property, so an event cannot be changed after it is made; two events are equal when they
    are of the same kind with equal fields (never equal to a tuple or to another kind's).
    """

    __slots__ = ()

    type: ClassVar[str] = ""
    """The kind's name, the JSON form's ``"type"``."""
    fields: ClassVar[tuple[str, ...]] = ()
    """The field names, in JSON order."""
    field_types: ClassVar[dict[str, str]] = {}
    """Each field's declared type, as written."""
    defaults: ClassVar[dict[str, object]] = {}
    """The optional fields and their defaults (left out of the JSON form while they have it)."""
    private: ClassVar[bool] = False
    """True for a kind seen only by its ``seat`` (its cards are that seat's own)."""
    _values: ClassVar[_Values]
    _to: ClassVar[tuple[tuple[str, int, Callable[[Any], JSON] | None], ...]] = ()
    _from: ClassVar[tuple[tuple[str, Callable[[Any], Any] | None], ...]] = ()

    def __init_subclass__(cls, *, type: str = "", private: bool = False, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        own = dict(inspect.get_annotations(cls))
        names = tuple(n for n, t in own.items() if not str(t).startswith("ClassVar"))
        slots = tuple(f"_{n}" for n in names)
        if sorted(cls.__dict__.get("__slots__", ())) != sorted(slots):
            raise TypeError(f"{cls.__name__} must declare the slots {', '.join(slots)}")
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
        if tuple(p.name for p in parameters) != names:
            raise TypeError(f"{cls.__name__}.__init__ must take {', '.join(names)}")
        cls.type = type
        cls.private = private
        cls.fields = names
        cls.field_types = {n: str(own[n]) for n in names}
        cls.defaults = {p.name: p.default for p in parameters if p.default is not p.empty}
        getter = operator.attrgetter(*slots)
        cls._values = (
            getter if len(slots) > 1 else staticmethod(lambda event: (getter(event),))
        )
        for name, slot in zip(names, slots, strict=True):
            setattr(cls, name, property(operator.attrgetter(slot), doc=f"The {name}."))
        cls.__match_args__ = names  # type: ignore[attr-defined,misc]
        if "to_json" not in cls.__dict__:
            cls._to = tuple(
                (n, i, _TO_JSON[cls.field_types[n]]) for i, n in enumerate(names)
            )
        if "from_fields" not in cls.__dict__:
            cls._from = tuple((n, _FROM_JSON[cls.field_types[n]]) for n in names)
        if not private:
            # every public kind's audience is None: a class attribute, no property call
            cls.audience = None  # type: ignore[assignment]
        else:  # a private kind's audience is its seat, its first field
            if names[:1] != ("seat",):
                raise TypeError(f"{cls.__name__} is private: its first field must be seat")
            cls.audience = property(operator.attrgetter(slots[0]),  # type: ignore[assignment]
                                    doc="Who may see it: the one seat.")
        if type:
            if type in EVENT_TYPES:
                raise TypeError(f"two event kinds named {type!r}")
            EVENT_TYPES[type] = cls

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values(self) == other._values(other)

    def __ne__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values(self) != other._values(other)

    def __hash__(self) -> int:
        return hash((self.type, self._values(self)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._values(self))

    def __copy__(self) -> Event:
        return self  # immutable: a copy of a game shares its events

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        return self

    @property
    def audience(self) -> int | None:
        """Who may see it: None for everyone (public), else the one seat."""
        return self._values(self)[0] if self.private else None

    @property
    def public(self) -> bool:
        """True when every seat (and spectators) may see this event."""
        return not self.private

    def visible_to(self, seat: int | None) -> bool:
        """May ``seat`` see this event? ``None`` asks for a spectator (public only)."""
        return not self.private or self.audience == seat

    def to_json(self) -> JSONObject:
        """The JSON form: ``"type"``, the fields (cards as text, categories by name), and
        ``"to"`` (the seat) for a private event. A new dict every time."""
        out: JSONObject = {"type": self.type}
        defaults = self.defaults
        values = self._values(self)
        for name, index, convert in self._to:
            value = values[index]
            if name in defaults and value == defaults[name]:
                continue
            out[name] = value if convert is None else convert(value)
        if self.private:
            out["to"] = self.audience
        return out

    @property
    def data(self) -> JSONObject:
        """The JSON form without ``"to"`` (what earlier versions called the event's data)."""
        out = self.to_json()
        out.pop("to", None)
        return out

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Event:
        """The event of this kind from its JSON form (missing optional fields default)."""
        values = []
        for name, convert in cls._from:
            if name not in data:
                if name not in cls.defaults:
                    raise ValueError(f"a {cls.type} event needs {name!r}")
                values.append(cls.defaults[name])
                continue
            value = data[name]
            values.append(value if convert is None else convert(value))
        return cls(*values)

    def __repr__(self) -> str:
        values = self._values(self)
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(self.fields, values, strict=True))
        return f"{type(self).__name__}({inner})"


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The typed event of a JSON event (``"to"``, if any, must be its seat); ValueError if it
    is not one."""
    kind = EVENT_TYPES.get(str(data.get("type")))
    if kind is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    try:
        event = kind.from_fields(data)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"bad {kind.type} event {dict(data)!r}: {exc}") from None
    if "to" in data and data["to"] != event.audience:
        raise ValueError(f"a {kind.type} event is not addressed to seat {data['to']!r}")
    return event


# ---------------------------------------------------------------------- the deal
class Deal(Event, type="deal"):
    """A deal begins: its number, the dealer, the scores and who is locked (R-EX-5)."""

    __slots__ = ("_deal", "_dealer", "_locked", "_scores")

    deal: int
    """The deal's number in the game, from 1."""
    dealer: int
    """The dealer's seat (the player on its left acts first, R-PHASE-2)."""
    scores: tuple[int, ...]
    """Every seat's score at the start of the deal."""
    locked: tuple[bool, ...]
    """Per seat: locked this deal, no exchanges (R-EX-5; V-LOCK-6: dealt six cards)."""

    def __init__(
        self, deal: int, dealer: int, scores: tuple[int, ...], locked: tuple[bool, ...],
    ) -> None:
        self._deal = deal
        self._dealer = dealer
        self._scores = scores
        self._locked = locked


class Dealt(Event, type="dealt", private=True):
    """The cards dealt to one seat (private to it)."""

    __slots__ = ("_cards", "_seat")

    seat: int
    """The seat the cards were dealt to, and the only one who sees them."""
    cards: tuple[Card, ...]
    """Its five cards (six for a locked player under V-LOCK-6), in the order dealt."""

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        self._seat = seat
        self._cards = cards


class Redeal(Event, type="redeal"):
    """V-REDEAL-LOW: a seat threw in its low hand for five new cards, or kept it."""

    __slots__ = ("_redealt", "_seat")

    seat: int
    """Who decided."""
    redealt: bool
    """True if it drew five new cards."""

    def __init__(self, seat: int, redealt: bool) -> None:
        self._seat = seat
        self._redealt = redealt


class Reshuffle(Event, type="reshuffle"):
    """The stock ran out: the discard pile was shuffled into a new stock (R-EX-2)."""

    __slots__ = ("_size",)

    size: int
    """Cards in the new stock (JSON ``"count"``)."""

    def __init__(self, size: int) -> None:
        self._size = size

    def to_json(self) -> JSONObject:
        return {"type": "reshuffle", "count": self._size}

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Event:
        return cls(int(data["count"]))


# ---------------------------------------------------------------------- exchanges
class Exchange(Event, type="exchange"):
    """A seat's exchange as everyone sees it: how many cards, not which (R-EX-3)."""

    __slots__ = ("_discarded", "_drawn", "_locked", "_one_up", "_round", "_seat")

    seat: int
    """Who exchanged."""
    round: int
    """The exchange round, from 1."""
    discarded: int
    """Cards it discarded (0: kept its hand or was locked)."""
    drawn: int
    """Cards it drew (V-LOCK-6: 0 for the sixth card thrown)."""
    locked: bool
    """Present and true for a locked player (R-EX-5), who does not exchange."""
    one_up: bool
    """Present and true when it asked for the new card face up (V-ONE-UP)."""

    def __init__(
        self, seat: int, round: int, discarded: int, drawn: int, locked: bool = False,
        one_up: bool = False,
    ) -> None:
        self._seat = seat
        self._round = round
        self._discarded = discarded
        self._drawn = drawn
        self._locked = locked
        self._one_up = one_up


class Exchanged(Event, type="exchanged", private=True):
    """A seat's own exchange, with the cards (private to it)."""

    __slots__ = ("_discarded", "_drawn", "_round", "_seat")

    seat: int
    """Who exchanged, and the only one who sees the cards."""
    round: int
    """The exchange round, from 1; 0 for a V-REDEAL-LOW redeal."""
    discarded: tuple[Card, ...]
    """The cards it threw away."""
    drawn: tuple[Card, ...]
    """The cards it drew (empty while a face-up card waits for its answer)."""

    def __init__(
        self, seat: int, round: int, discarded: tuple[Card, ...], drawn: tuple[Card, ...],
    ) -> None:
        self._seat = seat
        self._round = round
        self._discarded = discarded
        self._drawn = drawn


class OneUp(Event, type="one_up"):
    """V-ONE-UP: the replacement card is turned face up for a seat to take or reject."""

    __slots__ = ("_card", "_seat")

    seat: int
    """Who asked for it."""
    card: Card
    """The face-up card."""

    def __init__(self, seat: int, card: Card) -> None:
        self._seat = seat
        self._card = card


class OneUpChoice(Event, type="one_up_choice"):
    """V-ONE-UP: the seat took the face-up card, or rejected it for the next one face down."""

    __slots__ = ("_accepted", "_card", "_seat")

    seat: int
    """Who decided."""
    card: Card
    """The face-up card."""
    accepted: bool
    """True if it took the card."""

    def __init__(self, seat: int, card: Card, accepted: bool) -> None:
        self._seat = seat
        self._card = card
        self._accepted = accepted


class Show(Event, type="show"):
    """A seat shows cards to everyone: its whole hand when it breaks a combination it
    announced as highest (R-EX-4), or four of a kind for a reset (V-QUADS-RESET)."""

    __slots__ = ("_cards", "_reason", "_seat")

    seat: int
    """Whose cards."""
    cards: tuple[Card, ...]
    """The cards shown."""
    reason: str
    """Why, in words: "breaks a combination announced as highest", "quads reset", "a higher
    four of a kind objects to the reset"."""


# ---------------------------------------------------------------------- scoring rounds

    def __init__(self, seat: int, cards: tuple[Card, ...], reason: str) -> None:
        self._seat = seat
        self._cards = cards
        self._reason = reason
class Pass(Event, type="pass"):
    """A seat announced nothing in a scoring round (R-ANN-1)."""

    __slots__ = ("_round", "_seat")

    seat: int
    """Who passed."""
    round: int
    """The scoring round, from 1."""

    def __init__(self, seat: int, round: int) -> None:
        self._seat = seat
        self._round = round


class Announce(Event, type="announce"):
    """A seat announced its hand's category in a scoring round (R-ANN-1, R-ANN-2)."""

    __slots__ = ("_category", "_round", "_seat")

    seat: int
    """Who announced."""
    round: int
    """The scoring round, from 1."""
    category: Category
    """The category announced: exactly the hand's."""

    def __init__(self, seat: int, round: int, category: Category) -> None:
        self._seat = seat
        self._round = round
        self._category = category


class Reveal(Event, type="reveal"):
    """One stage of the staged tie-break (R-ANN-3): a tied seat shows one rank, or (the
    last stage under V-TIE-SUIT) the suit of its highest card."""

    __slots__ = ("_rank", "_seat", "_stage", "_suit")

    seat: int
    """Whose stage."""
    stage: int
    """The stage, from 1."""
    rank: int | None
    """The rank shown (2 … 14, an ace 14 or, low in a wheel, 1): JSON as its letter
    ``"2"`` … ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
    suit: str | None
    """The suit letter shown at the V-TIE-SUIT stage (``"c"``, ``"d"``, ``"h"``, ``"s"``)."""

    def __init__(
        self, seat: int, stage: int, rank: int | None = None, suit: str | None = None,
    ) -> None:
        self._seat = seat
        self._stage = stage
        self._rank = rank
        self._suit = suit

    @property
    def rank_text(self) -> str | None:
        """The rank shown as its letter (``"T"``, ``"A"``; an ace low in a wheel ``"A"``),
        None at a suit stage."""
        rank = self._rank
        if rank is None:
            return None
        return RANKS[rank - 2] if rank >= 2 else "A"

    def to_json(self) -> JSONObject:
        out: JSONObject = {"type": "reveal", "seat": self._seat, "stage": self._stage}
        rank, suit = self.rank_text, self._suit
        if rank is not None:
            out["rank"] = rank
        if suit is not None:
            out["suit"] = suit
        return out

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Event:
        rank = data.get("rank")
        return cls(int(data["seat"]), int(data["stage"]),
                   None if rank is None else RANKS.index(rank) + 2, data.get("suit"))


class RoundResult(Event, type="round_result"):
    """The outcome of a scoring round (R-ANN-3, R-ANN-4)."""

    __slots__ = ("_category", "_points", "_reason", "_round", "_winner")

    round: int
    """The scoring round, from 1."""
    winner: int | None
    """Who won it; null when everyone passed or the best hands tied."""
    category: Category | None
    """The highest category announced; null when everyone passed."""
    points: int
    """Points the winner scores (0 for nobody, and while a four of a kind chooses)."""
    reason: str
    """In words: "best hand", "tie", "everyone passed", "four of a kind: reset the others or
    score"."""

    def __init__(
        self, round: int, winner: int | None, category: Category | None, points: int, reason: str,
    ) -> None:
        self._round = round
        self._winner = winner
        self._category = category
        self._points = points
        self._reason = reason


class Score(Event, type="score"):
    """A seat's score changes."""

    __slots__ = ("_points", "_reason", "_seat", "_total")

    seat: int
    """Whose score."""
    points: int
    """The change (negative for a failed Chicago, a reset, V-CHI-REQ3's reset)."""
    reason: str
    """Why, in words: "scoring round 1", "final showdown", "last trick", "Chicago",
    "Chicago failed", "broke the Chicago", "reset by four of a kind", "instant win",
    "reached the target without a made Chicago (V-CHI-REQ3)"."""
    total: int
    """The seat's score after the change."""


# ---------------------------------------------------------------------- four of a kind

    def __init__(self, seat: int, points: int, reason: str, total: int) -> None:
        self._seat = seat
        self._points = points
        self._reason = reason
        self._total = total
class QuadsChoice(Event, type="quads_choice"):
    """V-QUADS-RESET: the scoring round's winner with four of a kind resets or scores."""

    __slots__ = ("_reset", "_seat", "_target")

    seat: int
    """Who chose."""
    reset: bool
    """True for a reset, false for the points."""
    target: int | None
    """V-QUADS-ONE: the seat the reset lowers to zero (absent otherwise)."""

    def __init__(self, seat: int, reset: bool, target: int | None = None) -> None:
        self._seat = seat
        self._reset = reset
        self._target = target


class QuadsClaim(Event, type="quads_claim"):
    """V-QUADS-RESET after the last exchange: a seat claims a reset with four of a kind, or
    passes."""

    __slots__ = ("_reset", "_seat", "_target")

    seat: int
    """Who was asked."""
    reset: bool
    """True if it claimed a reset."""
    target: int | None
    """V-QUADS-ONE: the seat the claimed reset would lower to zero (absent otherwise)."""

    def __init__(self, seat: int, reset: bool, target: int | None = None) -> None:
        self._seat = seat
        self._reset = reset
        self._target = target


class QuadsObjection(Event, type="quads_objection"):
    """V-QUADS-RESET: a higher four of a kind (just shown) voids a lower one's reset."""

    __slots__ = ("_against", "_seat")

    seat: int
    """Who objects."""
    against: int
    """Whose reset is void."""

    def __init__(self, seat: int, against: int) -> None:
        self._seat = seat
        self._against = against


class QuadsReset(Event, type="quads_reset"):
    """V-QUADS-RESET: the reset is carried out and ends the deal."""

    __slots__ = ("_seat", "_target")

    seat: int
    """Who resets."""
    target: int | None
    """V-QUADS-ONE: the one seat lowered to zero (absent: every other seat)."""


# ---------------------------------------------------------------------- Chicago and tricks

    def __init__(self, seat: int, target: int | None = None) -> None:
        self._seat = seat
        self._target = target
class ChicagoCall(Event, type="chicago"):
    """A seat declares Chicago, a promise to take all five tricks (R-CHI-1), or does not."""

    __slots__ = ("_declared", "_seat")

    seat: int
    """Who was asked."""
    declared: bool
    """True if it declared."""

    def __init__(self, seat: int, declared: bool) -> None:
        self._seat = seat
        self._declared = declared


class Play(Event, type="play"):
    """A card played to the trick (R-TRICK-*)."""

    __slots__ = ("_card", "_seat", "_trick")

    seat: int
    """Who played."""
    card: Card
    """The card."""
    trick: int
    """The trick's number, 1 … 5."""

    def __init__(self, seat: int, card: Card, trick: int) -> None:
        self._seat = seat
        self._card = card
        self._trick = trick


class Trick(Event, type="trick"):
    """A trick is complete (R-TRICK-3)."""

    __slots__ = ("_card", "_trick", "_winner")

    trick: int
    """The trick's number, 1 … 5."""
    winner: int
    """Who took it: the highest card of the suit led."""
    card: Card
    """The card that took it."""

    def __init__(self, trick: int, winner: int, card: Card) -> None:
        self._trick = trick
        self._winner = winner
        self._card = card


class ChicagoResult(Event, type="chicago_result"):
    """The declared Chicago is made (all five tricks) or broken (R-CHI-3, R-CHI-4)."""

    __slots__ = ("_broken_by", "_made", "_seat")

    seat: int
    """The declarer."""
    made: bool
    """True if it took every trick."""
    broken_by: int | None
    """Who took a trick from it; null when made."""

    def __init__(self, seat: int, made: bool, broken_by: int | None) -> None:
        self._seat = seat
        self._made = made
        self._broken_by = broken_by


class Showdown(Event, type="showdown"):
    """The final showdown (R-FIN-1): every hand face up, the best scores."""

    __slots__ = ("_category", "_hands", "_points", "_winner")

    winner: int | None
    """The best hand's seat; null when the best hands tie exactly (nobody scores)."""
    category: Category
    """The best hand's category."""
    points: int
    """Points the winner scores (0 for nobody)."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's five cards, by seat: JSON an object of seat (as text) to cards."""

    def __init__(
        self, winner: int | None, category: Category, points: int,
        hands: tuple[tuple[Card, ...], ...],
    ) -> None:
        self._winner = winner
        self._category = category
        self._points = points
        self._hands = hands

    def to_json(self) -> JSONObject:
        text = _CARD_TEXT
        return {
            "type": "showdown", "winner": self._winner, "category": self._category.name,
            "points": self._points,
            "hands": {str(s): [text[c] for c in cards] for s, cards in enumerate(self._hands)},
        }

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Event:
        hands = data["hands"]
        ordered = [hands[key] for key in sorted(hands, key=int)]
        winner = data.get("winner")
        return cls(None if winner is None else int(winner), Category[data["category"]],
                   int(data["points"]), tuple(tuple(_card_of(c) for c in h) for h in ordered))


# ---------------------------------------------------------------------- ends
class DealEnd(Event, type="deal_end"):
    """A deal is over: the points each seat gained in it and the scores."""

    __slots__ = ("_deal", "_dealer", "_points", "_scores")

    deal: int
    """The deal's number, from 1."""
    dealer: int
    """Its dealer."""
    points: tuple[int, ...]
    """Per seat: points gained in the deal (negative if lost)."""
    scores: tuple[int, ...]
    """Per seat: the score after it."""

    def __init__(
        self, deal: int, dealer: int, points: tuple[int, ...], scores: tuple[int, ...],
    ) -> None:
        self._deal = deal
        self._dealer = dealer
        self._points = points
        self._scores = scores


class GameEnd(Event, type="game_end"):
    """The game is over (R-END-1 … R-END-3)."""

    __slots__ = ("_scores", "_settlement", "_winners")

    winners: tuple[int, ...]
    """The winning seats (several share the pot)."""
    scores: tuple[int, ...]
    """The final scores."""
    settlement: tuple[float, ...]
    """Money per seat (positive receives), at the rules' stake."""

    def __init__(
        self, winners: tuple[int, ...], scores: tuple[int, ...], settlement: tuple[float, ...],
    ) -> None:
        self._winners = winners
        self._scores = scores
        self._settlement = settlement
