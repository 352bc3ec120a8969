"""Card sources: where the cards of a game come from.

Every card a player receives passes through the :class:`CardSource` given to
:class:`~chicago.Game` (``Game(rules, source=…)``): the deck of each deal (:meth:`~CardSource.deck`)
and every card taken from the stock, whether dealt or drawn (:meth:`~CardSource.take`). The
engine owns the stock (a list, next card last) and the rules; a source only chooses cards.

- :class:`CardSource` itself (the default): stacked decks for the first deals, then decks
  shuffled by the game's seeded generator; the next card is the top of the stock.
- :class:`DuplicateDecks`: the decks of a duplicate match (``chicago simulate``, a club's
  duplicate tournament), drawn in per-seat queues; its records carry ``deck_seed``.
- ``chicago.env.chance.ChanceCards``: every card chosen from outside, one chance node each.

A source is copied with its game (:meth:`Game.copy`), so it must copy its own state in
:meth:`~CardSource.copy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypedDict

from chicago.cards import DECK, Card
from chicago.engine.native import ENGINE

__all__ = [
    "CardSource", "DuplicateDecks", "RecordFields", "copy_random", "deal_deck", "mix_seed",
    "shuffle",
]


def shuffle(rng: random.Random, cards: list[Card]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does, in less time.

    :meth:`random.Random.shuffle` swaps each position from the last down with one below it
    drawn by ``_randbelow``: ``getrandbits`` of the bound's bit length until the number is
    below the bound. This is the same loop with the method calls between them taken out, so
    a seed gives the same order as before (a test compares the two on many seeds).
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def copy_random(rng: random.Random) -> random.Random:
    """A generator in the same state as ``rng`` that shares nothing with it."""
    copy = random.Random.__new__(type(rng))
    copy.setstate(rng.getstate())
    return copy


_shuffle_python = shuffle
_copy_random_python = copy_random
if ENGINE is not None:  # the same in C (chicago.engine.native)
    shuffle = ENGINE.shuffle
    copy_random = ENGINE.copy_random


class RecordFields(TypedDict, total=False):
    """What a game record adds to replay a game of a source."""

    deck_seed: int
    """A duplicate game's deck seed (:class:`DuplicateDecks`)."""


class CardSource:
    """The plain flow of cards, and the base of every other: the stacked or shuffled deck of
    each deal, and the top card of the stock for every card taken. Override what differs.

    ``decks`` stacks the decks of the first deals (52 cards each, the first card dealt
    first); later deals are shuffled with the game's generator.
    """

    __slots__ = ("_decks",)

    def __init__(self, decks: Sequence[Sequence[Card]] = ()) -> None:
        self._decks: tuple[tuple[Card, ...], ...] = tuple(tuple(d) for d in decks)

    @property
    def decks(self) -> tuple[tuple[Card, ...], ...]:
        """The stacked decks of the first deals (what a game record stores)."""
        return self._decks

    def record_fields(self) -> RecordFields | None:
        """What a game record adds to replay a game of this source (the plain flow: nothing;
        the duplicate decks: ``deck_seed``), or None if no record can (chosen cards)."""
        return {} if type(self) is CardSource else None

    def deck(self, deal_index: int, rng: Callable[[], random.Random]) -> list[Card]:
        """The 52 cards of deal ``deal_index`` (0-based), the first card dealt first.

        ``rng()`` is the game's seeded generator; call it only when a shuffle is needed (a
        stacked deck draws nothing from it, so later shuffles stay the same).
        """
        if deal_index < len(self._decks):
            return list(self._decks[deal_index])
        deck = list(DECK)
        shuffle(rng(), deck)
        return deck

    def dealt(self, stock: Sequence[Card], order: Sequence[int]) -> None:
        """Called once the hands are dealt, before any draw: ``stock`` (next card last) and
        the seats in turn order from the dealer's left. The plain flow needs nothing."""

    def take(self, stock: list[Card], seat: int) -> Card:
        """Remove and return the card that ``seat`` receives from ``stock`` (next card last).

        It must be a card of ``stock``. The plain flow takes the top card.
        """
        return stock.pop()

    def reshuffled(self) -> None:
        """Called when the discard pile became the stock (R-EX-2)."""

    def relabel(self, mapping: Mapping[Card, Card]) -> None:
        """The stock's cards were renamed by ``mapping`` (a new order of the same cards,
        :func:`~chicago.engine.worlds.restock`): rename any card the source holds. The
        plain flow holds none."""

    def copy(self) -> CardSource:
        """An independent copy, for :meth:`Game.copy` (the stacked decks are immutable)."""
        other = object.__new__(type(self))
        other._decks = self._decks
        return other


