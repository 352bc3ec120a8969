"""The table core apart from transport and storage (issue 24), with no server at all.

First the pure core: a :class:`TableState` and the decisions of
:mod:`chicago.server.core.decide`, each answered with the change to store (applied here as
the server applies a stored change), the frames of :mod:`chicago.server.core.frames` and what
the table waits for (:mod:`chicago.server.core.turns`). Then the table manager driven
through in-memory ports: a :class:`MemoryStorage` for the database, the in-process bus and
recording clients for the transport; a whole game with a bot, people, a pause, chat and a
rematch, rebuilt from what was stored and resumed by a second manager.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from chicago.engine.game import Game
from chicago.engine.viewjson import view_json
from chicago.rules import Rules
from chicago.server.bus import InProcessBus
from chicago.server.core import decide, frames
from chicago.server.core.chat import ChatAllowance, ChatLimits
from chicago.server.core.decide import Joiner, TableSpec
from chicago.server.core.rows import Change, GameRow, LoadedTable, LogEntry, TableRow
from chicago.server.core.seats import TableOptions, TournamentPlace, hash_token
from chicago.server.core.state import (
    AWAY_AFTER,
    PLAYING,
    WAITING,
    TableState,
    build_table,
    check_fresh,
)
from chicago.server.core.turns import BotMoves, ClockRuns, PauseRuns, next_turn
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.tables import TableManager

T0 = 1_700_000_000.0
"""The UNIX time the tables of these tests are made at (the core reads no clock)."""


def _table(seats: list[str], **options: Any) -> TableState:
    state, change = decide.new_table(
        TableSpec(Rules.preset("pagat").replace(max_deals=2), seats,
                  TableOptions(**options)),
        table_id="t1", secret="s" * 16, seed=11, at=T0)
    assert [e.kind for e in change.entries] == ["game"] and change.new_table is not None
    return state


def _stored(state: TableState, change: Change | None,
            games: Sequence[Any] | None = None) -> None:
    """What the server does once ``change`` is stored: apply its entries in order."""
    assert change is not None
    for index, entry in enumerate(change.entries):
        state.apply(entry, games[index] if games else None)


def _join_all(state: TableState) -> None:
    for seat, info in enumerate(state.seats):
        if info.kind == "open":
            _, change = decide.join(state, seat, f"p{seat}", None,
                                    token_hash=hash_token(f"token{seat}"), seed=1,
                                    at=T0 + 1)
            _stored(state, change)


def _act(state: TableState, seat: int, text: str, by: str = "player",
         at: float = T0 + 2) -> decide.Move:
    move = decide.act(state, seat, text, by, at=at)
    _stored(state, move.change, move.games)
    return move


def _snapshot(state: TableState) -> tuple[int, str, list[str]]:
    return (state.seq, json.dumps(state.info(T0)),
            [json.dumps(view_json(state.current.view(s))) for s in range(state.players)])


# ---------------------------------------------------------------------- the pure core
def test_joining_the_last_open_seat_starts_the_game() -> None:
    state = _table(["open", "open", "bot:random"])
    assert state.status == WAITING and state.open_seats == 2
    seat, change = decide.join(state, None, "Anna", None, token_hash=hash_token("a"), seed=1, at=T0)
    assert seat == 0 and change.table_updates["status"] == WAITING
    _stored(state, change)
    seat, change = decide.join(state, None, None, None, token_hash=hash_token("b"), seed=1, at=T0)
    assert seat == 1 and change.table_updates == {
        "open_seats": 0, "status": PLAYING, "updated_at": T0}
    _stored(state, change)
    assert state.status == PLAYING and state.seat_of("b") == 1 and state.seat_of("c") is None
    assert [s.name for s in state.seats] == ["Anna", None, "random"]
    (seats_frame,) = frames.entry_frames(state, change.entries[0], None, with_state=True,
                                         clock=None, at=T0)
    assert seats_frame["type"] == "seats" and seats_frame["status"] == PLAYING


@pytest.mark.parametrize(("request_", "code"), [
    (lambda s: decide.join(s, 0, "x", None, token_hash="h", seed=1, at=T0), "seat_taken"),
    (lambda s: decide.join(s, 2, "x", None, token_hash="h", seed=1, at=T0), "seat_taken"),
    (lambda s: decide.join(s, 7, "x", None, token_hash="h", seed=1, at=T0), "bad_request"),
    (lambda s: decide.act(s, s.current.to_act, "play 2x", "player", at=T0), "illegal_action"),
    (lambda s: decide.act(s, (s.current.to_act + 1) % 3, "keep", "player", at=T0),
     "not_your_turn"),
    (lambda s: decide.agree(s, 0, seed=1, at=T0), "not_over"),
    (lambda s: decide.decline(s, 0, at=T0), "not_over"),
    (lambda s: decide.fill(s, 0, seed=1, at=T0), "not_over"),
    (lambda s: decide.claim(s, "nobody", token_hash="h", at=T0), "not_seated"),
    (lambda s: check_fresh(s, s.seq + 1), "stale"),
])
def test_a_refused_request_names_why_and_changes_nothing(request_: Any, code: str) -> None:
    """Every decision refuses with a TableError naming the problem, the state as before."""
    state = _table(["open", "open", "bot:random"])
    _join_all(state)
    before = _snapshot(state)
    with pytest.raises(TableError) as info:
        request_(state)
    assert info.value.code == code and info.value.message
    assert _snapshot(state) == before


def test_an_action_before_the_last_seat_is_taken_is_refused() -> None:
    state = _table(["open", "open"])
    with pytest.raises(TableError) as info:
        decide.act(state, state.current.to_act or 0, "keep", "player", at=T0)
    assert info.value.code == "not_started" and state.seq == 1


def test_the_same_requests_decide_the_same_changes() -> None:
    """The core reads no clock and draws no secret: equal inputs, equal changes."""
    def play() -> list[LogEntry]:
        state = _table(["open", "open", "bot:random"])
        _join_all(state)
        rng = random.Random(3)
        for _ in range(12):
            game = state.current
            _act(state, game.to_act, str(rng.choice(game.legal_actions())))
        return state.entries

    assert play() == play()


def test_a_clock_that_runs_out_three_times_marks_the_seat_away() -> None:
    """The stand-in plays each run-out clock (``by`` clock); at AWAY_AFTER in a row the
    seat is marked away in the same change and the stand-in plays on; the player's own
    action takes the seat back first."""
    state = _table(["open", "bot:random"], clock=30)
    _join_all(state)
    assert state.current.to_act is not None
    expired = 0
    rng = random.Random(5)
    while not state.seats[0].away:
        game = state.current
        seat = game.to_act
        turn = next_turn(state, T0 + 2)
        if seat == 0:
            assert isinstance(turn, ClockRuns) and turn.seat == 0
            move = _act(state, 0, str(rng.choice(game.legal_actions())), "clock")
            expired += 1
            kinds = [e.kind for e in move.change.entries]
            assert kinds == (["away", "act"] if expired == AWAY_AFTER else ["act"])
        else:
            assert turn == BotMoves(1, "bot", "random", 0.0)
            _act(state, 1, str(rng.choice(game.legal_actions())), "bot")
    assert expired == AWAY_AFTER and state.expiries[0] == AWAY_AFTER
    while state.current.to_act != 0:
        _act(state, 1, str(rng.choice(state.current.legal_actions())), "bot")
    assert next_turn(state, T0) == BotMoves(0, "stand-in", "random", 0.0)
    move = _act(state, 0, str(state.current.legal_actions()[0]))
    assert [e.kind for e in move.change.entries] == ["back", "act"]
    assert not state.seats[0].away and state.expiries[0] == 0


def test_the_turn_clock_counts_from_the_stored_turn_start() -> None:
    """What the table waits for is worked out from the log: the clock's time left at any
    moment, the same on every worker and after a restart."""
    state = _table(["open", "open"], clock=60)
    _join_all(state)
    seat = state.current.to_act
    assert seat is not None
    assert next_turn(state, T0 + 1) == ClockRuns(seat, 60.0)
    assert next_turn(state, T0 + 21) == ClockRuns(seat, 40.0)
    assert next_turn(state, T0 + 99) == ClockRuns(seat, 0.0)
    rebuilt = build_table(state.row, list(state.entries))
    assert next_turn(rebuilt, T0 + 21) == ClockRuns(seat, 40.0)


def test_the_pause_after_a_deal_waits_for_every_person() -> None:
    """A deal's end with people at a table with deal_pause: nobody acts, no clock runs,
    until each person pressed Continue or the pause ran out."""
    state = _table(["open", "open", "bot:random"], deal_pause=30, clock=60)
    _join_all(state)
    rng = random.Random(2)
    while state.pause is None:
        game = state.current
        _act(state, game.to_act, str(rng.choice(game.legal_actions())), at=T0 + 5)
    assert state.pause.waiting == {0, 1}
    assert next_turn(state, T0 + 15) == PauseRuns(20.0)
    with pytest.raises(TableError) as info:
        decide.act(state, state.current.to_act, str(state.current.legal_actions()[0]),
                   "player", at=T0 + 6)
    assert info.value.code == "paused"
    _stored(state, decide.continue_deal(state, 0, at=T0 + 6))
    assert decide.continue_deal(state, 0, at=T0 + 7) is None  # pressed already: nothing
    assert state.pause is not None and state.pause.waiting == {1}
    update = frames.entry_frames(state, state.entries[-1], None, with_state=True, clock=None,
                                 at=T0 + 7)
    assert update[0]["type"] == "continue" and update[0]["pause"] == {
        "deal": 2, "ms": 28000, "waiting": [1]}
    _stored(state, decide.pause_over(state, at=T0 + 40))
    assert state.pause is None and decide.pause_over(state, at=T0 + 41) is None
    assert not isinstance(next_turn(state, T0 + 40), PauseRuns)


def test_chat_lines_are_limited_per_game_and_per_minute() -> None:
    """The count per game is the log's (a rebuilt table counts the same; a new game opens
    the chat again); the rate is the process's token bucket."""
    state = _table(["open", "open"])
    _join_all(state)
    limits = ChatLimits(per_game=3, per_minute=60, burst=2)
    allowance = ChatAllowance()
    at = 0.0
    for line in range(3):
        allowance.take(state.chat_lines, 1, limits, at)
        _stored(state, decide.chat(state, 1, f"line {line}", at=T0))
        at += 1.0
    with pytest.raises(TableError, match="at most 3 chat lines") as info:
        allowance.take(state.chat_lines, 1, limits, at + 60)
    assert info.value.status == 429
    assert build_table(state.row, list(state.entries)).chat_lines == [0, 3]
    fresh = ChatAllowance()
    fresh.take(state.chat_lines, 0, limits, 0.0)
    fresh.take(state.chat_lines, 0, limits, 0.0)
    with pytest.raises(TableError, match="a minute"):
        fresh.take(state.chat_lines, 0, limits, 0.0)
    chat = frames.entry_frames(state, state.entries[-1], None, with_state=True, clock=None,
                               at=T0)
    assert chat == [{"type": "chat", "seq": state.seq, "seat": 1, "name": "p1",
                     "text": "line 2"}]


