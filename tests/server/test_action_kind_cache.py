"""An update's action kind and whether its text is shown to every seat, read once per
stored text (issue 28, the twenty-second pass: before, ``Action.parse`` once per entry and
audience), and not at all for a text the server wrote itself (the thirty-seventh pass:
before, a bot's discard, a new text nearly every time, was parsed for its frames)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from server_support import count_parses

from chicago import Game
from chicago.engine.actions import Action, ActionKind
from chicago.rules import PRESETS, Rules
from chicago.server.core import actionkind, decide, frames
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.protocol import TableError


def test_the_kept_kind_is_the_kind_read_afresh_R_EX_2_V_ONE_UP(monkeypatch: Any) -> None:
    """For every legal action of random games of every preset (with V-ONE-UP), the kind and
    the shown flag are those of the parsed action (a discard's or a one-up request's cards
    are never shown to the others), and a text asked about again is not parsed again."""
    for preset in sorted(PRESETS):
        game = Game(Rules.preset(preset).with_variations("V-ONE-UP"), players=4, seed=11)
        rng = random.Random(11)
        for _ in range(150):
            if game.is_over:
                break
            for action in game.legal_actions():
                text = str(action)
                hidden = action.kind in (ActionKind.DISCARD, ActionKind.ONE_UP) and bool(
                    action.cards)
                assert frames._action_kind(text) == (action.kind.value, not hidden)
            game.apply(rng.choice(game.legal_actions()))
    parsed = count_parses(monkeypatch)
    actionkind.clear()
    for _ in range(3):
        assert frames._action_kind("discard 2h 7c") == ("discard", False)
        assert frames._action_kind("play Ah") == ("play", True)
    assert parsed == ["discard 2h 7c", "play Ah"]


def _parsed_kind(text: str) -> tuple[str, bool]:
    action = Action.parse(text)
    hidden = action.kind in (ActionKind.DISCARD, ActionKind.ONE_UP) and bool(action.cards)
    return action.kind.value, not hidden


def test_a_noted_text_gives_the_parsed_kind_R_EX_2_V_ONE_UP() -> None:
    """Every legal action of random games of every preset (with V-ONE-UP, 2-4 seats), noted
    as the server notes what it stores, gives the kind and shown flag of its text parsed."""
    for preset in sorted(PRESETS):
        for players in (2, 3, 4):
            game = Game(Rules.preset(preset).with_variations("V-ONE-UP"), players=players,
                        seed=players)
            rng = random.Random(players)
            for _ in range(120):
                if game.is_over:
                    break
                actionkind.clear()
                for action in game.legal_actions():
                    text = str(action)
                    actionkind.note(text, action)
                    assert actionkind.kind_shown(text) == _parsed_kind(text)
                game.apply(rng.choice(game.legal_actions()))


def test_the_texts_the_server_wrote_are_not_parsed_for_their_frames(monkeypatch: Any) -> None:
    """At tables of a person and bots of every preset, the actions decided as the bots'
    scheduler gives them (an ``Action``, written out once by ``decide.act``) and the
    person's (a text), applied: the updates for every seat and a spectator parse no stored
    action text again, and carry a discard's cards to its own seat only (R-EX-2)."""
    for preset in sorted(PRESETS):
        actionkind.clear()
        state, _ = decide.new_table(
            TableSpec(Rules.preset(preset).with_variations("V-ONE-UP"),
                      ["open", "bot:random", "bot:random", "bot:random"], TableOptions()),
            table_id="t", secret="s" * 16, seed=5, at=0.0)
        _, change = decide.join(state, 0, "p", None, token_hash=hash_token("x"), seed=1, at=0.0)
        for entry in change.entries:
            state.apply(entry)
        rng = random.Random(preset)
        discards = 0
        for _ in range(60):
            game = state.current
            if game.is_over or state.pause is not None:
                break
            seat = game.to_act
            assert seat is not None
            action = rng.choice(game.legal_actions())
            move = (decide.act(state, 0, str(action), "player", at=0.0) if seat == 0 else
                    decide.act(state, seat, action, "bot", at=0.0))
            for index, entry in enumerate(move.change.entries):
                state.apply(entry, move.games[index])
            acts = [e for e in move.change.entries if e.kind == "act"]
            expected = [_parsed_kind(e.data["action"]) for e in acts]  # before counting
            parsed = count_parses(monkeypatch)
            for entry, (kind, shown) in zip(acts, expected, strict=True):
                text = entry.data["action"]
                for audience in (None, 0, 1, 2, 3):
                    update = frames.entry_frames(state, entry, audience, with_state=False,
                                                 clock=None, at=0.0)[0]
                    assert update["type"] == "update"
                    assert update["kind"] == kind
                    assert update["action"] == (
                        text if shown or audience == entry.seat else None)
                discards += not shown
            monkeypatch.undo()
            assert parsed == []
        assert discards > 0


def test_a_hostile_players_texts_never_reach_the_kept_kinds_R_EX_2() -> None:
    """A person's text is read strictly and never kept as written: a messy but legal text
    (case, spaces) is stored, and kept, as the action's own text; malformed, illegal,
    out-of-turn and non-text actions are refused with ``illegal_action`` (or
    ``not_your_turn``), change neither the table nor the kept kinds; and a flood of distinct
    stored texts (as another worker's entries could bring) keeps at most ``BOUND`` of them."""
    actionkind.clear()
    state, _ = decide.new_table(
        TableSpec(Rules.preset("pagat"), ["open", "bot:random", "bot:random", "bot:random"],
                  TableOptions()),
        table_id="t", secret="s" * 16, seed=5, at=0.0)
    _, change = decide.join(state, 0, "p", None, token_hash=hash_token("x"), seed=1, at=0.0)
    for entry in change.entries:
        state.apply(entry)
    while state.current.to_act != 0:  # the bots play up to the person's turn
        game = state.current
        seat = game.to_act
        assert seat is not None
        move = decide.act(state, seat, game.legal_actions()[0], "bot", at=0.0)
        for index, entry in enumerate(move.change.entries):
            state.apply(entry, move.games[index])
    kept = dict(actionkind._KNOWN)
    before = state.current.record()
    hostile: list[Any] = ["discard Zz", "play Ah Kh", "", " " * 10_000, "x" * 100_000,
                          "discard " + " ".join(["2h"] * 40), "play \u0000", 7, None,
                          ["play", "Ah"]]
    for text in hostile:
        with pytest.raises(TableError) as refused:
            decide.act(state, 0, text, "player", at=0.0)
        assert refused.value.code == "illegal_action"
    with pytest.raises(TableError) as out_of_turn:
        decide.act(state, 1, str(state.current.legal_actions()[0]), "player", at=0.0)
    assert out_of_turn.value.code == "not_your_turn"
    assert kept == actionkind._KNOWN and state.current.record() == before

    legal = state.current.legal_actions()[-1]
    messy = f"   {str(legal).upper()}  "
    move = decide.act(state, 0, messy, "player", at=0.0)
    stored = [e.data["action"] for e in move.change.entries if e.kind == "act"]
    assert stored == [str(legal)]
    assert messy not in actionkind._KNOWN and str(legal) in actionkind._KNOWN

    cards = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
    flood = itertools.islice(itertools.combinations(cards, 3), actionkind.BOUND + 50)
    for three in flood:  # distinct texts, each a real action's
        assert actionkind.kind_shown("discard " + " ".join(three)) == ("discard", False)
        assert len(actionkind._KNOWN) <= actionkind.BOUND
