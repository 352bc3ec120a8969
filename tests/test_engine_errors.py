"""Rules engine: every kind of illegal action raises IllegalAction and changes nothing.

Each case compares ``record()``, every seat's view, the spectator's view and the event count
before and after (``engine_helpers.assert_illegal``). Rule ids: R-EX-1, R-EX-2, R-ANN-1,
R-ANN-2, R-TRICK-2, V-ONE-UP, V-REDEAL-LOW, V-LOCK-6, V-QUADS-RESET.
"""

from __future__ import annotations

import pytest

from chicago import Action, Game, IllegalAction, Rules
from engine_helpers import advance_to, assert_illegal, game, keep_all, run, snapshot


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["empty"]),
        ("   ", ["empty"]),
        ("fold", ["not an action", "expected one of"]),
        ("play", ["not an action", "play needs the card", "play Ah"]),
        ("one up", ["not an action", "needs the card you discard", "'one up 7c'"]),
        ("ONE  UP", ["needs the card you discard"]),
        ("announce", ["needs the hand's category", "announce pair"]),
        ("no", ["no chicago"]),
        ("play Zz", ["not a card"]),
        ("discard 2c 2c", ["duplicate"]),
        ("discard 2c 3c 4c 5c 6c 7c", ["at most five"]),
        ("announce high card", ["category"]),
        ("announce nonsense", ["not a poker hand category"]),
        ("keep 2c", ["not an action"]),
        ("chicago now", ["not an action"]),
    ],
)
def test_bad_notation(text: str, words: list[str]) -> None:
    """Texts that are not actions at all raise IllegalAction with the notation error."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert_illegal(g, text, *words)


def test_one_up_texts_of_the_notation() -> None:
    """V-ONE-UP: the one-up flow's legal actions are exactly the documented texts
    (docs/NOTATION.md): 'one up CARD' for each card in the exchange, then 'accept'/'reject'.
    Plain 'one up' is refused by Action.parse saying which card to name."""
    from chicago import NotationError

    g = game(Rules.preset("pagat", one_up=True), 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    texts = [str(a) for a in g.legal_actions()]
    assert [t for t in texts if t.startswith("one up")] == [
        "one up 2c", "one up 5d", "one up 9h", "one up Js", "one up Kc"]
    assert all(str(Action.parse(t)) == t for t in texts)
    with pytest.raises(NotationError, match=r"one up needs the card you discard, e\.g\. 'one up"):
        Action.parse("one up")
    assert not g.is_legal("one up")
    run(g, ["0: one up 9h"])
    assert [str(a) for a in g.legal_actions()] == ["accept", "reject"]


def test_not_a_text() -> None:
    """An object that is neither an Action nor a text is refused, not crashed on."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="an action is a text"):
        g.apply(42)  # type: ignore[arg-type]
    assert snapshot(g) == before
    assert not g.is_legal(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    ["play 2c", "announce pair", "pass", "chicago", "no chicago", "accept", "reject",
     "redeal", "reset", "score"],
)
def test_wrong_kind_for_the_exchange(text: str) -> None:
    """R-EX-1: in an exchange round only discards (and keep) are legal."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert_illegal(g, text, "exchange round 1", "discard")


@pytest.mark.parametrize("text", ["keep", "discard 9c", "play 9c", "chicago", "reset"])
def test_wrong_kind_for_announcements(text: str) -> None:
    """R-ANN-1: in a scoring round only announce or pass are legal."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d Kh 7s 2c"])
    keep_all(g)
    assert_illegal(g, text, "announce round 1")


@pytest.mark.parametrize("text", ["keep", "pass", "play 2c", "announce pair"])
def test_wrong_kind_for_the_chicago_call(text: str) -> None:
    """R-CHI-1: in the Chicago call only chicago or no chicago are legal."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"], scores=[20, 0])
    advance_to(g, "chicago")
    assert_illegal(g, text, "chicago phase")


@pytest.mark.parametrize("text", ["keep", "pass", "chicago", "discard 2c"])
def test_wrong_kind_for_trick_play(text: str) -> None:
    """R-TRICK-1: in trick play only play CARD is legal."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    advance_to(g, "play")
    assert_illegal(g, text, "trick 1", "play")


