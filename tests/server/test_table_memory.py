"""The memory a live table holds as its game goes on (issue 28, fiftieth pass).

A table keeps its current game's entries for the whole game (a reconnecting client's
replay reads them). An ``act`` entry's data (``{"action": ..., "by": ...}``) is one dict
shared by every entry that holds equal data
(:func:`chicago.server.core.decide.act_data`), where each entry had a dict of its own
(about 180 bytes, four entries a person move). The shared data reads as before (the same
keys in the same order, ``forced`` exactly when the action was the only choice), and a
table rebuilt from its entries written as JSON and read back (as a stored table is loaded)
is the same table, its replays the same for every seat.
"""

from __future__ import annotations

import json
import random

import pytest
from test_preview import seated_table

from chicago.rules import Rules
from chicago.server.core import decide
from chicago.server.core.decide import TableSpec
from chicago.server.core.frames import ends_trick, replay
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import TableState, build_table

T0 = 1_700_000_000.0


def _played(seed: int, moves: int, preset: str = "pagat") -> tuple[TableState,
                                                                    dict[int, tuple[int, int]]]:
    """A table of four people that played up to ``moves`` random legal actions (the
    pause after a deal answered), and each act entry's events as counted on its games."""
    state = seated_table(seed, preset, "t50")
    rng = random.Random(seed)
    counted: dict[int, tuple[int, int]] = {}
    for _ in range(moves):
        game = state.current
        if game.is_over:
            break
        if state.pause is not None:
            for seat in sorted(state.pause.waiting):
                change = decide.continue_deal(state, seat, at=T0 + 2)
                for entry in change.entries if change is not None else []:
                    state.apply(entry)
            continue
        move = decide.act(state, game.to_act, str(rng.choice(game.legal_actions())),
                          "player", at=T0 + 2)
        for entry, after in zip(move.change.entries, move.games, strict=True):
            start = state.current.event_count
            state.apply(entry, after)
            if entry.kind == "act":
                counted[entry.seq] = (start, state.current.event_count)
    return state, counted


def test_a_tables_spans_are_the_entries_events() -> None:
    """Each act entry's span is the events its game added (as counted on the games
    themselves), on tables of several presets, and a rebuild from the log keeps the same
    spans; a trick's end is found in its span (a guard: passes on main too)."""
    for preset, seed in (("pagat", 1), ("pagat", 2), ("denexa", 3), ("wikipedia", 4),
                         ("wikipedia-42", 5)):
        state, counted = _played(seed=seed, moves=300, preset=preset)
        assert state.spans == counted
        rebuilt = build_table(state.row, list(state.entries))
        assert rebuilt.spans == state.spans
        for entry in state.entries:
            if entry.kind == "act":
                start, end = counted[entry.seq]
                trick = any(type(e).__name__ == "Trick"
                            for e in state.current.events_between(start, end))
                assert ends_trick(state, entry) is trick


def test_a_replay_reads_the_same_events_for_every_seat() -> None:
    """A reconnecting client's replay of the game's entries is the same from the table and
    from its rebuild, for every seat (a guard: passes on main too)."""
    state, _ = _played(seed=7, moves=120)
    rebuilt = build_table(state.row, list(state.entries))
    for audience in (None, 0, 1, 2, 3):
        first = replay(state, audience, state.game_start_seq, clock=None, at=T0 + 3)
        again = replay(rebuilt, audience, rebuilt.game_start_seq, clock=None, at=T0 + 3)
        assert first is not None and first == again


def test_act_entries_with_equal_data_share_one_dict() -> None:
    """An ``act`` entry's data is one dict per (action, by, forced), shared by every entry
    and table that holds it (fails before this pass: a dict of its own for every entry),
    with the same keys in the same order as before, ``forced`` exactly when the action was
    the seat's only choice; a table rebuilt from its entries written as JSON and read back
    (as a stored table is loaded) is the same table."""
    first, _ = _played(seed=11, moves=300)
    second, _ = _played(seed=11, moves=300)
    acts = [e for e in first.entries if e.kind == "act"]
    keys = {(e.data["action"], e.data["by"], e.data.get("forced", False)) for e in acts}
    assert len({id(e.data) for e in acts}) == len(keys) < len(acts)
    for mine, theirs in zip(acts, (e for e in second.entries if e.kind == "act"),
                            strict=True):
        assert mine.data is theirs.data
    for entry in acts:
        assert list(entry.data) in (["action", "by"], ["action", "by", "forced"])
        assert entry.data.get("forced", True) is True
    game = build_table(first.row, list(first.entries)).current
    loaded = [type(e)(e.seq, e.game, e.kind, e.seat, json.loads(json.dumps(e.data)),
                      e.created_at) for e in first.entries]
    again = build_table(first.row, loaded)
    assert again.spans == first.spans and again.seq == first.seq
    assert again.current.record() == game.record() == first.current.record()


def test_a_forced_act_is_marked_as_before() -> None:
    """``forced`` is set on the entries of a seat with one legal action and on no other,
    checked against the games the entries were decided on."""
    state, _ = decide.new_table(
        TableSpec(Rules.preset("pagat"), ["open"] * 4, TableOptions()),
        table_id="t51", secret="s" * 16, seed=3, at=T0)
    for seat in range(4):
        _, change = decide.join(state, seat, f"p{seat}", None,
                                token_hash=hash_token(f"token{seat}"), seed=1, at=T0 + 1)
        for entry in change.entries:
            state.apply(entry)
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for _ in range(200):
        game = state.current
        if game.is_over or state.pause is not None:
            break
        only = len(game.legal_actions()) == 1
        move = decide.act(state, game.to_act, str(rng.choice(game.legal_actions())),
                          "player", at=T0 + 2)
        act_entry = next(e for e in move.change.entries if e.kind == "act")
        assert act_entry.data.get("forced", False) is only
        seen[only] += 1
        for entry, after in zip(move.change.entries, move.games, strict=True):
            state.apply(entry, after)
    assert seen[True] and seen[False]


def test_the_shared_data_is_forgotten_when_full_and_entries_keep_theirs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At most :data:`ACT_DATA_KEPT` data dicts are kept to share; when full all are
    forgotten, and a dict already handed out is unchanged."""
    monkeypatch.setattr(decide, "ACT_DATA_KEPT", 3)
    monkeypatch.setattr(decide, "_act_data", {})
    handed = [decide.act_data(f"play {c}", "bot", False) for c in ("2h", "3h", "4h")]
    assert decide.act_data("play 2h", "bot", False) is handed[0]
    fourth = decide.act_data("play 5h", "bot", True)
    assert fourth == {"action": "play 5h", "by": "bot", "forced": True}
    assert len(decide._act_data) == 1
    assert decide.act_data("play 2h", "bot", False) is not handed[0]
    assert handed == [{"action": f"play {c}", "by": "bot"} for c in ("2h", "3h", "4h")]
