"""The C accelerator of the trick searches (chicago.bots._solver) gives the pure-Python answers.

Every query of :mod:`chicago.bots.solver` and :mod:`chicago.bots.model` is asked twice on
random positions drawn by hypothesis — 2 to 6 seats (V-LARGE), 1 to 5 tricks left, any
leader (R-TRICK-1, R-CHI-6 / V-CHI-13 lead), mid-trick positions, Chicago declarers
(R-CHI-4), the deuce goal (V-DEUCE) — once in C and once in pure Python, and the answers
must be equal. Then whole games of the ``expert`` bot, which asks these queries thousands of
times, are played both ways under the variations that change trick play: every choice is
the same. Hypothesis runs derandomized: the same examples on every run. (The searches
themselves are checked against a plain minimax in test_solver.py, on both paths.)
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.bots import accel, make_bot
from chicago.bots.model import model_card, model_moves, model_wins
from chicago.bots.solver import (
    Position,
    can_make_chicago,
    can_win_last_trick,
    chicago_moves,
    last_trick_moves,
    last_trick_value,
    last_trick_values,
)
from chicago.cards import ids_of_mask

pytestmark = pytest.mark.skipif(not accel.ACCELERATED, reason="the C accelerator is not built")


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position of 2-6 seats and 1-5 tricks left, perhaps mid-trick, perhaps with a
    Chicago declarer; half of them dealt from a few suits so that players follow suit."""
    n = draw(st.integers(2, 6))
    left = draw(st.integers(1, 5))
    if draw(st.booleans()):
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
        deck = [r * 4 + s for r in range(13) for s in suits]
        if len(deck) < n * left:
            deck = list(range(52))
    else:
        deck = list(range(52))
    deck = draw(st.permutations(deck))
    hands = [sorted(deck[k * left : (k + 1) * left]) for k in range(n)]
    leader = draw(st.integers(0, n - 1))
    declarer = draw(st.none() | st.integers(0, n - 1))
    position = Position.from_hands(hands, leader, declarer=declarer)
    for _ in range(draw(st.integers(0, n - 1))):
        moves = position.legal_moves()
        position = position.play(moves[draw(st.integers(0, len(moves) - 1))])
    return position


def answers(position: Position) -> dict[str, Any]:
    """Every query of the solver and the model about ``position``."""
    n = position.n_seats
    mover = position.to_act
    out: dict[str, Any] = {
        "chicago": [can_make_chicago(position, s) for s in range(n)],
        "chicago_moves": [chicago_moves(position, s) for s in range(n)],
    }
    if position.declarer is None:
        out.update(
            last=[can_win_last_trick(position, s) for s in range(n)],
            value=[last_trick_value(position, s, deuce_points=10) for s in range(n)],
            moves=[last_trick_moves(position, s) for s in range(n)],
            values=last_trick_values(position),
            deuce_values=last_trick_values(position, points=5, deuce_points=10),
            model_moves=model_moves(position),
            model_wins=[model_wins(position, s) for s in range(n)],
        )
    out["mover"] = mover
    return out


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_c_and_python_searches_agree_R_TRICK_1_2_3_4_R_CHI_4_V_DEUCE_V_LARGE(
    position: Position,
) -> None:
    """The C searches answer every query as the pure-Python ones do."""
    fast = answers(position)
    with accel.pure_python():
        assert accel.active() is None
        slow = answers(position)
    assert fast == slow, str(position)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    st.permutations(range(52)),
    st.integers(1, 5),
    st.integers(0, 5),
)
def test_model_card_agrees_with_c(deck: list[int], size: int, on_table: int) -> None:
    """The opponent model's card choice (the ``basic`` rules of thumb) is the same in C."""
    hand = sorted(deck[:size])
    table = deck[size : size + on_table]
    mask = sum(1 << c for c in hand)
    module = accel.active()
    assert module is not None
    assert module.model_card(mask, table) == model_card(hand, table)
    assert ids_of_mask(mask) == hand


def test_pure_python_fallback_in_a_fresh_interpreter() -> None:
    """With CHICAGO_PURE_PYTHON set, the searches run without the extension, same answers."""
    script = (
        "from chicago.bots import accel\n"
        "from chicago.bots.solver import Position, last_trick_values\n"
        "p = Position.from_text(['2c As Kd', 'Kh Qh 3d', 'Jc Tc 9d'], leader=1)\n"
        "print(accel.ACCELERATED, sorted(last_trick_values(p, deuce_points=10).items()))\n"
    )
    env = dict(os.environ, CHICAGO_PURE_PYTHON="1")
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.split(" ", 1)
    p = Position.from_text(["2c As Kd", "Kh Qh 3d", "Jc Tc 9d"], leader=1)
    assert out[0] == "False"
    assert out[1].strip() == str(sorted(last_trick_values(p, deuce_points=10).items()))


def test_c_entry_points_refuse_bad_input() -> None:
    """Bad arguments give a clear error, never a crash or a wrong answer."""
    module = accel.active()
    assert module is not None
    hands = (0b1, 0b10)
    with pytest.raises(ValueError, match="2 to 6 seats"):
        module.solve((1,), 0, 0, 0, 0, 0, 0, 0, 1, 1)
    with pytest.raises(ValueError, match="52-bit"):
        module.solve((1 << 60, 2), 0, 0, 0, 0, 0, 0, 0, 1, 3)
    with pytest.raises(ValueError, match="target"):
        module.solve(hands, 5, 0, 0, 0, 0, 0, 0, 1, 3)
    with pytest.raises(ValueError, match="goal"):
        module.solve(hands, 0, 7, 0, 0, 0, 0, 0, 1, 3)
    with pytest.raises(TypeError):
        module.solve(hands, 0, 0)
    with pytest.raises(ValueError, match="best card"):
        module.solve(hands, 0, 0, 0, 1, 0b1, 0, 0, 1, 3)
    with pytest.raises(ValueError, match="does not hold"):
        module.model_after(hands, 0, 0, (), (1,))
    with pytest.raises(ValueError, match="empty hand"):
        module.model_card(0, ())


# Variations that change trick play, each on top of a preset: table sizes (V-LARGE), the
# deuce bonus (V-DEUCE), the declarer leading (V-CHI-13), no Chicago at all (denexa), one-up
# and two exchanges (wikipedia), six cards dealt to a locked player (wikipedia-42).
GAMES = [
    ("pagat", (), 4),
    ("pagat", ("V-DEUCE",), 4),
    ("pagat", ("V-CHI-13",), 3),
    ("pagat", ("V-LARGE",), 5),
    ("pagat", ("V-LARGE", "V-DEUCE"), 6),
    ("denexa", (), 4),
    ("wikipedia", (), 4),
    ("wikipedia-42", (), 2),
]


def _expert_actions(rules: Rules, players: int, seed: int) -> list[str]:
    bot = make_bot("expert:samples=4")
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    actions = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = bot.decide(game.view(seat), game.legal_actions(), rng)
        actions.append(str(action))
        game.apply(action)
    return actions


@pytest.mark.parametrize(("preset", "variations", "players"), GAMES)
@settings(max_examples=1, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_expert_plays_the_same_game_with_either_search_V_DEUCE_V_CHI_13_V_LARGE(
    preset: str, variations: tuple[str, ...], players: int, seed: int
) -> None:
    """Whole games (two deals) of experts: every choice is the same in C and Python."""
    rules = Rules.preset(preset, max_deals=2).with_variations(*variations)
    fast = _expert_actions(rules, players, seed)
    with accel.pure_python():
        slow = _expert_actions(rules, players, seed)
    assert fast == slow
