"""``master:lockmodel=X`` (issue 30, h114): in a deal the bot began locked (R-EX-5: no
exchanges, the hand as dealt), the trick search credits a card that wins the last trick
against the model of sensible opponents with ``X`` of the trick's points instead of
``model``'s share; elsewhere nothing changes."""

from __future__ import annotations

import random

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.expert import best_card
from chicago.bots.master import MasterBot
from chicago.bots.model import model_moves
from chicago.bots.solver import Position, last_trick_values
from chicago.cards import Card, mask_of
from chicago.engine.knowledge import Knowledge, knowledge
from master_cases import check_option, position_scores

_RULES = Rules.preset("pagat")
# Two tricks left, seat 0 to lead (found by a search over random deals): neither card is
# sure of the last trick, neither leaves it open, and Jd wins it against the model of
# sensible opponents while 5s does not.
_HANDS = (("5s", "Jd"), ("Th", "4c"), ("7s", "Jh"), ("9h", "Qc"))
_POSITION = Position(tuple(mask_of([Card(c) for c in hand]) for hand in _HANDS), 0)
_MODEL, _OTHER = Card("Jd"), Card("5s")


def _knowledge(locked: tuple[bool, ...]) -> Knowledge:
    """Seat 0's knowledge of a fresh pagat game, with who began the deal locked set."""
    k = knowledge(Game(_RULES, 4, seed=1).view(0))
    k.scores = [47 if flag else 30 for flag in locked]
    k.locked = list(locked)
    return k


def _scores(spec: str, k: Knowledge) -> dict[Card, float]:
    return position_scores(spec, k, _POSITION)


def test_the_option_is_parsed_and_checked() -> None:
    """``lockmodel`` is unset by default (``model``'s share) and takes a share in 0..1."""
    on = check_option("lockmodel", "lock_model", None, "0.6", 0.6, ("-0.1", "1.5"))
    assert on.model == 0.3
    with pytest.raises(ValueError, match=r"lock_model must be in 0\.\.1"):
        MasterBot(lock_model=2)


def test_the_constructed_position_is_what_the_test_says_R_TRICK_4() -> None:
    assert not any(last_trick_values(_POSITION, points=5).values())
    assert model_moves(_POSITION) == {_MODEL: True, _OTHER: False}


def test_a_locked_bot_credits_the_model_card_with_its_own_share_R_EX_5() -> None:
    """R-EX-5, R-TRICK-4: locked, the card that beats the model earns ``lockmodel`` of the
    trick's five points (0.6: 3.0 where ``model=0.3`` gives 1.5); at 0 the two cards tie and
    the tie-break takes the other one, so the decision changes."""
    k = _knowledge((True, False, False, False))
    plain = _scores("master", k)
    assert plain[_MODEL] == pytest.approx(0.3 * 5) and plain[_OTHER] == 0
    assert _scores("master:lockmodel=0.6", k)[_MODEL] == pytest.approx(0.6 * 5)
    none = _scores("master:lockmodel=0", k)
    assert none[_MODEL] == none[_OTHER] == 0
    assert best_card(plain, _OTHER) == _MODEL
    assert best_card(none, _OTHER) == _OTHER


@pytest.mark.parametrize("locked", [(False,) * 4, (False, True, False, False),
                                    (False, True, True, True)])
def test_nothing_changes_unless_the_bot_itself_is_locked_R_EX_5(
    locked: tuple[bool, ...],
) -> None:
    """R-EX-5: nobody locked, or only opponents locked: the same scores as ``master``'s."""
    k = _knowledge(locked)
    for spec in ("master:lockmodel=0", "master:lockmodel=0.6", "master:lockmodel=1"):
        assert _scores(spec, k) == _scores("master", k)


def test_seeded_games_differ_only_at_a_locked_seat_and_repeat_R_EX_5() -> None:
    """A seeded game of four ``expert`` (pagat, lock at 1 point so that deal 2 locks every
    seat that scored): at every decision ``master:lockmodel=0`` and ``master`` choose alike
    unless the seat to act began the deal locked; the same seed gives the same cards."""
    rules = Rules.preset("pagat", max_deals=2, lock_at=1)
    spec = "master:samples=4;infer=0"
    plain, changed = make_bot(spec), make_bot(spec + ";lockmodel=0")
    driver = make_bot("expert:samples=4")
    game = Game(rules, 4, seed=6)
    rng = random.Random(6)
    seen: list[tuple[bool, str, str]] = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view, legal = game.view(seat), game.legal_actions()
        if view.phase == "play" and len(legal) > 1:
            a = plain.decide(view, legal, random.Random(len(seen)))
            b = changed.decide(view, legal, random.Random(len(seen)))
            again = changed.decide(view, legal, random.Random(len(seen)))
            assert b == again
            if not view.locked[seat]:
                assert a == b
            seen.append((bool(view.locked[seat]), str(a), str(b)))
        game.apply(driver.decide(view, legal, rng))
    assert any(flag for flag, _, _ in seen) and any(not flag for flag, _, _ in seen)


def test_a_locked_decision_leaves_the_bot_as_it_was_R_EX_5(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-EX-5: the locked share is passed to the expert's scoring, never set on the bot, so a
    bot shared by several tables (threads) never shows another table's decision its
    ``model`` for a moment; the expert's scoring sees ``model`` 0.3 throughout."""
    import chicago.bots.expert as expert

    bot = make_bot("master:lockmodel=0.6")
    assert isinstance(bot, MasterBot)
    seen: list[float] = []

    def watched(position: Position) -> dict[Card, bool]:
        seen.append(bot.model)
        return model_moves(position)

    monkeypatch.setattr(expert, "model_moves", watched)
    k = _knowledge((True, False, False, False))
    values = last_trick_values(_POSITION, points=_RULES.last_trick_points)
    scores = dict.fromkeys(values, 0.0)
    bot._add_scores(k, _POSITION, values, scores)
    assert scores[_MODEL] == pytest.approx(0.6 * 5)
    assert seen == [0.3]
