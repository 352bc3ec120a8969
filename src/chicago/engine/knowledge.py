"""What one seat knows, read from its view: the common ground of every bot.

:func:`knowledge` turns a seat's typed view (:meth:`chicago.Game.view`, read as it is, its
events typed) into a :class:`Knowledge`: the seat's own cards, the cards it has seen leave
play, and for each opponent what the table showed of them (exchange counts, announcements,
revealed tie-break stages, shown hands, face-up one-up cards, voids shown by not following
suit, whether they are locked). Nothing here reads anything but the view, so nothing hidden
can leak into a bot.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=3)
>>> k = knowledge(game.view(game.to_act))
>>> len(k.hand), k.players, k.phase
(5, 4, <Phase.EXCHANGE: 'exchange'>)
>>> len(k.unseen) == 52 - 5
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from chicago.cards import DECK, Card, cards_from_mask, mask_of
from chicago.engine.carried import Fold, SeatLog, SeenEvents
from chicago.engine.events import (
    Announce,
    Deal,
    Event,
    Exchange,
    Exchanged,
    OneUp,
    OneUpChoice,
    Pass,
    QuadsClaim,
    Redeal,
    Reshuffle,
    Reveal,
    RoundResult,
    Show,
)
from chicago.engine.native import ENGINE
from chicago.engine.phases import Phase
from chicago.poker import Category
from chicago.rules import Rules

if TYPE_CHECKING:
    from chicago.engine.viewtypes import SeatView

__all__ = [
    "DEFINING_STAGES",
    "CardPlaces",
    "Claim",
    "Knowledge",
    "Opponent",
    "card_places",
    "first_leader",
    "knowledge",
    "seats_after",
    "view_dead",
    "view_leader",
]


DEFINING_STAGES: dict[Category, int] = {
    Category.PAIR: 1,
    Category.TWO_PAIR: 2,
    Category.THREE_OF_A_KIND: 1,
    Category.STRAIGHT: 1,
    Category.FLUSH: 5,
    Category.FULL_HOUSE: 2,
    Category.FOUR_OF_A_KIND: 1,
    Category.STRAIGHT_FLUSH: 1,
    Category.ROYAL_FLUSH: 1,
}
"""How many tie-break stages (R-ANN-3) name the cards of a category's combination, the ones
R-EX-4 protects: the pair's rank, both pairs', the trips', a straight's top card, a flush's
five ranks …; later stages are odd cards."""


@dataclass(frozen=True, slots=True)
class Claim:
    """An announcement that still describes the player's hand.

    The player announced ``category`` in scoring round ``round`` and has exchanged no card
    since, so the five cards it holds now plus those it played to tricks are exactly of that
    category, and their tie-break stages start with ``stages`` (the ranks revealed, R-ANN-3).
    """

    round: int
    category: Category
    stages: tuple[int, ...] = ()


@dataclass(slots=True)
class Opponent:
    """What the table showed of one other seat in the current deal."""

    seat: int
    locked: bool = False
    score: int = 0
    exchanges: list[int] = field(default_factory=list)
    """Cards exchanged in each exchange round so far (0 for a locked player)."""
    announcements: dict[int, Category | None] = field(default_factory=dict)
    """Scoring round → the category announced, or None for a pass."""
    stages: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Scoring round → the ranks it revealed in the staged tie-break, in order."""
    claim: Claim | None = None
    """The latest announcement that still holds (no exchange since), if any."""
    kept: tuple[Claim, ...] = ()
    """Combinations it is known to hold still (R-EX-4, rules with ``show_on_break``): it
    announced the highest category of a scoring round (won it or tied), which protects the
    cards of the combination (the pair, both pairs, the trips, the four, all five of a
    straight, flush or full house), and it has not shown its hand since, so it kept them
    through every exchange; only its odd cards may have gone. Each is a :class:`Claim` whose
    ``stages`` are the combination's defining ranks revealed in the tie-break (the pair's
    rank, both pairs' ranks …; none when it won without a tie-break). Its hand now, with the
    cards it played since, contains each of them. Forgotten once it shows its hand (then
    :attr:`shown` tells more)."""
    known: int = 0
    """Mask of cards known to be in its hand now (an accepted one-up card kept since)."""
    shown: tuple[Card, ...] = ()
    """The last hand it had to show (R-EX-4, a quads reset), if any."""
    shown_round: int = 0
    """The exchange round in which it showed that hand (0 if none)."""
    kept_from_shown: int | None = None
    """How many of the shown cards it still holds, when no exchange followed (else None)."""
    voids: int = 0
    """Suits it showed it has none of (bit ``1 << suit``), by not following suit."""
    played: tuple[Card, ...] = ()
    """Cards it played to tricks this deal, in order."""
    holding: int = 5
    """How many cards it holds now."""
    drawn_total: int = 0
    """Cards it drew in all exchange rounds of this deal."""
    drawn_last: int = 0
    """Cards it exchanged in the most recent exchange round it has acted in."""

    @property
    def exchanged_since_claim(self) -> bool:
        """Whether it has exchanged since its last announcement (or never announced)."""
        return self.claim is None


