"""Several ``chicago serve`` workers on one PostgreSQL database and one Redis (issue 9).

Real worker processes: two players at one table on two workers play a whole game and see
the same numbered sequence; one seat sends conflicting actions to both workers at once and
exactly one is accepted; a worker killed with SIGKILL mid-deal loses no action and duplicates
none: its players reconnect to the other worker, resume by sequence number and finish.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from scale_fixtures import (  # noqa: F401 (fixtures)
    pg_url_fixture,
    redis_url_fixture,
    workers_fixture,
)
from scale_support import (
    WAIT,
    Player,
    Worker,
    create_table,
    join,
    play,
)
from websockets.exceptions import ConnectionClosed

from chicago import Action, Game
from chicago.cli import main
from chicago.server.storage import LogEntry, Store


def stored(pg_url: str, table_id: str) -> list[LogEntry]:
    store = Store(pg_url)
    try:
        return store.entries_after(table_id, 0)
    finally:
        store.close()


def acts(entries: list[LogEntry], after: int = 0) -> list[tuple[int, int | None, str]]:
    """(seq, seat, action kind) of the stored actions after ``after``."""
    return [(e.seq, e.seat, Action.parse(e.data["action"]).kind.value)
            for e in entries if e.kind == "act" and e.seq > after]


def seen_acts(player: Player, after: int = 0) -> list[tuple[int, int | None, str]]:
    """(seq, seat, action kind) of the updates a player was sent after ``after``."""
    return [(seq, what[0], what[1]) for seq, kind, what in player.stream
            if kind == "update" and seq > after]


def common_stream(*players: Player) -> list[list[tuple[int, str, Any]]]:
    """Each player's stream frames from the highest start seq they all share."""
    start = max(p.stream[0][0] for p in players)
    return [[f for f in p.stream if f[0] > start] for p in players]


def check_record(worker: Worker, table_id: str, entries: list[LogEntry]) -> Game:
    """The finished game's stored record replays to the end, with one action per stored
    act entry of the game."""
    response = httpx.get(f"{worker.url}/api/games/{table_id}/1", timeout=WAIT)
    assert response.status_code == 200, response.text
    game = Game.replay(response.json()["record"])
    assert game.is_over
    assert len(game.actions) == sum(1 for e in entries if e.kind == "act")
    return game


def test_two_players_on_two_workers_play_a_whole_game(
    workers: tuple[Worker, Worker], pg_url: str
) -> None:
    """Seat 0 plays through worker A, seat 1 through worker B: each sees the other as
    connected, both see every change, in the same numbered order, and the stored log is
    exactly that order."""
    a, b = workers
    table = create_table(a, ["open", "open"])["id"]
    zero = Player(table, join(a, table, 0), seed=1)
    one = Player(table, join(b, table, 1), seed=2)

    async def scenario() -> None:
        await zero.connect(a)
        await one.connect(b)
        # each is told the other is connected, though at another worker (presence over Redis)
        await asyncio.gather(zero.until_connected(1), one.until_connected(0))
        await asyncio.gather(play(zero), play(one))

    asyncio.run(scenario())
    assert zero.over and one.over
    entries = stored(pg_url, table)
    last = entries[-1].seq
    assert zero.seq == one.seq == last
    mine, theirs = common_stream(zero, one)
    assert mine == theirs
    assert [f[0] for f in mine] == sorted(f[0] for f in mine)
    start = max(zero.stream[0][0], one.stream[0][0])
    assert seen_acts(zero, start) == seen_acts(one, start) == acts(entries, start)
    check_record(b, table, entries)