def _play_out(state: TableState, seed: int) -> list[decide.Move]:
    rng = random.Random(seed)
    moves = []
    while not state.current.is_over:
        game = state.current
        moves.append(_act(state, game.to_act, str(rng.choice(game.legal_actions()))))
    return moves


def test_a_finished_game_stores_its_record_and_a_rematch_begins_the_next() -> None:
    state = _table(["open", "open", "bot:random"])
    _join_all(state)
    moves = _play_out(state, 9)
    last = moves[-1]
    assert last.game_over and not any(m.game_over for m in moves[:-1])
    updates = last.change.game_updates
    assert updates["status"] == "finished" and updates["result"]["over"] is True
    assert updates["names"] == ["p0", "p1", "random"]
    assert last.change.table_updates["status"] == "finished"
    # the first person's Play again starts nothing: the other is asked too
    first = decide.agree(state, 0, seed=98, at=T0 + 40)
    assert first is not None and first.new_game is None
    assert [e.kind for e in first.entries] == ["rematch"]
    _stored(state, first)
    assert state.game_number == 1 and state.current.is_over
    assert decide.agree(state, 0, seed=98, at=T0 + 41) is None  # said already
    change = decide.agree(state, 1, seed=99, at=T0 + 50)
    assert change is not None and [e.kind for e in change.entries] == ["rematch", "game"]
    assert change.new_game == GameRow(table_id="t1", number=2, seed=99,
                                      rules=state.row.rules, players=3, status="playing",
                                      started_at=T0 + 50)
    _stored(state, change)
    assert state.game_number == 2 and not state.current.is_over
    assert state.game_start_seq == state.seq


