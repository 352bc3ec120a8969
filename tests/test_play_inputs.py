"""Typed answers: numbers, cards, shortcuts and the action text, and their one-line errors."""

from __future__ import annotations

import dataclasses

import pytest

from chicago import Action, Phase, SeatView
from chicago.cards import parse_cards
from chicago.engine.views import hand_view
from chicago.tui.inputs import InputError, command_of, parse_answer

HAND = ["2c", "7d", "9h", "Ks", "As"]


def view(phase: str, legal: list[str], hand: list[str] = HAND) -> SeatView:
    """A seat's view of ``hand`` in ``phase`` with ``legal`` actions (all else a first deal's)."""
    return dataclasses.replace(
        hand_view(parse_cards(" ".join(hand))), phase=Phase(phase),
        legal_actions=tuple(Action.parse(a) for a in legal),
    )


EXCHANGE = view("exchange", ["keep", "discard 2c", "one up 2c"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 3", "discard 2c 9h"),
        ("1,3", "discard 2c 9h"),
        ("9h 2c", "discard 2c 9h"),
        ("10h", "discard Th"),  # parses; the engine says it is not held
        ("discard 1 2", "discard 2c 7d"),
        ("x 5", "discard As"),
        ("0", "keep"),
        ("keep", "keep"),
        ("K", "keep"),
        ("one up 2", "one up 7d"),
        ("u 1", "one up 2c"),
        ("one up Ks", "one up Ks"),
        ("pass", "pass"),  # action text goes to the engine as it is
    ],
)
def test_exchange_answers(text: str, expected: str) -> None:
    """R-EX-1: cards to discard by position or by name; 0 or keep keeps all five."""
    assert str(parse_answer(text, EXCHANGE)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "nothing typed"),
        ("7", "there is no card 7: your hand has 5 cards"),
        ("zz", "'zz' is not a card or a card number"),
        ("1 1", "the same card is named twice"),
        ("one up 1 2", "one up takes exactly one card"),
        ("1 2 3 4 5 5", "the same card is named twice"),
    ],
)
def test_exchange_errors(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_answer(text, EXCHANGE)


def test_menu_numbers_and_unique_prefixes() -> None:
    announce = view("announce", ["pass", "announce pair"])
    assert str(parse_answer("1", announce)) == "pass"
    assert str(parse_answer("2", announce)) == "announce pair"
    assert str(parse_answer("a", announce)) == "announce pair"
    assert str(parse_answer("announce", announce)) == "announce pair"
    assert str(parse_answer("P", announce)) == "pass"
    with pytest.raises(InputError, match="there is no choice 3: type 1-2"):
        parse_answer("3", announce)
    with pytest.raises(InputError, match="is not an answer here"):
        parse_answer("zzz", announce)
    with pytest.raises(InputError, match="a number picks a card only when you play"):
        parse_answer("1", announce, menu=False)
    chicago = view("chicago", ["no chicago", "chicago"])
    assert str(parse_answer("n", chicago)) == "no chicago"
    assert str(parse_answer("c", chicago)) == "chicago"
    both = view("one up", ["accept", "reject"])
    assert str(parse_answer("r", both)) == "reject"
    quads = view("quads choice", ["score", "reset"])
    with pytest.raises(InputError):
        parse_answer("", quads)


def test_play_answers() -> None:
    """R-TRICK-2: a card, its menu number or (full screen) its hand position."""
    play = view("play", ["play 7d", "play Ks"])
    assert str(parse_answer("2", play)) == "play Ks"
    assert str(parse_answer("ks", play)) == "play Ks"
    assert str(parse_answer("K♠", play)) == "play Ks"
    assert str(parse_answer("2c", play)) == "play 2c"  # not legal: the engine says why
    assert str(parse_answer("1", play, menu=False)) == "play 2c"
    with pytest.raises(InputError, match="there is no card 6"):
        parse_answer("6", play, menu=False)
    with pytest.raises(InputError, match="play one of 7d Ks"):
        parse_answer("zz", play)
    with pytest.raises(InputError, match="fits several choices"):
        parse_answer("play", view("play", ["play 7d", "play Ks"]))


def test_shell_requests() -> None:
    assert command_of(" HELP ") == "help"
    assert command_of("?") == "help"
    assert command_of("odds") == "hint"
    assert command_of("look") == "state"
    assert command_of("quit") == "quit"
    assert command_of("pass") is None
