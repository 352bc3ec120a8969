"""The types of a seat's view: what :meth:`chicago.Game.view` returns, field by field.

A view is a frozen dataclass (:class:`SeatView`) of typed values: cards are
:class:`~chicago.cards.Card`, categories :class:`~chicago.categories.Category`, the phase a
:class:`~chicago.engine.phases.Phase`, the rules :class:`~chicago.rules.Rules`, legal actions
:class:`~chicago.engine.actions.Action`, events the typed events of
:mod:`chicago.engine.events`; seats are numbers from 0. Every shell (bots, the seat
knowledge, the environments, the review, the terminal, the simulation) reads it as it is.

Its JSON form (server frames, the external bot protocol, records of views) is made at the
edge by one encoder, :func:`chicago.engine.viewjson.view_json`, derived from these
declarations, as ``docs/schema.json`` is (:mod:`chicago.engine.schema`): cards as text
(``"Ah"``), categories by name (``"TWO_PAIR"``), actions in the text notation, the keys of
``shown`` as text.

Each field of :class:`SeatView` belongs to one part (its ``part`` metadata): ``public``
fields are the same for every seat, ``own`` fields are the seat's own cards and choices,
``full`` fields (rules, events, history) are left out of the compact state that update
frames carry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from chicago.cards import Card
from chicago.categories import Category
from chicago.engine.actions import Action
from chicago.engine.events import Event, Reveal, RoundResult
from chicago.engine.phases import Phase
from chicago.rules import Rules

__all__ = [
    "CATEGORY_NAMES",
    "PHASE_NAMES",
    "Announcement",
    "DealRecord",
    "FaceUpCard",
    "Part",
    "PlayedCard",
    "ScoringRound",
    "SeatView",
    "TakenTrick",
]

PHASE_NAMES: tuple[str, ...] = tuple(p.value for p in Phase)
"""The phases' names (``Phase`` values), in order."""
CATEGORY_NAMES: tuple[str, ...] = tuple(c.name for c in Category)
"""The hand categories by name (``Category``), low to high."""

Part = Literal["public", "own", "full"]
"""Which part of a view a field belongs to (see the module docstring)."""


def _own() -> dict[str, Part]:
    return {"part": "own"}


def _full() -> dict[str, Part]:
    return {"part": "full"}


@dataclass(frozen=True, slots=True)
class Announcement:
    """One seat's word in a scoring round."""

    round: int
    """The scoring round, from 1."""
    seat: int
    """Who spoke."""
    category: Category | None
    """The category announced; null for a pass."""