def test_a_tournament_table_plays_one_game() -> None:
    state = _table(["open", "open"], tournament=TournamentPlace("cup", 1, 1, False))
    _join_all(state)
    _play_out(state, 4)
    with pytest.raises(TableError) as info:
        decide.agree(state, 0, seed=1, at=T0)
    assert info.value.code == "tournament_table"
    assert state.vote is None and next_turn(state, T0 + 10**6) is None


def test_a_rated_table_takes_profiles_one_seat_each() -> None:
    state = _table(["open", "open"], rated=True)
    with pytest.raises(TableError) as info:
        decide.join(state, 0, "guest", None, token_hash="h", seed=1, at=T0)
    assert info.value.code == "profile_required"
    _stored(state, decide.join(state, 0, None, Joiner("pid", "Pia"), token_hash="h",
                               seed=1, at=T0)[1])
    with pytest.raises(TableError) as info:
        decide.join(state, 1, None, Joiner("pid", "Pia"), token_hash="h", seed=1, at=T0)
    assert info.value.code == "already_seated"
    seat, change = decide.claim(state, "pid", token_hash=hash_token("new"), at=T0)
    _stored(state, change)
    assert seat == 0 and state.seat_of("new") == 0 and state.seats[0].name == "Pia"


def test_frames_hide_another_seats_discards() -> None:
    """R-EX-2: the cards of a discard are for the discarder's eyes only: the other seats'
    and the spectators' updates carry no action text and no drawn cards; the discarder's
    own update carries both."""
    state = _table(["open", "open"])
    _join_all(state)
    rng = random.Random(1)
    while True:
        game = state.current
        seat = game.to_act
        discards = [a for a in game.legal_actions() if str(a).startswith("discard ")]
        if discards:
            move = _act(state, seat, str(rng.choice(discards)))
            break
        _act(state, seat, str(rng.choice(game.legal_actions())))
    entry = move.change.entries[-1]
    own = frames.entry_frames(state, entry, seat, with_state=True, clock=None, at=T0)
    assert own[0]["action"] == entry.data["action"]
    for audience in (1 - seat, None):
        other = frames.entry_frames(state, entry, audience, with_state=True, clock=None,
                                    at=T0)
        assert other[0]["action"] is None and other[0]["kind"] == "discard"
        for card in entry.data["action"].split()[1:]:
            assert f'"{card}"' not in json.dumps(other[0]["events"])
        hand = [] if audience is None else sorted(str(c) for c in state.current.hands[audience])
        assert other[0]["state"] is not None and sorted(other[0]["state"]["hand"]) == hand