@dataclass(slots=True)
class CardPlaces:
    """Where the seat knows cards of this deal to be, outside its own hand: what a hint
    needs to know which cards cannot be drawn (see :func:`card_places`)."""

    held: dict[Card, int] = field(default_factory=dict)
    """Card -> the other seat known to hold it (shown, or taken face up)."""
    pile: set[Card] = field(default_factory=set)
    """Cards known to be in the discard pile (since the last reshuffle)."""
    out: set[Card] = field(default_factory=set)
    """Cards known to be in someone's hand or in the discard pile, not which."""
    pending: set[Card] = field(default_factory=set)
    """The seat's own one-up discard, which joins the pile when the face-up card is decided."""
    returned: set[Card] = field(default_factory=set)
    """Cards known to have gone into the new stock at the last reshuffle, not seen since."""
    reshuffles: int = 0
    """Reshuffles of the discards into a new stock this deal (R-EX-2)."""

    def copy(self) -> CardPlaces:
        """A copy whose places change apart from this one's."""
        return CardPlaces(dict(self.held), set(self.pile), set(self.out), set(self.pending),
                          set(self.returned), self.reshuffles)

    def out_of_stock(self) -> set[Card]:
        """Every card known not to be in the stock now."""
        return set(self.held) | self.pile | self.out | self.pending

    def _forget(self, card: Card) -> None:
        self.held.pop(card, None)
        self.pile.discard(card)
        self.out.discard(card)
        self.returned.discard(card)

    def _forget_all(self, cards: Iterable[Card]) -> None:
        """:meth:`_forget` each of ``cards``, a set operation per place."""
        held = self.held
        if held:
            for card in cards:
                held.pop(card, None)
        self.pile.difference_update(cards)
        self.out.difference_update(cards)
        self.returned.difference_update(cards)

    def _exchanged(self, seat: int) -> None:
        """``seat`` discarded: the cards it was known to hold are in its hand or the pile."""
        for card in [c for c, owner in self.held.items() if owner == seat]:
            del self.held[card]
            self.out.add(card)


_PLACE_KINDS = frozenset({Deal, Exchanged, Exchange, Redeal, OneUp, OneUpChoice, Show, Reshuffle})
"""The kinds of events that tell where cards are (:func:`card_places`)."""


