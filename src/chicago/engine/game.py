"""The game: a pure, deterministic state machine for whole games of Chicago.

An action goes in (:meth:`Game.apply`), the state moves on and emits :class:`Event` records;
:meth:`Game.view` gives what one seat may know. No I/O, no clocks: a seed fixes every shuffle.

>>> from chicago import Game, Rules
>>> g = Game(Rules.preset("pagat"), players=4, seed=7)
>>> g.to_act is not None, len(g.legal_actions()) > 1
(True, True)
>>> g.apply(g.legal_actions()[0]) is None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Self, TypeVar

from chicago.cards import DECK, Card, cards_from_mask, parse_cards
from chicago.engine.actions import Action, ActionKind, NotationError
from chicago.engine.carried import DealMemo, SeatLog, SeenEvents
from chicago.engine.errors import IllegalAction, WorldError
from chicago.engine.events import (
    EVENT_TYPES,
    Announce,
    ChicagoCall,
    ChicagoResult,
    Deal,
    DealEnd,
    Dealt,
    Event,
    Exchange,
    Exchanged,
    GameEnd,
    OneUp,
    OneUpChoice,
    Pass,
    Play,
    QuadsChoice,
    QuadsClaim,
    QuadsObjection,
    QuadsReset,
    Redeal,
    Reshuffle,
    Reveal,
    RoundResult,
    Score,
    Show,
    Showdown,
    Trick,
)
from chicago.engine.native import ENGINE, init_only_stores
from chicago.engine.phases import Phase
from chicago.engine.records import GameRecord, game_record, replay_record
from chicago.engine.segments import between, fork, joined
from chicago.engine.settlement import settlement as settle
from chicago.engine.sources import CardSource, copy_random, shuffle
from chicago.engine.state import OWN, SHARED, copy_state
from chicago.engine.views import seat_view, taken_tricks
from chicago.engine.viewtypes import DealRecord, SeatView
from chicago.poker import Category, HandValue, category_of, evaluate
from chicago.rules import Rules, RulesError

__all__ = ["ACCELERATED", "Game", "IllegalAction", "Phase", "WorldError"]

_T = TypeVar("_T")

_K = ActionKind
_SUIT_LETTERS = "cdhs"


# number of cards that make each category's combination (R-EX-4)
_COMBINATION_SIZE = {
    Category.PAIR: 2,
    Category.TWO_PAIR: 4,
    Category.THREE_OF_A_KIND: 3,
    Category.STRAIGHT: 5,
    Category.FLUSH: 5,
    Category.FULL_HOUSE: 5,
    Category.FOUR_OF_A_KIND: 4,
    Category.STRAIGHT_FLUSH: 5,
    Category.ROYAL_FLUSH: 5,
}

_KEEP = Action(_K.DISCARD)
_PASS = Action(_K.PASS)
_ACCEPT = Action(_K.ACCEPT)
_REJECT = Action(_K.REJECT)
_REDEAL = Action(_K.REDEAL)
_CHICAGO = Action(_K.CHICAGO)
_NO_CHICAGO = Action(_K.NO_CHICAGO)
_RESET = Action(_K.RESET)
_RESET_SEAT = tuple(Action.reset(seat) for seat in range(6))
_SCORE = Action(_K.SCORE)
_PLAY = tuple(Action(_K.PLAY, (card,)) for card in DECK)
_ONE_UP = tuple(Action(_K.ONE_UP, (card,)) for card in DECK)
_ANNOUNCE = {c: Action(_K.ANNOUNCE, (), c) for c in Category if c is not Category.HIGH_CARD}
_ANNOUNCE_OR_PASS: dict[Category, tuple[Action, ...]] = {
    c: (_PASS, a) for c, a in _ANNOUNCE.items()
}
_ONLY_PASS = (_PASS,)
_CHICAGO_CHOICE = (_NO_CHICAGO, _CHICAGO)
_OVER = Phase.OVER
"""The phase of a game that has ended, read once: on Python 3.11 every ``Phase.X`` read goes
through ``EnumType.__getattr__``'s slow path (about 1,000 instructions), and
:attr:`Game.is_over` is read some 36 times a person move on the server (issue 28,
thirty-ninth pass)."""
_ONE_UP_CHOICE = (_ACCEPT, _REJECT)
_REDEAL_CHOICE = (_KEEP, _REDEAL)
_ONLY_KEEP = (_KEEP,)
_discard_action = Action._of_mask

# The 32 ways to discard from five cards, as patterns over the hand's cards in id order:
# fewest cards first, then lowest cards first. _PATTERNS_UP_TO[k]: the patterns of at most k cards.
_PATTERNS = sorted(range(32), key=lambda p: (p.bit_count(), [i for i in range(5) if p >> i & 1]))
_PATTERNS_UP_TO = tuple(tuple(p for p in _PATTERNS if p.bit_count() <= k) for k in range(6))
_new_action = tuple.__new__

_EventRecord = Annotated[tuple[Any, ...], SHARED]
"""An event not made yet: the number of its kind (:data:`_RECORD_OF`), then its fields in
order (``(_R_PLAY, 2, card, 3)``). The game keeps these and makes the :class:`Event` objects
only when :attr:`Game.events` is read, so that a search's playouts, which never read them,
do not pay for them. Their fields are immutable values (ints, cards, categories, tuples of
them), so a copy shares them; holding no class, most are plain values the garbage collector
stops watching."""
_RECORD_KINDS: tuple[type[Event], ...] = tuple(EVENT_TYPES.values())
_RECORD_OF = {kind: number for number, kind in enumerate(_RECORD_KINDS)}
_R_DEAL, _R_DEALT = _RECORD_OF[Deal], _RECORD_OF[Dealt]
_R_EXCHANGE, _R_EXCHANGED = _RECORD_OF[Exchange], _RECORD_OF[Exchanged]
_R_PLAY = _RECORD_OF[Play]


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


class Game:
    """A whole game of Chicago, from the first deal to the settlement.

    ``Game(rules, players=4, seed=7)`` picks the first dealer and every shuffle from the seed.
    ``decks=[d1, d2, …]`` stacks the decks of the first deals (52 cards each, first card dealt
    first, one at a time from the dealer's left, the stock continuing in list order); later
    deals and reshuffles come from the seed. ``dealer`` fixes the first dealer. ``source``
    is where the cards come from (:class:`~chicago.engine.sources.CardSource`; the default
    deals the stacked decks, then seeded shuffles, and draws the top card of the stock).

    Every attribute is declared below (the class has ``__slots__``), with its type; that
    declaration is what :meth:`copy` copies, so a copy is complete by construction.
    """

    # ------------------------------------------------------------------ state
    # The game, set once:
    rules: Rules
    players: int
    seed: int
    first_dealer: int
    _made_required: bool
    # where cards come from, and the seeded generator (shared by copies until one draws):
    _source: CardSource
    _rng: random.Random
    _rng_shared: bool
    # the whole game so far:
    scores: list[int]
    dealer: int
    deal_number: int
    # the log of events made, shared with copies (a copy adds to it in place while it is
    # the list's whole; see Game.events): this game's events are its first _event_count
    _events: Annotated[list[Event], SHARED]
    _event_count: int
    # events not made yet, after _events (see Game.events), shared with copies as the
    # actions are: this game's are the first _pending_count
    _pending: Annotated[list[_EventRecord], SHARED]
    _pending_count: int
    # earlier segments of the records, shared as they are (engine/segments.py), holding
    # _pending_offset records before those of _pending
    _pending_base: Annotated[tuple[object, ...], SHARED]
    _pending_offset: int
    # the actions taken, shared with copies as the events are (see Game.actions): this
    # game's actions are the first _action_count; _actions_given is the list that
    # Game.actions gave out, this game's alone (a copy starts without one)
    _action_log: Annotated[list[tuple[int, Action]], SHARED]
    _action_count: int
    # earlier segments of the actions (engine/segments.py): _action_offset actions
    _action_base: Annotated[tuple[object, ...], SHARED]
    _action_offset: int
    _actions_given: Annotated[list[tuple[int, Action]] | None, OWN]
    _legal: tuple[Action, ...] | None  # the legal actions of this turn, once asked for
    phase: Phase
    to_act: int | None
    round: int
    winners: list[int]
    _made_chicago: list[bool]
    _declared_chicago: list[bool]
    _deal_history: list[DealRecord]
    _instant_winner: int | None
    # the current deal (set anew by _reset_deal_state):
    hands: list[list[Card]]
    _stock: list[Card]
    _discards: list[Card]
    _own_discards: list[list[Card]]
    locked: list[bool]
    _order: list[int]
    _turn: int
    _highest: Category | None
    _announced: list[tuple[int, Category | None]]
    _protected: list[int]
    _categories: list[Category | None]
    _pending_one_up: tuple[Card, Card] | None
    _quads_claims: list[tuple[int, HandValue, int | None]]
    _quads_choice: tuple[int, HandValue] | None
    declarer: int | None
    trick: list[tuple[int, Card]]
    trick_number: int
    tricks: list[tuple[int, tuple[tuple[int, Card], ...]]]
    played: list[list[Card]]
    _on_game: list[bool]
    _last_trick_winner: int | None
    _deal_start_event: int
    _deal_start_scores: list[int]
    # what each seat has seen of this deal, shared with copies (engine/carried.py): a copy
    # that goes another way gets a memo of its own, so sharing it changes no game
    _memo: Annotated[DealMemo | None, SHARED]
    exchange_counts: list[list[int]]
    shown: dict[int, tuple[Card, ...]]
    one_up_card: tuple[int, Card] | None

    __slots__ = (
        "__dict__",  # subclasses (tests) may add attributes; copy() copies them too
        "__weakref__",
        "_action_base",
        "_action_count",
        "_action_log",
        "_action_offset",
        "_actions_given",
        "_announced",
        "_categories",
        "_deal_history",
        "_deal_start_event",
        "_deal_start_scores",
        "_declared_chicago",
        "_discards",
        "_event_count",
        "_events",
        "_highest",
        "_instant_winner",
        "_last_trick_winner",
        "_legal",
        "_made_chicago",
        "_made_required",
        "_memo",
        "_on_game",
        "_order",
        "_own_discards",
        "_pending",
        "_pending_base",
        "_pending_count",
        "_pending_offset",
        "_pending_one_up",
        "_protected",
        "_quads_choice",
        "_quads_claims",
        "_rng",
        "_rng_shared",
        "_source",
        "_stock",
        "_turn",
        "deal_number",
        "dealer",
        "declarer",
        "exchange_counts",
        "first_dealer",
        "hands",
        "locked",
        "one_up_card",
        "phase",
        "played",
        "players",
        "round",
        "rules",
        "scores",
        "seed",
        "shown",
        "to_act",
        "trick",
        "trick_number",
        "tricks",
        "winners",
    )

    # ------------------------------------------------------------------ construction
    def __init__(
        self,
        rules: Rules | None = None,
        players: int = 4,
        *,
        seed: int | None = None,
        decks: Sequence[Sequence[int | str]] | None = None,
        dealer: int | None = None,
        source: CardSource | None = None,
    ) -> None:
        rules = rules if rules is not None else Rules.preset("pagat")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a chicago.Rules, not {type(rules).__name__}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"players must be an int, not {players!r}")
        if not rules.min_players <= players <= rules.max_players:
            hint = " (V-LARGE: set max_players=6 for five or six)" if players in (5, 6) else ""
            raise RulesError(
                f"these rules allow {rules.min_players}-{rules.max_players} players, "
                f"not {players}{hint}",
                ("max_players",) if players > rules.max_players else ("min_players",),
            )
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, not {seed!r}")
        self.rules: Rules = rules
        self.players: int = players
        self.seed: int = seed
        self._rng = random.Random(seed)
        self._rng_shared = False  # copy() shares the generator until one side draws from it
        stacked = tuple(_check_deck(d, i) for i, d in enumerate(decks or ()))
        if source is None:
            source = CardSource(stacked)
        elif not isinstance(source, CardSource):
            raise TypeError(f"source must be a CardSource, not {type(source).__name__}")
        elif stacked:
            raise ValueError("give the stacked decks to the card source, not to the game")
        self._source = source
        drawn_dealer = self._rng.randrange(players)  # always drawn: same shuffles either way
        if dealer is None:
            dealer = drawn_dealer
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0-{players - 1}, not {dealer!r}")
        self.first_dealer: int = dealer

        n = players
        self.scores: list[int] = [0] * n
        self.dealer: int = (dealer - 1) % n  # _start_deal moves it on
        self.deal_number: int = 0
        self._events: list[Event] = []
        self._event_count: int = 0
        self._pending: list[_EventRecord] = []
        self._pending_count: int = 0
        self._pending_base: tuple[object, ...] = ()
        self._pending_offset: int = 0
        self._action_log: list[tuple[int, Action]] = []
        self._action_count: int = 0
        self._action_base: tuple[object, ...] = ()
        self._action_offset: int = 0
        self._actions_given: list[tuple[int, Action]] | None = None
        self._legal: tuple[Action, ...] | None = None
        self.phase: Phase = Phase.EXCHANGE
        self.to_act: int | None = None
        self.round: int = 0
        self.winners: list[int] = []
        self._made_chicago = [False] * n
        self._declared_chicago = [False] * n
        self._deal_history = []
        self._instant_winner: int | None = None
        # V-CHI-REQ3 holds in a three-player game (P), at any size with chicago_made_any_size
        self._made_required: bool = rules.chicago_required == "made" and (
            players == 3 or rules.chicago_made_any_size
        )
        self._reset_deal_state()
        self._start_deal()
        self._advance()

    def _reset_deal_state(self) -> None:
        n = self.players
        self.hands = [[] for _ in range(n)]
        self._stock = []  # next card last
        self._discards = []
        self._own_discards = [[] for _ in range(n)]
        self.locked = [False] * n
        self._order = []
        self._turn = 0
        self._highest: Category | None = None
        self._announced: list[tuple[int, Category | None]] = []
        self._protected = [0] * n
        self._categories: list[Category | None] = [None] * n
        self._pending_one_up = None  # (discarded, face-up card)
        self._quads_claims = []
        self._quads_choice = None
        self.declarer = None
        self.trick = []
        self.trick_number = 0
        self.tricks = []
        self.played = [[] for _ in range(n)]
        self._on_game = [False] * n
        self._last_trick_winner: int | None = None
        self._deal_start_event = self.event_count
        self._deal_start_scores = list(self.scores)
        self._memo = None
        self.exchange_counts = []
        self.shown = {}
        self.one_up_card = None

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.phase is _OVER

    @property
    def events(self) -> list[Event]:
        """Every event so far, in order (the game's log; a seat sees those it may).

        Events are made when this is read: while a game runs unobserved (a search's
        playouts) it only notes what happened. Read the list, do not change it (set a new
        one instead): a copy of the game shares it (:meth:`copy` copies no log) and adds its
        own events to it in place while the list holds no more than the copy's events, so a
        game whose copy went on takes its own part as a list of its own when it is next
        read. Reading a part of the log (:meth:`events_between`, :attr:`event_count`)
        takes nothing apart.
        """
        return self._made_events()

    @events.setter
    def events(self, events: list[Event]) -> None:
        self._events = events
        self._event_count = len(events)
        self._pending = []
        self._pending_count = 0
        self._pending_base = ()
        self._pending_offset = 0
        self._memo = None

    def _made_events(self) -> list[Event]:
        """This game's events, those not made yet made now (see :attr:`events`)."""
        events = self._events
        if len(events) != self._event_count:
            events = self._own_events()
        count = self._pending_count
        if count or self._pending_offset:
            pending = self._pending
            if self._pending_base:  # earlier segments, shared with copies
                pending = joined(self._pending_base, pending, count)
                count = len(pending)
            if _make_events is not None:  # the same in C (issue 28, forty-second pass)
                _make_events(events, pending, count)
            else:
                if len(pending) != count:  # a copy's records follow this game's
                    pending = pending[:count]
                kinds = _RECORD_KINDS
                events.extend([kinds[record[0]](*record[1:]) for record in pending])
            self._pending = []  # (a new list: a copy may share the one made into events)
            self._pending_count = 0
            self._pending_base = ()
            self._pending_offset = 0
            self._event_count = len(events)
        return events

    def _own_events(self) -> list[Event]:
        """This game's events as a list of its own, taken from the log it shares with a
        copy that added events after them (or from a list cut short in place)."""
        events = self._events = self._events[: self._event_count]
        self._event_count = len(events)
        return events

    @property
    def event_count(self) -> int:
        """The number of events so far (``len(events)``, without making the events not
        made yet)."""
        return (min(self._event_count, len(self._events)) + self._pending_offset
                + self._pending_count)

    def events_between(self, start: int, end: int | None = None) -> list[Event]:
        """``events[start:end]`` (a new list), without taking this game's events apart from
        the log it shares with its copies (see :attr:`events`)."""
        if self._pending_count or self._pending_offset or len(self._events) < self._event_count:
            self._made_events()  # taking this game's own part first if it must
        first, stop, _ = slice(start, end).indices(self._event_count)
        return self._events[first:stop]

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """Every action so far, in order, as ``(seat, action)`` pairs (the game's record).

        The list is this game's alone and grows as the game goes on (read it, do not change
        it). Inside, a game and its copies share one list of actions, each reading its own
        first part of it (so that a copy costs the same early and late in a game); the list
        given out here is made from it on its first reading, once. :attr:`action_count`
        and :meth:`actions_between` read the actions without making it.
        """
        given = self._actions_given
        if given is None:
            given = self._actions_given = joined(self._action_base, self._action_log,
                                                 self._action_count)
        return given

    @actions.setter
    def actions(self, actions: list[tuple[int, Action]]) -> None:
        self._action_log = list(actions)
        self._action_count = len(actions)
        self._action_base = ()
        self._action_offset = 0
        self._actions_given = actions

    @property
    def action_count(self) -> int:
        """The number of actions so far (``len(actions)``, without making that list)."""
        return self._action_offset + self._action_count

    def actions_between(self, start: int, end: int | None = None) -> list[tuple[int, Action]]:
        """``actions[start:end]`` (a new list), read from the actions this game shares with
        its copies (see :attr:`actions`)."""
        offset = self._action_offset
        count = self._action_count
        first, stop, _ = slice(start, end).indices(offset + count)
        if not offset:
            return self._action_log[first:stop]
        return between(self._action_base, offset, self._action_log, count, first,
                       max(first, stop))

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, and nothing else ([] when the game is over).

        They are worked out once per turn; a new list is returned on every call.
        """
        legal = self._legal
        if legal is None:
            seat = self.to_act
            if seat is None:
                return []
            legal = self._legal = self._legal_of(seat)
        return list(legal)

    _legal_actions_python = legal_actions  # kept when the accelerator takes its place

    def _legal_of(self, seat: int) -> tuple[Action, ...]:
        """The legal actions of ``seat``, the seat to act: what :meth:`apply` accepts."""
        phase = self.phase
        if phase is Phase.PLAY:
            return tuple([_PLAY[c] for c in self._playable(seat)])
        if phase is Phase.EXCHANGE:
            return self._exchange_options(seat)
        if phase is Phase.ANNOUNCE:
            category = self._category(seat)
            highest = self._highest
            if category is not Category.HIGH_CARD and (highest is None or category >= highest):
                return _ANNOUNCE_OR_PASS[category]
            return _ONLY_PASS
        if phase is Phase.CHICAGO:
            return _CHICAGO_CHOICE
        if phase is Phase.ONE_UP:
            return _ONE_UP_CHOICE
        if phase is Phase.REDEAL:
            return _REDEAL_CHOICE if self._may_redeal(seat) else _ONLY_KEEP
        if phase is Phase.QUADS:
            if self._category(seat) is Category.FOUR_OF_A_KIND:
                return (_PASS, *self._resets(seat))
            return _ONLY_PASS
        if phase is Phase.QUADS_CHOICE:
            return (_SCORE, *self._resets(seat))
        return ()

    def is_legal(self, action: Action | str) -> bool:
        """Would :meth:`apply` accept this action now?"""
        try:
            act = Action.parse(action)
        except NotationError:
            return False
        seat = self.to_act
        if seat is None:
            return False
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_of(seat)
        return act in legal

    def apply(self, action: Action | str) -> None:
        """Apply the seat-to-act's action (an :class:`Action` or its text).

        An action is legal when it is one of :meth:`legal_actions` (so one taken from that
        list is not checked again). Raises :class:`IllegalAction` with the reason, leaving
        the game exactly as before.
        """
        if type(action) is Action:
            act = action
        else:
            try:
                act = Action.parse(action)
            except NotationError as exc:
                raise IllegalAction(str(exc), action, self.to_act) from None
        seat = self.to_act
        if seat is None:
            raise IllegalAction("the game is over", act, None)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_of(seat)
        if act not in legal:
            raise IllegalAction(self._reason(seat, act, legal), act, seat)
        self._legal = None
        self._add_action((seat, act))
        self._HANDLERS[self.phase](self, seat, act)
        self._advance()

    _apply_python = apply  # kept when the accelerator takes its place

    def _add_action(self, entry: tuple[int, Action]) -> None:
        """Add ``entry`` to this game's actions: in place while the shared list holds no
        more than this game's actions, else (a copy went on first) to a list of its own
        taken from it, once (see :attr:`actions`). The same for the event records that the
        action's turn is about to add (``_pending``): a list of its own first if a copy
        added records past this game's."""
        pending = self._pending
        if len(pending) != self._pending_count:
            (self._pending, self._pending_count, self._pending_base,
             self._pending_offset) = fork(pending, self._pending_count, self._pending_base,
                                          self._pending_offset)
        actions = self._action_log
        count = self._action_count
        if len(actions) != count:
            actions, count, self._action_base, self._action_offset = fork(
                actions, count, self._action_base, self._action_offset)
            self._action_log = actions
        actions.append(entry)
        self._action_count = count + 1
        given = self._actions_given
        if given is not None:
            given.append(entry)

    def copy(self) -> Self:
        """An independent copy (for search) of the same type: same state, same future shuffles.

        Every declared attribute is copied by its declared type (see the class), so the copy
        shares nothing that either side changes: lists are new lists, the card source is
        copied, and the seeded generator is copied when one of the two first draws from it.
        The log of events made so far, the records of events not made yet and the list of
        actions are shared, not copied (their length would make every copy dearer as the
        game goes on): a game adds to them in place only past its own (else it first takes
        its own part, once), and each game reads its own first part of them
        (:attr:`events`, :attr:`actions`; the list :attr:`actions` gave out is the
        original's alone).
        """
        other = copy_state(self)
        self._rng_shared = other._rng_shared = True
        return other

    def settlement(self) -> list[float]:
        """Money per seat at the end (R-END-2/3); raises ValueError before the game is over."""
        if not self.is_over:
            raise ValueError("the game is not over yet")
        return settle(self.scores, self.rules, self.winners)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` knows (a typed :class:`~chicago.engine.viewtypes.SeatView`; its JSON
        form is :func:`~chicago.engine.viewjson.view_json`); ``None`` gives a spectator's
        (public) view."""
        return seat_view(self, seat)

    def discarded(self, seat: int) -> list[Card]:
        """The cards ``seat`` discarded this deal, in order (its own view shows them)."""
        return list(self._own_discards[seat])

    def events_for(self, seat: int | None) -> list[Event]:
        """The whole event log as ``seat`` may see it (``None``: public only)."""
        if seat is not None and (isinstance(seat, bool) or not 0 <= seat < self.players):
            raise ValueError(f"seat must be 0-{self.players - 1} or None, not {seat!r}")
        return [e for e in self.events if e.audience is None or e.audience == seat]

    def record(self) -> GameRecord:
        """A JSON-able game record that :meth:`replay` turns back into this game."""
        return game_record(self)

    @classmethod
    def replay(cls, record: Mapping[str, object]) -> Self:
        """The game of a record, action by action; a bad record raises
        :class:`~chicago.engine.errors.RecordError` naming the action."""
        return replay_record(record, cls)

    @property
    def deal_events(self) -> list[Event]:
        """The events of the current (or last) deal."""
        return self.events_between(self._deal_start_event)

    def seen_by(self, seat: int | None) -> SeenEvents:
        """The events of the current (or last) deal that ``seat`` may see (``None``: the
        public ones), in order: what its view holds, taken from the seat's log in a memo
        shared with this game's copies, which carries the facts folded from them on
        (:mod:`chicago.engine.carried`)."""
        return self._from_memo(seat, DealMemo.seen)

    def seat_log(self, seat: int | None) -> tuple[SeatLog, int]:
        """The log :meth:`seen_by` takes ``seat``'s events from, and how many of them it
        gives: for a reader of a fact folded in the log (a view's scoring rounds) that
        keeps no events, without making them."""
        return self._from_memo(seat, DealMemo.log)

    def _from_memo(self, seat: int | None,
                   ask: Callable[[DealMemo, int | None, list[Event], int, int], _T | None]
                   ) -> _T:
        """``ask`` of the memo of the current deal (one made when this game has none, or
        went another way than its memo's) about ``seat`` and the deal's events."""
        if seat is not None and (isinstance(seat, bool) or not 0 <= seat < self.players):
            raise ValueError(f"seat must be 0-{self.players - 1} or None, not {seat!r}")
        if self._pending_count or self._pending_offset or len(self._events) < self._event_count:
            self._made_events()  # (the log past this game's events is a copy's: not read)
        events = self._events
        stop = self._event_count
        start = self._deal_start_event
        first = events[start] if start < stop else None
        memo = self._memo
        found = (ask(memo, seat, events, start, stop)
                 if memo is not None and memo.first is first else None)
        if found is None:  # no memo of this deal, or this game went another way than its
            memo = self._memo = DealMemo(first, self.players, self.rules)
            found = ask(memo, seat, events, start, stop)
            assert found is not None  # a new memo takes any deal
        return found

    # kept when the accelerator's take their place (issue 28, forty-fourth pass)
    _seen_by_python = seen_by
    _seat_log_python = seat_log
    _from_memo_python = _from_memo

    @property
    def deal_history(self) -> tuple[DealRecord, ...]:
        """One record per finished deal: deal number, dealer, points gained, scores after,
        and its public card play (its taken tricks, who declared Chicago)."""
        return tuple(self._deal_history)

    @property
    def source(self) -> CardSource:
        """Where this game's cards come from (see :mod:`chicago.engine.sources`)."""
        return self._source

    @property
    def decks(self) -> tuple[tuple[Card, ...], ...]:
        """The stacked decks of the first deals (empty when every deal was shuffled)."""
        return self._source.decks

    @property
    def chicago_declared(self) -> list[bool]:
        """Per seat: has declared a Chicago in some deal of this game (V-CHI-DECLARED)."""
        return list(self._declared_chicago)

    @property
    def chicago_made(self) -> list[bool]:
        """Per seat: has made a Chicago in some deal of this game (V-CHI-REQ3)."""
        return list(self._made_chicago)

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self._stock)

    @property
    def discard_count(self) -> int:
        """Cards in the discard pile (they form the next stock if it runs out, R-EX-2).

        The card thrown for a face-up card (V-ONE-UP) counts from the moment it is thrown,
        while the answer is awaited, as every player at the table sees it go.
        """
        return len(self._discards) + (self._pending_one_up is not None)

    def hand_value(self, seat: int) -> HandValue | None:
        """The poker value of a seat's current five cards under these rules (None if not 5)."""
        hand = self.hands[seat] if self.phase is not Phase.OVER else self.played[seat]
        if len(hand) != 5:
            return None
        return evaluate(hand, self.rules)

    def _check_invariants(self) -> None:
        """Internal consistency check for tests; raises AssertionError on a broken state.

        Every one of the 52 cards is in exactly one place (a hand, the stock, the discard
        pile, the played cards, or the pending one-up pair), hand sizes fit the phase, scores
        respect the floor, and only a finished game has nobody to act.
        """
        cards = [c for hand in self.hands for c in hand]
        cards += self._stock + self._discards
        cards += [c for pile in self.played for c in pile]
        if self._pending_one_up is not None:
            cards += self._pending_one_up
        if sorted(cards) != list(DECK):
            raise AssertionError(f"cards are not accounted for: {len(cards)} cards")
        phase = self.phase
        for seat, hand in enumerate(self.hands):
            size = len(hand) + len(self.played[seat])
            expected = {5, 6} if self.rules.lock_six else {5}
            if phase is Phase.ONE_UP and seat == self.to_act:
                expected = {4}
            if size not in expected and phase is not Phase.OVER:
                raise AssertionError(f"seat {seat} holds {size} cards in {phase.value}")
        if not self.rules.negative_scores and min(self.scores) < 0:
            raise AssertionError(f"negative score {self.scores}")
        if (self.to_act is None) != (phase is Phase.OVER):
            raise AssertionError(f"to_act {self.to_act} in phase {phase.value}")

    def __repr__(self) -> str:
        return (
            f"<Game players={self.players} deal={self.deal_number} phase={self.phase.value} "
            f"to_act={self.to_act} scores={self.scores}>"
        )

    # ------------------------------------------------------------------ helpers
    def _emit(self, kind: type[Event], *fields: Any) -> None:
        """Note an event: its kind and its fields in order (see :attr:`events`)."""
        self._pending.append((_RECORD_OF[kind], *fields))
        self._pending_count += 1

    def _category(self, seat: int) -> Category:
        category = self._categories[seat]
        if category is None:
            category = category_of(self.hands[seat], self.rules)
            self._categories[seat] = category
        return category

    def _random(self) -> random.Random:
        """The game's own random generator, copied first if a copy() still shares it."""
        if self._rng_shared:
            self._rng = copy_random(self._rng)
            self._rng_shared = False
        return self._rng

    def _available(self) -> int:
        """Cards that can still be drawn now: the stock plus the discard pile (R-EX-2)."""
        return len(self._stock) + len(self._discards)

    def _draw(self, count: int, seat: int) -> list[Card]:
        """``count`` cards for ``seat`` from the stock, through the card source."""
        stock = self._stock
        if type(self._source) is CardSource and len(stock) >= count:
            # the plain flow takes the top card each time (CardSource.take), in one step
            if not count:
                return []
            drawn = stock[: -count - 1 : -1]
            del stock[-count:]
            return drawn
        drawn = []
        take = self._source.take
        for _ in range(count):
            if not self._stock:
                self._reshuffle()
            drawn.append(take(self._stock, seat))
        return drawn

    def _reshuffle(self) -> None:
        pile = self._discards
        shuffle(self._random(), pile)
        self._stock = pile
        self._discards = []
        self._source.reshuffled()
        self._emit(Reshuffle, len(pile))

    def _resets(self, seat: int) -> list[Action]:
        """The resets ``seat`` may make: of every other score, or (V-QUADS-ONE) of one."""
        if not self.rules.quads_reset_one:
            return [_RESET]
        return [_RESET_SEAT[other] for other in range(self.players) if other != seat]

    def _playable(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1] & 3
            follow = [c for c in hand if c & 3 == led]
            if follow:
                return sorted(follow)
        return sorted(hand)

    def _may_redeal(self, seat: int) -> bool:
        limit = 9 if self.rules.redeal_low == "below-ten" else 10
        return (
            not self.locked[seat]
            and self._available() >= 5
            and all(card.rank <= limit for card in self.hands[seat])
        )

    def _chicago_eligible(self, seat: int) -> bool:
        minimum = self.rules.chicago_min_score
        return minimum is None or self.scores[seat] >= minimum

    def _lock_six_pending(self, seat: int) -> bool:
        return self.locked[seat] and len(self.hands[seat]) == 6

    def _exchange_options(self, seat: int) -> tuple[Action, ...]:
        hand = sorted(self.hands[seat])
        if self._lock_six_pending(seat):
            return tuple([_discard_action(_K.DISCARD, 1 << c) for c in hand])
        available = len(self._stock) + len(self._discards)
        limit = min(self.rules.max_discard, available, len(hand))
        b0, b1, b2, b3, b4 = [1 << c for c in hand]
        # the card mask of every pattern (bit i of a pattern = the hand's i-th card)
        masks = (
            0, b0, b1, b0 | b1, b2, b0 | b2, b1 | b2, b0 | b1 | b2,
            b3, b0 | b3, b1 | b3, b0 | b1 | b3, b2 | b3, b0 | b2 | b3, b1 | b2 | b3,
            b0 | b1 | b2 | b3,
            b4, b0 | b4, b1 | b4, b0 | b1 | b4, b2 | b4, b0 | b2 | b4, b1 | b2 | b4,
            b0 | b1 | b2 | b4, b3 | b4, b0 | b3 | b4, b1 | b3 | b4, b0 | b1 | b3 | b4,
            b2 | b3 | b4, b0 | b2 | b3 | b4, b1 | b2 | b3 | b4, b0 | b1 | b2 | b3 | b4,
        )
        new, discard = _new_action, _K.DISCARD
        options = [new(Action, (discard, masks[p], None, None)) for p in _PATTERNS_UP_TO[limit]]
        if self.rules.one_up and limit >= 1 and available >= 2:
            options.extend([_ONE_UP[c] for c in hand])
        return tuple(options)

    # ------------------------------------------------------------------ legality
    def _reason(self, seat: int, act: Action, legal: tuple[Action, ...]) -> str:
        """Why ``act`` is not among ``legal``, the legal actions of ``seat``, in words."""
        reason = self._why_illegal(seat, act)
        if reason is None:  # the explanations miss a case: name what is legal instead
            reason = f"{act} is not legal now; legal: " + ", ".join(map(str, legal))
        return reason

    def _why_illegal(self, seat: int, act: Action) -> str | None:
        phase = self.phase
        kind = act.kind
        expected = _PHASE_KINDS[phase]
        if kind not in expected:
            words = " or ".join(sorted({k.value for k in expected}))
            return f"it is {self._phase_words()}: seat {seat} may {words}, not {act}"
        hand = self.hands[seat]
        if kind is _K.PLAY:
            card = act.card
            if card not in hand:
                return f"you do not hold {card}"
            trick = self.trick
            if (
                trick
                and card & 3 != (suit := trick[0][1] & 3)
                and any(c & 3 == suit for c in hand)
            ):
                led = trick[0][1]
                return f"you must follow suit ({led.suit_letter}) with one of " + " ".join(
                    map(str, self._playable(seat))
                )
            return None
        if kind is _K.DISCARD:
            mask = act[1]
            if phase is Phase.REDEAL and mask:
                return "before the exchanges you may keep your hand or redeal it (V-REDEAL-LOW)"
            if mask:
                for c in hand:
                    mask &= ~(1 << c)
                if mask:
                    return f"you do not hold {' '.join(map(str, cards_from_mask(mask)))}"
            count = act[1].bit_count()
            if self._lock_six_pending(seat):
                if count != 1:
                    return "you were dealt six cards (V-LOCK-6): discard exactly one"
                return None
            if count > self.rules.max_discard:
                return f"at most {self.rules.max_discard} cards may be discarded (max_discard)"
            if count > self._available():
                return (
                    f"only {self._available()} cards are left to draw from (R-EX-2): "
                    f"discard at most that many"
                )
            return None
        if kind is _K.ONE_UP:
            if not self.rules.one_up:
                return "one up is not played under these rules (V-ONE-UP)"
            if self._lock_six_pending(seat):
                return "you were dealt six cards (V-LOCK-6): discard one, no one up"
            if act.card not in hand:
                return f"you do not hold {act.card}"
            if self.rules.max_discard < 1 or self._available() < 2:
                return "too few cards are left to draw for one up"
            return None
        if kind is _K.ANNOUNCE:
            category = self._category(seat)
            assert act.category is not None
            if act.category != category:
                return (
                    f"your hand is {category.text}, not {act.category.text}: announce exactly "
                    f"what the hand is (R-ANN-1, R-ANN-2)"
                )
            if self._highest is not None and category < self._highest:
                return f"{self._highest.text} has been announced: announce that or higher, or pass"
            return None
        if kind is _K.REDEAL and not self._may_redeal(seat):
            return "only a hand of five low cards may be redealt (V-REDEAL-LOW)"
        if kind is _K.RESET:
            if phase is Phase.QUADS and self._category(seat) is not Category.FOUR_OF_A_KIND:
                return "only four of a kind may reset the scores (V-QUADS-RESET)"
            target = act.target
            if self.rules.quads_reset_one:
                if target is None:
                    return ("the reset lowers one player of your choice (V-QUADS-ONE): name the "
                            "seat, e.g. 'reset 2'")
                if target == seat or target >= self.players:
                    others = [s for s in range(self.players) if s != seat]
                    return (f"reset lowers another player: one of seats "
                            f"{', '.join(map(str, others))}, not {target}")
            elif target is not None:
                return "a reset lowers every other player here (V-QUADS-RESET): say 'reset'"
        return None

    def _phase_words(self) -> str:
        if self.phase in (Phase.EXCHANGE, Phase.ANNOUNCE):
            return f"{self.phase.value} round {self.round + 1}"
        if self.phase is Phase.PLAY:
            return f"trick {self.trick_number}"
        return f"the {self.phase.value} phase"

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Run automatic steps until a seat must decide or the game is over."""
        while True:
            phase = self.phase
            turn = self._turn
            order = self._order
            if turn < len(order) and (phase is Phase.PLAY or phase is Phase.ANNOUNCE):
                self.to_act = order[turn]  # everyone plays and announces
                return
            if phase is Phase.OVER:
                self.to_act = None
                return
            if phase is Phase.ONE_UP or phase is Phase.QUADS_CHOICE:
                return  # to_act was set by the step that opened it
            if turn >= len(order):
                self._end_of_turns()
                continue
            seat = order[turn]
            if self._needs_decision(seat):
                self.to_act = seat
                return
            self._skip(seat)
            self._turn += 1

    def _needs_decision(self, seat: int) -> bool:
        phase = self.phase
        if phase is Phase.EXCHANGE or phase is Phase.REDEAL:
            return not self.locked[seat] or (
                phase is Phase.EXCHANGE and self._lock_six_pending(seat)
            )
        if phase is Phase.CHICAGO:
            return self.declarer is None and self._chicago_eligible(seat)
        return True

    def _skip(self, seat: int) -> None:
        if self.phase is Phase.EXCHANGE:
            self.exchange_counts[self.round][seat] = 0
            self._emit(Exchange, seat, self.round + 1, 0, 0, True)

    def _start_turns(self, phase: Phase, first: int | None = None) -> None:
        n = self.players
        start = (self.dealer + 1) % n if first is None else first
        self.phase = phase
        self._order = [(start + i) % n for i in range(n)]
        self._turn = 0

    def _end_of_turns(self) -> None:
        phase = self.phase
        if phase is Phase.REDEAL:
            self._begin_exchange(0)
        elif phase is Phase.EXCHANGE:
            if self.round < self.rules.exchanges - 1:
                self._begin_announce()
            else:
                self._after_last_exchange()
        elif phase is Phase.ANNOUNCE:
            self._resolve_announcements()
        elif phase is Phase.QUADS:
            self._resolve_quads_round()
        elif phase is Phase.CHICAGO:
            self._begin_play()
        elif phase is Phase.PLAY:
            self._resolve_trick()

    # ------------------------------------------------------------------ deals
    def _start_deal(self) -> None:
        rules = self.rules
        n = self.players
        self.deal_number += 1
        self.dealer = (self.dealer + 1) % n
        self._reset_deal_state()
        deck = self._source.deck(self.deal_number - 1, self._random)
        if rules.lock_at is not None:
            self.locked = [score >= rules.lock_at for score in self.scores]
        if rules.win_again:
            self._on_game = [score >= rules.target for score in self.scores]
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        hands = self.hands
        if type(self._source) is CardSource and not rules.lock_six:
            # the plain flow deals the top card each time: card i goes to order[i % n]
            dealt = 5 * n
            for index, seat in enumerate(order):
                hands[seat] = deck[index:dealt:n]
            deck = deck[:dealt - 1:-1]  # the stock: next card last
            self._stock = deck
        else:
            deck.reverse()  # the stock: next card last
            self._stock = deck
            take = self._source.take
            for _ in range(5):
                for seat in order:
                    hands[seat].append(take(deck, seat))
            if rules.lock_six:
                for seat in order:
                    if self.locked[seat]:
                        hands[seat].append(take(deck, seat))
        self._source.dealt(deck, order)
        pending = self._pending
        pending.append((_R_DEAL, self.deal_number, self.dealer, tuple(self.scores),
                        tuple(self.locked)))
        for seat in order:
            pending.append((_R_DEALT, seat, tuple(hands[seat])))
        self._pending_count += 1 + len(order)
        if rules.redeal_low != "off":
            self._start_turns(Phase.REDEAL)
        else:
            self._begin_exchange(0)

    _start_deal_python = _start_deal  # kept when the accelerator takes its place

    def _begin_exchange(self, round_index: int) -> None:
        self.round = round_index
        self.exchange_counts.append([0] * self.players)
        self._start_turns(Phase.EXCHANGE)

    def _begin_announce(self) -> None:
        self._highest = None
        self._announced = []
        self._start_turns(Phase.ANNOUNCE)

    def _after_last_exchange(self) -> None:
        if self.rules.quads_reset:
            self._quads_claims = []
            self._start_turns(Phase.QUADS)
        else:
            self._begin_chicago()

    def _begin_chicago(self) -> None:
        if self.rules.chicago_enabled:
            self._start_turns(Phase.CHICAGO)
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        if self.declarer is not None and self.rules.chicago_caller_leads:
            leader = self.declarer
        else:
            leader = (self.dealer + 1) % self.players
        self.trick_number = 1
        self.trick = []
        self._start_turns(Phase.PLAY, leader)

    def _end_deal(self) -> None:
        gained = [s - b for s, b in zip(self.scores, self._deal_start_scores, strict=True)]
        summary = DealRecord(self.deal_number, self.dealer, tuple(gained), tuple(self.scores),
                             taken_tricks(self.tricks), self.declarer)
        self._deal_history.append(summary)
        self._emit(DealEnd, summary.deal, summary.dealer, summary.points, summary.scores)
        winners = self._game_winners()
        if winners:
            self.winners = winners
            self.phase = Phase.OVER
            self.to_act = None
            self._emit(
                GameEnd, tuple(winners), tuple(self.scores),
                tuple(settle(self.scores, self.rules, winners)),
            )
            return
        self._start_deal()

    def _game_winners(self) -> list[int]:
        rules = self.rules
        if self._instant_winner is not None:
            return [self._instant_winner]
        eligible = [s for s in range(self.players) if self.scores[s] >= rules.target]
        if rules.chicago_required == "declared":
            eligible = [s for s in eligible if self._declared_chicago[s]]
        elif self._made_required:
            eligible = [s for s in eligible if self._made_chicago[s]]
        if rules.win_again:
            eligible = [s for s in eligible if self._on_game[s] and self._last_trick_winner == s]
        if not eligible and rules.max_deals is not None and self.deal_number >= rules.max_deals:
            eligible = list(range(self.players))
        if not eligible:
            return []
        best = max(self.scores[s] for s in eligible)
        return [s for s in eligible if self.scores[s] == best]

    # ------------------------------------------------------------------ scoring
    def _add_score(self, seat: int, points: int, reason: str, *, instant: bool = False) -> None:
        rules = self.rules
        total = self.scores[seat] + points
        if total < 0 and not rules.negative_scores:
            total = 0
        self.scores[seat] = total
        self._emit(Score, seat, points, reason, total)
        if (
            self._made_required
            and not instant
            and total >= rules.target
            and not self._made_chicago[seat]
        ):
            self.scores[seat] = 0
            self._emit(
                Score, seat, -total, "reached the target without a made Chicago (V-CHI-REQ3)", 0
            )

    def _hand_points(self, seat: int, category: Category) -> int:
        """What a winning hand of ``category`` scores for ``seat`` (R-HAND-1): its points, or
        under V-QUADS-52 for four of a kind what raises the score to the target, if more."""
        rules = self.rules
        points = rules.points_for(category)
        if category is Category.FOUR_OF_A_KIND and rules.quads_to_target:
            return max(points, rules.target - self.scores[seat])
        return points

    def _score_hand(self, seat: int, value: HandValue, reason: str) -> bool:
        """Score a winning hand; return True if that ended the game (V-SF-WIN, V-ROYAL)."""
        rules = self.rules
        category = value.category
        instant = (
            rules.straight_flush_wins
            and category in (Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
        ) or (rules.royal_wins and category is Category.ROYAL_FLUSH)
        # An instant win ends the game even without a made Chicago (V-CHI-REQ3 does not reset it).
        self._add_score(seat, self._hand_points(seat, category), reason, instant=instant)
        if instant:
            if rules.instant_win_score == "target" and self.scores[seat] < rules.target:
                self._add_score(
                    seat, rules.target - self.scores[seat], "instant win", instant=True
                )
            self._instant_winner = seat
            self._end_deal()
            return True
        return False

    def _tiebreak(
        self, seats: list[int], values: dict[int, HandValue]
    ) -> int | None:
        """R-ANN-3: reveal ranks stage by stage among the tied seats; the one left wins."""
        if len(seats) == 1:
            return seats[0]
        if self.rules.tie_mode == "category":
            return None
        remaining = list(seats)
        stages = {s: values[s].reveal_stages() for s in seats}
        depth = len(stages[seats[0]])
        for index in range(depth):
            for s in remaining:
                rank = stages[s][index]
                self._emit(Reveal, s, index + 1, rank)
            best = max(stages[s][index] for s in remaining)
            remaining = [s for s in remaining if stages[s][index] == best]
            if len(remaining) == 1:
                return remaining[0]
        if self.rules.suit_order is not None:
            for s in remaining:
                suit_rank = values[s].suit_rank or 0
                letter = self.rules.suit_order[3 - suit_rank]
                self._emit(Reveal, s, depth + 1, None, letter)
            best = max(values[s].suit_rank or 0 for s in remaining)
            remaining = [s for s in remaining if (values[s].suit_rank or 0) == best]
            if len(remaining) == 1:
                return remaining[0]
        return None

    def _resolve_announcements(self) -> None:
        round_number = self.round + 1
        claims = [(s, c) for s, c in self._announced if c is not None]
        if not claims:
            self._emit(RoundResult, round_number, None, None, 0, "everyone passed")
            self._begin_exchange(self.round + 1)
            return
        top = max(c for _, c in claims)
        tied = [s for s, c in claims if c == top]
        values = {s: evaluate(self.hands[s], self.rules) for s in tied}
        for s in tied:
            if values[s].category is not top:
                raise WorldError(
                    f"seat {s} announced {top.text} but holds {values[s].category.text}: "
                    "these hands do not fit the announcements (R-ANN-1)",
                    s,
                )
        if self.rules.show_on_break:
            size = _COMBINATION_SIZE[top]
            for s in tied:
                self._protected[s] |= _mask(values[s].cards[:size])
        winner = self._tiebreak(tied, values)
        if winner is None:
            self._emit(RoundResult, round_number, None, top, 0, "tie")
            self._begin_exchange(self.round + 1)
            return
        points = self._hand_points(winner, top)
        if top is Category.FOUR_OF_A_KIND and self.rules.quads_reset:
            self._emit(
                RoundResult, round_number, winner, top, 0,
                "four of a kind: reset the others or score",
            )
            self._quads_choice = (winner, values[winner])
            self.phase = Phase.QUADS_CHOICE
            self.to_act = winner
            return
        self._emit(RoundResult, round_number, winner, top, points, "best hand")
        if self._score_hand(winner, values[winner], f"scoring round {round_number}"):
            return
        if top is Category.FOUR_OF_A_KIND and self.rules.quads_end_deal:
            self._end_deal()
            return
        self._begin_exchange(self.round + 1)

    _resolve_announcements_python = _resolve_announcements  # kept when the accelerator's is on

    def _resolve_quads_round(self) -> None:
        if self._quads_claims:
            for claimer, value, _ in self._quads_claims:
                if value.category is not Category.FOUR_OF_A_KIND:
                    raise WorldError(
                        f"seat {claimer} claimed a reset with {value.category.text}, not four "
                        "of a kind: these hands do not fit the claims",
                        claimer,
                    )
            seat, _, target = max(self._quads_claims, key=lambda claim: claim[1])
            if not self._quads_objection(seat):
                self._quads_reset(seat, target)
                return
        self._begin_chicago()

    def _higher_quads(self, seat: int) -> int | None:
        """The holder of the highest four of a kind above ``seat``'s, if anyone holds one."""
        rules = self.rules
        mine = evaluate(self.hands[seat], rules).ranks[0]
        best: tuple[int, int] | None = None
        for other in range(self.players):
            if other == seat:
                continue
            value = evaluate(self.hands[other], rules)
            rank = value.ranks[0]
            if (
                value.category is Category.FOUR_OF_A_KIND
                and rank > mine
                and (best is None or rank > best[0])
            ):
                best = (rank, other)
        return None if best is None else best[1]

    def _quads_objection(self, seat: int) -> bool:
        """V-QUADS-RESET: only the highest four of a kind may reset. If a higher one is held,
        its holder objects: those four cards are shown to everyone and the reset of
        ``seat`` is void. Return True if the reset was void."""
        objector = self._higher_quads(seat)
        if objector is None:
            return False
        quads = list(evaluate(self.hands[objector], self.rules).cards[:4])
        self.shown[objector] = tuple(quads)
        self._emit(Show, objector, tuple(quads), "a higher four of a kind objects to the reset")
        self._emit(QuadsObjection, objector, seat)
        return True

    def _quads_reset(self, seat: int, target: int | None) -> None:
        """V-QUADS-RESET: ``seat`` shows its four of a kind and lowers every other score to
        zero, or (V-QUADS-ONE) only ``target``'s; the deal ends."""
        value = evaluate(self.hands[seat], self.rules)
        quads = list(value.cards[:4])
        self.shown[seat] = tuple(quads)
        self._emit(Show, seat, tuple(quads), "quads reset")
        self._emit(QuadsReset, seat, target)
        for other in range(self.players) if target is None else (target,):
            if other != seat and self.scores[other] != 0:
                self._add_score(other, -self.scores[other], "reset by four of a kind")
        self._end_deal()

    def _resolve_trick(self) -> None:
        trick = self.trick
        winner, card = trick[0]
        led = card & 3
        for seat, other in trick:
            if other > card and other & 3 == led:
                winner, card = seat, other
        self.tricks.append((winner, tuple(trick)))
        self._emit(Trick, self.trick_number, winner, card)
        rules = self.rules
        declarer = self.declarer
        if declarer is not None and winner != declarer:
            self._emit(ChicagoResult, declarer, False, winner)
            self._add_score(declarer, -rules.chicago_points, "Chicago failed")
            if rules.chicago_breaker_points:
                self._add_score(winner, rules.chicago_breaker_points, "broke the Chicago")
            self._end_deal()
            return
        if self.trick_number < 5:
            self.trick_number += 1
            self.trick = []
            self._start_turns(Phase.PLAY, winner)
            return
        deuce = rules.deuce_bonus and card.rank == 2
        self._last_trick_winner = winner
        if declarer is not None:
            self._made_chicago[declarer] = True
            self._emit(ChicagoResult, declarer, True, None)
            points = rules.deuce_chicago_points if deuce else rules.chicago_points
            self._add_score(declarer, points, "Chicago")
            if not rules.chicago_final_showdown:
                self._end_deal()
                return
        else:
            points = 2 * rules.last_trick_points if deuce else rules.last_trick_points
            self._add_score(winner, points, "last trick")
        self._final_showdown()

    _resolve_trick_python = _resolve_trick  # kept when the accelerator's is on

    def _final_showdown(self) -> None:
        """R-FIN-1: every hand is face up; the best scores, exact ties score nothing."""
        values = {s: evaluate(self.played[s], self.rules) for s in range(self.players)}
        top = max(values.values())
        if self.rules.tie_mode == "category":
            best_category = top.category
            leaders = [s for s, v in values.items() if v.category == best_category]
        else:
            leaders = [s for s, v in values.items() if v == top]
        winner = leaders[0] if len(leaders) == 1 else None
        category = top.category
        points = self._hand_points(winner, category) if winner is not None else 0
        self._emit(
            Showdown, winner, category, points,
            tuple(tuple(values[s].cards) for s in range(self.players)),
        )
        if (
            winner is not None
            and points > 0
            and self._score_hand(winner, values[winner], "final showdown")
        ):
            return
        self._end_deal()

    # ------------------------------------------------------------------ handlers
    def _on_exchange(self, seat: int, act: Action) -> None:
        if act[0] is _K.ONE_UP:
            self._on_one_up_request(seat, act.card)
            return
        hand = self.hands[seat]
        cards = act.cards
        if self._lock_six_pending(seat):
            hand.remove(cards[0])
            self._discards.append(cards[0])
            self._own_discards[seat].append(cards[0])
            self._categories[seat] = None
            self.exchange_counts[self.round][seat] = 1
            self._emit(Exchange, seat, self.round + 1, 1, 0, True)
            self._emit(Exchanged, seat, self.round + 1, tuple(cards), ())
            self._turn += 1
            return
        mask = act[1]
        round_number = self.round + 1
        count = len(cards)
        if mask:
            if self._protected[seat] & mask:
                self._show_if_breaking(seat, mask)
            hand[:] = [c for c in hand if not mask >> c & 1]
            drawn = self._draw(count, seat)
            hand.extend(drawn)
            self._discards.extend(cards)
            self._own_discards[seat].extend(cards)
            self._categories[seat] = None
            pending = self._pending
            pending.append((_R_EXCHANGE, seat, round_number, count, count))
            pending.append((_R_EXCHANGED, seat, round_number, cards, tuple(drawn)))
            self._pending_count += 2
        else:
            self._pending.append((_R_EXCHANGE, seat, round_number, 0, 0))
            self._pending_count += 1
        self.exchange_counts[self.round][seat] = count
        self._turn += 1

    def _show_if_breaking(self, seat: int, discard_mask: int) -> None:
        """R-EX-4: breaking an earlier highest combination shows the whole hand first."""
        if self.rules.show_on_break and self._protected[seat] & discard_mask:
            self._protected[seat] &= ~discard_mask
            hand = sorted(self.hands[seat])
            self.shown[seat] = tuple(hand)
            self._emit(Show, seat, tuple(hand), "breaks a combination announced as highest")

    def _on_one_up_request(self, seat: int, card: Card) -> None:
        self._show_if_breaking(seat, 1 << card)
        self.hands[seat].remove(card)
        self._own_discards[seat].append(card)
        self._categories[seat] = None
        face_up = self._draw(1, seat)[0]
        self._pending_one_up = (card, face_up)
        self.one_up_card = (seat, face_up)
        self.exchange_counts[self.round][seat] = 1
        self._emit(Exchange, seat, self.round + 1, 1, 1, False, True)
        self._emit(Exchanged, seat, self.round + 1, (card,), ())
        self._emit(OneUp, seat, face_up)
        self.phase = Phase.ONE_UP
        self.to_act = seat

    def _on_one_up_choice(self, seat: int, act: Action) -> None:
        assert self._pending_one_up is not None
        discarded, face_up = self._pending_one_up
        if act.kind is _K.ACCEPT:
            self.hands[seat].append(face_up)
            self._discards.append(discarded)
            self._emit(OneUpChoice, seat, face_up, True)
        else:
            drawn = self._draw(1, seat)[0]
            self.hands[seat].append(drawn)
            self._discards.extend((discarded, face_up))
            self._emit(OneUpChoice, seat, face_up, False)
            self._emit(Exchanged, seat, self.round + 1, (), (drawn,))
        self._pending_one_up = None
        self.one_up_card = None
        self._categories[seat] = None
        self.phase = Phase.EXCHANGE
        self._turn += 1

    def _on_redeal(self, seat: int, act: Action) -> None:
        if act.kind is _K.REDEAL:
            hand = self.hands[seat]
            old = list(hand)
            drawn = self._draw(5, seat)
            self._discards.extend(old)
            self._own_discards[seat].extend(old)
            hand[:] = drawn
            self._categories[seat] = None
            self._emit(Redeal, seat, True)
            self._emit(Exchanged, seat, 0, tuple(old), tuple(drawn))
        else:
            self._emit(Redeal, seat, False)
        self._turn += 1

    def _on_announce(self, seat: int, act: Action) -> None:
        round_number = self.round + 1
        if act.kind is _K.PASS:
            self._announced.append((seat, None))
            self._emit(Pass, seat, round_number)
        else:
            assert act.category is not None
            self._announced.append((seat, act.category))
            self._highest = act.category
            self._emit(Announce, seat, round_number, act.category)
        self._turn += 1

    def _on_quads_choice(self, seat: int, act: Action) -> None:
        assert self._quads_choice is not None
        _, value = self._quads_choice
        self._quads_choice = None
        self._emit(QuadsChoice, seat, act.kind is _K.RESET, act.target)
        if act.kind is _K.RESET and not self._quads_objection(seat):
            self._quads_reset(seat, act.target)
            return
        # scored, or a void reset (a higher four of a kind objected): the winner scores
        if self._score_hand(seat, value, f"scoring round {self.round + 1}"):
            return
        if self.rules.quads_end_deal:
            self._end_deal()
            return
        self._begin_exchange(self.round + 1)

    def _on_quads_round(self, seat: int, act: Action) -> None:
        if act.kind is _K.RESET:
            value = evaluate(self.hands[seat], self.rules)
            self._quads_claims.append((seat, value, act.target))
            self._emit(QuadsClaim, seat, True, act.target)
        else:
            self._emit(QuadsClaim, seat, False)
        self._turn += 1

    def _on_chicago(self, seat: int, act: Action) -> None:
        if act.kind is _K.CHICAGO:
            self.declarer = seat
            self._declared_chicago[seat] = True
            self._emit(ChicagoCall, seat, True)
            self._turn = len(self._order)
        else:
            self._emit(ChicagoCall, seat, False)
            self._turn += 1

    def _on_play(self, seat: int, act: Action) -> None:
        card = DECK[act[1].bit_length() - 1]
        self.hands[seat].remove(card)
        self.played[seat].append(card)
        self.trick.append((seat, card))
        self._pending.append((_R_PLAY, seat, card, self.trick_number))
        self._pending_count += 1
        self._turn += 1

    _HANDLERS: ClassVar[dict[Phase, Callable[[Game, int, Action], None]]] = {
        Phase.EXCHANGE: _on_exchange,
        Phase.ONE_UP: _on_one_up_choice,
        Phase.REDEAL: _on_redeal,
        Phase.ANNOUNCE: _on_announce,
        Phase.QUADS_CHOICE: _on_quads_choice,
        Phase.QUADS: _on_quads_round,
        Phase.CHICAGO: _on_chicago,
        Phase.PLAY: _on_play,
    }


_PHASE_KINDS: dict[Phase, frozenset[ActionKind]] = {
    Phase.REDEAL: frozenset({_K.REDEAL, _K.DISCARD}),
    Phase.EXCHANGE: frozenset({_K.DISCARD, _K.ONE_UP}),
    Phase.ONE_UP: frozenset({_K.ACCEPT, _K.REJECT}),
    Phase.ANNOUNCE: frozenset({_K.ANNOUNCE, _K.PASS}),
    Phase.QUADS_CHOICE: frozenset({_K.RESET, _K.SCORE}),
    Phase.QUADS: frozenset({_K.RESET, _K.PASS}),
    Phase.CHICAGO: frozenset({_K.CHICAGO, _K.NO_CHICAGO}),
    Phase.PLAY: frozenset({_K.PLAY}),
    Phase.OVER: frozenset(),
}


def _check_deck(deck: Sequence[int | str], index: int) -> tuple[Card, ...]:
    try:
        cards = parse_cards([c if isinstance(c, str) else int(c) for c in deck])
    except ValueError as exc:
        raise ValueError(f"deck {index}: {exc}") from None
    if len(cards) != 52:
        raise ValueError(f"deck {index} has {len(cards)} cards, not 52")
    return cards


ACCELERATED_METHODS: tuple[tuple[str, str], ...] = (
    ("legal_actions", "_legal_actions_python"),
    ("apply", "_apply_python"),
    ("_start_deal", "_start_deal_python"),
    ("_resolve_announcements", "_resolve_announcements_python"),
    ("_resolve_trick", "_resolve_trick_python"),
    ("seen_by", "_seen_by_python"),
    ("seat_log", "_seat_log_python"),
    ("_from_memo", "_from_memo_python"),
)
"""The methods of :class:`Game` the C accelerator puts in place, each with the name of its
pure-Python twin kept on ``Game``: an all-Python game class takes every twin from this list
(tests/engine_helpers.py ``PureGame``). A new C method with a twin is added here
(tests/test_engine_twins.py fails while one is left out)."""


def _install_accelerator() -> bool:
    """Put the C accelerator's ``legal_actions`` and ``apply`` on :class:`Game` if it is
    there (:data:`chicago.engine.native.ENGINE`).

    They do the common turns in C and call the Python methods for the rest, so a game is the
    same either way (tests/test_engine_accelerator.py); ``Game._apply_python`` and
    ``Game._legal_actions_python`` stay the pure-Python methods.
    """
    if ENGINE is None:
        return False
    ENGINE.install(Game, {
        "Action": Action, "CardSource": CardSource, "DECK": DECK,
        "PLAY": Phase.PLAY, "EXCHANGE": Phase.EXCHANGE, "ANNOUNCE": Phase.ANNOUNCE,
        "CHICAGO": Phase.CHICAGO, "ONE_UP": Phase.ONE_UP,
        "K_DISCARD": _K.DISCARD, "K_PASS": _K.PASS, "K_NO_CHICAGO": _K.NO_CHICAGO,
        "ChicagoCall": _RECORD_OF[ChicagoCall],
        "PLAY_ACTIONS": _PLAY, "ONE_UP_ACTIONS": _ONE_UP, "PATTERNS": tuple(_PATTERNS),
        "CHICAGO_CHOICE": _CHICAGO_CHOICE, "ONE_UP_CHOICE": _ONE_UP_CHOICE,
        "Play": _R_PLAY, "Exchange": _R_EXCHANGE, "Exchanged": _R_EXCHANGED,
        "Pass": _RECORD_OF[Pass], "Announce": _RECORD_OF[Announce], "Trick": _RECORD_OF[Trick],
        "handlers": Game._HANDLERS, "apply": Game._apply_python, "legal_of": Game._legal_of,
        "advance": Game._advance, "category_of": category_of, "ONLY_PASS": _ONLY_PASS,
        "start_deal": Game._start_deal_python, "Deal": _R_DEAL, "Dealt": _R_DEALT,
        "ANNOUNCE_OR_PASS": tuple(_ANNOUNCE_OR_PASS.get(c) for c in Category),
        "resolve_announcements": Game._resolve_announcements_python, "evaluate": evaluate,
        "COMBINATION_SIZE": _COMBINATION_SIZE, "RoundResult": _RECORD_OF[RoundResult],
        "Score": _RECORD_OF[Score], "Reveal": _RECORD_OF[Reveal],
        "resolve_trick": Game._resolve_trick_python, "settle": settle,
        "taken_tricks": taken_tricks, "OVER": Phase.OVER, "DealRecord": DealRecord,
        "ChicagoResult": _RECORD_OF[ChicagoResult], "Showdown": _RECORD_OF[Showdown],
        "DealEnd": _RECORD_OF[DealEnd], "GameEnd": _RECORD_OF[GameEnd],
        "show_if_breaking": Game._show_if_breaking, "Show": _RECORD_OF[Show],
        "K_ONE_UP": _K.ONE_UP, "K_ACCEPT": _K.ACCEPT, "OneUp": _RECORD_OF[OneUp],
        "OneUpChoice": _RECORD_OF[OneUpChoice],
    })
    # a deal memo's asks (seen_by, seat_log, _from_memo) in C (issue 28, forty-fourth pass)
    ENGINE.install_from_memo(Game, {
        "DealMemo": DealMemo, "from_memo": Game._from_memo_python,
        "seen_by": Game._seen_by_python, "seat_log": Game._seat_log_python,
    })
    return True


def _event_slots(kind: type[Event]) -> tuple[str, ...] | None:
    """The slots that ``kind``'s ``__init__`` fills with its arguments, in their order, if
    that is all making one does (each field stored as given, in its slot ``_`` + name, a
    field left out stored as its default, the class called as any class is), so that the
    C accelerator may write them itself (``make_events``, issue 28, forty-second pass);
    else None: it calls the class."""
    slots = tuple(f"_{name}" for name in kind.fields)
    return slots if init_only_stores(kind, slots, _event_defaults(kind)) else None


def _event_defaults(kind: type[Event]) -> tuple[object, ...]:
    """The defaults of ``kind``'s last fields (its ``__init__``'s), in field order."""
    defaults = kind.__init__.__defaults__ or ()
    return tuple(defaults)


def _install_event_maker() -> Callable[[list[Event], list[_EventRecord], int], None] | None:
    """The C accelerator's ``make_events`` for :meth:`Game._made_events` (the events of the
    pending records made without calling each kind's class), or None without it."""
    if ENGINE is None or not hasattr(ENGINE, "make_events"):
        return None
    ENGINE.install_event_kinds(_RECORD_KINDS, tuple(_event_slots(k) for k in _RECORD_KINDS),
                               tuple(_event_defaults(k) for k in _RECORD_KINDS))
    # (the JSON writers' names and values of these members, read once)
    ENGINE.install_enum_members((*Category, *Phase))
    # Game.event_count read from the slots in C (its Python getter kept for the rest)
    ENGINE.install_event_count(Game, _event_count_python, _OVER)
    Game.event_count = property(  # type: ignore[assignment]
        ENGINE.event_count_of, doc=Game.__dict__["event_count"].__doc__)
    Game.is_over = property(  # type: ignore[assignment]
        ENGINE.is_over_of, doc=Game.__dict__["is_over"].__doc__)
    maker: Callable[[list[Event], list[_EventRecord], int], None] = ENGINE.make_events
    return maker


_is_over_python: Callable[[Game], bool] = Game.__dict__["is_over"].fget
_event_count_python: Callable[[Game], int] = Game.__dict__["event_count"].fget
"""The pure-Python getters of :attr:`Game.is_over` and :attr:`Game.event_count` (the C ones
are put in their place with the event maker: tests compare the two)."""
_make_events = _install_event_maker()
"""The C maker of events from records (None: the pure-Python loop of
:meth:`Game._made_events` makes them)."""

ACCELERATED: bool = _install_accelerator()
"""Whether :class:`Game` runs its common turns in the C accelerator ``chicago.engine._engine``
(set ``CHICAGO_PURE_PYTHON=1`` before the import for the pure-Python methods only)."""
