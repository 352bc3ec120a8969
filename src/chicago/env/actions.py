"""A fixed integer action space for learning agents, derived from the engine's own actions.

Every :class:`~chicago.Action` a seat can take maps to one integer in ``range(NUM_ACTIONS)``
and back. Actions with cards are numbered either by the card itself (a play: the card id
0-51, see :mod:`chicago.cards`) or by *positions* in the seat's hand sorted by card id (a
discard: which of the five cards go; one up: which card is turned up), so the same index
always means the same kind of decision whatever the cards. The segments, in order:

==========  =====  =====================================================================
first id    count  meaning
==========  =====  =====================================================================
0           52     ``play <card>``: card id (``2c`` = 0, ``2d`` = 1 … ``As`` = 51)
52          32     ``discard``: bit ``i`` of ``id - 52`` discards the ``i``-th card of the
                   hand sorted by card id; 52 itself is ``keep`` (discard nothing)
84          1      ``discard`` the sixth card (V-LOCK-6: a locked player holding six cards)
85          5      ``one up``: turn up the replacement of the hand's ``id - 85``-th card
90          9      ``announce``: pair, two pair, three of a kind, straight, flush, full
                   house, four of a kind, straight flush, royal flush
99          8      accept, reject, redeal, pass, chicago, no chicago, reset, score
107         6      ``reset <seat>`` (V-QUADS-ONE): lower seat ``id - 107``'s score to zero
==========  =====  =====================================================================

``keep`` in the V-REDEAL-LOW round is the same action as ``keep`` in an exchange round
(the engine's ``discard`` of no card), so it has the same id, 52.

>>> from chicago import Game, Rules
>>> game = Game(Rules.preset("pagat"), players=4, seed=7)
>>> seat = game.to_act
>>> hand = game.view(seat).hand
>>> ids = legal_indices(game.legal_actions(), hand)
>>> len(ids), ids[0], ids[-1]
(32, 52, 83)
>>> str(index_to_action(83, hand)) == "discard " + " ".join(map(str, hand))
True
>>> action_to_index(Action.parse("play As"), hand), action_to_index("pass", hand)
(51, 102)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from chicago.cards import DECK, Card, parse_card
from chicago.engine.actions import Action, ActionKind
from chicago.engine.viewtypes import SeatView
from chicago.poker import Category

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ACTION_SEGMENTS",
    "ANNOUNCE_BASE",
    "DISCARD_BASE",
    "DISCARD_SIXTH",
    "NUM_ACTIONS",
    "ONE_UP_BASE",
    "PLAY_BASE",
    "RESET_SEAT_BASE",
    "SIMPLE_BASE",
    "SIMPLE_KINDS",
    "action_mask",
    "action_to_index",
    "describe_index",
    "hand_of",
    "index_to_action",
    "legal_indices",
]

_K = ActionKind

ANNOUNCE_CATEGORIES: tuple[Category, ...] = tuple(
    c for c in Category if c is not Category.HIGH_CARD
)
"""The categories that can be announced, in id order (pair … royal flush)."""
SIMPLE_KINDS: tuple[ActionKind, ...] = tuple(
    k for k in ActionKind if k not in (_K.DISCARD, _K.ONE_UP, _K.ANNOUNCE, _K.PLAY)
)
"""The action kinds without cards or category, in id order (the engine's enum order)."""

PLAY_BASE = 0
DISCARD_BASE = PLAY_BASE + len(DECK)
DISCARD_SIXTH = DISCARD_BASE + 32
ONE_UP_BASE = DISCARD_SIXTH + 1
ANNOUNCE_BASE = ONE_UP_BASE + 5
SIMPLE_BASE = ANNOUNCE_BASE + len(ANNOUNCE_CATEGORIES)
RESET_SEAT_BASE = SIMPLE_BASE + len(SIMPLE_KINDS)
NUM_ACTIONS = RESET_SEAT_BASE + 6
"""Size of the action space (113)."""

ACTION_SEGMENTS: tuple[tuple[int, int, str], ...] = (
    (PLAY_BASE, len(DECK), "play <card>: the card id"),
    (DISCARD_BASE, 32, "discard: bit i of (id - 52) = the i-th card of the sorted hand; 52 = keep"),
    (DISCARD_SIXTH, 1, "discard the sixth card of the sorted hand (V-LOCK-6)"),
    (ONE_UP_BASE, 5, "one up: the (id - 85)-th card of the sorted hand (V-ONE-UP)"),
    (ANNOUNCE_BASE, len(ANNOUNCE_CATEGORIES),
     "announce " + ", ".join(c.text for c in ANNOUNCE_CATEGORIES)),
    (SIMPLE_BASE, len(SIMPLE_KINDS), ", ".join(k.value for k in SIMPLE_KINDS)),
    (RESET_SEAT_BASE, 6, "reset <seat>: lower seat (id - 107) to zero (V-QUADS-ONE)"),
)
"""``(first id, count, meaning)`` per segment: the table above, for documentation."""

_SIMPLE_INDEX = {kind: SIMPLE_BASE + i for i, kind in enumerate(SIMPLE_KINDS)}
_ANNOUNCE_INDEX = {cat: ANNOUNCE_BASE + i for i, cat in enumerate(ANNOUNCE_CATEGORIES)}


def hand_of(source: SeatView | Iterable[int | str]) -> tuple[Card, ...]:
    """The hand sorted by card id, from a seat's view (its ``hand``) or from cards."""
    cards = source.hand if isinstance(source, SeatView) else source
    return tuple(sorted(parse_card(c) if isinstance(c, str) else Card(c) for c in cards))


def _sorted_hand(hand: SeatView | Iterable[int | str]) -> tuple[Card, ...]:
    if (
        isinstance(hand, tuple)
        and all(type(c) is Card for c in hand)
        and all(hand[i] < hand[i + 1] for i in range(len(hand) - 1))
    ):
        return hand
    return hand_of(hand)


def action_to_index(
    action: Action | str, hand: SeatView | Iterable[int | str]
) -> int:
    """The id of ``action`` for a seat holding ``hand`` (a view, or the seat's cards).

    Raises ``ValueError`` for a card action whose cards are not in the hand.
    """
    act = Action.parse(action)
    kind = act.kind
    if kind is _K.PLAY or kind is _K.ANNOUNCE or kind in _SIMPLE_INDEX:
        return _index(act, {})
    return _index(act, _bit_positions(_sorted_hand(hand)))


def _bit_positions(cards: tuple[Card, ...]) -> dict[int, int]:
    """Card bit -> position in the sorted hand."""
    return {1 << card: i for i, card in enumerate(cards)}


def _index(act: Action, positions: dict[int, int]) -> int:
    kind, mask, category, target = act
    if target is not None:
        return RESET_SEAT_BASE + target
    if kind is _K.PLAY:
        return PLAY_BASE + mask.bit_length() - 1
    if kind is _K.ANNOUNCE:
        assert category is not None
        return _ANNOUNCE_INDEX[category]
    simple = _SIMPLE_INDEX.get(kind)
    if simple is not None:
        return simple
    places: list[int] = []
    rest = mask
    while rest:
        low = rest & -rest
        place = positions.get(low)
        if place is None:
            hand = sorted(bit.bit_length() - 1 for bit in positions)
            raise ValueError(
                f"{act} names a card that is not in the hand {[str(DECK[c]) for c in hand]}"
            )
        places.append(place)
        rest ^= low
    if kind is _K.ONE_UP:
        if places[0] > 4:
            raise ValueError(f"{act}: one up takes one of the first five cards")
        return ONE_UP_BASE + places[0]
    # discard
    if places == [5]:
        return DISCARD_SIXTH
    if any(p > 4 for p in places):
        raise ValueError(f"{act}: only the sixth card alone can be discarded from six (V-LOCK-6)")
    pattern = 0
    for p in places:
        pattern |= 1 << p
    return DISCARD_BASE + pattern


def index_to_action(index: int, hand: SeatView | Iterable[int | str]) -> Action:
    """The action with id ``index`` for a seat holding ``hand`` (a view, or the seat's cards).

    Raises ``ValueError`` for an id out of range or a position the hand does not have. The
    action may still be illegal now: check it against the legal actions (or the mask).
    """
    if isinstance(index, bool) or not 0 <= int(index) < NUM_ACTIONS:
        raise ValueError(f"action id must be 0-{NUM_ACTIONS - 1}, not {index!r}")
    index = int(index)
    if index < DISCARD_BASE:
        return Action.play(DECK[index - PLAY_BASE])
    if index >= RESET_SEAT_BASE:
        return Action.reset(index - RESET_SEAT_BASE)
    if index >= SIMPLE_BASE:
        return Action.simple(SIMPLE_KINDS[index - SIMPLE_BASE])
    if index >= ANNOUNCE_BASE:
        return Action.announce(ANNOUNCE_CATEGORIES[index - ANNOUNCE_BASE])
    cards = _sorted_hand(hand)
    if index >= ONE_UP_BASE:
        place = index - ONE_UP_BASE
        if place >= len(cards):
            raise ValueError(f"action {index}: the hand has no card {place + 1}")
        return Action.one_up(cards[place])
    if index == DISCARD_SIXTH:
        if len(cards) < 6:
            raise ValueError(f"action {index}: the hand has no sixth card")
        return Action.discard([cards[5]])
    pattern = index - DISCARD_BASE
    places = [i for i in range(5) if pattern >> i & 1]
    if places and places[-1] >= len(cards):
        raise ValueError(f"action {index}: the hand has only {len(cards)} cards")
    return Action.discard([cards[i] for i in places])


def legal_indices(
    legal_actions: Iterable[Action | str], hand: SeatView | Iterable[int | str]
) -> list[int]:
    """The ids of the legal actions, ascending (one id per action)."""
    positions = _bit_positions(_sorted_hand(hand))
    return sorted(_index(Action.parse(a), positions) for a in legal_actions)


def action_mask(
    legal_actions: Iterable[Action | str], hand: SeatView | Iterable[int | str]
) -> npt.NDArray[np.int8]:
    """A 0/1 vector of length :data:`NUM_ACTIONS` (int8): 1 where the action is legal."""
    import numpy as np

    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for index in legal_indices(legal_actions, hand):
        mask[index] = 1
    return mask


def describe_index(index: int) -> str:
    """What an id means without a hand: ``play Ah``, ``keep``, ``discard cards 1 3``,
    ``one up card 2``, ``announce pair``, ``pass`` … (positions count from 1)."""
    if isinstance(index, bool) or not 0 <= int(index) < NUM_ACTIONS:
        raise ValueError(f"action id must be 0-{NUM_ACTIONS - 1}, not {index!r}")
    if index < DISCARD_BASE:
        return f"play {DECK[index]}"
    if DISCARD_BASE <= index < DISCARD_SIXTH:
        pattern = index - DISCARD_BASE
        if not pattern:
            return "keep"
        return "discard cards " + " ".join(str(i + 1) for i in range(5) if pattern >> i & 1)
    if index == DISCARD_SIXTH:
        return "discard card 6"
    if index < ANNOUNCE_BASE:
        return f"one up card {index - ONE_UP_BASE + 1}"
    return str(index_to_action(index, ()))


def _check_table() -> None:
    """The segments tile ``range(NUM_ACTIONS)`` exactly (run at import)."""
    position = 0
    for first, count, _ in ACTION_SEGMENTS:
        assert first == position, (first, position)
        position += count
    assert position == NUM_ACTIONS


_check_table()