def test_a_replay_is_the_missed_frames_then_resumed_or_none() -> None:
    state = _table(["open", "open"])
    _join_all(state)
    seen = state.seq
    _act(state, state.current.to_act, str(state.current.legal_actions()[0]))
    _stored(state, decide.chat(state, 0, "hej", at=T0))
    _act(state, state.current.to_act, str(state.current.legal_actions()[0]))
    missed = frames.replay(state, 1, seen, clock=None, at=T0)
    assert missed is not None
    assert [f["type"] for f in missed] == ["update", "chat", "update", "resumed"]
    assert missed[0]["state"] is None and missed[2]["state"] is not None  # the last only
    assert missed[-1]["seq"] == state.seq
    assert frames.replay(state, 1, state.seq + 1, clock=None, at=T0) is None
    assert frames.replay(state, 1, 0, clock=None, at=T0) is None  # before the game


# ---------------------------------------------------------------------- through the ports
class MemoryStorage:
    """A :class:`~chicago.server.core.ports.Storage` in memory: the log and rows of every
    table, with the unique (table, seq) of the real log."""

    failures: tuple[type[BaseException], ...] = (ConnectionError,)

    def __init__(self) -> None:
        self.tables: dict[str, TableRow] = {}
        self.games: dict[tuple[str, int], GameRow] = {}
        self.logs: dict[str, list[LogEntry]] = {}
        self.skipped: list[str] = []

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        results: list[Exception | None] = []
        for change in changes:
            log = self.logs.setdefault(change.table_id, [])
            last = log[-1].seq if log else 0
            if change.entries and change.entries[0].seq != last + 1:
                results.append(ValueError(f"seq {change.entries[0].seq} after {last}"))
                continue
            if change.new_table is not None:
                self.tables[change.table_id] = change.new_table
            row = self.tables[change.table_id]
            for name, value in change.table_updates.items():
                setattr(row, name, value)
            if change.new_game is not None:
                self.games[(change.table_id, change.new_game.number)] = change.new_game
            if change.game_number is not None:
                game = self.games[(change.table_id, change.game_number)]
                for name, value in change.game_updates.items():
                    if hasattr(game, name):
                        setattr(game, name, value)
            log.extend(change.entries)
            results.append(None)
        return results

    def load(self, table_id: str) -> LoadedTable | None:
        row = self.tables.get(table_id)
        if row is None:
            return None
        log = self.logs[table_id]
        start = max(i for i, e in enumerate(log) if e.kind == "game")
        entries = [e for e in log[:start] if e.kind in ("join", "away", "back")] + log[start:]
        return LoadedTable(row, self.games[(table_id, log[start].data["number"])], entries)

    def entries_after(self, table_id: str, seq: int) -> list[LogEntry]:
        return [e for e in self.logs.get(table_id, []) if e.seq > seq]

    def live_table_ids(self) -> list[str]:
        return [t for t, row in self.tables.items() if row.status in (WAITING, PLAYING)]

    def skip(self, what: str, problem: object, doing: str = "loaded") -> None:
        self.skipped.append(what)


