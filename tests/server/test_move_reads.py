"""What deciding and applying a move reads (docs/SERVER.md, issue 28, thirty-ninth pass):
an ``act`` entry is applied twice for most moves (to the preview on which the bots' replies
are decided, then to the table once stored), and each of a person move's four actions is
decided on a state whose status, game and pause were read again for every check. These tests
pin what the cheaper reads must keep: the same pauses, the same refusals with the state as
before, a state that the stored log rebuilds exactly (a restart), and a failed store that
leaves the table as it was."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from table_waits import until_table

from accelerator_cases import OPTIONS, derandomized, draw_table
from chicago.cards import DECK
from chicago.engine.actions import Action
from chicago.engine.game import Game, IllegalAction
from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core import decide
from chicago.server.core.decide import Move, TableSpec
from chicago.server.core.rows import Change, LoadedTable, LogEntry
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import TableState, build_table
from chicago.server.core.turns import BotMoves, next_turn
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.tables import TableManager

T0 = 1_700_000_000.0
PRESETS = ("pagat", "denexa", "wikipedia", "wikipedia-42")


class Played:
    """A table of one person (seat 0) and three random bots, played as the manager plays it:
    the person's action decided on the table, the bots' replies on a preview, then every
    entry applied to the table with the game its decision made. Keeps every stored entry."""

    def __init__(self, preset: str, seed: int, *, deal_pause: int = 0) -> None:
        rules = Rules.preset(preset).replace(max_deals=2)
        state, change = decide.new_table(
            TableSpec(rules, ["open", "bot:random", "bot:random", "bot:random"],
                      TableOptions(deal_pause=deal_pause)),
            table_id=f"t{seed}", secret="s" * 16, seed=seed, at=T0)
        self.row = change.new_table
        self.log: list[LogEntry] = list(change.entries)
        _, joined = decide.join(state, 0, "p", None, token_hash=hash_token("t"), seed=1, at=T0)
        self.store(state, joined.entries, [None] * len(joined.entries))
        self.state = state
        self.rng = random.Random(seed)

    def store(self, state: TableState, entries: Sequence[LogEntry],
              games: Sequence[Game | None]) -> None:
        for entry, game in zip(entries, games, strict=True):
            state.apply(entry, game)
            self.log.append(entry)

    def step(self) -> bool:
        """The next step (a Continue when paused); False when the game is over."""
        state = self.state
        if state.current.is_over:
            return False
        if state.pause is not None:
            change = decide.continue_deal(state, 0, at=T0) or decide.pause_over(state, at=T0)
            assert change is not None
            self.store(state, change.entries, [None] * len(change.entries))
            return True
        game = state.current
        seat = game.to_act
        assert seat is not None
        action = self.rng.choice(game.legal_actions())
        move = decide.act(state, seat, str(action) if seat == 0 else action,
                          "player" if seat == 0 else "bot", at=T0)
        moves = [move, *self.replies(move)]
        for part in moves:
            self.store(state, part.change.entries, part.games)
        return True

    def replies(self, move: Move) -> list[Move]:
        if move.game_over:
            return []
        preview = self.state.preview()
        for entry, after in zip(move.change.entries, move.games, strict=True):
            preview.apply(entry, after)
        replies: list[Move] = []
        while len(replies) < 8:
            turn = next_turn(preview, T0)
            if not isinstance(turn, BotMoves):
                break
            reply = decide.act(preview, turn.seat, self.rng.choice(
                preview.current.legal_actions()), turn.by, at=T0)
            replies.append(reply)
            if reply.game_over:
                break
            for entry, after in zip(reply.change.entries, reply.games, strict=True):
                preview.apply(entry, after)
        return replies


def _facts(state: TableState) -> tuple[object, ...]:
    """Everything an entry may change on a table, the game by what it holds."""
    game = state.current
    return (state.seq, state.game_seq, state.game_number, game.event_count,
            game.action_count, game.to_act, game.is_over, [str(a) for _, a in game.actions],
            list(state.entries), dict(state.spans), list(state.expiries),
            list(state.chat_lines), state.pause, state.vote, state.turn_started,
            state.updated_at, [(s.kind, s.away) for s in state.seats], state.closed)


@contextmanager
def _counting(owner: type, name: str) -> Iterator[list[int]]:
    """Count reads of the property ``owner.name`` (or calls of the method) within."""
    original = owner.__dict__[name]
    count = [0]
    if isinstance(original, property):
        getter = original.fget
        assert getter is not None

        def read(self: Any) -> Any:
            count[0] += 1
            return getter(self)

        setattr(owner, name, property(read))
    else:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            count[0] += 1
            return original(self, *args, **kwargs)

        setattr(owner, name, call)
    try:
        yield count
    finally:
        setattr(owner, name, original)


def _expected_pause(before: TableState, entry: LogEntry, game: Game) -> bool:
    """Whether a pause follows the ``act`` entry (the rule, written out): the table pauses,
    the action ended a deal but not the game, and a person plays their own seat."""
    events = game.events_between(before.current.event_count)
    return bool(before.deal_pause) and not game.is_over and any(
        e.type == "deal_end" for e in events) and any(
        s.kind == "human" and not s.away for s in before.seats)


# ---------------------------------------------------------------------- the reads
@pytest.mark.parametrize("preset", PRESETS)
def test_a_table_that_never_pauses_does_not_look_for_a_deals_end(preset: str) -> None:
    """At a table without a pause after a deal (``deal_pause`` 0, the benchmark's and most
    tables'), applying an ``act`` entry does not look for a deal's end among its events
    (on main it asked :meth:`TableState._pause_after` every time, which then found the
    table never pauses); at a table that pauses it still does, and pauses exactly after
    each deal that is not the game's last."""
    for deal_pause in (0, 30):
        played = Played(preset, 3, deal_pause=deal_pause)
        pauses = 0
        with _counting(TableState, "_pause_after") as looked:
            while played.step():
                pauses += played.state.pause is not None
        assert played.state.current.is_over
        if deal_pause:
            assert looked[0] > 0 and pauses == played.state.current.deal_number - 1 > 0
        else:
            assert looked[0] == 0 and pauses == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_a_move_reads_no_status_and_asks_each_game_once_whether_it_is_over(
        preset: str) -> None:
    """Deciding an action (:func:`decide.act`), whose turn follows (:func:`next_turn`) and
    applying an ``act`` entry read the table's seats and game directly: never the
    ``status`` property (on main: once a decision and once a ``next_turn``, each with its
    own question to the game), and each game is asked whether it is over once a step of
    theirs (on main: three times a decision, twice an apply)."""
    played = Played(preset, 11)
    while not played.state.current.is_over and played.state.seq < 25:
        played.step()
    state = played.state
    game = state.current
    seat = game.to_act
    assert seat is not None and state.pause is None
    action = game.legal_actions()[0]
    with _counting(TableState, "status") as status, _counting(Game, "is_over") as over:
        move = decide.act(state, seat, action, "bot", at=T0)
        assert over[0] == 2 and status[0] == 0  # the game before, the game after
        preview = state.preview()
        over[0] = 0
        for entry, after in zip(move.change.entries, move.games, strict=True):
            preview.apply(entry, after)
        assert over[0] == 1 and status[0] == 0
        over[0] = 0
        next_turn(preview, T0)
        assert over[0] == 1 and status[0] == 0
    assert preview.seq == state.seq + 1 and preview.current is move.games[-1]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("deal_pause", [0, 30])
def test_the_stored_log_rebuilds_the_table_a_move_at_a_time(preset: str,
                                                             deal_pause: int) -> None:
    """After every step of a whole game (running, paused, finished with its question to
    play again), the table rebuilt from its stored entries (a restart:
    :func:`build_table`) holds the same seq, game, spans, clocks, pause and vote as the
    table that applied each entry with the game its decision made."""
    played = Played(preset, 7, deal_pause=deal_pause)
    assert played.row is not None
    steps = 0
    while played.step():
        steps += 1
        if steps % 9 == 0 or played.state.current.is_over:
            rebuilt = build_table(played.row, list(played.log))
            assert _facts(rebuilt) == _facts(played.state)
            assert rebuilt.current.record() == played.state.current.record()
    assert played.state.current.is_over and played.state.vote is not None


# ---------------------------------------------------------------------- hostile
def _playing(seed: int = 5, steps: int = 8) -> Played:
    """A table some steps into its game, the game still on."""
    played = Played("pagat", seed)
    for _ in range(steps):
        played.step()
    assert played.state.current.to_act is not None and played.state.pause is None
    return played


def _not_held(game: Game, seat: int) -> Action:
    """A play of a card that is not one of the seat's legal actions now (a card it does not
    hold, or any play in an exchange): a bot's :class:`Action` that must be refused."""
    legal = game.legal_actions()
    return next(a for a in (Action.parse(f"play {card}") for card in DECK) if a not in legal)


@pytest.mark.parametrize(("name", "request_", "code"), [
    ("another seat's turn, a text",
     lambda s: decide.act(s, (s.current.to_act + 1) % 4, "keep", "player", at=T0),
     "not_your_turn"),
    ("another seat's turn, a bot's action",
     lambda s: decide.act(s, (s.current.to_act + 1) % 4, s.current.legal_actions()[0],
                          "bot", at=T0), "not_your_turn"),
    ("an action that is not legal, as text",
     lambda s: decide.act(s, s.current.to_act, "announce straight flush nonsense", "player",
                          at=T0), "illegal_action"),
    ("an action that is not legal, as a bot's Action",
     lambda s: decide.act(s, s.current.to_act, _not_held(s.current, s.current.to_act),
                          "bot", at=T0), "illegal_action"),
    ("a seat out of range",
     lambda s: decide.act(s, 9, "keep", "player", at=T0), "not_your_turn"),
])
def test_a_refused_action_names_why_and_changes_nothing(
        name: str, request_: Callable[[TableState], Any], code: str) -> None:
    """A bad action, as a person's text or as a bot's :class:`Action`, or one out of turn:
    a TableError naming the problem, and the table (its game, entries, spans, clocks) as
    before."""
    played = _playing()
    state = played.state
    before = _facts(state)
    game = state.current
    with pytest.raises(TableError) as info:
        request_(state)
    assert info.value.code == code and info.value.message, name
    assert _facts(state) == before and state.current is game


def test_an_action_at_a_waiting_a_paused_or_a_finished_table_is_refused() -> None:
    """An open seat (``not_started``), a pause after a deal (``paused``), a finished game
    and a closed table (``game_over``): refused before anything is copied or applied."""
    waiting, _ = decide.new_table(TableSpec(Rules.preset("pagat"), ["open", "bot:random"]),
                                  table_id="w", secret="s" * 16, seed=1, at=T0)
    with pytest.raises(TableError) as info:
        decide.act(waiting, waiting.current.to_act or 0, "keep", "player", at=T0)
    assert info.value.code == "not_started" and waiting.seq == 1

    paused = Played("pagat", 4, deal_pause=30)
    while paused.state.pause is None:
        assert paused.step()
    state = paused.state
    before = _facts(state)
    with pytest.raises(TableError) as info:
        decide.act(state, state.current.to_act or 0, state.current.legal_actions()[0],
                   "bot", at=T0)
    assert info.value.code == "paused" and _facts(state) == before

    finished = Played("pagat", 6)
    while finished.step():
        pass
    state = finished.state
    for closed in (False, True):
        state.closed = closed
        before = _facts(state)
        with pytest.raises(TableError) as info:
            decide.act(state, 0, "keep", "player", at=T0)
        assert info.value.code == "game_over" and _facts(state) == before


def test_a_bad_act_entry_is_refused_and_leaves_the_table_as_it_was() -> None:
    """Applying an ``act`` entry that does not follow (a gap in the seqs), has no seat, is
    by a seat not to act, or holds an action the game refuses (a stored log someone
    changed): an error, and the table as before (the game not applied to either)."""
    played = _playing()
    state = played.state
    game = state.current
    seat = game.to_act
    assert seat is not None
    legal = str(game.legal_actions()[0])
    bad = [
        (LogEntry(state.seq + 2, state.game_number, "act", seat, {"action": legal}, T0),
         RuntimeError),
        (LogEntry(state.seq + 1, state.game_number, "act", None, {"action": legal}, T0),
         RuntimeError),
        (LogEntry(state.seq + 1, state.game_number, "act", (seat + 1) % 4,
                  {"action": legal}, T0), RuntimeError),
        (LogEntry(state.seq + 1, state.game_number, "act", seat, {"action": "fly away"}, T0),
         IllegalAction),
        (LogEntry(state.seq + 1, state.game_number, "act", seat,
                  {"action": str(_not_held(game, seat))}, T0), IllegalAction),
    ]
    for entry, error in bad:
        before = _facts(state)
        with pytest.raises(error):
            state.apply(entry)
        assert _facts(state) == before and state.current is game


# ---------------------------------------------------------------------- a failed store
class _Storage:
    """A memory store whose writes of ``act`` entries fail while :attr:`down` is set."""

    failures: tuple[type[BaseException], ...] = (ConnectionError,)

    def __init__(self) -> None:
        self.logs: dict[str, list[LogEntry]] = {}
        self.rows: dict[str, Any] = {}
        self.down = False

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        results: list[Exception | None] = []
        for change in changes:
            if self.down and any(e.kind == "act" for e in change.entries):
                results.append(ConnectionError("the store is down"))
                continue
            if change.new_table is not None:
                self.rows[change.table_id] = change.new_table
            self.logs.setdefault(change.table_id, []).extend(change.entries)
            results.append(None)
        return results

    def load(self, table_id: str) -> LoadedTable | None:
        return None

    def entries_after(self, table_id: str, seq: int) -> list[LogEntry]:
        return [e for e in self.logs.get(table_id, []) if e.seq > seq]

    def live_table_ids(self) -> list[str]:
        return []

    def skip(self, what: str, problem: object, doing: str = "loaded") -> None:
        pass


def test_a_failed_store_leaves_the_table_as_it_was() -> None:
    """A person's action whose write (with the bots' replies decided on a preview) fails:
    ``internal`` (503), nothing stored, and the table's state exactly as before, its game
    the very object it was and not applied to (the replies were decided on copies)."""
    storage = _Storage()

    async def scenario() -> None:
        manager = TableManager(storage, Settings(db_url="sqlite://", seed=24,
                                                 bot_threads=False, review_workers=0,
                                                 resume_tables=False), InProcessBus())
        await manager.start()
        table = await manager.create(TableSpec(
            Rules.preset("pagat"), ["open", "bot:basic", "bot:basic", "bot:basic"],
            TableOptions(bot_delay=0)))
        await manager.join(table.id, 0, "p0")
        state = table.state
        # the bots before the person play on their timers (delay 0)
        await until_table(manager, table.id, lambda: state.current.to_act == 0)
        assert state.current.to_act == 0
        stored = list(storage.logs[table.id])
        before = _facts(state)
        game = state.current
        storage.down = True
        with pytest.raises(TableError) as info:
            await manager.act(table, 0, str(game.legal_actions()[0]))
        assert info.value.code == "internal" and info.value.status == 503
        assert _facts(state) == before and state.current is game
        assert storage.logs[table.id] == stored
        await manager.stop()

    asyncio.run(scenario())


@pytest.mark.parametrize("preset", PRESETS)
def test_the_current_game_is_read_directly_and_is_always_the_game(preset: str) -> None:
    """``TableState.current`` (read some 19 times a person move; issue 28, forty-fifth
    pass) is kept in the state itself when a game is dealt or an action applied, and is the
    state's game after every step, on the table and on its previews; before the first game
    reading it raises as before."""
    rules = Rules.preset(preset).replace(max_deals=2)
    _, change = decide.new_table(TableSpec(rules, ["open", "bot:random"], TableOptions()),
                                 table_id="bare", secret="s" * 16, seed=1, at=T0)
    assert change.new_table is not None
    bare = TableState(change.new_table)  # its row alone: no entry applied
    with pytest.raises(RuntimeError, match="has no game yet"):
        _ = bare.current
    played = Played(preset, 45)
    state = played.state
    steps = 0
    while played.step():
        assert vars(state)["current"] is state.game is state.current  # before: a property
        preview = state.preview()
        assert preview.current is state.game
        steps += 1
    assert state.current is state.game and state.current.is_over and steps > 10


@pytest.mark.parametrize("preset", PRESETS)
def test_a_pausing_table_looks_for_a_deals_end_only_when_the_deal_changed(
        preset: str) -> None:
    """At a table that pauses after a deal, an ``act`` entry's events are searched for the
    deal's end only when the entry moved the game to its next deal (issue 28, forty-fifth
    pass; on main, after every entry): once per deal that is not the game's last, the
    preview's and the table's applies each, and the table pauses after each such deal."""
    played = Played(preset, 5, deal_pause=30)
    pauses = 0
    with _counting(TableState, "_pause_after") as looked:
        while played.step():
            pauses += played.state.pause is not None
    deals = played.state.current.deal_number
    assert deals > 1 and pauses == deals - 1
    assert looked[0] <= 2 * (deals - 1)  # before: every act entry, preview and table


@derandomized(60)
@given(st.data())
def test_a_deal_ends_exactly_when_the_game_goes_on_with_the_next_deal(data: Any) -> None:
    """What the cheaper look rests on: for every action of random games of every preset,
    variation and a few options (2-6 seats), a ``deal_end`` is among the action's events
    and the game is not over exactly when the game's deal number changed and it is not
    over (R-END-1: deals go on until a deal's end ends the game)."""
    rules, players, seed = draw_table(data.draw, OPTIONS, 6)
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    ended_deals = 0
    while not game.is_over:
        deal, start = game.deal_number, game.event_count
        game.apply(rng.choice(game.legal_actions()))
        ended = any(e.type == "deal_end" for e in game.events_between(start))
        assert (ended and not game.is_over) == (game.deal_number != deal and not game.is_over)
        ended_deals += ended
    assert ended_deals >= 1