def card_places(events: Iterable[Event], seat: int | None) -> CardPlaces:
    """Where ``seat`` knows cards to be, from one deal's events as it sees them (each call
    gets places of its own to change). A view's events (a
    :class:`~chicago.engine.carried.SeenEvents` of the seat) are not folded again: the
    places kept in the seat's log are carried on to them (:mod:`chicago.engine.carried`).

    A card is known to be in another player's hand (shown, a face-up card taken), in the
    discard pile (the seat's own discards, rejected face-up cards, a thrown-in hand), or in
    one of the two (a shown card of a player who has exchanged since). At a reshuffle
    (R-EX-2) the discard pile becomes the new stock: what was known to be in the pile can be
    drawn again, cards known to be in a hand still cannot, and what is discarded after the
    reshuffle is out of the stock again.
    """
    if type(events) is SeenEvents and events.log.seat == seat:
        return events.log.read(PLACES, len(events), _copy_places)
    return _fold_places(events, seat)


class _Placing:
    """The state of the places fold: the places, the seats whose one-up discard has not
    joined the pile yet, and the cards known out of the stock, worked out once until an
    event moves a card (a trick's plays move none this fold follows)."""

    __slots__ = ("one_up_open", "out", "places")

    def __init__(self) -> None:
        self.places = CardPlaces()
        self.one_up_open: set[int] = set()
        self.out: set[Card] | None = None


def _advance_places_python(state: _Placing, events: Sequence[Event], log: SeatLog
                           ) -> _Placing:
    """The places after ``events``; the cards known out of the stock worked out again only
    after an event that may change them. A public :class:`Exchange` never does (issue 28,
    forty-fourth pass): a one-up exchange notes its seat, any other moves the cards its
    seat was known to hold from ``held`` to ``out``, and both are out of the stock; so an
    exchange round's events of the other seats keep the set the readers share."""
    relevant = _PLACE_KINDS
    moved = False
    for event in events:
        kind = type(event)
        if kind in relevant:
            moved = True
            if kind is not Exchange:
                state.out = None
                break
    if moved:
        state.places, state.one_up_open = _fold(events, log.seat, state.places,
                                                state.one_up_open)
    return state


def _copy_places(state: _Placing) -> CardPlaces:
    return state.places.copy()


def _out_of_stock(state: _Placing) -> set[Card]:
    return set(_carried_out(state))


def _carried_out_python(state: _Placing) -> set[Card]:
    # read under the log's lock; the set given out is never changed afterwards (an event
    # that moves a card makes the next one), so readers share it without a copy
    out = state.out
    if out is None:
        out = state.out = state.places.out_of_stock()
    return out




def out_of_stock(events: Sequence[Event], seat: int | None) -> set[Card]:
    """``card_places(events, seat).out_of_stock()``, without copying the places kept in a
    seat's log (a view's ``known_out``)."""
    if type(events) is SeenEvents and events.log.seat == seat:
        return events.log.read(PLACES, len(events), _out_of_stock)
    return _fold_places(events, seat).out_of_stock()


def shared_out_of_stock(events: Sequence[Event], seat: int | None) -> AbstractSet[Card]:
    """:func:`out_of_stock`, for a reader that only reads it: of a seat's log (a view's
    events) the set carried in the log, shared until an event moves a card (a set all the
    same, which the accelerator's makers of a seat's own fields take), not a copy."""
    if type(events) is SeenEvents and events.log.seat == seat:
        return events.log.read(PLACES, len(events), _carried_out)
    return _fold_places(events, seat).out_of_stock()


def log_out_of_stock(log: SeatLog, count: int) -> AbstractSet[Card]:
    """:func:`shared_out_of_stock` of the first ``count`` events of a seat's ``log`` (as
    ``Game.seat_log`` gives them), without the events made into a tuple first: for a
    reader of a seat's ``known_out`` alone (an update's own part; issue 28, thirty-eighth
    pass). The set carried in the log, to read, not to change."""
    return log.read(PLACES, count, _carried_out)


def _fold_places(events: Iterable[Event], seat: int | None) -> CardPlaces:
    """:func:`card_places` worked out, one event after the other."""
    return _fold(events, seat, CardPlaces(), set())[0]


