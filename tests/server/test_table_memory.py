"""The memory a live table holds as its game goes on (issue 28, fiftieth pass).

A table's state keeps, for the whole current game, every ``act`` entry's span of events
(that entry's frames and a reconnecting client's replay read them). The span is kept as
one int (``start << SPAN_SHIFT | end``) where it was a tuple of two ints: an object fewer
per act entry, two once the game has more than 256 events. The spans' bytes, counted
object by object at a table played with a fixed seed, stay under a bound that the tuples
passed; and the span read back is the entry's events, so frames and replays are unchanged.
"""

from __future__ import annotations

import random
import sys

from chicago.rules import Rules
from chicago.server.core import decide
from chicago.server.core.decide import TableSpec
from chicago.server.core.frames import ends_trick, replay
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import SPAN_SHIFT, TableState, build_table, span

T0 = 1_700_000_000.0


def _played(seed: int, moves: int, preset: str = "pagat") -> tuple[TableState,
                                                                    dict[int, tuple[int, int]]]:
    """A table of four people that played up to ``moves`` random legal actions (the
    pause after a deal answered), and each act entry's events as counted on its games."""
    state, _ = decide.new_table(
        TableSpec(Rules.preset(preset), ["open"] * 4, TableOptions()),
        table_id="t50", secret="s" * 16, seed=seed, at=T0)
    for seat in range(4):
        _, change = decide.join(state, seat, f"p{seat}", None,
                                token_hash=hash_token(f"token{seat}"), seed=1, at=T0 + 1)
        for entry in change.entries:
            state.apply(entry)
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


def _held_bytes(spans: dict[int, int]) -> int:
    """The bytes of the spans' dict and of every object its values hold (the keys are the
    entries' seqs, which their entries hold too)."""
    seen: set[int] = set()
    total = sys.getsizeof(spans)
    stack: list[object] = list(spans.values())
    while stack:
        value = stack.pop()
        if id(value) in seen or (type(value) is int and -5 <= value <= 256):
            continue  # small ints are the interpreter's, shared by everyone
        seen.add(id(value))
        total += sys.getsizeof(value)
        if type(value) is tuple:
            stack.extend(value)
    return total


def test_a_tables_spans_are_one_int_per_act_entry_and_few_bytes() -> None:
    """Fails before this pass: each span was a tuple (56 bytes and two ints of 28 once past
    256 events: more than 100 bytes an entry late in a game)."""
    state, _ = _played(seed=50, moves=400)
    assert len(state.spans) >= 200 and state.current.event_count > 256
    assert all(type(v) is int for v in state.spans.values())
    per_entry = _held_bytes(state.spans) / len(state.spans)
    dict_part = sys.getsizeof(state.spans) / len(state.spans)
    assert per_entry - dict_part <= 40, per_entry - dict_part


def test_a_span_read_back_is_the_entrys_events() -> None:
    """Each act entry's span, read back, is the events its game added (as counted on the
    games themselves), on tables of several presets, and a rebuild from the log keeps the
    same spans; a trick's end is found in its span as before."""
    for preset, seed in (("pagat", 1), ("pagat", 2), ("denexa", 3), ("wikipedia", 4),
                         ("wikipedia-42", 5)):
        state, counted = _played(seed=seed, moves=300, preset=preset)
        assert {seq: span(v) for seq, v in state.spans.items()} == counted
        for start, end in counted.values():
            assert 0 <= start <= end < 1 << SPAN_SHIFT
        rebuilt = build_table(state.row, list(state.entries))
        assert rebuilt.spans == state.spans
        for entry in state.entries:
            if entry.kind == "act":
                start, end = counted[entry.seq]
                trick = any(type(e).__name__ == "Trick"
                            for e in state.current.events_between(start, end))
                assert ends_trick(state, entry) is trick


def test_a_replay_reads_the_same_events_for_every_seat() -> None:
    """A reconnecting client's replay of the game's entries shows each seat what the
    entries' spans hold for it, the same texts from the table and from its rebuild."""
    state, _ = _played(seed=7, moves=120)
    rebuilt = build_table(state.row, list(state.entries))
    for audience in (None, 0, 1, 2, 3):
        first = replay(state, audience, state.game_start_seq, clock=None, at=T0 + 3)
        again = replay(rebuilt, audience, rebuilt.game_start_seq, clock=None, at=T0 + 3)
        assert first is not None and first == again
