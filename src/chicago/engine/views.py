"""Seat views: exactly what one player at a real table knows, as a typed value.

A view (:class:`~chicago.engine.viewtypes.SeatView`) holds the seat's own cards (and the
cards it discarded this deal), what is public (exchange counts, announcements, revealed
tie-break stages, shown hands, face-up one-up cards, played cards, scores) and nothing else:
no other hand, no stock order, no seed. The event list in a view is filtered by
:meth:`Event.visible_to`; a spectator (seat ``None``) sees only public events.
:mod:`chicago.engine.viewtypes` describes every field; its JSON form, made at the edge, is
:func:`chicago.engine.viewjson.view_json` (``docs/schema.json``).

``known_out`` lists the cards the seat knows cannot be drawn from the stock now, outside its
own hand (:func:`chicago.engine.knowledge.card_places`): in another hand (shown, a face-up
card taken), in the discard pile (its own discards, rejected face-up cards) or in one of the
two. It is what the hints count as dead; the browser shows and sends it as it is.

``chicago_declared`` and ``chicago_made`` hold one flag per seat: whether that player has
declared (made) a Chicago in any deal of this game so far. Everyone at the table saw it
happen; V-CHI-DECLARED and V-CHI-REQ3 make it decide who can win, and ``events`` covers the
current deal only.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=3)
>>> view = game.view(game.to_act)
>>> view.phase, len(view.hand), view.seat == game.to_act
(<Phase.EXCHANGE: 'exchange'>, 5, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Protocol

from chicago.cards import DECK, Card
from chicago.categories import Category
from chicago.engine.actions import Action
from chicago.engine.carried import Fold, SeatLog, SeenEvents
from chicago.engine.events import Announce, Deal, Event, Exchange, Pass, Reveal, RoundResult
from chicago.engine.knowledge import log_out_of_stock, shared_out_of_stock
from chicago.engine.native import ENGINE
from chicago.engine.phases import Phase
from chicago.engine.viewtypes import (
    Announcement,
    DealRecord,
    FaceUpCard,
    PlayedCard,
    ScoringRound,
    SeatView,
    TakenTrick,
)
from chicago.poker import category_of
from chicago.rules import Rules

__all__ = [
    "OwnPart",
    "ViewedGame",
    "hand_view",
    "known_out",
    "own_part",
    "own_part_known",
    "public_view",
    "scoring_round",
    "seat_view",
    "seat_view_from",
    "taken_tricks",
]


class ViewedGame(Protocol):
    """What a view reads of a game (the public API of :class:`~chicago.Game`)."""

    rules: Rules
    players: int
    deal_number: int
    dealer: int
    to_act: int | None
    round: int
    scores: list[int]
    locked: list[bool]
    hands: list[list[Card]]
    exchange_counts: list[list[int]]
    shown: dict[int, tuple[Card, ...]]
    one_up_card: tuple[int, Card] | None
    declarer: int | None
    trick_number: int
    trick: list[tuple[int, Card]]
    tricks: list[tuple[int, tuple[tuple[int, Card], ...]]]
    played: list[list[Card]]
    winners: list[int]

    @property
    def phase(self) -> Phase: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def stock_count(self) -> int: ...

    @property
    def discard_count(self) -> int: ...

    @property
    def deal_events(self) -> list[Event]: ...

    @property
    def deal_history(self) -> tuple[DealRecord, ...]: ...

    @property
    def chicago_declared(self) -> list[bool]: ...

    @property
    def chicago_made(self) -> list[bool]: ...

    def discarded(self, seat: int) -> Sequence[Card]: ...

    def settlement(self) -> list[float]: ...

    def legal_actions(self) -> list[Action]: ...

    def seen_by(self, seat: int | None) -> SeenEvents: ...

    def seat_log(self, seat: int | None) -> tuple[SeatLog, int]: ...


@dataclass(frozen=True, slots=True)
class OwnPart:
    """The ``own`` fields of a seat's view (its cards and choices; see
    :class:`~chicago.engine.viewtypes.SeatView`), which update frames add to the public part
    shared by every audience."""

    seat: int | None
    hand: tuple[Card, ...]
    hand_category: Category | None
    discarded: tuple[Card, ...]
    legal_actions: tuple[Action, ...]
    known_out: tuple[Card, ...]


def _check_seat(game: ViewedGame, seat: int | None) -> None:
    if seat is not None and (isinstance(seat, bool) or not 0 <= seat < game.players):
        raise ValueError(f"seat must be 0-{game.players - 1} or None, not {seat!r}")


def _visible(game: ViewedGame, seat: int | None) -> tuple[Event, ...]:
    """The deal's events ``seat`` may see, from its log (carried on from the last time)."""
    return game.seen_by(seat)