def _fold_python(events: Iterable[Event], seat: int | None, known: CardPlaces,
                 one_up_open: set[int]) -> tuple[CardPlaces, set[int]]:
    """The places and the seats whose one-up discard has not joined the pile yet, after
    ``events``, from those before them (``known`` and ``one_up_open``, changed)."""
    relevant = _PLACE_KINDS
    for event in events:
        if type(event) not in relevant:
            continue  # plays, announcements …: they move no card this fold follows
        if isinstance(event, Deal):
            known = CardPlaces()
            one_up_open.clear()
        elif isinstance(event, Exchanged):  # private: the seat's own discards and draws
            known._forget_all(event.drawn)
            # the discards of an exchange join the pile after the draw (R-EX-2): any
            # reshuffle for that draw came before this event
            (known.pending if seat in one_up_open else known.pile).update(event.discarded)
        elif isinstance(event, Exchange):
            who = event.seat
            if event.one_up:
                one_up_open.add(who)  # its discard joins the pile at the choice
            elif who != seat and event.discarded and known.held:
                known._exchanged(who)
        elif isinstance(event, Redeal):
            who = event.seat
            if event.redealt and who != seat:
                for card in [c for c, owner in known.held.items() if owner == who]:
                    del known.held[card]
                    known.pile.add(card)  # a thrown-in hand goes to the pile whole
        elif isinstance(event, OneUp):
            known._forget(event.card)
            known.held[event.card] = event.seat  # face up: it is taken or put on the pile
        elif isinstance(event, OneUpChoice):
            who, card = event.seat, event.card
            one_up_open.discard(who)
            known._forget(card)
            if who == seat:
                known.pile |= known.pending
                known.pending.clear()
            elif known.held:
                known._exchanged(who)
            if not event.accepted:
                known.pile.add(card)
            elif who != seat:
                known.held[card] = who
        elif isinstance(event, Show):
            if event.seat == seat:
                continue  # the seat's own cards: it knows them, and follows its discards
            known._forget_all(event.cards)
            known.held.update(dict.fromkeys(event.cards, event.seat))
        elif isinstance(event, Reshuffle):
            # the pile is the new stock; what is only known to be in a hand or the pile
            # may be in it now; cards known to be in a hand are not
            known.returned = set(known.pile)
            known.pile.clear()
            known.out.clear()
            known.reshuffles += 1
    return known, one_up_open


_Folder = Callable[[Iterable[Event], int | None, CardPlaces, set[int]],
                   tuple[CardPlaces, set[int]]]


def _folder() -> _Folder:
    """The accelerator's ``places_fold`` (:func:`_fold_python` in C, step for step; issue
    28, forty-fourth pass) when it is built and allowed, else :func:`_fold_python`."""
    if ENGINE is None:
        return _fold_python
    ENGINE.install_places({
        "CardPlaces": CardPlaces, "fold": _fold_python, "Deal": Deal, "Exchanged": Exchanged,
        "Exchange": Exchange, "Redeal": Redeal, "OneUp": OneUp, "OneUpChoice": OneUpChoice,
        "Show": Show, "Reshuffle": Reshuffle})
    fold: _Folder = ENGINE.places_fold
    return fold


_fold = _folder()
"""The places and the seats whose one-up discard has not joined the pile yet, after
``events``, from those before them (``known`` and ``one_up_open``, changed):
:func:`_fold_python`, or the same in C."""


def _placing_methods() -> tuple[Callable[[_Placing, Sequence[Event], SeatLog], _Placing],
                                Callable[[_Placing], set[Card]]]:
    """The places fold's advance and its shared read: the accelerator's (the same in C,
    issue 28, forty-fourth pass) when it is built and allowed, else the Python ones."""
    if ENGINE is None:
        return _advance_places_python, _carried_out_python
    ENGINE.install_placing({"Placing": _Placing, "advance": _advance_places_python,
                            "carried_out": _carried_out_python})
    return ENGINE.advance_places, ENGINE.carried_out


_advance_places, _carried_out = _placing_methods()

