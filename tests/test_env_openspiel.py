"""The OpenSpiel game python_chicago: OpenSpiel's random simulation test (with
serialization), explicit chance nodes (R-TABLE-3, R-TABLE-4, R-EX-2), information states
that hold no hidden card, resampling, and OpenSpiel's ISMCTS bot against chicago's bots."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel game needs the extra [openspiel]")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from chicago.bots import bot_levels  # noqa: E402
from chicago.env.actions import NUM_ACTIONS  # noqa: E402
from chicago.env.observation import OBSERVATION_SIZE  # noqa: E402
from chicago.env.openspiel import ChicagoBot, ChicagoGame, rules_of_params  # noqa: E402

GAMES = [
    {"players": 4, "max_deals": 2},
    {"players": 4, "preset": "wikipedia", "max_deals": 2,
     "variations": "V-ONE-UP V-REDEAL-LOW V-QUADS-RESET"},
    {"players": 6, "max_deals": 1, "variations": "V-LARGE"},
    {"players": 3, "preset": "wikipedia-42", "max_deals": 2, "rules": "lock_at:1"},
    {"players": 2, "preset": "denexa", "max_deals": 2},
]


def _chance(state, rng: random.Random) -> None:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    assert sum(probs) == pytest.approx(1.0)
    state.apply_action(rng.choice(outcomes))


def _to_decision(state, rng: random.Random):
    while state.is_chance_node():
        _chance(state, rng)
    return state


@pytest.mark.parametrize("params", GAMES)
def test_openspiel_random_simulation_test(params):
    """OpenSpiel's own consistency checks over whole random games, serialization included."""
    game = pyspiel.load_game("python_chicago", params)
    sims = 2 if params is GAMES[0] else 1
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_game_facts():
    game = pyspiel.load_game("python_chicago", {"players": 4, "max_deals": 2})
    assert isinstance(game, ChicagoGame)
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 52
    assert game.num_players() == 4
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE + 12]
    info = game.get_type()
    assert info.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert info.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_chance_nodes_for_the_dealer_and_every_card():
    """R-TABLE-3: the first dealer is a chance outcome; R-TABLE-4: each dealt card is one,
    uniform over the cards not dealt yet; then the player left of the dealer acts."""
    game = pyspiel.load_game("python_chicago", {"players": 4})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [o for o, _ in state.chance_outcomes()] == [0, 1, 2, 3]
    state.apply_action(2)
    for dealt in range(20):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - dealt
        assert all(p == pytest.approx(1 / (52 - dealt)) for _, p in outcomes)
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 3
    assert [str(c) for c in state.view(3).hand] == ["2c", "3c", "4c", "5c", "6c"]
    # a discard of two cards: one decision, then two chance nodes
    state.apply_action(52 + 0b11)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 32
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0


def test_serialize_and_pickle_round_trip():
    game = pyspiel.load_game("python_chicago", {"players": 3, "max_deals": 2})
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(40):
        if state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state) and state2.history() == state.history()
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    _to_decision(state, rng)
    _to_decision(state2, random.Random(4))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()


def test_information_state_holds_no_hidden_card():
    """Two deals that differ only in the other seats' cards give the seat the same
    information state and observation (strings and tensors); the others' differ."""
    game = pyspiel.load_game("python_chicago", {"players": 4})
    states = []
    for swap in (False, True):
        state = game.new_initial_state()
        state.apply_action(0)  # dealer 0: seats 1, 2, 3, 0 receive in turn
        order = list(range(52))
        if swap:  # exchange the cards of seats 2 and 3
            for i in range(5):
                a, b = 4 * i + 1, 4 * i + 2
                order[a], order[b] = order[b], order[a]
        for card in order[:20]:
            state.apply_action(card)
        states.append(state)
    a, b = states
    assert a.current_player() == b.current_player() == 1
    for state_a, state_b in ((a, b), (a.clone(), b.clone())):
        assert state_a.information_state_string(1) == state_b.information_state_string(1)
        assert state_a.observation_string(1) == state_b.observation_string(1)
        assert state_a.information_state_tensor(1) == state_b.information_state_tensor(1)
        assert state_a.observation_tensor(1) == state_b.observation_tensor(1)
    assert a.information_state_string(2) != b.information_state_string(2)
    assert a.observation_tensor(3) != b.observation_tensor(3)


