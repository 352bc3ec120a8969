"""A person move's copies (issue 28, forty-eighth pass; docs/SERVER.md): the preview made
as one copy of the state's attributes, the engine's copies of a game's lists made at their
size, and what the durability contract asks of both: a write that fails mid-move leaves
the table as its stored log says."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sys
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from table_waits import until_table
from tests.server.test_table_core import MemoryStorage, _settings

from accelerator_cases import OPTIONS, derandomized, draw_table, state_of
from chicago.engine.game import Game
from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core import decide
from chicago.server.core.decide import TableSpec
from chicago.server.core.rows import Change
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import TableState, build_table
from chicago.server.core.turns import BotMoves, next_turn
from chicago.server.protocol import TableError
from chicago.server.tables import TableManager

T0 = 1_700_000_000.0


def _old_preview(state: TableState) -> TableState:
    """The preview as main made it before this pass: a new state's attributes inserted
    one by one from the table's (the reference the new one is held to)."""
    copy = object.__new__(TableState)
    copy.__dict__.update(state.__dict__)
    copy.entries = []
    copy.spans = {}
    copy.expiries = list(state.expiries)
    copy.chat_lines = list(state.chat_lines)
    if state.pause is not None:
        copy.pause = dataclasses.replace(state.pause, waiting=set(state.pause.waiting))
    if state.vote is not None:
        copy.vote = dataclasses.replace(state.vote, agreed=set(state.vote.agreed))
    return copy


_OWN = ("entries", "spans", "expiries", "chat_lines", "pause", "vote")
"""A preview's attributes that are its own objects (equal to the table's, or empty)."""


def _same_preview(new: TableState, old: TableState, table: TableState) -> None:
    """``new`` and ``old`` hold the same attributes in the same order, the same objects
    where the old one shared the table's, and objects of their own where it copied."""
    assert list(new.__dict__) == list(old.__dict__)
    for name, value in new.__dict__.items():
        assert value == old.__dict__[name], name
        if name in _OWN:
            assert value is None or value is not table.__dict__[name], name
        else:
            assert value is table.__dict__[name], name
    assert new.__dict__ is not table.__dict__


def _facts(state: TableState) -> dict[str, Any]:
    """Everything a table's state holds that a replay of its log must give again."""
    game = state.current
    return {
        "seq": state.seq, "game_seq": state.game_seq, "number": state.game_number,
        "start": state.game_start_seq, "entries": list(state.entries),
        "spans": dict(state.spans), "expiries": list(state.expiries),
        "chat": list(state.chat_lines), "pause": state.pause, "vote": state.vote,
        "turn_started": state.turn_started, "closed": state.closed,
        "seats": [(s.kind, s.level, s.away, s.token_hash) for s in state.seats],
        "record": game.record(), "to_act": game.to_act, "events": game.event_count,
        "legal": [str(a) for a in game.legal_actions()],
    }


@st.composite
def _tables(draw: st.DrawFn) -> tuple[Rules, int, int, float]:
    rules, players, seed = draw_table(draw, OPTIONS, max_deals=3)
    return rules, players, seed, draw(st.sampled_from([0.0, 0.0, 30.0]))


@derandomized(40)
@given(_tables())
def test_a_preview_is_the_old_preview_along_whole_tables(
        table: tuple[Rules, int, int, float]) -> None:
    """Random tables of every preset, variation and some options (2-6 seats, one person
    and bots, with or without a pause after each deal), played through the core as the
    manager plays them (the person's move decided on the table, the bots' replies on a
    preview, then everything applied to the table): at every move the preview equals the
    one made the old way, attribute by attribute and in order, sharing what that one
    shared and owning what it owned; both decide the same replies and end in the same
    state; the table's own state is not changed by either until the entries are applied,
    and the whole table played so ends as the one played on the old previews."""
    rules, players, seed, pause = table
    seats = ["open"] + ["bot:random"] * (players - 1)
    ends = []
    for make in (TableState.preview, _old_preview):
        state, _ = decide.new_table(
            TableSpec(rules, seats, TableOptions(deal_pause=pause)), table_id="t",
            secret="s" * 16, seed=seed, at=T0)
        _, change = decide.join(state, 0, "p", None, token_hash=hash_token("x"), seed=1,
                                at=T0)
        for entry in change.entries:
            state.apply(entry)
        rng = random.Random(seed)
        for step in range(400):
            at = T0 + step
            game = state.current
            if game.is_over:
                break
            if state.pause is not None:
                continued = decide.pause_over(state, at=at)
                assert continued is not None
                for entry in continued.entries:
                    state.apply(entry)
                continue
            seat = game.to_act
            assert seat is not None
            by = "player" if seat == 0 else "bot"
            move = decide.act(state, seat, rng.choice(game.legal_actions()), by, at=at)
            before = _facts(state)
            preview = make(state)
            _same_preview(preview, _old_preview(state), state)
            moves = [move]
            if not move.game_over:
                for entry, after in zip(move.change.entries, move.games, strict=True):
                    preview.apply(entry, after)
                while len(moves) < 2 * players:
                    turn = next_turn(preview, at)
                    if not isinstance(turn, BotMoves):
                        break
                    reply = decide.act(preview, turn.seat,
                                       rng.choice(preview.current.legal_actions()),
                                       turn.by, at=at)
                    moves.append(reply)
                    if reply.game_over:
                        break
                    for entry, after in zip(reply.change.entries, reply.games, strict=True):
                        preview.apply(entry, after)
            assert _facts(state) == before  # the table waits for the store
            for part in moves:
                for index, entry in enumerate(part.change.entries):
                    state.apply(entry, part.games[index])
        ends.append(_facts(state))
    assert ends[0] == ends[1]