def test_cards_not_held() -> None:
    """R-EX-1 / R-TRICK-1: discarding or playing a card one does not hold is refused."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert_illegal(g, "discard As", "do not hold As")
    assert_illegal(g, "discard 2c As Ah", "do not hold", "As", "Ah")
    advance_to(g, "play")
    assert_illegal(g, "play As", "do not hold As")


def test_must_follow_suit() -> None:
    """R-TRICK-2: an off-suit card while holding the suit led is refused, naming the suit."""
    g = game("pagat", 2, dealer=1, hands=["9h 2c 3c 4c 6d", "Kh 4h As Ad 7c"])
    advance_to(g, "play")
    run(g, ["0: play 9h"])
    assert_illegal(g, "play 7c", "follow suit (h)", "4h", "Kh")


def test_false_and_low_announcements() -> None:
    """R-ANN-1 / R-ANN-2: a false claim and a category below the highest are refused."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d 9h 7s 2c", "5c 5d Qs 8h 3c"])
    keep_all(g)
    assert_illegal(g, "announce pair", "three of a kind", "not pair")
    assert_illegal(g, "announce four of a kind", "your hand is three of a kind")
    run(g, ["0: announce three of a kind"])
    assert_illegal(g, "announce pair", "three of a kind has been announced")


def test_too_many_discards() -> None:
    """R-EX-2: more than max_discard (or than can be drawn) is refused."""
    g = game(Rules.preset("pagat", max_discard=2), 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert_illegal(g, "discard 2c 5d 9h", "at most 2")


def test_one_up_errors() -> None:
    """V-ONE-UP: off, a card not held, or an accept/reject out of turn is refused."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert_illegal(g, "one up 2c", "V-ONE-UP")
    g = game(Rules.preset("pagat", one_up=True), 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert_illegal(g, "one up As", "do not hold As")
    assert_illegal(g, "accept", "exchange round 1")
    run(g, ["0: one up 2c"])
    for text in ("keep", "discard 5d", "one up 5d", "pass"):
        assert_illegal(g, text, "one up phase", "accept or reject")


def test_redeal_errors() -> None:
    """V-REDEAL-LOW: redealing a hand that is not low, or discarding, is refused."""
    g = game(Rules.preset("pagat", redeal_low="below-ten"), 2, dealer=1,
             hands=["2c 5d 9h Js Kc"])
    assert g.phase.value == "redeal"
    assert_illegal(g, "redeal", "five low cards", "V-REDEAL-LOW")
    assert_illegal(g, "discard 2c", "keep your hand or redeal")
    assert_illegal(g, "play 2c", "redeal phase")


def test_lock_six_errors() -> None:
    """V-LOCK-6: a six-card locked player must discard exactly one, and no one up."""
    g = game(Rules.preset("wikipedia-42"), 2, dealer=1, hands=["Ac Ad Kc Kd Qh 2s"],
             scores=[42, 0])
    assert_illegal(g, "keep", "discard exactly one")
    assert_illegal(g, "discard Ac Ad", "discard exactly one")
    assert_illegal(g, "one up Ac", "V-LOCK-6", "no one up")


def test_quads_errors() -> None:
    """V-QUADS-RESET: reset without four of a kind; score/reset out of their phase."""
    rules = Rules.preset("pagat").with_variations("V-QUADS-RESET")
    g = game(rules, 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert_illegal(g, "reset", "exchange round 1")
    advance_to(g, "quads")
    assert_illegal(g, "reset", "only four of a kind")
    assert_illegal(g, "score", "quads phase")
    g = game(rules, 2, dealer=1, hands=["9c 9d 9h 9s 2c"])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass"])
    assert_illegal(g, "pass", "quads choice phase", "reset or score")


def test_after_the_game_is_over() -> None:
    """R-END-1: nothing is legal once the game is over."""
    rules = Rules.preset("pagat", max_deals=1)
    g = game(rules, 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    err = assert_illegal(g, "keep", "game is over")
    assert err.seat is None
    assert g.legal_actions() == []


def test_error_carries_action_and_seat() -> None:
    """IllegalAction says what was tried and by whom."""
    g = game("pagat", 3, dealer=0, hands=["2c 5d 9h Js Kc"])
    with pytest.raises(IllegalAction) as info:
        g.apply("play 2c")
    assert info.value.seat == 1 and info.value.action == Action.parse("play 2c")
    assert isinstance(info.value, ValueError)


def test_constructor_errors() -> None:
    """Bad constructor arguments raise clear errors (not IllegalAction)."""
    rules = Rules.preset("pagat")
    with pytest.raises(TypeError, match="rules must be"):
        Game("pagat", 4)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="players must be an int"):
        Game(rules, "4")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dealer must be a seat"):
        Game(rules, 4, seed=1, dealer=4)
    with pytest.raises(ValueError, match="deck 0 has 51 cards"):
        Game(rules, 4, seed=1, decks=[list(range(51))])
    with pytest.raises(ValueError, match="deck 0"):
        Game(rules, 4, seed=1, decks=[["2c"] * 52])
    with pytest.raises(TypeError, match="seed must be an int"):
        Game(rules, 4, seed="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat must be"):
        Game(rules, 4, seed=1).view(4)