def test_resample_from_infostate_keeps_the_information_state():
    game = pyspiel.load_game("python_chicago", {"players": 4, "max_deals": 2})
    rng = random.Random(2)
    sampler = random.Random(3).random
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
            continue
        player = state.current_player()
        if rng.random() < 0.3:
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(
                player)
            assert world.information_state_tensor(player) == state.information_state_tensor(
                player)
            assert world.legal_actions() == state.legal_actions()
            world.table.game._check_invariants()
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10
    with pytest.raises(ValueError, match="chance node"):
        game.new_initial_state().resample_from_infostate(0, sampler)


@pytest.mark.parametrize("spec", ["random", "master:worlds=3;samples=4;proposals=2"])
def test_chicago_bot_plays_from_its_view(spec):
    """Any chicago level plays as an OpenSpiel bot (issue 30: ``master`` too)."""
    game = pyspiel.load_game("python_chicago", {"players": 2, "max_deals": 1})
    bots = [ChicagoBot(spec, 0, seed=1), ChicagoBot(spec, 1, seed=2)]
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="not seat"):
        bots[0].step(state)


def test_ismcts_plays_whole_deals_against_chicago_bots():
    """OpenSpiel's ISMCTS bot plays two whole deals at seat 0 against chicago's basic bot
    (random if basic is not installed) at the other seats; every action it takes is legal."""
    opponent = "basic" if "basic" in bot_levels() else "random"
    game = pyspiel.load_game("python_chicago", {"players": 4, "max_deals": 2})
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=10.0, max_simulations=10, random_state=rs)
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    search.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    bots = [search] + [ChicagoBot(opponent, seat, seed=seat) for seat in (1, 2, 3)]
    state = game.new_initial_state()
    rng = random.Random(5)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
            continue
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        decisions += player == 0
        state.apply_action(action)
    assert state.table.game.deal_number == 2
    assert decisions >= 10
    assert sum(state.returns()) == pytest.approx(0.0)


ISMCTS_GAMES = [
    {"players": 4, "max_deals": 1},
    {"players": 3, "preset": "denexa", "max_deals": 1, "variations": "V-TIE-SUIT"},
    {"players": 4, "preset": "wikipedia", "max_deals": 1,
     "variations": "V-ONE-UP V-QUADS-RESET"},
    {"players": 3, "preset": "wikipedia-42", "max_deals": 1, "rules": "lock_at:1"},
    {"players": 4, "preset": "pagat", "max_deals": 1, "variations": "V-REDEAL-LOW V-ROYAL"},
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "params", ISMCTS_GAMES,
    ids=["pagat", "denexa-tie-suit", "wikipedia-one-up-quads", "wikipedia-42-lock", "pagat-redeal"],
)
def test_ismcts_at_every_seat_never_meets_a_world_that_does_not_fit(params):
    """Issue 19, item 8: OpenSpiel's ISMCTS bot (random rollouts) at every seat, a few
    hundred decisions in all: each simulation resamples the hidden cards
    (``resample_from_infostate``) and the rollouts run through scoring rounds, staged
    tie-breaks (R-ANN-3), shown hands (R-EX-4) and resets (V-QUADS-RESET) without an error."""
    game = pyspiel.load_game("python_chicago", params)
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rs)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    search.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    rng = random.Random(9)
    decisions = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _chance(state, rng)
                continue
            action = search.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions >= 50


def test_parameters():
    rules, players = rules_of_params({"players": 5, "preset": "wikipedia",
                                      "rules": "lock_at:42 suit_order:hdsc",
                                      "variations": "V-DEUCE", "max_deals": 4})
    assert players == 5 and rules.max_players == 5
    assert (rules.lock_at, rules.suit_order, rules.deuce_bonus, rules.max_deals) == (
        42, "hdsc", True, 4)
    with pytest.raises(ValueError, match="option:value"):
        rules_of_params({"rules": "lock_at=42"})
    with pytest.raises(ValueError):
        rules_of_params({"players": 7})
    game = pyspiel.load_game("python_chicago(players=3,preset=wikipedia,variations=V-ONE-UP)")
    assert game.rules.one_up and game.num_players() == 3
