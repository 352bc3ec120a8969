"""Worlds: the hidden cards of a game dealt anew from one seat's knowledge (determinization).

:func:`sample_world` returns a copy of a game in which every card the seat cannot see is
dealt anew: the other hands, the stock and the unknown part of the discard pile. The new
world is built from the seat's view alone (:func:`~chicago.engine.knowledge.knowledge` and
:func:`~chicago.engine.sampling.sample_hands` with ``exact=True``), so it keeps announced
categories, revealed ranks, shown hands, combinations kept under R-EX-4 (protected in the
copy as in the game), four-of-a-kind reset claims, one-up cards and voids; the real hidden
cards are only overwritten, never read. The world is checked against the seat's knowledge
(:func:`~chicago.engine.sampling.consistent`) before it is returned: one that does not fit
raises :class:`~chicago.engine.errors.WorldError`, never reaches scoring. In the copy the
seat's own view and event log are exactly as before, so it has the same information state;
the other seats' private events are dropped.

This is what OpenSpiel's ``resample_from_infostate`` asks for (``chicago.env.openspiel``),
and what its ISMCTS bot calls before every simulation.

>>> import random
>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=5)
>>> seat = game.to_act
>>> world = sample_world(game, seat, random.Random(1))
>>> world.view(seat) == game.view(seat), world.events_for(seat) == game.events_for(seat)
(True, True)
"""

from __future__ import annotations

import random
from typing import TypeVar

from chicago.cards import cards_from_mask, mask_of
from chicago.engine.errors import WorldError
from chicago.engine.game import Game
from chicago.engine.knowledge import knowledge
from chicago.engine.sampling import consistent, kept_cards, sample_hands
from chicago.poker import Category, evaluate

__all__ = ["restock", "sample_world"]

_FULL = (1 << 52) - 1
_COMBINATION_SIZE = {
    Category.PAIR: 2, Category.TWO_PAIR: 4, Category.THREE_OF_A_KIND: 3,
    Category.FOUR_OF_A_KIND: 4,
}


def _pick(mask: int, count: int, rng: random.Random) -> int:
    cards = [c for c in range(52) if mask >> c & 1]
    if count > len(cards):
        raise WorldError("not enough unseen cards to rebuild the hidden ones")
    return mask_of(rng.sample(cards, count))


G = TypeVar("G", bound=Game)


def sample_world(game: G, seat: int, rng: random.Random) -> G:
    """A copy of ``game`` with the cards ``seat`` cannot see dealt again at random.

    The copy keeps the type and the card source of ``game``. Raises :class:`WorldError` if
    no world fits what ``seat`` knows (never when the game is a real one).
    """
    world = game.copy()
    if game.is_over:
        return world
    view = game.view(seat)
    k = knowledge(view)
    n = game.players
    played = 0
    for cards in game.played:
        played |= mask_of(cards)
    own = k.hand_mask
    # The cards of a pending one up: the face-up card is public; the discarded card is the
    # taker's own (known to the seat only if it is the taker).
    face_up = 0
    pending_own = 0
    pending = game._pending_one_up
    one_up_seat = game.one_up_card[0] if game.one_up_card is not None else None
    if pending is not None:
        face_up = 1 << pending[1]
        if one_up_seat == seat:
            pending_own = 1 << pending[0]
    k.unseen = tuple(c for c in k.unseen if not face_up >> c & 1)
    hands = sample_hands(k, rng, exact=True)
    problems = consistent(k, hands)
    if problems:
        raise WorldError(f"the sampled world does not fit seat {seat}'s view: {problems[0]}")

    fixed = own | played | face_up | pending_own
    known_pile = k.dead & ~played & ~pending_own
    free = _FULL & ~fixed & ~known_pile
    for other in range(n):
        if other != seat:
            free &= ~hands[other]
    pile_size = len(game._discards)
    pile = known_pile | _pick(free, pile_size - known_pile.bit_count(), rng)
    free &= ~pile
    hidden_discard = None
    if pending is not None and one_up_seat != seat:
        hidden_discard = _pick(free, 1, rng)
        free &= ~hidden_discard
    if free.bit_count() != len(game._stock):
        raise WorldError("the rebuilt stock does not match the stock's size")

    for other in range(n):
        if other == seat:
            continue
        world.hands[other] = list(cards_from_mask(hands[other]))
        world._own_discards[other] = []
    stock = list(cards_from_mask(free))
    rng.shuffle(stock)
    world._stock = stock
    world._discards = list(cards_from_mask(pile))
    world._categories = [None] * n
    world._legal = None  # the hands changed: work out the legal actions again
    if pending is not None and hidden_discard is not None:
        world._pending_one_up = (cards_from_mask(hidden_discard)[0], pending[1])
    rules = game.rules
    top = {r.round: r.category for r in view.round_results if r.category is not None}
    for other, opp in k.opponents.items():
        protected = 0
        claim = opp.claim
        if (
            rules.show_on_break
            and claim is not None
            and top.get(claim.round) is claim.category
            and len(world.hands[other]) == 5
        ):
            value = evaluate(world.hands[other], rules)
            size = _COMBINATION_SIZE.get(value.category, 5)
            protected = mask_of(value.cards[:size]) & mask_of(world.hands[other])
        # combinations protected in earlier rounds and kept since (R-EX-4)
        held = [*map(int, world.played[other]), *map(int, world.hands[other])]
        for combination in opp.kept if len(held) == 5 else ():
            combo = kept_cards(held, combination, rules)
            if combo is not None:
                protected |= sum(1 << c for c in combo) & mask_of(world.hands[other])
        world._protected[other] = protected
    world._quads_claims = [
        (s, evaluate(world.hands[s], rules), target) for s, _, target in game._quads_claims
    ]
    if game._quads_choice is not None and game._quads_choice[0] != seat:
        chooser = game._quads_choice[0]
        world._quads_choice = (chooser, evaluate(world.hands[chooser], rules))
    # Keep only what the seat may see of the log (the others' private events are stale).
    start = game._deal_start_event
    kept = [e for e in game.events if e.audience is None or e.audience == seat]
    world._deal_start_event = sum(
        1 for e in game.events[:start] if e.audience is None or e.audience == seat
    )
    world.events = kept
    return world


def restock(game: G, rng: random.Random) -> G:
    """A copy of ``game`` whose stock holds the same cards in a new random order.

    Nobody has seen the stock, so every seat's view (and the whole state but the order of
    the cards still to be drawn) stays as it was: what a search that knows every hand still
    cannot know. With per-seat draw queues (duplicate play) each queue keeps its length, so
    what a seat draws still depends only on what it discards. The discard pile, shuffled
    when the stock runs out, keeps the game's own seeded shuffle.
    """
    world = game.copy()
    stock = list(world._stock)
    order = list(stock)
    rng.shuffle(order)
    mapping = dict(zip(stock, order, strict=True))
    world._stock = order
    world._source.relabel(mapping)
    return world
