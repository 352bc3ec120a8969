"""A table's preview (:meth:`TableState.preview`): the state on which the server decides
the bots' replies to an action before it is stored (docs/SERVER.md, the seventeenth pass
of issue 28)."""

from __future__ import annotations

import random

from chicago.rules import Rules
from chicago.server.core import decide
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import TableState
from chicago.server.core.turns import BotMoves, next_turn

T0 = 1_700_000_000.0


def seated_table(seed: int, preset: str = "pagat", table_id: str = "t1") -> TableState:
    """A new table of four people, every seat joined (its first deal dealt)."""
    state, _ = decide.new_table(
        TableSpec(Rules.preset(preset), ["open"] * 4, TableOptions()),
        table_id=table_id, secret="s" * 16, seed=seed, at=T0)
    for seat in range(4):
        _, change = decide.join(state, seat, f"p{seat}", None,
                                token_hash=hash_token(f"token{seat}"), seed=1, at=T0 + 1)
        for entry in change.entries:
            state.apply(entry)
    return state


def _playing_table(seed: int, moves: int) -> TableState:
    """A table of four people that played ``moves`` random legal actions."""
    state = seated_table(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game = state.current
        if game.is_over or state.pause is not None:
            break
        move = decide.act(state, game.to_act, str(rng.choice(game.legal_actions())),
                          "player", at=T0 + 2)
        for entry, after in zip(move.change.entries, move.games, strict=True):
            state.apply(entry, after)
    return state


def _facts(state: TableState) -> tuple[object, ...]:
    return (state.seq, state.game_seq, state.current, list(state.entries), dict(state.spans),
            list(state.expiries), list(state.chat_lines), state.pause, state.vote,
            state.turn_started)


def test_a_preview_holds_only_the_entries_applied_to_it() -> None:
    """Its entries and spans start empty (before this pass: a copy of the table's, the
    whole game's); the entries applied to it are its own, and the table's state is not
    changed by them."""
    state = _playing_table(seed=5, moves=30)
    assert len(state.entries) > 30
    before = _facts(state)
    preview = state.preview()
    assert preview.entries == [] and preview.spans == {}
    applied = []
    for _ in range(6):
        game = preview.current
        if game.is_over or preview.pause is not None:
            break
        move = decide.act(preview, game.to_act, str(game.legal_actions()[0]), "player",
                          at=T0 + 3)
        for entry, after in zip(move.change.entries, move.games, strict=True):
            preview.apply(entry, after)
            applied.append(entry)
    assert applied and preview.entries == applied
    assert set(preview.spans) == {e.seq for e in applied if e.kind == "act"}
    assert _facts(state) == before


def test_what_a_preview_decides_is_what_the_table_decides() -> None:
    """Whose turn follows and the changes decided are the same on a preview as on the
    table's own state after the same entries (a preview is read for nothing else)."""
    for seed in range(4):
        state = _playing_table(seed=seed, moves=20 + 7 * seed)
        preview = state.preview()
        rng = random.Random(seed)
        for _ in range(12):
            game = state.current
            if game.is_over or state.pause is not None:
                break
            text = str(rng.choice(game.legal_actions()))
            ours = decide.act(state, game.to_act, text, "player", at=T0 + 4)
            theirs = decide.act(preview, game.to_act, text, "player", at=T0 + 4)
            assert ours.change.entries == theirs.change.entries
            assert ours.change.table_updates == theirs.change.table_updates
            for entry, after in zip(ours.change.entries, ours.games, strict=True):
                state.apply(entry, after)
                preview.apply(entry, after)
            turn, seen = next_turn(state, T0 + 5), next_turn(preview, T0 + 5)
            assert turn == seen and not isinstance(turn, BotMoves)
            assert (preview.seq, preview.game_seq, preview.pause, preview.turn_started) == (
                state.seq, state.game_seq, state.pause, state.turn_started)