class Player:
    """A :class:`~chicago.server.core.ports.Client` that plays its seat: when a frame leaves
    it to act (and no pause holds the table) it sends a random legal action, decided at that
    frame's seq; when a pause waits for it, it presses Continue."""

    def __init__(self, manager: TableManager, table_id: str, seat: int | None,
                 seed: int) -> None:
        self.manager = manager
        self.table_id = table_id
        self.seat: int | None = seat
        self.batched = False
        self.rng = random.Random(seed)
        self.frames: list[dict[str, Any]] = []
        self.refused: list[TableError] = []
        self.over = asyncio.Event()
        self.legal: list[str] = []
        self.paused = False
        self.acted_at: set[int] = set()

    def send(self, text: str) -> None:
        frame = json.loads(text)
        self.frames.append(frame)
        if frame["type"] == "game_over":
            self.over.set()
        state = frame.get("view") or frame.get("state")
        if state:
            self.legal = state["legal_actions"]
        if "pause" in frame or "table" in frame:
            pause = frame["pause"] if "pause" in frame else frame["table"]["pause"]
            self.paused = pause is not None
            if pause is not None and self.seat in pause["waiting"]:
                self._spawn(self.manager.continue_deal, self.seat)
        seq = frame["seq"]
        if self.seat is not None and self.legal and not self.paused and seq not in self.acted_at:
            self.acted_at.add(seq)
            self._spawn(self.manager.act, self.seat, self.rng.choice(self.legal), seq)

    def _spawn(self, request: Any, *args: Any) -> None:
        async def run() -> None:
            try:
                await request(self.manager.tables[self.table_id], *args)
            except TableError as exc:
                self.refused.append(exc)

        asyncio.get_running_loop().create_task(run())

    def close(self, code: int = 1000, reason: str = "") -> None:
        pass