def test_conflicting_actions_at_two_workers_exactly_one_accepted(
    workers: tuple[Worker, Worker], pg_url: str
) -> None:
    """Seat 0 is connected to both workers and sends two different legal actions for the same
    position, one to each, at the same moment: one is accepted, the other is refused as
    stale (the writer lock made its worker read the accepted one first), round after round;
    then the game is played to its end."""
    a, b = workers
    table = create_table(a, ["open", "open"])["id"]
    token = join(a, table, 0)
    on_a = Player(table, token, seed=3)
    on_b = Player(table, token, seed=4)
    other = Player(table, join(b, table, 1), seed=5)
    rounds: list[tuple[int, str, str, str]] = []  # (seq, action a, action b, accepted)

    async def conflicts() -> None:
        while not on_a.over and len(rounds) < 6:
            if not on_a.my_turn:
                await on_a.recv()
                continue
            while on_b.seq < on_a.seq:
                await on_b.recv()
            assert on_a.view is not None
            legal = on_a.view["legal_actions"]
            seq = on_a.seq
            if len(legal) < 2:  # nothing to choose between: play it through A
                await on_a.send(type="act", action=legal[0], seq=seq)
                await on_a.until(lambda f, s=seq: f["type"] == "update" and f["seq"] > s)
                continue
            first, second = on_a.rng.sample(legal, 2)
            await asyncio.gather(
                on_a.send(type="act", action=first, seq=seq, id=f"a{seq}"),
                on_b.send(type="act", action=second, seq=seq, id=f"b{seq}"),
            )
            done = await on_a.until(lambda f, s=seq: f["type"] == "update" and f["seq"] > s)
            seen = await on_b.until(lambda f, s=seq: f["type"] == "update" and f["seq"] > s)
            assert done["seq"] == seen["seq"] == seq + 1
            assert done["seat"] == seen["seat"] == 0
            accepted = done["action"]
            assert accepted in (first, second) and seen["action"] == accepted
            loser, tag = (on_b, "b") if accepted == first else (on_a, "a")
            if not any(e.get("id") == f"{tag}{seq}" for e in loser.errors):
                await loser.until(lambda f, t=f"{tag}{seq}": f.get("id") == t)
            rounds.append((seq, first, second, accepted))
        await play(on_a)
        while on_b.seq < on_a.seq:
            await on_b.recv()

    async def scenario() -> None:
        await on_a.connect(a)
        await on_b.connect(b)
        await other.connect(b)
        await asyncio.gather(conflicts(), play(other))

    asyncio.run(scenario())
    assert len(rounds) >= 3
    entries = stored(pg_url, table)
    by_seq = {e.seq: e for e in entries}
    refusals = [e for e in on_a.errors + on_b.errors if str(e.get("id", "")).startswith(
        ("a", "b"))]
    assert len(refusals) == len(rounds)
    assert all(e["code"] == "stale" for e in refusals), refusals
    for seq, _first, _second, accepted in rounds:
        entry = by_seq[seq + 1]
        assert entry.kind == "act" and entry.seat == 0
        assert entry.data["action"] == accepted
    assert on_a.over and other.over
    check_record(a, table, entries)


def test_killed_worker_players_resume_on_the_other(
    workers: tuple[Worker, Worker], pg_url: str
) -> None:
    """Worker A is killed (SIGKILL) in the middle of the first deal, just after its player
    sent an action (perhaps stored, perhaps not). The player reconnects to worker B with its
    last seq and gets exactly what it missed; B takes over the table's bot (whose move A had
    scheduled); the game finishes with every stored action
    seen once by every player, in order."""
    a, b = workers
    # the bot waits a little before each move, so that A dies with a bot move pending
    table = create_table(a, ["open", "bot:random", "open"], bot_delay=0.2)["id"]
    zero = Player(table, join(a, table, 0), seed=6)
    two = Player(table, join(b, table, 2), seed=7)
    outcome: dict[str, Any] = {}

    def mid_deal(player: Player) -> bool:
        view = player.view or {}
        updates = sum(1 for f in player.stream if f[1] == "update")
        return updates >= 10 and view.get("deal") == 1 and player.my_turn

    async def seat_zero() -> None:
        await play(zero, stop=mid_deal)
        assert not zero.over, "the game ended before the worker could be killed"
        before = zero.seq
        await zero.send(type="act", action=zero.choose(), seq=zero.seq)  # in flight
        a.kill()
        with pytest.raises(ConnectionClosed):
            while True:
                await zero.recv()
        outcome["killed_at"] = before
        outcome["seq_after_kill"] = zero.seq
        frame = await zero.connect(b)
        outcome["resume"] = frame["type"]
        await play(zero)

    async def scenario() -> None:
        await zero.connect(a)
        await two.connect(b)
        await asyncio.gather(seat_zero(), play(two))

    asyncio.run(scenario())
    assert outcome["resume"] == "resumed"  # replayed from its last seq, not a snapshot
    assert zero.connections == 2
    assert zero.over and two.over
    entries = stored(pg_url, table)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert zero.seq == two.seq == entries[-1].seq
    start = max(zero.stream[0][0], two.stream[0][0])
    # every stored action after the start was sent once to each player, in order
    assert seen_acts(zero, start) == seen_acts(two, start) == acts(entries, start)
    mine, theirs = common_stream(zero, two)
    assert mine == theirs
    # B took the bot over: bot moves were stored after A died
    assert any(e.data.get("by") == "bot" for e in entries
               if e.kind == "act" and e.seq > outcome["killed_at"] + 1)
    check_record(b, table, entries)


