"""Seat views: exactly what one player at a real table knows, as JSON-able data.

A view holds the seat's own cards (and the cards it discarded or drew this deal), what is
public (exchange counts, announcements, revealed tie-break stages, shown hands, face-up
one-up cards, played cards, scores) and nothing else: no other hand, no stock order, no seed.
The event list in a view is filtered by :meth:`Event.visible_to`; a spectator (seat ``None``)
sees only public events.

Schema (every card is its text form, ``"Ah"``)::

    seat, players, rules, deal, dealer, phase, round, to_act, scores, locked,
    hand, hand_category, discarded, stock, discard_pile, exchanges, announcements,
    shown, one_up, chicago, leader, trick_number, trick, tricks, played, legal_actions,
    events, history, over, winners, settlement, chicago_declared, chicago_made, known_out

``known_out`` lists the cards the seat knows cannot be drawn from the stock now, outside its
own hand (:func:`chicago.engine.knowledge.card_places`): in another hand (shown, a face-up
card taken), in the discard pile (its own discards, rejected face-up cards) or in one of the
two. It is what the hints count as dead; the browser shows and sends it as it is. The full
list of fields, with their meanings, is ``docs/schema.json``.

``chicago_declared`` and ``chicago_made`` hold one flag per seat: whether that player has
declared (made) a Chicago in any deal of this game so far. Everyone at the table saw it
happen; V-CHI-DECLARED and V-CHI-REQ3 make it decide who can win, and ``events`` covers the
current deal only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from chicago.cards import Card
from chicago.engine.actions import Action
from chicago.engine.events import Announce, Event, Pass, Reveal, RoundResult
from chicago.engine.knowledge import card_places
from chicago.poker import category_of
from chicago.rules import Rules

__all__ = ["ViewedGame", "public_state", "seat_state", "seat_view"]


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
    def phase(self) -> Any: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def stock_count(self) -> int: ...

    @property
    def discard_count(self) -> int: ...

    @property
    def deal_events(self) -> list[Event]: ...

    @property
    def deal_history(self) -> list[dict[str, Any]]: ...

    @property
    def chicago_declared(self) -> list[bool]: ...

    @property
    def chicago_made(self) -> list[bool]: ...

    def discarded(self, seat: int) -> Sequence[Card]: ...

    def settlement(self) -> list[float]: ...

    def legal_actions(self) -> list[Action]: ...


def seat_view(game: ViewedGame, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: spectator) of ``game``; JSON-able."""
    if seat is not None and (isinstance(seat, bool) or not 0 <= seat < game.players):
        raise ValueError(f"seat must be 0-{game.players - 1} or None, not {seat!r}")
    visible = [e for e in game.deal_events if e.audience is None or e.audience == seat]
    view = seat_state(game, seat, public_state(game), visible)
    view["rules"] = game.rules.to_dict()
    view["events"] = [e.to_json() for e in visible]
    view["history"] = game.deal_history
    return view


def public_state(game: ViewedGame) -> dict[str, Any]:
    """The part of a view that is the same for every seat, without ``rules``, ``events``
    and ``history`` (the heavy fields): built from public information only."""
    announcements: list[dict[str, Any]] = []
    reveals: list[dict[str, Any]] = []
    round_results: list[dict[str, Any]] = []
    for event in game.deal_events:
        if isinstance(event, Announce):
            announcements.append(
                {"round": event.round, "seat": event.seat, "category": event.category.name}
            )
        elif isinstance(event, Pass):
            announcements.append({"round": event.round, "seat": event.seat, "category": None})
        elif isinstance(event, Reveal | RoundResult):
            (reveals if isinstance(event, Reveal) else round_results).append(event.to_json())
    return {
        "players": game.players,
        "deal": game.deal_number,
        "dealer": game.dealer,
        "phase": game.phase.value,
        "round": game.round + 1,
        "to_act": game.to_act,
        "scores": list(game.scores),
        "locked": list(game.locked),
        "stock": game.stock_count,
        "discard_pile": game.discard_count,
        "exchanges": [list(r) for r in game.exchange_counts],
        "announcements": announcements,
        "reveals": reveals,
        "round_results": round_results,
        "shown": {str(s): [str(c) for c in cards] for s, cards in game.shown.items()},
        "one_up": (
            {"seat": game.one_up_card[0], "card": str(game.one_up_card[1])}
            if game.one_up_card is not None
            else None
        ),
        "chicago": game.declarer,
        "trick_number": game.trick_number,
        "trick": [{"seat": s, "card": str(c)} for s, c in game.trick],
        "tricks": [
            {"winner": w, "cards": [{"seat": s, "card": str(c)} for s, c in plays]}
            for w, plays in game.tricks
        ],
        "played": [[str(c) for c in pile] for pile in game.played],
        "over": game.is_over,
        "winners": list(game.winners),
        # public: every declaration and every made Chicago was seen by the whole table
        "chicago_declared": game.chicago_declared,
        "chicago_made": game.chicago_made,
        "settlement": game.settlement() if game.is_over else None,
    }


def seat_state(
    game: ViewedGame, seat: int | None, public: dict[str, Any],
    visible: Sequence[Event] | None = None,
) -> dict[str, Any]:
    """``public`` (from :func:`public_state`) plus one seat's own cards and choices.

    Only ``seat``'s own hand and discards are read; a spectator (None) gets none.
    ``visible``: the deal's events the seat may see, if the caller has them already.
    """
    state = dict(public)
    state["seat"] = seat
    if visible is None:
        visible = [e for e in game.deal_events if e.audience is None or e.audience == seat]
    places = card_places(visible, seat)
    if seat is None:
        state["hand"] = []
        state["hand_category"] = None
        state["discarded"] = []
        state["legal_actions"] = []
        state["known_out"] = [str(c) for c in sorted(places.out_of_stock())]
        return state
    hand = game.hands[seat]
    state["hand"] = [str(c) for c in sorted(hand)]
    state["hand_category"] = category_of(hand, game.rules).name if len(hand) == 5 else None
    state["discarded"] = [str(c) for c in game.discarded(seat)]
    state["legal_actions"] = (
        [str(a) for a in game.legal_actions()] if game.to_act == seat else []
    )
    state["known_out"] = [str(c) for c in sorted(places.out_of_stock() - set(hand))]
    return state