def _settings(*, resume: bool = True) -> Settings:
    return Settings(db_url="sqlite://", seed=24, bot_threads=False, review_workers=0,
                    resume_tables=resume)


def test_the_manager_plays_a_game_through_memory_ports() -> None:
    """No database, no web framework: the manager stores each decided change in the memory
    storage, applies it, publishes it on the in-process bus, and each client gets the frames
    of its audience; the stored log rebuilds the table exactly, and a second manager on the
    same storage resumes it."""
    storage = MemoryStorage()

    async def scenario() -> tuple[TableState, list[Player], Player]:
        manager = TableManager(storage, _settings(resume=False), InProcessBus())
        await manager.start()
        table = await manager.create(TableSpec(
            Rules.preset("pagat").replace(max_deals=2), ["open", "bot:random", "open"],
            TableOptions(deal_pause=60)))
        tokens = [await manager.join(table.id, seat, f"p{seat}") for seat in (0, 2)]
        players = []
        for (token, seat) in tokens:
            player = Player(manager, table.id, seat, seed=seat)
            await manager.hello(table, player, token, None)
            players.append(player)
        watcher = Player(manager, table.id, None, seed=0)
        await manager.hello(table, watcher, None, None)
        await manager.chat(table, 0, "lycka till")
        await asyncio.wait_for(asyncio.gather(*(p.over.wait() for p in players)), 120)
        await manager.stop()
        return table.state, players, watcher

    state, players, watcher = asyncio.run(scenario())
    assert state.current.is_over and state.game_number == 1
    log = storage.logs[state.id]
    assert [e.seq for e in log] == list(range(1, state.seq + 1))
    kinds = {e.kind for e in log}
    assert {"game", "join", "act", "chat", "continue"} <= kinds
    assert {e.data["by"] for e in log if e.kind == "act"} == {"player", "bot"}
    loaded = storage.load(state.id)
    assert loaded is not None
    rebuilt = build_table(loaded.table, loaded.entries)
    assert rebuilt.current.record() == state.current.record()
    assert storage.tables[state.id].status == "finished"
    assert storage.games[(state.id, 1)].status == "finished"
    for player in [*players, watcher]:
        assert [f["seq"] for f in player.frames if f["type"] == "game_over"] == [state.seq]
        assert player.frames[0]["type"] == "snapshot"
    for player in players:  # each person's frames are its own seat's, none refused
        assert player.refused == []
        for frame in player.frames:
            view = frame.get("view") or frame.get("state") or {}
            assert view.get("seat", player.seat) == player.seat
    assert all(not (f.get("view") or f.get("state") or {}).get("hand") for f in watcher.frames)

    async def resume() -> tuple[int, bool]:
        manager = TableManager(storage, _settings(), InProcessBus())
        await manager.start()
        table = await manager.get(state.id)
        assert table is not None
        await manager.rematch(table, 0)  # one of two people: the other is asked too
        assert table.state.current.is_over and table.state.vote is not None
        await manager.rematch(table, 2)
        seq, over = table.state.seq, table.state.current.is_over
        await manager.stop()
        return seq, over

    seq, over = asyncio.run(resume())
    assert seq == state.seq + 3 and not over
    assert [e.kind for e in storage.logs[state.id][-3:]] == ["rematch", "rematch", "game"]
    assert (state.id, 2) in storage.games
    assert storage.skipped == []


class RacingStorage(MemoryStorage):
    """Makes the start-up's resume read a table while it is being created: the resume lists
    the table as soon as its row is stored; ``load_last``: the create's write waits until
    the resume's load began and the load until :attr:`go` is set, else the write waits until
    the loaded copy is installed."""

    def __init__(self, *, load_last: bool) -> None:
        super().__init__()
        self.load_last = load_last
        self.stored, self.loading, self.go, self.installed = (threading.Event()
                                                              for _ in range(4))

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        results = super().write(changes)
        if any(change.new_table is not None for change in changes):
            self.stored.set()
            (self.loading if self.load_last else self.installed).wait(60)
        return results

    def live_table_ids(self) -> list[str]:
        self.stored.wait(60)
        return super().live_table_ids()

    def load(self, table_id: str) -> LoadedTable | None:
        self.loading.set()
        if self.load_last:
            self.go.wait(60)
        return super().load(table_id)


