"""Typed answers to the game's questions: numbers, cards, shortcuts or the action text.

:func:`parse_answer` turns what the player typed into an :class:`~chicago.Action` (or raises
:class:`InputError` with a one-line explanation); whether the action is legal is then the
engine's to say (:func:`chicago.tui.explain.why_not` words it for the player). Accepted
forms, in English or Swedish:

- the action text of the notation: ``discard 2h 7c``, ``keep``, ``announce pair``, ``play Ah``;
- in an exchange round: card numbers ``1 3`` (positions in the hand as shown), cards
  ``2h 7c``, ``0`` or ``keep``/``behåll`` to keep all, ``one up 3`` / ``u 3`` / ``öppet 3``;
- elsewhere, with ``menu``: the number of a choice in the numbered list of legal actions;
- a card (``Ah``, ``10h``, ``A♥``) to play it, and in play with ``menu=False`` its position;
- the start of a legal action's text when only one fits: ``p`` for pass, ``ch`` for chicago;
  the Swedish words of the buttons: ``passa``, ``säg`` (``säg två par``), ``ingen chicago``,
  ``ta``, ``neka``, ``nya kort``, ``nollställ``, ``ta poängen``, ``spela Ah``.

>>> from chicago.cards import parse_cards
>>> from chicago.engine.views import hand_view
>>> view = hand_view(parse_cards("2c 7d 9h Ks As"))
>>> str(parse_answer("1 2", view))
'discard 2c 7d'
>>> str(parse_answer("0", view))
'keep'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chicago.cards import Card, parse_card
from chicago.engine import Action, ActionKind, NotationError, SeatView
from chicago.tui.words import Words

__all__ = [
    "COMMANDS",
    "SWEDISH_COMMANDS",
    "InputError",
    "command_of",
    "expected_answer",
    "parse_answer",
    "typed_answer",
]


class InputError(ValueError):
    """What was typed is not an answer to the question; the message says why in one line.

    ``key`` and ``params`` are the message in the catalogue (:mod:`chicago.tui.lang`); with
    a ``view`` a reminder of what may be typed follows. :meth:`say` words it in a language;
    ``str()`` is English.
    """

    def __init__(
        self, key: str, view: SeatView | None = None, menu: bool = True, **params: Any
    ) -> None:
        self.key = key
        self.params = params
        self.view = view
        self.menu = menu
        super().__init__(self.say(Words([])))

    def say(self, words: Words) -> str:
        """The message in the language of ``words``."""
        text = words.t(self.key, **self.params)
        if self.view is not None:
            text += ": " + expected_answer(self.view, self.menu, words)
        return text


COMMANDS = {
    "help": "help", "?": "help", "rules": "help", "hjälp": "help", "regler": "help",
    "hint": "hint", "odds": "hint", "tips": "hint",
    "look": "state", "state": "state", "hand": "state", "table": "state",
    "läge": "state", "titta": "state", "bord": "state",
    "scores": "scores", "score sheet": "scores", "poäng": "scores", "poängtavla": "scores",
    "quit": "quit", "exit": "quit", "save": "quit", "avsluta": "quit", "spara": "quit",
}
"""Words that are not answers but requests to the shell, by the request they make."""

SWEDISH_COMMANDS = frozenset(
    {"hjälp", "regler", "tips", "läge", "titta", "bord", "poäng", "poängtavla", "avsluta",
     "spara"}
)
"""The Swedish words among :data:`COMMANDS` (the help lists them only in Swedish)."""


def command_of(text: str) -> str | None:
    """The shell request (``help``, ``hint``, ``state``, ``scores``, ``quit``) typed, if any."""
    return COMMANDS.get(text.strip().lower())


_KEEP_WORDS = {"0", "keep", "k", "none", "-", "stand", "behåll", "behall"}
_DISCARD_WORDS = {"discard", "exchange", "change", "d", "x", "släng", "slang", "byt"}
_ONE_UP_WORDS = {"u", "up", "oneup", "one-up", "öppet", "oppet"}

_SWEDISH = {
    "passa": "pass", "säg": "announce", "sag": "announce", "ingen chicago": "no chicago",
    "ta": "accept", "neka": "reject", "nya kort": "redeal", "nollställ": "reset",
    "nollstall": "reset", "ta poängen": "score", "ta poangen": "score", "spela": "play",
}
"""The Swedish words of the buttons (and their forms without å, ä, ö), as action text."""

_SWEDISH_CATEGORIES = {
    "ett par": "pair", "par": "pair", "två par": "two pair",
    "triss": "three of a kind", "en stege": "straight", "stege": "straight",
    "en färg": "flush", "färg": "flush", "en kåk": "full house", "kåk": "full house",
    "fyrtal": "four of a kind", "en färgstege": "straight flush",
    "färgstege": "straight flush", "en royal flush": "royal flush",
}
"""The categories in Swedish (as the browser app names them), for ``säg par``."""


_TYPED_SWEDISH = {
    "pass": "passa", "announce": "säg", "no chicago": "ingen chicago", "accept": "ta",
    "reject": "neka", "redeal": "nya kort", "reset": "nollställ", "score": "ta poängen",
    "play": "spela", "keep": "behåll",
}
"""The Swedish word a player types for each kind of action (read back by :func:`_english`)."""
_TYPED_CATEGORIES = {
    "pair": "par", "two pair": "två par", "three of a kind": "triss", "straight": "stege",
    "flush": "färg", "full house": "kåk", "four of a kind": "fyrtal",
    "straight flush": "färgstege",
}


def typed_answer(action: str, words: Words) -> str:
    """What a player types for the legal ``action`` in the language of ``words``: the action
    text in English, the Swedish words the line mode reads in Swedish.

    >>> typed_answer("announce two pair", Words([], lang="sv"))
    'säg två par'
    >>> typed_answer("no chicago", Words([], lang="sv")), typed_answer("pass", Words([]))
    ('ingen chicago', 'pass')
    """
    if words.lang.code != "sv":
        return action
    for head in sorted(_TYPED_SWEDISH, key=len, reverse=True):
        if action == head or action.startswith(head + " "):
            rest = action[len(head):].strip()
            if head == "announce":
                rest = _TYPED_CATEGORIES.get(rest, rest)
            return f"{_TYPED_SWEDISH[head]} {rest}".strip()
    return action


def _english(text: str) -> str:
    """``text`` with a leading Swedish button word (and a Swedish category after ``säg``)
    replaced by the action's text: ``säg två par`` -> ``announce two pair``."""
    lowered = text.lower()
    for word in sorted(_SWEDISH, key=len, reverse=True):
        if lowered == word or lowered.startswith(word + " "):
            text = _SWEDISH[word] + text[len(word):]
            break
    head, _, rest = text.partition(" ")
    if head.lower() == "announce" and rest.lower() in _SWEDISH_CATEGORIES:
        return f"announce {_SWEDISH_CATEGORIES[rest.lower()]}"
    return text


