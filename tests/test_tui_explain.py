"""Refused moves in the player's words (tui/explain.py), from the seat's view only.

Each case is a real position of the engine: the engine refuses the action (its reason is
for programs: "seat 0 may discard or one up, not announce …"), and the player is told what
cannot be done, why, and what may be done instead, in English and in Swedish.
"""

from __future__ import annotations

import pytest

from chicago import Action, Game, IllegalAction, Rules
from chicago.tui.explain import why_not
from chicago.tui.words import Words, symbol_card
from engine_helpers import game, keep_all

EN = Words(["You", "Bo", "Cy", "Di"], me=0, card=symbol_card)
SV = Words(["Du", "Bo", "Cy", "Di"], me=0, card=symbol_card, lang="sv")


def refused(g: Game, text: str, words: Words = EN) -> str:
    """The player's reason for ``text`` at seat 0, after checking that the engine refuses."""
    assert g.to_act == 0
    with pytest.raises(IllegalAction) as caught:
        g.copy().apply(text)
    reason = why_not(Action.parse(text), g.view(0), words)
    assert "seat 0" not in reason and caught.value.reason not in reason
    return reason


def to_play(g: Game) -> Game:
    """Everyone keeps and passes (no Chicago) until the tricks begin."""
    while g.phase.value != "play":
        texts = [str(a) for a in g.legal_actions()]
        g.apply(next(t for t in ("keep", "pass", "no chicago") if t in texts))
    return g


def test_a_decision_of_another_phase() -> None:
    """R-EX-1: announcing or playing in an exchange round names the phase and what to do."""
    g = game("wikipedia", 4, dealer=3)
    assert refused(g, "announce pair") == (
        "You cannot announce now: it is exchange 1 of 2, and you may exchange cards or ask "
        "for one up.")
    assert refused(g, "play 2c", SV).startswith(
        "Du kan inte spela ett kort nu: det är byte 1 av 2, och du får byta kort eller be om "
        "öppet kort")


def test_a_card_not_held_and_following_suit() -> None:
    """R-TRICK-2: a card the player does not hold; a card that does not follow the suit led
    while the player holds that suit."""
    g = to_play(game("denexa", 2, dealer=0, hands={1: "2c 3c 4d 5h 9s", 0: "Ac Kd Qh Js 8s"}))
    assert g.to_act == 1
    g.apply("play 2c")
    assert refused(g, "play Ah") == "You do not hold A♥."
    assert refused(g, "play Qh") == "You must follow suit: clubs were led, and you hold A♣."
    assert refused(g, "play Qh", SV) == (
        "Du måste bekänna färg: det spelades ut klöver, och du har A♣.")


def test_announce_exactly_and_not_below_the_best_so_far() -> None:
    """R-ANN-1, R-ANN-2: announce exactly the hand, and at least the best announced so far."""
    g = game("pagat", 3, dealer=2, hands={0: "2c 2d 4h 7s 9c", 1: "Kc Kd Qh Qs 8c"})
    keep_all(g)
    assert refused(g, "announce flush") == (
        "Your hand is a pair, not a flush: announce exactly what you hold.")
    assert refused(g, "announce flush", SV) == (
        "Du har ett par, inte en färg: säg exakt vad du har.")
    later = game("pagat", 3, dealer=0, hands={1: "Kc Kd Qh Qs 8c", 0: "2c 2d 4h 7s 9c"})
    keep_all(later)
    later.apply("announce two pair")
    while later.to_act != 0:
        later.apply("pass")
    assert refused(later, "announce pair") == (
        "Someone has announced two pair: announce that or better, or pass.")


def test_six_cards_and_one_up_without_the_variation() -> None:
    """V-LOCK-6, V-ONE-UP: six locked cards lose exactly one; one up needs its variation."""
    six = game(Rules.preset("wikipedia-42"), 4, dealer=3, hands=["2c 5d 8h Js Ah Kc"],
               scores=[45, 0, 0, 0])
    hand = [str(c) for c in six.view(0).hand]
    assert len(hand) == 6
    assert refused(six, f"discard {hand[0]} {hand[1]}") == (
        "You hold six cards (locked): throw away exactly one.")
    assert refused(six, f"one up {hand[0]}") == (
        "You hold six cards (locked): throw away exactly one.")
    plain = game("pagat", 3, dealer=2)
    assert refused(plain, f"one up {plain.view(0).hand[0]}") == (
        "There is no one up under these rules.")


def test_not_the_players_turn() -> None:
    g = game("pagat", 3, dealer=2)
    assert g.to_act == 0
    assert why_not(Action.parse("keep"), g.view(1), Words(["A", "You", "C"], me=1)) == (
        "It is not your turn.")