@pytest.mark.parametrize("load_last", [True, False], ids=["load-last", "create-last"])
def test_a_table_created_while_the_resume_reads_it_is_held_once(load_last: bool) -> None:
    """A table created while the start-up's resume reads it from storage: the manager
    holds one copy, the one the create returned, subscribed once to the bus (a copy loaded
    last replaced it before; one loaded first stayed subscribed)."""
    storage = RacingStorage(load_last=load_last)
    bus = InProcessBus()

    async def scenario() -> None:
        manager = TableManager(storage, _settings(resume=False), bus)
        manager.cache.installed.append(lambda _table: storage.installed.set())
        await manager.start()
        resume = asyncio.create_task(manager.cache.resume())
        table = await manager.create(TableSpec(Rules.preset("pagat"), ["bot:random"] * 3))
        storage.go.set()
        await resume
        assert manager.tables[table.id] is table
        subscribed = bus._entries.by_table[table.id]
        assert len(subscribed) == 1
        await manager.stop()

    asyncio.run(scenario())


class WriteLog(MemoryStorage):
    """:class:`MemoryStorage` that remembers what each stored change held: per change, the
    ``(kind, by)`` of its entries."""

    def __init__(self) -> None:
        super().__init__()
        self.changes: list[list[tuple[str, str | None]]] = []

    def write(self, changes: Sequence[Change]) -> list[Exception | None]:
        self.changes.extend([(e.kind, e.data.get("by")) for e in c.entries] for c in changes)
        return super().write(changes)


def _one_person_and_bots(replies: bool) -> tuple[WriteLog, str, list[tuple[int, int, Any]]]:
    """A game of one person (seat 0) and three bots (bot_delay 0, a pause after each deal)
    on a seeded manager: the storage, the table id, and every view a bot decided on (seq,
    seat, view's JSON). ``replies`` False: the bots' replies are left to their timers, one
    write each (the manager's way before they were stored with the action they answer)."""
    storage = WriteLog()
    seen: list[tuple[int, int, Any]] = []

    async def scenario() -> str:
        manager = TableManager(storage, _settings(resume=False), InProcessBus())
        if not replies:
            async def none(*_args: Any) -> list[decide.Move]:
                return []

            manager._replies = none  # type: ignore[method-assign]
        decide_bot = manager.scheduler.decide

        async def spy(table: Any, seat: int, level: str, seq: int,
                      game: Any = None) -> Any:
            played = game if game is not None else table.state.current
            seen.append((seq, seat, view_json(played.view(seat))))
            return await decide_bot(table, seat, level, seq, game)

        manager.scheduler.decide = spy  # type: ignore[method-assign]
        await manager.start()
        table = await manager.create(TableSpec(
            Rules.preset("pagat").replace(max_deals=3),
            ["open", "bot:basic", "bot:random", "bot:basic"],
            TableOptions(deal_pause=60, bot_delay=0)))
        token, seat = await manager.join(table.id, 0, "p0")
        player = Player(manager, table.id, seat, seed=5)
        await manager.hello(table, player, token, None)
        await asyncio.wait_for(player.over.wait(), 120)
        assert player.refused == []
        await manager.stop()
        return table.id

    table_id = asyncio.run(scenario())
    return storage, table_id, seen