def parse_answer(text: str, view: SeatView, *, menu: bool = True) -> Action:
    """The action meant by ``text`` given the seat's ``view`` (its hand and legal actions).

    ``menu`` says numbers outside an exchange round pick from the numbered list of legal
    actions; without it a number is a card's position in the hand. Raises
    :class:`InputError` if nothing sensible is meant; the result may still be illegal.
    """
    stripped = _english(text.strip())
    if not stripped:
        raise InputError("tui.in.nothing", view, menu)
    legal = [str(a) for a in view.legal_actions]
    try:
        return Action.parse(stripped)
    except NotationError:
        pass
    tokens = stripped.replace(",", " ").lower().split()
    hand = list(view.hand)
    if view.phase == "exchange":
        return _exchange_answer(tokens, hand, view, menu)
    if len(tokens) == 1 and tokens[0].isdigit():
        number = int(tokens[0])
        if menu:
            if 1 <= number <= len(legal):
                return Action.parse(legal[number - 1])
            raise InputError("tui.in.no_choice", view, menu, n=number)
        if view.phase == "play":
            return Action.play(_card_at(number, hand))
        raise InputError("tui.in.number_only_in_play", view, menu)
    if tokens and tokens[0] == "play" and len(tokens) == 2:
        card = _maybe_card(tokens[1])
        if card is not None:
            return Action.play(card)
    if len(tokens) == 1 and view.phase == "play":
        card = _maybe_card(tokens[0])
        if card is not None:
            return Action.play(card)
    fitting = [a for a in legal if a.startswith(stripped.lower())]
    if len(fitting) == 1:
        return Action.parse(fitting[0])
    if len(fitting) > 1:
        raise InputError(
            "tui.in.several", typed=stripped, choices=", ".join(fitting)
        )
    raise InputError("tui.in.not_an_answer", view, menu, typed=text.strip())


def _exchange_answer(
    tokens: list[str], hand: list[Card], view: SeatView, menu: bool
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
            raise InputError("tui.in.one_up_one")
        return Action.one_up(cards[0])
    if len(set(cards)) != len(cards):
        raise InputError("tui.in.twice")
    if len(cards) > 5:
        raise InputError("tui.in.at_most_five")
    return Action.discard(cards)


def _token_card(token: str, hand: Sequence[Card], view: SeatView, menu: bool) -> Card:
    if token.isdigit():
        return _card_at(int(token), hand)
    card = _maybe_card(token)
    if card is None:
        raise InputError("tui.in.not_a_card", view, menu, typed=token)
    return card


def _card_at(number: int, hand: Sequence[Card]) -> Card:
    if not 1 <= number <= len(hand):
        raise InputError("tui.in.no_card", n=number, size=len(hand))
    return hand[number - 1]


def _maybe_card(token: str) -> Card | None:
    try:
        return parse_card(token)
    except ValueError:
        return None


def _example(view: SeatView) -> str:
    """Two cards of the seat's own hand, as an example of card names."""
    hand = view.hand
    return " ".join(str(c) for c in hand[:3:2]) if len(hand) >= 3 else "Qh 3c"


def expected_answer(view: SeatView, menu: bool, words: Words | None = None) -> str:
    """A short reminder of what may be typed now, in the language of ``words``."""
    words = words if words is not None else Words([])
    phase = view.phase
    legal = [str(a) for a in view.legal_actions]
    if phase == "exchange":
        kinds = {a.kind for a in view.legal_actions}
        text = words.t("tui.in.expect_exchange", example=_example(view))
        if ActionKind.ONE_UP in kinds:
            text += words.t("tui.in.expect_one_up")
        return text
    if phase == "play":
        cards = " ".join(str(a.card) for a in view.legal_actions)
        return words.t("tui.in.expect_play_menu" if menu else "tui.in.expect_play", cards=cards)
    if not legal:
        return words.t("tui.in.not_your_turn")
    choices = ", ".join(typed_answer(a, words) for a in legal)
    if menu:
        return words.t("tui.in.expect_menu", n=len(legal), choices=choices)
    return words.t("tui.in.expect_text", choices=choices)