PLACES: Fold[_Placing] = Fold("card places", lambda log: _Placing(), _advance_places)
"""The places of :func:`card_places`, carried in a seat's log."""


@dataclass(slots=True)
class Knowledge:
    """Everything one seat knows about the current deal (see :func:`knowledge`)."""

    seat: int
    players: int
    rules: Rules
    phase: Phase
    round: int
    """The current exchange or scoring round, from 1."""
    dealer: int
    scores: list[int]
    locked: list[bool]
    hand: tuple[Card, ...]
    discarded: tuple[Card, ...]
    """The cards this seat discarded this deal."""
    dead: int
    """Mask of cards known not to be in any opponent's hand nor in the stock's next draws:
    every card played, this seat's own discards (unless reshuffled back into the stock),
    rejected one-up cards."""
    unseen: tuple[Card, ...]
    """Cards whose place this seat does not know (not in its hand, not dead)."""
    opponents: dict[int, Opponent]
    stock: int
    discard_pile: int
    declarer: int | None
    trick: list[tuple[int, Card]]
    """The current trick: (seat, card) in playing order."""
    tricks: list[tuple[int, list[tuple[int, Card]]]]
    """Completed tricks: (winner, plays)."""
    trick_number: int
    exchanges_total: int
    """Exchange rounds per deal (the rules' ``exchanges``)."""
    reshuffled: bool = False
    one_up: tuple[int, Card] | None = None
    """The face-up one-up card waiting for a decision (seat, card), if any."""
    chicago_declared: list[bool] = field(default_factory=list)
    """Per seat: has declared a Chicago in this game (any deal; V-CHI-DECLARED)."""
    chicago_made: list[bool] = field(default_factory=list)
    """Per seat: has made a Chicago in this game (any deal; V-CHI-REQ3)."""
    places: CardPlaces = field(default_factory=CardPlaces)
    """Where it knows other cards to be (held, in the pile, out): :func:`card_places`."""

    @property
    def known_out(self) -> tuple[Card, ...]:
        """Cards known not to be drawable from the stock now, outside its hand, in id order
        (what the hints count as dead; the view's ``known_out``)."""
        return tuple(sorted(self.places.out_of_stock() - set(self.hand)))

    @property
    def hand_mask(self) -> int:
        """This seat's hand as a card mask."""
        return mask_of(self.hand)

    @property
    def exchanges_left(self) -> int:
        """Exchange rounds still to come after the current phase (0 from the Chicago call on)."""
        if self.phase in ("exchange", "one up"):
            return self.exchanges_total - self.round
        if self.phase in ("announce", "quads choice"):
            return self.exchanges_total - self.round
        if self.phase == "redeal":
            return self.exchanges_total
        return 0

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick, or leads the first one."""
        if self.trick:
            return self.trick[0][0]
        if self.tricks:
            return self.tricks[-1][0]
        return first_leader(self.declarer, self.rules, self.dealer, self.players)

    def order_from_dealer(self) -> list[int]:
        """Seats in turn order, from the dealer's left to the dealer (R-PHASE-2)."""
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def to_speak_after(self) -> list[int]:
        """Seats that act after this one in the current round (turn order from the dealer's
        left)."""
        return seats_after(self.seat, self.dealer, self.players)


def first_leader(declarer: int | None, rules: Rules, dealer: int, players: int) -> int:
    """The seat that leads the first trick: the Chicago caller when the rules say so, else
    the dealer's left (:attr:`Knowledge.leader` before any card is played)."""
    if declarer is not None and rules.chicago_caller_leads:
        return declarer
    return (dealer + 1) % players


def view_leader(view: SeatView) -> int:
    """:attr:`Knowledge.leader` of the view's seat, read from the view alone (no walk)."""
    if view.trick:
        return view.trick[0].seat
    if view.tricks:
        return view.tricks[-1].winner
    return first_leader(view.chicago, view.rules, view.dealer, view.players)