def test_a_copys_lists_are_made_at_their_size() -> None:
    """Every list a copy of a game makes (and each list inside a list of lists) holds its
    items at the size of a list made of them at once (``items[:]``), not at the larger
    size that growing an empty list gives: less memory a copy, the same items (fails on
    main, where each was an empty list extended)."""
    rng = random.Random(3)
    checked = 0
    for preset in ("pagat", "denexa", "wikipedia", "wikipedia-42"):
        game = Game(Rules.preset(preset), 4, seed=rng.randrange(2**32))
        for _ in range(60):
            if game.is_over:
                break
            copy = game.copy()
            mine, theirs = state_of(game), state_of(copy)
            for name, value in theirs.items():
                original = mine[name]
                if type(value) is not list or value is original:
                    continue
                assert value == original, name
                assert sys.getsizeof(value) == sys.getsizeof(original[:]), name
                checked += 1
                for inner, inner_original in zip(value, original, strict=True):
                    if type(inner) is list and inner is not inner_original:
                        assert sys.getsizeof(inner) == sys.getsizeof(inner_original[:]), name
                        checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 1000


class _FailsOnce(MemoryStorage):
    """Memory storage whose write of the ``at``-th change that holds a person's action and
    a bot's reply fails (the store's own failure), the log left without it."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.at = at
        self.bursts = 0
        self.failed: Change | None = None

    def write(self, changes: Any) -> list[Exception | None]:
        results: list[Exception | None] = []
        for change in changes:
            kinds = [(e.kind, e.data.get("by")) for e in change.entries]
            if kinds[:2] == [("act", "player"), ("act", "bot")]:
                self.bursts += 1
                if self.bursts == self.at:
                    self.failed = change
                    results.append(OSError("the disk went away"))
                    continue
            results.extend(super().write([change]))
        return results


def test_a_write_that_fails_mid_move_leaves_the_table_as_its_log_says() -> None:
    """A person's action and the bots' replies decided with it (on a preview, each on a
    copy of the game before it) whose write fails: the person is refused (``internal``),
    the table is dropped from memory, and the state it held is exactly what a rebuild from
    the stored log gives (its game the same object as before the move, not advanced); the
    table rebuilt from the log plays on to the game's end."""
    storage = _FailsOnce(at=4)

    async def scenario() -> None:
        manager = TableManager(storage, _settings(resume=False), InProcessBus())
        await manager.start()
        table = await manager.create(TableSpec(
            Rules.preset("pagat").replace(max_deals=2),
            ["open", "bot:basic", "bot:basic", "bot:basic"], TableOptions(bot_delay=0)))
        await manager.join(table.id, 0, "p0")
        rng = random.Random(7)
        live = table
        failed = False
        for _ in range(400):
            state = live.state
            if state.current.is_over:
                break
            if state.current.to_act != 0:  # a bot's timer plays first: wait for its move
                await until_table(manager, table.id, lambda now=live, seq=state.seq:
                                  now.state.seq != seq)
                continue
            game, facts = state.current, _facts(state)
            text = str(rng.choice(game.legal_actions()))
            try:
                await manager.act(live, 0, text, state.seq)
            except TableError as exc:
                assert exc.code == "internal" and not failed
                failed = True
                assert storage.failed is not None and len(storage.failed.entries) >= 2
                assert table.id not in manager.tables  # dropped: rebuilt on next use
                assert state.current is game and _facts(state) == facts
                loaded = storage.load(table.id)
                assert loaded is not None
                assert _facts(build_table(loaded.table, loaded.entries)) == facts
                got = await manager.get(table.id)
                assert got is not None and got is not live
                live = got
                assert _facts(live.state) == facts
        assert failed and live.state.current.is_over
        await manager.stop()

    asyncio.run(scenario())