def own_part(game: ViewedGame, seat: int | None, visible: Sequence[Event] | None = None
             ) -> OwnPart:
    """The ``own`` fields of ``seat``'s view (``None``: a spectator's, without cards or
    choices); ``visible``: the deal's events the seat may see, if the caller has them."""
    _check_seat(game, seat)
    if visible is None:
        visible = _visible(game, seat)
    return own_part_known(game, seat, shared_out_of_stock(visible, seat))


def known_out(game: ViewedGame, seat: int | None) -> AbstractSet[Card]:
    """The cards ``seat`` (``None``: a spectator) knows out of the stock, folded in its log
    (:func:`own_part` leaves its own hand out of them): for a shell that writes a seat's
    own fields in another form (:func:`chicago.engine.viewjson.own_state`). The set is the
    one carried in the seat's log (until an event moves a card), to read, not to change;
    read from the log without the seat's events made into a tuple (``Game.seat_log``)."""
    _check_seat(game, seat)
    return log_out_of_stock(*game.seat_log(seat))  # the seat's events not made into a tuple


def own_part_known(game: ViewedGame, seat: int | None, out: AbstractSet[Card]) -> OwnPart:
    """:func:`own_part`, ``out`` the cards the seat knows out of the stock
    (:func:`known_out`)."""
    if seat is None:
        return OwnPart(None, (), None, (), (), tuple(sorted(out)))
    held = game.hands[seat]
    return OwnPart(
        seat=seat,
        hand=tuple(sorted(held)),
        hand_category=category_of(held, game.rules) if len(held) == 5 else None,
        discarded=tuple(game.discarded(seat)),
        legal_actions=tuple(game.legal_actions()) if game.to_act == seat else (),
        known_out=tuple(sorted(set(out).difference(held))),
    )


def seat_view(game: ViewedGame, seat: int | None) -> SeatView:
    """The view of ``seat`` (``None``: spectator) of ``game``: its :func:`public_view` with
    the seat's own fields and events put in (:func:`seat_view_from`)."""
    _check_seat(game, seat)
    return seat_view_from(public_view(game), game, seat)


def seat_view_from(public: SeatView, game: ViewedGame, seat: int | None) -> SeatView:
    """:func:`seat_view` of ``seat`` made from ``public``, the :func:`public_view` of the
    same ``game`` unchanged since: its public fields are shared, the seat's own fields and
    the events it may see put in (for a shell that builds the public view once per state
    and gives several audiences their views). Equal to ``seat_view(game, seat)``.

    For a seat of a :class:`~chicago.Game` itself the accelerator's ``own_view_of`` reads
    the seat's own fields from the game's slots when it is built and allowed (its events
    and the cards it knows out of the stock folded here as for every view); a spectator,
    anything else or a game of another shape is made by the Python code."""
    _check_seat(game, seat)
    visible = _visible(game, seat)
    out = shared_out_of_stock(visible, seat)
    if _own_of is not None and seat is not None:
        made = _own_of(public, game, seat, visible, out)
        if type(made) is SeatView:  # else NotImplemented
            return made
    own = own_part_known(game, seat, out)
    return _public_with_own(public, seat, own.hand, own.hand_category, own.discarded,
                            own.legal_actions, own.known_out, visible)


_SEAT_FIELDS = ("seat", "hand", "hand_category", "discarded", "legal_actions", "known_out",
                "events")
"""The fields of a view that :func:`seat_view_from` puts in for the seat."""


def _slot_writers() -> tuple[Callable[..., SeatView], Callable[..., SeatView]]:
    """Two makers of a :class:`SeatView` that write its slots directly (the frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``, which costs
    three times as much; a view is made for every state of a server's table): one from
    every field by keyword, one from a public view and the :data:`_SEAT_FIELDS` in order.
    Their code is made from the dataclass's fields, so none is left out."""
    names = [f.name for f in dataclasses.fields(SeatView)]
    slots = {name: SeatView.__dict__[name] for name in names}
    namespace: dict[str, Any] = {"new": object.__new__, "View": SeatView}
    namespace.update({f"set_{name}": slot.__set__ for name, slot in slots.items()})
    namespace.update({f"get_{name}": slot.__get__ for name, slot in slots.items()})
    every = [f"def make(*, {', '.join(names)}):", "    view = new(View)"]
    every += [f"    set_{name}(view, {name})" for name in names]
    own = [f"def with_own(public, {', '.join(_SEAT_FIELDS)}):", "    view = new(View)"]
    own += [f"    set_{name}(view, {name})" if name in _SEAT_FIELDS
            else f"    set_{name}(view, get_{name}(public))" for name in names]
    exec("\n".join([*every, "    return view", *own, "    return view"]), namespace)
    return namespace["make"], namespace["with_own"]