_DEAD_KINDS = frozenset({Reshuffle, Exchanged, OneUpChoice})
"""The kinds of events that :func:`view_dead` reads."""


def view_dead(view: SeatView) -> int:
    """:attr:`Knowledge.dead` of the view's seat (the cards played, its own discards and the
    rejected face-up cards since the last reshuffle, R-EX-2, V-ONE-UP), read from the view
    with one pass over its events that looks at three kinds of them, without the walk of
    :func:`knowledge` (which also follows every opponent). Equal to ``knowledge(view).dead``
    (tests/test_basic_same_decisions.py)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat: bots need a seat's view")
    players = view.players
    own = rejected = 0
    relevant = _DEAD_KINDS
    for event in view.events:
        kind = type(event)
        if kind not in relevant:
            continue
        if kind is Reshuffle:
            own = rejected = 0  # they went back into the stock (R-EX-2)
        elif kind is Exchanged:
            assert isinstance(event, Exchanged)
            if event.seat == seat:
                own |= mask_of(event.discarded)
        else:
            assert isinstance(event, OneUpChoice)
            who = event.seat
            # the walk's rule: an opponent's rejected card, or the seat's own
            if not event.accepted and (who == seat or (0 <= who < players)):
                rejected |= 1 << event.card
    played = 0
    for taken in view.tricks:
        for play in taken.cards:
            played |= 1 << play.card
    for play in view.trick:
        played |= 1 << play.card
    return played | own | rejected


def seats_after(seat: int, dealer: int, players: int) -> list[int]:
    """The seats that act after ``seat`` in a round (turn order from the dealer's left,
    R-PHASE-2): :meth:`Knowledge.to_speak_after`, from the fields it reads (a seat's view
    has them too)."""
    order = [(dealer + 1 + i) % players for i in range(players)]
    return order[order.index(seat) + 1 :]


_KNOWLEDGE_KINDS = frozenset({Reshuffle, Exchanged, Exchange, RoundResult, Announce, QuadsClaim,
                              Pass, Reveal, Show, OneUpChoice})
"""The kinds of events :func:`knowledge` reads (the rest are skipped at one set lookup)."""


@dataclass(slots=True)
class _Walk:
    """What the walk of a seat's events has found so far (:func:`_walk`): per opponent the
    fields of its :class:`Opponent` that events tell, its latest claim, the combinations it
    kept, the one-up card it took; the seat's own discards, the rejected face-up cards."""

    opponents: dict[int, Opponent]
    claims: dict[int, Claim | None]
    kept: dict[int, list[Claim]]
    accepted: dict[int, int]
    reshuffled: bool = False
    rejected: int = 0
    own_discards: int = 0
    exchange_round: int = 1


def _start_walk(seat: int, players: int) -> _Walk:
    others = [s for s in range(players) if s != seat]
    return _Walk(opponents={s: Opponent(seat=s) for s in others},
                 claims=dict.fromkeys(others), kept={s: [] for s in others},
                 accepted=dict.fromkeys(others, 0))


