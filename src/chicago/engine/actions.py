"""Actions and their text notation.

An :class:`Action` is small and immutable; ``str(action)`` is its text form and
``Action.parse(text)`` reads it back. The notation (see ``docs/NOTATION.md``):

=====================  ==============================================================
text                   meaning
=====================  ==============================================================
``discard 2h 7c``      exchange these cards (R-EX-1); ``keep`` = discard nothing
``one up 7c``          V-ONE-UP: discard one card and ask for its replacement face up
``accept`` / ``reject``  take the face-up card, or reject it for the next one face down
``redeal``             V-REDEAL-LOW: throw in a low hand and draw five new cards
``announce pair``      announce the hand's category in a scoring round (R-ANN-1)
``pass``               announce nothing (scoring round, or the quads round)
``chicago``            declare Chicago (R-CHI-1); ``no chicago`` declines
``play Ah``            play a card to the trick (R-TRICK-*)
``reset`` / ``score``  V-QUADS-RESET: reset the others' scores, or score the points
``reset 2``            V-QUADS-ONE: lower seat 2's score to zero
=====================  ==============================================================

>>> Action.parse("discard 7c 2h")
Action.parse('discard 2h 7c')
>>> str(Action.parse("announce two pairs"))
'announce two pair'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from chicago.cards import DECK, Card, cards_from_mask, parse_card, parse_cards
from chicago.poker import Category

__all__ = ["Action", "ActionKind", "NotationError"]


class NotationError(ValueError):
    """A text that is not an action of the notation."""


class ActionKind(enum.Enum):
    """What an action does; the value is its keyword in the text notation."""

    __hash__ = object.__hash__  # members are unique: identity hashing is faster than by name

    DISCARD = "discard"
    ONE_UP = "one up"
    ACCEPT = "accept"
    REJECT = "reject"
    REDEAL = "redeal"
    ANNOUNCE = "announce"
    PASS = "pass"
    CHICAGO = "chicago"
    NO_CHICAGO = "no chicago"
    PLAY = "play"
    RESET = "reset"
    SCORE = "score"


_K = ActionKind
_K_DISCARD, _K_ANNOUNCE, _K_PLAY, _K_ONE_UP = _K.DISCARD, _K.ANNOUNCE, _K.PLAY, _K.ONE_UP
_K_NO_CHICAGO = _K.NO_CHICAGO
_K_RESET = _K.RESET
_KIND_WORDS = {kind: str(kind.value) for kind in ActionKind}
_HIGH_CARD = Category.HIGH_CARD
"""Each kind's word, and the kinds and category that :meth:`Action._text`, the shape's
check of a new action and the notation's reader tell apart, read once: on Python
3.11 an ``ActionKind.X`` read and a member's ``.value`` each go through the enum's slow
paths (issue 28, forty-second pass)."""


class Action(tuple[ActionKind, int, "Category | None", "int | None"]):
    """One decision of one player. Immutable, hashable, and equal by meaning.

    An action is the tuple ``(kind, card_mask, category, target)``; build it with :meth:`parse`
    or the constructors (:meth:`discard`, :meth:`play` …). ``target`` is the seat that a
    ``reset`` lowers under V-QUADS-ONE (None otherwise). Equality and hashing are those of that
    tuple, so they agree; an action never equals its text (``str(action)``, the canonical
    text): compare ``Action.parse(text)`` instead.

    >>> Action.parse("discard 7c 2h") == Action.parse("exchange 2h 7c")
    True
    >>> Action.parse("keep") == "keep", len({Action.parse("keep"), Action.discard()})
    (False, 1)
    """

    __slots__ = ()

    def __new__(
        cls,
        kind: ActionKind,
        cards: Iterable[int] = (),
        category: Category | None = None,
        target: int | None = None,
    ) -> Action:
        mask = 0
        count = 0
        for card in cards:
            mask |= 1 << Card(card)
            count += 1
        if count != mask.bit_count():
            raise NotationError("the same card is named twice")
        _check_shape(kind, count, category)
        if target is not None and (
            kind is not _K.RESET or isinstance(target, bool) or not 0 <= target < 6
        ):
            raise NotationError("only reset names a seat (0-5), e.g. 'reset 2'")
        return tuple.__new__(cls, (kind, mask, category, target))

    @classmethod
    def _of_mask(cls, kind: ActionKind, mask: int) -> Action:
        """Fast internal constructor for a card action from a valid mask."""
        return tuple.__new__(cls, (kind, mask, None, None))

    @property
    def kind(self) -> ActionKind:
        """What the action does."""
        return self[0]

    @property
    def card_mask(self) -> int:
        """The action's cards as a 52-bit mask."""
        return self[1]

    @property
    def category(self) -> Category | None:
        """The announced category, for ``announce``."""
        return self[2]

    @property
    def target(self) -> int | None:
        """The seat a ``reset`` lowers to zero (V-QUADS-ONE), or None."""
        return self[3]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of a discard (lowest id first), a one-up discard or a play."""
        return cards_from_mask(self[1])

    @property
    def card(self) -> Card:
        """The single card of a ``play`` or ``one up`` action."""
        mask = self[1]
        if mask.bit_count() != 1:
            raise AttributeError(f"{self} has no single card")
        return DECK[mask.bit_length() - 1]

    # -- constructors ---------------------------------------------------------------
    @classmethod
    def discard(cls, cards: Iterable[int | str] = ()) -> Action:
        """Exchange these cards (none: keep the hand)."""
        return cls(_K.DISCARD, [Card(c) for c in cards])

    @classmethod
    def play(cls, card: int | str) -> Action:
        """Play this card to the trick."""
        return cls(_K.PLAY, (Card(card),))

    @classmethod
    def announce(cls, category: Category | str) -> Action:
        """Announce a category in a scoring round."""
        cat = category if isinstance(category, Category) else Category.parse(category)
        return cls(_K.ANNOUNCE, (), cat)

    @classmethod
    def one_up(cls, card: int | str) -> Action:
        """V-ONE-UP: discard this card and ask for the replacement face up."""
        return cls(_K.ONE_UP, (Card(card),))

    @classmethod
    def reset(cls, target: int | None = None) -> Action:
        """V-QUADS-RESET: reset every other score; V-QUADS-ONE: lower seat ``target``'s."""
        return cls(_K.RESET, (), None, target)

    @classmethod
    def simple(cls, kind: ActionKind) -> Action:
        """An action without cards or category: pass, chicago, accept …"""
        return cls(kind)

    @classmethod
    def parse(cls, text: str | Action) -> Action:
        """Read the text notation (case-insensitive); raise :class:`NotationError` if not valid."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise NotationError(f"an action is a text like 'play Ah', not {type(text).__name__}")
        cached = _PARSE_CACHE.get(text)
        if cached is not None:
            return cached
        words = text.strip().lower().split()
        if not words:
            raise NotationError("empty action")
        try:
            action = _parse_words(words)
        except ValueError as exc:
            raise NotationError(f"{text!r} is not an action: {exc}") from None
        if len(_PARSE_CACHE) >= CACHE_BOUND:
            _PARSE_CACHE.clear()
        _PARSE_CACHE[text] = action
        return action

    # -- dunder ---------------------------------------------------------------------
    def __str__(self) -> str:
        text = _TEXT_CACHE.get(self)
        if text is None:
            text = self._text()
            if len(_TEXT_CACHE) >= CACHE_BOUND:
                _TEXT_CACHE.clear()
            _TEXT_CACHE[self] = text
        return text

    def _text(self) -> str:
        """The text notation, made afresh (:meth:`__str__` keeps it per action)."""
        kind, mask, category, target = self
        if kind is _K_DISCARD:
            return "discard " + " ".join(map(str, cards_from_mask(mask))) if mask else "keep"
        if kind is _K_ANNOUNCE:
            assert category is not None
            return f"announce {category.text}"
        word = _KIND_WORDS[kind]
        if mask:
            return f"{word} {DECK[mask.bit_length() - 1]}"
        if target is not None:
            return f"{word} {target}"
        return word

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    # Equality and hashing are the tuple's: by meaning, and the two always agree. An action
    # is never equal to its text: texts have synonyms and orders ("exchange 7c 2h" is
    # "discard 2h 7c"), so text equality would have to parse in __eq__ and hash a built
    # string, and a set could still hold an action and a text of the same meaning. Read a
    # text with Action.parse first.

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (str(self),))

    def to_json(self) -> str:
        """The JSON form of an action is its text."""
        return str(self)


CACHE_BOUND = 20_000
"""Entries each of the two caches below holds at most. One that is full is emptied and
fills again with the actions in use, so a server that runs for days keeps the actions of
its games in play (an exchange's discards are mostly new ones) in about 5.5 MB: at
100,000 entries each, the bound before, the two held about 28 MB, and past it a new action
was never cached (docs/SERVER.md, "Where the rest of a move goes")."""

_PARSE_CACHE: dict[str, Action] = {}
_TEXT_CACHE: dict[Action, str] = {}
"""Each action's text, made once: a seat's legal actions are written out in every update
of its turn (32 exchange options a turn), and equal actions have the one text."""


def _check_shape(kind: ActionKind, count: int, category: Category | None) -> None:
    if kind is _K_ANNOUNCE:
        if category is None or category is _HIGH_CARD:
            raise NotationError("announce needs a category from pair upwards")
    elif category is not None:
        raise NotationError(f"{kind.value} takes no category")
    if kind is _K_PLAY or kind is _K_ONE_UP:
        if count != 1:
            raise NotationError(f"{kind.value} takes exactly one card")
    elif kind is _K_DISCARD:
        if count > 5:
            raise NotationError("at most five cards can be discarded")
    elif count:
        raise NotationError(f"{kind.value} takes no cards")


_SIMPLE = {
    "accept": _K.ACCEPT,
    "reject": _K.REJECT,
    "redeal": _K.REDEAL,
    "pass": _K.PASS,
    "chicago": _K.CHICAGO,
    "reset": _K.RESET,
    "score": _K.SCORE,
}


_NEEDS = {
    ("one", "up"): "one up needs the card you discard, e.g. 'one up 7c' (the new card comes "
    "face up; then 'accept' or 'reject')",
    ("play",): "play needs the card, e.g. 'play Ah'",
    ("announce",): "announce needs the hand's category, e.g. 'announce pair' (pair, two pair, "
    "three of a kind, straight, flush, full house, four of a kind, straight flush, royal flush)",
    ("no",): "did you mean 'no chicago'?",
}


def _parse_words(words: list[str]) -> Action:
    head, rest = words[0], words[1:]
    need = _NEEDS.get(tuple(words))
    if need is not None:
        raise ValueError(need)
    if head == "keep" and not rest:
        return Action(_K_DISCARD)
    if head in ("discard", "exchange", "change"):
        return Action(_K_DISCARD, parse_cards(rest))
    if head == "play" and len(rest) == 1:
        return Action(_K_PLAY, (parse_card(rest[0]),))
    if head == "announce" and rest:
        return Action(_K_ANNOUNCE, (), Category.parse(" ".join(rest)))
    if head == "one" and len(rest) == 2 and rest[0] == "up":
        return Action(_K_ONE_UP, (parse_card(rest[1]),))
    if head == "reset" and len(rest) == 1 and rest[0].isdigit():
        return Action(_K_RESET, (), None, int(rest[0]))
    if head == "no" and rest == ["chicago"]:
        return Action(_K_NO_CHICAGO)
    if head in _SIMPLE and not rest:
        return Action(_SIMPLE[head])
    raise ValueError(
        "expected one of: discard CARDS, keep, one up CARD, accept, reject, redeal, "
        "announce CATEGORY, pass, chicago, no chicago, play CARD, reset, reset SEAT, score"
    )
