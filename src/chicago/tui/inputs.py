"""Typed answers to the game's questions: numbers, cards, shortcuts or the action text.

:func:`parse_answer` turns what the player typed into an :class:`~chicago.Action` (or raises
:class:`InputError` with a one-line explanation); whether the action is legal is then the
engine's to say (:class:`~chicago.IllegalAction` carries its reason). Accepted forms:

- the action text of the notation: ``discard 2h 7c``, ``keep``, ``announce pair``, ``play Ah``;
- in an exchange round: card numbers ``1 3`` (positions in the hand as shown), cards
  ``2h 7c``, ``0`` or ``keep`` to keep all, ``one up 3`` / ``u 3`` / ``one up 7c``;
- elsewhere, with ``menu``: the number of a choice in the numbered list of legal actions;
- a card (``Ah``, ``10h``, ``A♥``) to play it, and in play with ``menu=False`` its position;
- the start of a legal action's text when only one fits: ``p`` for pass, ``ch`` for chicago.

>>> view = {"phase": "exchange", "hand": ["2c", "7d", "9h", "Ks", "As"],
...         "legal_actions": ["keep", "discard 2c"]}
>>> str(parse_answer("1 2", view))
'discard 2c 7d'
>>> str(parse_answer("0", view))
'keep'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chicago.cards import Card, parse_card
from chicago.engine import Action, ActionKind, NotationError

__all__ = ["COMMANDS", "InputError", "command_of", "parse_answer"]


class InputError(ValueError):
    """What was typed is not an answer to the question; the message says why in one line."""


COMMANDS = {
    "help": "help", "?": "help", "rules": "help",
    "hint": "hint", "odds": "hint",
    "look": "state", "state": "state", "hand": "state", "scores": "state", "table": "state",
    "quit": "quit", "exit": "quit", "save": "quit",
}
"""Words that are not answers but requests to the shell, by the request they make."""


def command_of(text: str) -> str | None:
    """The shell request (``help``, ``hint``, ``state``, ``quit``) typed, if any."""
    return COMMANDS.get(text.strip().lower())


_KEEP_WORDS = {"0", "keep", "k", "none", "-", "stand"}
_DISCARD_WORDS = {"discard", "exchange", "change", "d", "x"}
_ONE_UP_WORDS = {"u", "up", "oneup", "one-up"}


def parse_answer(text: str, view: dict[str, Any], *, menu: bool = True) -> Action:
    """The action meant by ``text`` given the seat's ``view`` (its hand and legal actions).

    ``menu`` says numbers outside an exchange round pick from the numbered list of legal
    actions; without it a number is a card's position in the hand. Raises
    :class:`InputError` if nothing sensible is meant; the result may still be illegal.
    """
    stripped = text.strip()
    if not stripped:
        raise InputError("nothing typed: " + _expected(view, menu))
    legal = [str(a) for a in view.get("legal_actions", [])]
    try:
        return Action.parse(stripped)
    except NotationError:
        pass
    tokens = stripped.replace(",", " ").lower().split()
    hand = [Card(c) for c in view.get("hand", [])]
    if view.get("phase") == "exchange":
        return _exchange_answer(tokens, hand, view, menu)
    if len(tokens) == 1 and tokens[0].isdigit():
        number = int(tokens[0])
        if menu:
            if 1 <= number <= len(legal):
                return Action.parse(legal[number - 1])
            raise InputError(f"there is no choice {number}: " + _expected(view, menu))
        if view.get("phase") == "play":
            return Action.play(_card_at(number, hand))
        raise InputError(f"a number picks a card only when you play: {_expected(view, menu)}")
    if len(tokens) == 1 and view.get("phase") == "play":
        card = _maybe_card(tokens[0])
        if card is not None:
            return Action.play(card)
    fitting = [a for a in legal if a.startswith(stripped.lower())]
    if len(fitting) == 1:
        return Action.parse(fitting[0])
    if len(fitting) > 1:
        raise InputError(f"{stripped!r} fits several choices: {', '.join(fitting)}")
    raise InputError(f"{stripped!r} is not an answer here: " + _expected(view, menu))


def _exchange_answer(
    tokens: list[str], hand: list[Card], view: dict[str, Any], menu: bool
) -> Action:
    if len(tokens) == 1 and tokens[0] in _KEEP_WORDS:
        return Action.discard(())
    if tokens[0] in _DISCARD_WORDS:
        tokens = tokens[1:]
        if not tokens:
            return Action.discard(())
    one_up = False
    if tokens[0] == "one" and len(tokens) > 1 and tokens[1] == "up":
        one_up, tokens = True, tokens[2:]
    elif tokens[0] in _ONE_UP_WORDS:
        one_up, tokens = True, tokens[1:]
    cards = [_token_card(token, hand, view, menu) for token in tokens]
    if one_up:
        if len(cards) != 1:
            raise InputError("one up takes exactly one card: e.g. 'one up 3' or 'one up 7c'")
        return Action.one_up(cards[0])
    if len(set(cards)) != len(cards):
        raise InputError("the same card is named twice")
    if len(cards) > 5:
        raise InputError("at most five cards can be discarded")
    return Action.discard(cards)


def _token_card(token: str, hand: Sequence[Card], view: dict[str, Any], menu: bool) -> Card:
    if token.isdigit():
        return _card_at(int(token), hand)
    card = _maybe_card(token)
    if card is None:
        raise InputError(f"{token!r} is not a card or a card number: " + _expected(view, menu))
    return card


def _card_at(number: int, hand: Sequence[Card]) -> Card:
    if not 1 <= number <= len(hand):
        raise InputError(
            f"there is no card {number}: your hand has {len(hand)} cards, numbered 1-{len(hand)}"
        )
    return hand[number - 1]


def _maybe_card(token: str) -> Card | None:
    try:
        return parse_card(token)
    except ValueError:
        return None


def _example(view: dict[str, Any]) -> str:
    """Two cards of the seat's own hand, as an example of card names."""
    hand = view.get("hand", [])
    return " ".join(hand[:3:2]) if len(hand) >= 3 else "Qh 3c"


def _expected(view: dict[str, Any], menu: bool) -> str:
    """A short reminder of what may be typed now."""
    phase = view.get("phase")
    legal = [str(a) for a in view.get("legal_actions", [])]
    if phase == "exchange":
        kinds = {Action.parse(a).kind for a in legal}
        text = f"type card numbers (1 3) or cards ({_example(view)}) to discard, or 0 to keep all"
        if ActionKind.ONE_UP in kinds:
            text += ", or 'one up N'"
        return text
    if phase == "play":
        cards = " ".join(str(Action.parse(a).card) for a in legal)
        return f"play one of {cards}" + (" (the number of a choice, or the card)" if menu else "")
    if not legal:
        return "it is not your turn"
    if menu:
        return f"type 1-{len(legal)} or one of: {', '.join(legal)}"
    return f"type one of: {', '.join(legal)}"