def _view_makers() -> tuple[Callable[..., SeatView], Callable[..., SeatView]]:
    """The makers of :func:`_slot_writers`, or the accelerator's ``new_view`` and
    ``view_with_own``, which write the same slots in C, when it is built and allowed
    (:data:`chicago.engine.native.ENGINE`; tests/test_accelerated_bot_path.py compares
    the views made both ways)."""
    if ENGINE is None:
        return _slot_writers()
    names = tuple(f.name for f in dataclasses.fields(SeatView))
    ENGINE.install_view(SeatView, names, _SEAT_FIELDS)
    new_view: Callable[..., SeatView] = ENGINE.new_view
    with_own: Callable[..., SeatView] = ENGINE.view_with_own
    return new_view, with_own


_new_view, _public_with_own = _view_makers()


def public_view(game: ViewedGame) -> SeatView:
    """A spectator's view of ``game`` with its ``own`` fields and its ``events`` left empty
    (``known_out`` is not worked out, nor the events a spectator may see): the public part
    of every audience's update (:func:`own_part` makes each audience's own fields, and
    :func:`seat_view_from` a seat's whole view with its events). Not a spectator's view to
    show: :func:`seat_view` is.

    For a :class:`~chicago.Game` itself the accelerator's ``public_view_of`` reads the
    game's slots when it is built and allowed (the scoring rounds folded here as for every
    view); anything else, or a game of another shape, is made by the Python code."""
    scoring = _scoring_parts(game)
    if _public_of is not None:
        made = _public_of(game, *scoring)
        if type(made) is SeatView:  # else NotImplemented
            return made
    return _public_python(game, scoring)


_ScoringParts = tuple[tuple[Announcement, ...], tuple[Reveal, ...], tuple[RoundResult, ...],
                      ScoringRound | None]
"""A view's announcements, reveals, round results and scoring round."""


def _scoring_parts(game: ViewedGame) -> _ScoringParts:
    """The view's scoring rounds: public, carried on in the spectators' log (read without
    making its events: a public view holds none)."""
    log, count = game.seat_log(None)
    return log.read(SCORING, count, _scoring_parts_of)


def _public_python(game: ViewedGame, scoring: _ScoringParts) -> SeatView:
    """:func:`public_view` made by the Python code from the game's public API, its
    scoring rounds given."""
    announcements, reveals, results, shown_round = scoring
    rules = game.rules
    one_up = game.one_up_card
    over = game.is_over
    return _new_view(
        players=game.players,
        deal=game.deal_number,
        dealer=game.dealer,
        phase=game.phase,
        round=game.round + 1,
        to_act=game.to_act,
        scores=tuple(game.scores),
        locked=tuple(game.locked),
        stock=game.stock_count,
        discard_pile=game.discard_count,
        exchanges=tuple(map(tuple, game.exchange_counts)),
        announcements=announcements,
        reveals=reveals,
        round_results=results,
        shown=dict(game.shown),
        one_up=FaceUpCard(one_up[0], one_up[1]) if one_up is not None else None,
        chicago=game.declarer,
        trick_number=game.trick_number,
        trick=tuple(_PLAYED[s][c] for s, c in game.trick),
        tricks=taken_tricks(game.tricks),
        played=tuple(map(tuple, game.played)),
        over=over,
        winners=tuple(game.winners),
        # public: every declaration and every made Chicago was seen by the whole table
        chicago_declared=tuple(game.chicago_declared),
        chicago_made=tuple(game.chicago_made),
        settlement=tuple(game.settlement()) if over else None,
        hand_sizes=tuple(map(len, game.hands)),
        scoring_round=shown_round,
        chicago_points=rules.chicago_points,
        lock_at=rules.lock_at,
        exchange_rounds=rules.exchanges,
        seat=None,  # a public view: no seat's own fields, no events
        hand=(),
        hand_category=None,
        discarded=(),
        legal_actions=(),
        known_out=(),
        rules=rules,
        events=(),
        history=game.deal_history,
    )


