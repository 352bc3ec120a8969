"""Whose turn follows (:func:`chicago.server.core.turns.next_turn`): a bot's turn is one
immutable object per value, not a new one each time it is asked (issue 28, thirty-seventh
pass), and always the turn a fresh :class:`BotMoves` would be."""

from __future__ import annotations

import random

from chicago.rules import Rules
from chicago.server.core import decide
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.turns import BotMoves, next_turn

T0 = 1_700_000_000.0


def test_a_bots_turn_is_the_same_value_and_object_each_time() -> None:
    """At a table of a person and bots, every bot turn of 80 random moves is the
    ``BotMoves`` of the seat to act, its own bot's level and the table's delay, and asking
    again gives that very object; a stand-in's turn (the person away) likewise."""
    state, _ = decide.new_table(
        TableSpec(Rules.preset("pagat"), ["open", "bot:basic", "bot:random", "bot:basic"],
                  TableOptions(bot_delay=0.25)),
        table_id="t", secret="s" * 16, seed=3, at=T0)
    _, change = decide.join(state, 0, "p", None, token_hash=hash_token("x"), seed=1, at=T0)
    for entry in change.entries:
        state.apply(entry)
    rng = random.Random(3)
    seen = 0
    for _ in range(80):
        game = state.current
        if game.is_over or state.pause is not None:
            break
        seat = game.to_act
        assert seat is not None
        turn = next_turn(state, T0)
        if seat == 0:
            assert turn is None  # a person without a clock: nothing to wait for
        else:
            level = state.seats[seat].level
            assert turn == BotMoves(seat, "bot", level or "random", 0.25)
            assert next_turn(state, T0) is turn
            seen += 1
        move = decide.act(state, seat, str(rng.choice(game.legal_actions())), "player",
                          at=T0)
        for entry, after in zip(move.change.entries, move.games, strict=True):
            state.apply(entry, after)
    assert seen > 20
    state.seats[0].away = True  # the person's stand-in plays while they are away
    while state.current.to_act != 0 and not state.current.is_over:
        game = state.current
        move = decide.act(state, game.to_act, str(rng.choice(game.legal_actions())),
                          "player", at=T0)
        for entry, after in zip(move.change.entries, move.games, strict=True):
            state.apply(entry, after)
    if state.pause is None and not state.current.is_over:
        turn = next_turn(state, T0)
        assert turn == BotMoves(0, "stand-in", state.stand_in, 0.25)
        assert next_turn(state, T0) is turn