def _walk(walk: _Walk, events: Iterable[Event], seat: int, rules: Rules) -> _Walk:
    """``walk`` carried on over ``events`` (changed in place): exchanges, announcements,
    reveals, shows, one-up cards."""
    opponents, claims, kept, accepted = walk.opponents, walk.claims, walk.kept, walk.accepted
    reshuffled, rejected = walk.reshuffled, walk.rejected
    own_discards, exchange_round = walk.own_discards, walk.exchange_round
    relevant = _KNOWLEDGE_KINDS
    for event in events:
        if type(event) not in relevant:
            continue  # plays, tricks, deals …: nothing this walk reads
        if isinstance(event, Reshuffle):
            reshuffled = True
            own_discards = 0  # they went back into the stock (R-EX-2)
            rejected = 0
        elif isinstance(event, Exchanged):
            if event.seat == seat:
                own_discards |= mask_of(event.discarded)
        elif isinstance(event, Exchange):
            who = event.seat
            if who not in opponents:
                continue
            count = event.discarded
            opp = opponents[who]
            opp.drawn_last = count
            if not event.locked:
                opp.drawn_total += count
            if count:
                claims[who] = None
                accepted[who] = 0
                if opp.shown and opp.shown_round == exchange_round:
                    opp.kept_from_shown = max(0, len(opp.shown) - count)
                elif opp.shown:
                    opp.kept_from_shown = None
        elif isinstance(event, RoundResult):
            rnd = event.round
            exchange_round = rnd + 1
            top = event.category
            if top is not None and rules.show_on_break:
                # R-EX-4: everyone who announced the round's highest category has those
                # cards protected: breaking them later shows the whole hand first
                for opp in opponents.values():
                    if opp.announcements.get(rnd) is top:
                        stages = opp.stages.get(rnd, ())[: DEFINING_STAGES[top]]
                        kept[opp.seat].append(Claim(rnd, top, stages))
        elif isinstance(event, Announce):
            if event.seat in opponents:
                opponents[event.seat].announcements[event.round] = event.category
                claims[event.seat] = Claim(event.round, event.category)
        elif isinstance(event, QuadsClaim):
            if event.seat in opponents and event.reset:
                # V-QUADS-RESET after the last exchange: a reset is claimed with four of a kind
                claims[event.seat] = Claim(rules.exchanges, Category.FOUR_OF_A_KIND)
        elif isinstance(event, Pass):
            if event.seat in opponents:
                opponents[event.seat].announcements[event.round] = None
        elif isinstance(event, Reveal):
            who = event.seat
            if who in opponents and event.rank is not None:
                opp = opponents[who]
                rnd = max(opp.announcements) if opp.announcements else 0
                stages = (*opp.stages.get(rnd, ()), event.rank)
                opp.stages[rnd] = stages
                claim = claims[who]
                if claim is not None and claim.round == rnd:
                    claims[who] = Claim(claim.round, claim.category, stages)
        elif isinstance(event, Show):
            who = event.seat
            if who in opponents:
                opp = opponents[who]
                kept[who] = []
                opp.shown = event.cards
                opp.shown_round = exchange_round
                opp.kept_from_shown = len(opp.shown)
        elif isinstance(event, OneUpChoice):
            who = event.seat
            if who in opponents:
                if event.accepted:
                    accepted[who] = 1 << event.card
                else:
                    rejected |= 1 << event.card
            elif who == seat and not event.accepted:
                rejected |= 1 << event.card
    walk.reshuffled, walk.rejected = reshuffled, rejected
    walk.own_discards, walk.exchange_round = own_discards, exchange_round
    return walk


def _start_walk_of(log: SeatLog) -> _Walk:
    assert log.seat is not None  # knowledge is a seat's
    return _start_walk(log.seat, log.players)


def _advance_walk(walk: _Walk, events: Sequence[Event], log: SeatLog) -> _Walk:
    assert log.seat is not None
    return _walk(walk, events, log.seat, log.rules)


WALK: Fold[_Walk] = Fold("knowledge walk", _start_walk_of, _advance_walk)
"""The walk of :func:`knowledge` over a seat's events, carried in the seat's log."""