_PLAYED = tuple(tuple(PlayedCard(seat, card) for card in DECK) for seat in range(6))
"""Every card played by every seat, made once: views share these immutable values (a
view's current trick and its taken tricks are made for every state of a server's table)."""
_TAKEN: dict[tuple[int, tuple[tuple[int, Card], ...]], TakenTrick] = {}


def _taken_python(trick: tuple[int, tuple[tuple[int, Card], ...]]) -> TakenTrick:
    """The view of a taken trick ``(winner, plays)``, shared by the views that show it
    (:data:`_taken`: the accelerator's, made the same way, when it is built)."""
    taken = _TAKEN.get(trick)
    if taken is None:
        if len(_TAKEN) >= 4096:
            _TAKEN.clear()
        winner, plays = trick
        taken = _TAKEN[trick] = TakenTrick(winner, tuple(_PLAYED[s][c] for s, c in plays))
    return taken


def _taken_maker() -> Callable[[tuple[int, tuple[tuple[int, Card], ...]]], TakenTrick]:
    """The accelerator's ``taken`` (issue 28, twenty-sixth pass) set up with this module's
    tables, when it is built and allowed, else :func:`_taken_python`."""
    if ENGINE is None:
        return _taken_python
    ENGINE.install_taken({"TakenTrick": TakenTrick, "PLAYED": _PLAYED, "TAKEN": _TAKEN,
                          "taken": _taken_python})
    maker: Callable[[tuple[int, tuple[tuple[int, Card], ...]]], TakenTrick] = ENGINE.taken
    return maker


_taken = _taken_maker()


def taken_tricks(tricks: Iterable[tuple[int, tuple[tuple[int, Card], ...]]]
                 ) -> tuple[TakenTrick, ...]:
    """The views of a deal's taken tricks (``(winner, plays)`` each, as ``Game.tricks``
    holds them): the current deal's in a view, a finished deal's in its
    :class:`~chicago.engine.viewtypes.DealRecord`."""
    return tuple(map(_taken, tricks))


_SCORING_KINDS = frozenset({Announce, Pass, Reveal, RoundResult, Exchange, Deal})
"""The kinds of events :class:`_Scoring` reads."""
_WORDS = (Announce, Pass)
"""A scoring round's words (an announcement or a pass)."""


class _Scoring:
    """The scoring rounds of one deal's events (public ones suffice), in one pass: every
    announcement and pass, reveal and result, and where the round the table shows begins."""

    __slots__ = ("_parts", "_result", "_start", "_words", "announcements", "results",
                 "reveals")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.announcements: list[Announcement] = []
        self.reveals: list[Reveal] = []
        self.results: list[RoundResult] = []
        self._start = (0, 0)  # the shown round's first announcement and first reveal
        self._words = False  # whether a round is shown
        self._result: RoundResult | None = None
        self._parts: _ScoringParts | None = None  # the last made, until an event changes them
        self.add(events)

    def add(self, events: Iterable[Event], log: object = None) -> _Scoring:
        """Carry the rounds on over ``events``, the deal's next ones (``log``, the seat's
        log of a :class:`~chicago.engine.carried.Fold`'s advance, is not read: this method
        is :data:`SCORING`'s advance itself)."""
        announcements, reveals = self.announcements, self.reveals
        relevant = _SCORING_KINDS
        for event in events:
            if type(event) not in relevant:
                continue  # plays, draws …: no part of a scoring round
            if isinstance(event, _WORDS):  # (a tuple: ``Announce | Pass`` is made each time)
                self._parts = None
                category = event.category if isinstance(event, Announce) else None
                if not self._words or event.round != announcements[-1].round:
                    self._start, self._words, self._result = (
                        (len(announcements), len(reveals)), True, None)
                announcements.append(Announcement(event.round, event.seat, category))
            elif isinstance(event, Reveal):
                self._parts = None
                reveals.append(event)
            elif isinstance(event, RoundResult):
                self._parts = None
                self.results.append(event)
                self._result = event
            elif self._words and ((isinstance(event, Exchange) and self._result is not None)
                                  or isinstance(event, Deal)):
                self._parts = None
                self._words = False  # an exchange round has begun since (or a new deal)
        return self

    def parts(self) -> _ScoringParts:
        """A view's announcements, reveals, round results and scoring round, made once and
        shared by the views of the states until a scoring event changes them (as during a
        deal's tricks, or a bot's turns between two words of a scoring round): a view's
        values are not changed, the scoring round's dict of reveals no more than its
        tuples."""
        parts = self._parts
        if parts is None:
            parts = self._parts = (tuple(self.announcements), tuple(self.reveals),
                                   tuple(self.results), self.current())
        return parts

    def current(self) -> ScoringRound | None:
        """The scoring round the table shows: the one being played, or the last one until an
        exchange round begins after it (None when there is none)."""
        if not self._words:
            return None
        first_word, first_reveal = self._start
        words = tuple(self.announcements[first_word:])
        stages: dict[int, list[Reveal]] = {}
        for reveal in self.reveals[first_reveal:]:
            stages.setdefault(reveal.seat, []).append(reveal)
        return ScoringRound(words[0].round, words, {s: tuple(r) for s, r in stages.items()},
                            self._result)