_MIX = 0x9E3779B97F4A7C15


def mix_seed(*parts: int) -> int:
    """A 64-bit seed derived from integers, the same in every process and Python run."""
    value = 0x2545F4914F6CDD1D
    for part in parts:
        value = (value ^ (part & 0xFFFFFFFFFFFFFFFF)) * _MIX & 0xFFFFFFFFFFFFFFFF
        value ^= value >> 31
    return value


def deal_deck(deck_seed: int, deal_index: int) -> list[Card]:
    """The shuffled deck of deal ``deal_index`` (0-based) of a set with ``deck_seed``."""
    deck = list(DECK)
    shuffle(random.Random(mix_seed(deck_seed, deal_index)), deck)
    return deck


class DuplicateDecks(CardSource):
    """The card source of duplicate play: the decks of ``deck_seed`` deal by deal, and the
    stock drawn in per-seat queues.

    With one shared stock, a player who discards one card more shifts every later player's
    draws, so duplicate games would drift apart at the first different discard. Here the
    stock of every deal is cut into one draw queue per seat: the card after the deal goes to
    the queue of the dealer's left, the next to the next seat, and so on round the table. A
    player draws from the front of its own queue; only when that is empty does it take
    cards from the back of the longest other queue (so the others' next cards stay where
    they were); only when the whole stock is empty is the discard pile reshuffled (R-EX-2,
    from the game's seed) and drawn from the top. The decks dealt are kept (:attr:`decks`),
    so a record holds them as well as ``deck_seed``.
    """

    __slots__ = ("_queues", "deck_seed")

    def __init__(self, deck_seed: int) -> None:
        super().__init__()
        self.deck_seed = deck_seed
        self._queues: dict[int, list[Card]] = {}

    def record_fields(self) -> RecordFields | None:
        """``deck_seed``: the replay deals from it and draws in the same queues."""
        return {"deck_seed": self.deck_seed}

    def deck(self, deal_index: int, rng: Callable[[], random.Random]) -> list[Card]:
        """The deck of deal ``deal_index`` of this match set (:func:`deal_deck`)."""
        deck = deal_deck(self.deck_seed, deal_index)
        if deal_index == len(self._decks):
            self._decks = (*self._decks, tuple(deck))
        self._queues = {}  # the deal takes the top cards; the queues start after it
        return deck

    def dealt(self, stock: Sequence[Card], order: Sequence[int]) -> None:
        """Cut the rest of the deck into one queue per seat, from the dealer's left."""
        rest = list(stock)[::-1]  # the engine keeps the next card last
        n = len(order)
        self._queues = {seat: rest[i::n] for i, seat in enumerate(order)}

    def take(self, stock: list[Card], seat: int) -> Card:
        """The front of ``seat``'s queue, else the back of the longest other queue."""
        queues = self._queues
        if not queues:
            return stock.pop()
        own = queues.get(seat)
        if own:
            card = own.pop(0)
        else:
            players = len(queues)
            donor = max(
                (s for s in queues if queues[s]),
                key=lambda s: (len(queues[s]), -((s - seat) % players)),
            )
            card = queues[donor].pop()
        stock.remove(card)
        return card

    def reshuffled(self) -> None:
        """The reshuffled pile is drawn from the top, as in a plain game."""
        self._queues = {}

    def relabel(self, mapping: Mapping[Card, Card]) -> None:
        """Rename the queued cards (each queue keeps its length)."""
        self._queues = {seat: [mapping[c] for c in queue] for seat, queue in self._queues.items()}

    def copy(self) -> DuplicateDecks:
        """An independent copy (its own queues)."""
        other = DuplicateDecks(self.deck_seed)
        other._decks = self._decks
        other._queues = {seat: list(queue) for seat, queue in self._queues.items()}
        return other