def knowledge(view: SeatView) -> Knowledge:
    """What the seat of ``view`` knows about the current deal, from the view alone (the
    walk over its events carried on in the seat's log when the view's events come from
    one: :mod:`chicago.engine.carried`)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat: bots need a seat's view")
    events = view.events
    places = card_places(events, seat)
    if (type(events) is SeenEvents and events.log.seat == seat
            and events.log.players == view.players and events.log.rules is view.rules):
        # made under the log's lock: what it takes of the kept walk is copied out
        return events.log.read(WALK, len(events), lambda walk: _assemble(view, walk, places))
    return _assemble(view, _walk(_start_walk(seat, view.players), events, seat, view.rules),
                     places)


def _assemble_python(view: SeatView, walk: _Walk, places: CardPlaces) -> Knowledge:
    """The :class:`Knowledge` of ``view``'s seat from the walk over its events (read, not
    changed: each opponent gets its own copy of what it holds) and its card ``places``
    (its own). The accelerator's ``knowledge_of`` does the same in C."""
    seat = view.seat
    assert seat is not None
    claims, kept, accepted = walk.claims, walk.kept, walk.accepted
    locked, scores, exchanges = view.locked, view.scores, view.exchanges
    played, hand_sizes = view.played, view.hand_sizes
    opponents = {
        s: Opponent(seat=s, locked=locked[s], score=scores[s],
                    exchanges=[r[s] for r in exchanges],
                    announcements=dict(o.announcements), stages=dict(o.stages),
                    claim=claims[s], kept=tuple(kept[s]), known=accepted[s], shown=o.shown,
                    shown_round=o.shown_round, kept_from_shown=o.kept_from_shown,
                    played=played[s], holding=hand_sizes[s],
                    drawn_total=o.drawn_total, drawn_last=o.drawn_last)
        for s, o in walk.opponents.items()
    }

    trick = [(p.seat, p.card) for p in view.trick]
    tricks = [(t.winner, [(p.seat, p.card) for p in t.cards]) for t in view.tricks]
    played_mask = 0
    for _, plays in [*tricks, (None, trick)]:
        if not plays:
            continue
        led = plays[0][1] & 3
        for who, card in plays:
            played_mask |= 1 << card
            if who in opponents and card & 3 != led:
                opponents[who].voids |= 1 << led
    for opp in opponents.values():
        opp.known &= ~played_mask

    dead = played_mask | walk.own_discards | walk.rejected
    known = mask_of(view.hand) | dead
    one_up = view.one_up
    rules = view.rules
    return Knowledge(
        seat=seat,
        players=view.players,
        rules=rules,
        phase=view.phase,
        round=view.round,
        dealer=view.dealer,
        scores=list(scores),
        locked=list(locked),
        hand=view.hand,
        discarded=view.discarded,
        dead=dead,
        unseen=cards_from_mask(~known & _ALL_CARDS),
        opponents=opponents,
        stock=view.stock,
        discard_pile=view.discard_pile,
        declarer=view.chicago,
        trick=trick,
        tricks=tricks,
        trick_number=view.trick_number,
        exchanges_total=rules.exchanges,
        reshuffled=walk.reshuffled,
        one_up=(one_up.seat, one_up.card) if one_up is not None else None,
        chicago_declared=list(view.chicago_declared),
        chicago_made=list(view.chicago_made),
        places=places,
    )


_ALL_CARDS = (1 << 52) - 1
"""The mask of every card."""


def _install_accelerator() -> Callable[[SeatView, _Walk, CardPlaces], Knowledge]:
    """The accelerator's ``knowledge_of`` set up with this module's types, if it is there
    (:data:`chicago.engine.native.ENGINE`), else :func:`_assemble_python`. Both give equal
    knowledge (tests/test_accelerated_bot_path.py)."""
    if ENGINE is None:
        return _assemble_python
    from chicago.engine.viewtypes import FaceUpCard, PlayedCard, SeatView, TakenTrick

    ENGINE.install_knowledge({
        "SeatView": SeatView, "PlayedCard": PlayedCard, "TakenTrick": TakenTrick,
        "FaceUpCard": FaceUpCard, "Knowledge": Knowledge, "Opponent": Opponent,
        "Walk": _Walk, "DECK": DECK, "python": _assemble_python,
    })
    knowledge_of: Callable[[SeatView, _Walk, CardPlaces], Knowledge] = ENGINE.knowledge_of
    return knowledge_of


_assemble = _install_accelerator()
"""The :class:`Knowledge` of a view from its walk and places: the accelerator's
``knowledge_of`` when it is built and allowed, else :func:`_assemble_python`."""