def _public_maker() -> Callable[..., Any] | None:
    """The accelerator's ``public_view_of`` set up with this module's tables, when it is
    built and allowed (:data:`chicago.engine.native.ENGINE`), else None (the Python code
    makes every public view; tests/test_accelerated_bot_path.py compares the two)."""
    if ENGINE is None:
        return None
    ENGINE.install_public({"PLAYED": _PLAYED, "TAKEN": _TAKEN, "taken": _taken,
                           "FaceUpCard": FaceUpCard, "OVER": Phase.OVER})
    maker: Callable[..., Any] = ENGINE.public_view_of
    return maker


_public_of = _public_maker()
"""The accelerator's maker of a :class:`~chicago.Game`'s public view (a view, or
NotImplemented for what the Python code makes), or None."""
_own_of: Callable[..., Any] | None = ENGINE.own_view_of if ENGINE is not None else None
"""The accelerator's maker of a seat's view of a :class:`~chicago.Game` from its public
one (a view, or NotImplemented for what the Python code makes), or None."""


def _scoring_methods() -> tuple[Callable[..., _Scoring], Callable[[_Scoring], _ScoringParts]]:
    """The scoring rounds fold's advance and read: the accelerator's (``_Scoring.add`` and
    ``.parts`` in C, issue 28, forty-fourth pass) when it is built and allowed, else the
    Python methods."""
    if ENGINE is None:
        return _Scoring.add, _Scoring.parts
    ENGINE.install_scoring({
        "Scoring": _Scoring, "Announcement": Announcement, "add": _Scoring.add,
        "parts": _Scoring.parts, "Announce": Announce, "Pass": Pass, "Reveal": Reveal,
        "RoundResult": RoundResult, "Exchange": Exchange, "Deal": Deal})
    return ENGINE.scoring_add, ENGINE.scoring_parts


_scoring_add, _scoring_parts_of = _scoring_methods()
"""``_Scoring.add`` and ``_Scoring.parts`` (the accelerator's, or the Python methods)."""

SCORING: Fold[_Scoring] = Fold("scoring rounds", lambda log: _Scoring(), _scoring_add)
"""The scoring rounds of a deal's public events (:class:`_Scoring`), carried in the
spectators' log."""


def scoring_round(events: Iterable[Event]) -> ScoringRound | None:
    """The scoring round the table shows, from one deal's events (public ones suffice): the
    round being played, or the last one until an exchange round begins after it."""
    return _Scoring(events).current()


def hand_view(hand: Sequence[Card], rules: Rules | None = None, players: int = 4) -> SeatView:
    """The view of a hand alone, with no game behind it (a calculator's question): seat 0 of
    a ``players``-seat table whose last seat dealt, in the first exchange round of the first
    deal, every score 0 and nothing else seen; ``rules`` default to the pagat preset."""
    rules = rules if rules is not None else Rules.preset("pagat")
    cards = tuple(sorted(hand))
    nobody = (False,) * players
    return SeatView(
        players=players, deal=1, dealer=players - 1, phase=Phase.EXCHANGE, round=1, to_act=0,
        scores=(0,) * players, locked=nobody, stock=52 - 5 * players, discard_pile=0,
        exchanges=(), announcements=(), reveals=(), round_results=(), shown={}, one_up=None,
        chicago=None, trick_number=0, trick=(), tricks=(), played=((),) * players, over=False,
        winners=(), chicago_declared=nobody, chicago_made=nobody, settlement=None,
        hand_sizes=(len(cards), *(5,) * (players - 1)), scoring_round=None,
        chicago_points=rules.chicago_points, lock_at=rules.lock_at,
        exchange_rounds=rules.exchanges, seat=0,
        hand=cards, hand_category=category_of(cards, rules) if len(cards) == 5 else None,
        discarded=(), legal_actions=(), known_out=(), rules=rules, events=(), history=(),
    )