def test_the_bots_replies_are_stored_with_the_action_they_answer() -> None:
    """At a table without a bot delay, the replies of the bots that decide in the loop are
    decided on the state after the action (not yet stored) and stored in the same write as
    the action, up to the next person's turn, a deal's pause or the game's end: the log,
    seat by seat and action by action, is the one their timers make (the same seeds), in
    fewer writes. Each bot is given its own seat's view alone, the very view that seat has
    at that seq when rebuilt from the stored log (no card of another hand: V-HIDDEN)."""
    chained, table_id, seen = _one_person_and_bots(replies=True)
    timed, timed_id, seen_timed = _one_person_and_bots(replies=False)
    assert timed_id == table_id

    def actions(storage: WriteLog) -> list[tuple[int, str, int | None, Any]]:
        return [(e.seq, e.kind, e.seat, e.data) for e in storage.logs[table_id]]

    assert actions(chained) == actions(timed)
    assert [(seq, seat) for seq, seat, _ in seen] == [(s, t) for s, t, _ in seen_timed]
    assert len(chained.changes) < len(timed.changes)
    for held in timed.changes:  # before: one action a write
        assert len([k for k, _ in held if k == "act"]) <= 1
    for before, after in zip(chained.changes, chained.changes[1:], strict=False):
        if before and before[-1] == ("act", "player") and after and after[0] == ("act", "bot"):
            raise AssertionError(f"a bot's reply was stored apart from the action: {after}")
    assert any(held[:2] == [("act", "player"), ("act", "bot")] for held in chained.changes)
    loaded = chained.load(table_id)
    assert loaded is not None
    entries = loaded.entries
    for seq, seat, view in seen:
        state = build_table(loaded.table, [e for e in entries if e.seq <= seq])
        assert state.seq == seq and state.current.to_act == seat
        assert view == view_json(state.current.view(seat))
        assert view["seat"] == seat and view["hand"] == [str(c) for c in
                                                          sorted(state.current.hands[seat])]


def test_a_bot_that_fails_to_reply_leaves_the_action_it_answers_stored(
        caplog: pytest.LogCaptureFixture) -> None:
    """A bot whose decision raises while it replies at once: the person's action is stored
    and answered all the same, the failure logged; the bot's timer then tries again (and
    plays when it no longer fails)."""
    storage = WriteLog()

    async def scenario() -> None:
        manager = TableManager(storage, _settings(resume=False), InProcessBus())
        decide_bot = manager.scheduler.decide
        failures: list[int] = []

        async def failing(table: Any, seat: int, level: str, seq: int,
                          game: Any = None) -> Any:
            if game is not None and not failures:  # the first reply at once fails
                failures.append(seq)
                raise RuntimeError("the bot's bug")
            return await decide_bot(table, seat, level, seq, game)

        manager.scheduler.decide = failing  # type: ignore[method-assign]
        await manager.start()
        table = await manager.create(TableSpec(
            Rules.preset("pagat").replace(max_deals=1), ["open", "bot:basic"],
            TableOptions(bot_delay=0)))
        token, seat = await manager.join(table.id, 0, "p0")
        player = Player(manager, table.id, seat, seed=5)
        await manager.hello(table, player, token, None)
        await asyncio.wait_for(player.over.wait(), 120)
        assert failures and player.refused == []
        await manager.stop()

    with caplog.at_level("ERROR", logger="chicago.server"):
        asyncio.run(scenario())
    assert any("failed to reply" in r.getMessage() for r in caplog.records)
    assert [held[0] for held in storage.changes if held].count(("act", "player")) > 0


def test_each_action_is_applied_to_the_game_once_and_never_by_the_store(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine applies each action of a move once: the action checked on a copy of the
    game when it is decided (the person's, and each bot's reply decided on the state after
    it), and that very game installed when the change is stored. Neither the writer thread
    nor the storage applies anything: what is stored is the decided change's entries and
    rows (docs/SERVER.md, twelfth pass). A whole game of one person and three bots."""
    applied: list[str] = []
    engine_apply = Game.apply

    def counting(game: Game, action: Any) -> None:
        applied.append(threading.current_thread().name)
        engine_apply(game, action)

    monkeypatch.setattr(Game, "apply", counting)
    storage, table_id, _ = _one_person_and_bots(replies=True)
    stored = [e for e in storage.logs[table_id] if e.kind == "act"]
    assert stored and len(applied) == len(stored)
    assert "chicago-writer" not in applied