@dataclass(frozen=True, slots=True)
class FaceUpCard:
    """V-ONE-UP: the face-up card waiting for its seat's answer."""

    seat: int
    """Who asked for it and must take or reject it."""
    card: Card
    """The face-up card."""


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card played to a trick."""

    seat: int
    """Who played it."""
    card: Card
    """The card."""


@dataclass(frozen=True, slots=True)
class TakenTrick:
    """A completed trick (of the current deal in a view's ``tricks``, of a finished deal in
    its ``history``)."""

    winner: int
    """Who took it."""
    cards: tuple[PlayedCard, ...]
    """Its cards in playing order (the first was led)."""


@dataclass(frozen=True, slots=True)
class ScoringRound:
    """A scoring round of this deal as the table shows it: the one being played, or the last
    one until the next exchange round begins (R-ANN-1 … R-ANN-4)."""

    round: int
    """Its number, from 1."""
    words: tuple[Announcement, ...]
    """Every announcement and pass of the round, in the order spoken."""
    stages: Mapping[int, tuple[Reveal, ...]]
    """Seat -> the tie-break stages it revealed (R-ANN-3), in order; in JSON the seat is
    text."""
    result: RoundResult | None
    """The round's outcome once it is decided; null before."""


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal of this game: its score and its public card play (every card played
    to a trick was seen by the whole table; nothing else of the deal's cards is here: no
    hand, no discard, no card of the stock)."""

    deal: int
    """Its number, from 1."""
    dealer: int
    """Its dealer."""
    points: tuple[int, ...]
    """Per seat: points gained in it (negative if lost)."""
    scores: tuple[int, ...]
    """Per seat: the score after it."""
    tricks: tuple[TakenTrick, ...] = ()
    """Its completed tricks, in order (fewer than five when a broken Chicago ended it; none
    when it ended before the tricks, as by a four-of-a-kind reset or an instant win)."""
    chicago: int | None = None
    """The seat that declared Chicago in it (R-CHI-1); null if nobody did."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat knows (``Game.view(seat)``; a spectator's view has ``seat`` null and no
    hand). Everything is public except the seat's own cards (``hand``, ``discarded``, its
    private events) and its choices (``legal_actions``)."""

    players: int
    """Seats at the table (2-6)."""
    deal: int
    """The current deal's number, from 1 (the last deal once the game is over)."""
    dealer: int
    """The dealer's seat; the player on its left acts first (R-PHASE-2)."""
    phase: Phase
    """What is decided now: ``redeal`` (V-REDEAL-LOW, before the first exchange), ``exchange``
    (an exchange round), ``one up`` (V-ONE-UP: take or reject the face-up card), ``announce``
    (a scoring round), ``quads choice`` (V-QUADS-RESET: the round's winner with four of a
    kind resets or scores), ``quads`` (V-QUADS-RESET after the last exchange), ``chicago``
    (the Chicago call), ``play`` (the tricks), ``over`` (the game has ended)."""
    round: int
    """The round number, from 1: in an exchange round its number, in a scoring round the
    number of the exchange round it follows (scoring round r comes after exchange round r);
    after the last exchange it stays at the last exchange round's number."""
    to_act: int | None
    """The seat to decide now; null when the game is over."""
    scores: tuple[int, ...]
    """Every seat's score."""
    locked: tuple[bool, ...]
    """Per seat: locked this deal, no exchanges (R-EX-5)."""
    stock: int
    """Cards left in the stock."""
    discard_pile: int
    """Cards in the discard pile (the next stock when the stock runs out, R-EX-2)."""
    exchanges: tuple[tuple[int, ...], ...]
    """Per exchange round so far, per seat: how many cards it exchanged (R-EX-3)."""
    announcements: tuple[Announcement, ...]
    """Every announcement and pass of this deal, in order."""
    reveals: tuple[Reveal, ...]
    """The staged tie-break stages revealed this deal (``reveal`` events, R-ANN-3)."""
    round_results: tuple[RoundResult, ...]
    """The outcome of each scoring round of this deal (``round_result`` events)."""
    shown: Mapping[int, tuple[Card, ...]]
    """Seat -> the cards it showed this deal (R-EX-4, a four-of-a-kind reset); in JSON the
    seat is text."""
    one_up: FaceUpCard | None
    """The face-up card waiting for an answer (V-ONE-UP); null otherwise."""
    chicago: int | None
    """The seat that declared Chicago this deal (R-CHI-1); null if nobody has."""
    trick_number: int
    """The trick being played, 1-5; 0 before the tricks of this deal."""
    trick: tuple[PlayedCard, ...]
    """The cards of the current trick so far, in playing order."""
    tricks: tuple[TakenTrick, ...]
    """The completed tricks of this deal."""
    played: tuple[tuple[Card, ...], ...]
    """Per seat: the cards it has played to tricks this deal, in order."""
    over: bool
    """Whether the game has ended."""
    winners: tuple[int, ...]
    """The winning seats once the game is over; empty before."""
    chicago_declared: tuple[bool, ...]
    """Per seat: has declared a Chicago in any deal of this game (V-CHI-DECLARED)."""
    chicago_made: tuple[bool, ...]
    """Per seat: has made a Chicago in any deal of this game (V-CHI-REQ3)."""
    settlement: tuple[float, ...] | None
    """Money per seat once the game is over (R-END-2, R-END-3); null before."""
    hand_sizes: tuple[int, ...]
    """Per seat: how many cards it holds now (five; six for a locked player under V-LOCK-6
    until it has discarded; four while its face-up card waits, V-ONE-UP; fewer during the
    tricks)."""
    scoring_round: ScoringRound | None
    """The scoring round being played, or the last one of this deal until the next exchange
    round begins; null when there is none."""
    chicago_points: int
    """What a Chicago is worth at this table: a made one scores it, a failed one costs it
    (R-CHI-3, R-CHI-4; the rules' ``chicago_points``)."""
    lock_at: int | None
    """The score at which a player is locked (R-EX-5; the rules' ``lock_at``); null when
    nobody is."""
    exchange_rounds: int
    """Exchange rounds per deal (R-EX-1; the rules' ``exchanges``)."""
    seat: int | None = field(metadata=_own())
    """The seat whose view this is; null for a spectator."""
    hand: tuple[Card, ...] = field(metadata=_own())
    """The seat's own cards, in id order (five; six for a locked player under V-LOCK-6,
    four while its one-up card waits; fewer during the tricks)."""
    hand_category: Category | None = field(metadata=_own())
    """The category of the seat's five cards now; null for another number of cards."""
    discarded: tuple[Card, ...] = field(metadata=_own())
    """The cards the seat discarded this deal, in order."""
    legal_actions: tuple[Action, ...] = field(metadata=_own())
    """The seat's legal actions now (in JSON their text notation, docs/NOTATION.md); empty
    when it is not the seat's turn."""
    known_out: tuple[Card, ...] = field(metadata=_own())
    """Cards the seat knows are not in the stock, outside its hand, in id order: in another
    hand (shown, a face-up card taken), in the discard pile (its own discards, rejected
    face-up cards) or in one of the two (the hints count them out)."""
    rules: Rules = field(metadata=_full())
    """The rule options, every one (in JSON ``Rules.to_dict``; see docs/RULES.md)."""
    events: tuple[Event, ...] = field(metadata=_full())
    """The events of the current deal that the seat may see, in order."""
    history: tuple[DealRecord, ...] = field(metadata=_full())
    """Every finished deal of the game."""