def test_serve_refuses_redis_without_postgresql(tmp_path: Any,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Several workers need PostgreSQL: SQLite with --redis is refused before starting."""
    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--redis",
                 "redis://127.0.0.1:6379/0", "--port", "0"])
    assert code == 2
    assert "needs a PostgreSQL database" in capsys.readouterr().err


def test_serve_refuses_a_bad_redis_url(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["serve", "--db", "postgresql://u:p@127.0.0.1/db", "--redis", "localhost:6379",
                 "--port", "0"])
    assert code == 2
    assert "redis:// URL" in capsys.readouterr().err


def test_rematch_on_one_worker_then_the_other_serves_the_table(
    workers: tuple[Worker, Worker], pg_url: str
) -> None:
    """Seat 0 finishes game 1 on worker A, starts game 2 there (rematch) and plays a little;
    worker B, which never had the table in memory, then loads it from the log on first
    contact: the player resumes there by seq, a client with a seq of game 1 gets a snapshot
    of game 2, and game 2 finishes on B with every stored action seen once, in order."""
    a, b = workers
    table = create_table(a, ["open", "bot:random"], rules={"max_deals": 1})["id"]
    zero = Player(table, join(a, table, 0), seed=8)
    outcome: dict[str, Any] = {}

    async def scenario() -> None:
        await zero.connect(a)
        await play(zero)
        outcome["game_one_seq"] = zero.seq
        await zero.send(type="rematch")
        await zero.until(lambda f: f["type"] == "snapshot" and f["reason"] == "rematch")
        actions = 0

        def enough(player: Player) -> bool:
            return actions >= 3 and player.my_turn

        while not enough(zero):
            if zero.my_turn:
                await zero.send(type="act", action=zero.choose(), seq=zero.seq)
                actions += 1
            await zero.until(lambda f: f["type"] == "update")
        outcome["before"] = zero.seq
        info = httpx.get(f"{b.url}/api/tables/{table}", timeout=WAIT)
        outcome["info"] = (info.status_code, info.json().get("game"), info.json().get("seq"))
        frame = await zero.connect(b)
        outcome["resume"] = frame["type"]
        late = Player(table, zero.token)
        late.view, late.seq = {}, outcome["game_one_seq"]
        outcome["late"] = await late.connect(b)
        await late.close()
        await play(zero)

    asyncio.run(scenario())
    assert outcome["info"] == (200, 2, outcome["before"])
    assert outcome["resume"] == "resumed"
    late = outcome["late"]
    assert late["type"] == "snapshot" and late["table"]["game"] == 2
    assert zero.over
    entries = stored(pg_url, table)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert zero.seq == entries[-1].seq
    start = zero.stream[0][0]
    assert seen_acts(zero, start) == acts(entries, start)
    for number in (1, 2):
        response = httpx.get(f"{b.url}/api/games/{table}/{number}", timeout=WAIT)
        assert response.status_code == 200, response.text
        assert Game.replay(response.json()["record"]).is_over
