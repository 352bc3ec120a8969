"""The types of a seat's view: what :meth:`chicago.Game.view` returns, field by field.

A view is JSON-able data (so every shell, a bot in another language and the browser read
the same thing); these TypedDicts say what each field holds, and ``docs/schema.json`` is
generated from them (:mod:`chicago.engine.schema`). Cards are their text (``"Ah"``),
categories their names (``"TWO_PAIR"``), seats numbers from 0.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

__all__ = [
    "CATEGORY_NAMES",
    "PHASE_NAMES",
    "Announcement",
    "CardName",
    "CategoryName",
    "DealRecord",
    "EventJSON",
    "FaceUpCard",
    "PhaseName",
    "PlayedCard",
    "SeatView",
    "TakenTrick",
]

CardName = Annotated[str, "card"]
"""A card as text: rank ``2`` … ``9``, ``T``, ``J``, ``Q``, ``K``, ``A`` and suit ``c``,
``d``, ``h``, ``s`` (``"Ah"``, ``"Tc"``)."""

PhaseName = Literal[
    "redeal", "exchange", "one up", "announce", "quads choice", "quads", "chicago", "play",
    "over",
]
"""The phase of the deal (``chicago.Phase`` values)."""
PHASE_NAMES: tuple[str, ...] = PhaseName.__args__  # type: ignore[attr-defined]

CategoryName = Literal[
    "HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "FULL_HOUSE",
    "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH",
]
"""A hand category by name (``chicago.Category``), low to high."""
CATEGORY_NAMES: tuple[str, ...] = CategoryName.__args__  # type: ignore[attr-defined]

EventJSON = Annotated[dict[str, Any], "event"]
"""An event's JSON form (``chicago.engine.events``): one of the kinds of the schema."""


class Announcement(TypedDict):
    """One seat's word in a scoring round."""

    round: int
    """The scoring round, from 1."""
    seat: int
    """Who spoke."""
    category: CategoryName | None
    """The category announced; null for a pass."""


class FaceUpCard(TypedDict):
    """V-ONE-UP: the face-up card waiting for its seat's answer."""

    seat: int
    """Who asked for it and must take or reject it."""
    card: CardName
    """The face-up card."""


class PlayedCard(TypedDict):
    """A card played to a trick."""

    seat: int
    """Who played it."""
    card: CardName
    """The card."""


class TakenTrick(TypedDict):
    """A completed trick of this deal."""

    winner: int
    """Who took it."""
    cards: list[PlayedCard]
    """Its cards in playing order (the first was led)."""


class DealRecord(TypedDict):
    """A finished deal of this game."""

    deal: int
    """Its number, from 1."""
    dealer: int
    """Its dealer."""
    points: list[int]
    """Per seat: points gained in it (negative if lost)."""
    scores: list[int]
    """Per seat: the score after it."""


class SeatView(TypedDict):
    """What one seat knows (``Game.view(seat)``; a spectator's view has ``seat`` null and no
    hand). Everything is public except the seat's own cards (``hand``, ``discarded``, its
    private events) and its choices (``legal_actions``)."""

    seat: int | None
    """The seat whose view this is; null for a spectator."""
    players: int
    """Seats at the table (2-6)."""
    rules: dict[str, Any]
    """The rule options, every one (``Rules.to_dict``; see docs/RULES.md)."""
    deal: int
    """The current deal's number, from 1 (the last deal once the game is over)."""
    dealer: int
    """The dealer's seat; the player on its left acts first (R-PHASE-2)."""
    phase: PhaseName
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
    scores: list[int]
    """Every seat's score."""
    locked: list[bool]
    """Per seat: locked this deal, no exchanges (R-EX-5)."""
    hand: list[CardName]
    """The seat's own cards, in id order (five; six for a locked player under V-LOCK-6,
    four while its one-up card waits; fewer during the tricks)."""
    hand_category: CategoryName | None
    """The category of the seat's five cards now; null for another number of cards."""
    discarded: list[CardName]
    """The cards the seat discarded this deal, in order."""
    stock: int
    """Cards left in the stock."""
    discard_pile: int
    """Cards in the discard pile (the next stock when the stock runs out, R-EX-2)."""
    exchanges: list[list[int]]
    """Per exchange round so far, per seat: how many cards it exchanged (R-EX-3)."""
    announcements: list[Announcement]
    """Every announcement and pass of this deal, in order."""
    reveals: list[EventJSON]
    """The staged tie-break stages revealed this deal (``reveal`` events, R-ANN-3)."""
    round_results: list[EventJSON]
    """The outcome of each scoring round of this deal (``round_result`` events)."""
    shown: dict[str, list[CardName]]
    """Seat (as text) -> the cards it showed this deal (R-EX-4, a four-of-a-kind reset)."""
    one_up: FaceUpCard | None
    """The face-up card waiting for an answer (V-ONE-UP); null otherwise."""
    chicago: int | None
    """The seat that declared Chicago this deal (R-CHI-1); null if nobody has."""
    trick_number: int
    """The trick being played, 1-5; 0 before the tricks of this deal."""
    trick: list[PlayedCard]
    """The cards of the current trick so far, in playing order."""
    tricks: list[TakenTrick]
    """The completed tricks of this deal."""
    played: list[list[CardName]]
    """Per seat: the cards it has played to tricks this deal, in order."""
    legal_actions: list[str]
    """The seat's legal actions now in the text notation (docs/NOTATION.md); empty when it
    is not the seat's turn."""
    events: list[EventJSON]
    """The events of the current deal that the seat may see, in order."""
    history: list[DealRecord]
    """Every finished deal of the game."""
    over: bool
    """Whether the game has ended."""
    winners: list[int]
    """The winning seats once the game is over; empty before."""
    settlement: list[float] | None
    """Money per seat once the game is over (R-END-2, R-END-3); null before."""
    chicago_declared: list[bool]
    """Per seat: has declared a Chicago in any deal of this game (V-CHI-DECLARED)."""
    chicago_made: list[bool]
    """Per seat: has made a Chicago in any deal of this game (V-CHI-REQ3)."""
    known_out: list[CardName]
    """Cards the seat knows are not in the stock, outside its hand, in id order: in another
    hand (shown, a face-up card taken), in the discard pile (its own discards, rejected
    face-up cards) or in one of the two (the hints count them out)."""
