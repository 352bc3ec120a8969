"""The turn clock (issue 16): when it runs out the table's stand-in bot makes that one
decision for the player, whose seat it stays, and the clock starts again at the seat's next
turn; after three expiries in a row the seat is marked away and the stand-in plays every turn
until the player takes the seat back with ``back``, an action or a reconnection."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from server_support import Since, WsPlayer, age_log, close_all, create_table, join
from starlette.testclient import TestClient

from chicago.server import Settings, create_app, schedule
from chicago.server.clock import ShiftedClock
from chicago.server.core.state import AWAY_AFTER
from chicago.server.core.turns import BotMoves

pytestmark = pytest.mark.timeout(120)


def _expire(client: TestClient, table_id: str) -> bool:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    result: bool = client.portal.call(manager.expire_clock, table_id)  # type: ignore[union-attr]
    return result


def _two_people(client: TestClient, **options: Any
                ) -> tuple[str, list[str], list[WsPlayer], WsPlayer]:
    """A table of two people with a 600 s clock and the random stand-in: its id, the seat
    tokens, the two players' connections and a spectator's."""
    table = create_table(client, ["open", "open"], clock=600, stand_in="random",
                         **options)["id"]
    tokens = [join(client, table, seat) for seat in (0, 1)]
    players = [WsPlayer(client, table, t) for t in tokens]
    return table, tokens, players, WsPlayer(client, table)


def _answer_until(watcher: WsPlayer, players: list[WsPlayer], seat: int,
                  rng: random.Random) -> None:
    """Let the others act until ``seat`` is to act: the people of ``players`` (by seat)
    randomly, a bot seat (beyond them) on the server."""
    while watcher.state["to_act"] != seat:
        to_act = watcher.state["to_act"]
        assert to_act is not None and not watcher.over
        before = watcher.seq
        if to_act < len(players):
            actor = players[to_act]
            actor.sync(watcher.seq)
            actor.send(type="act", action=rng.choice(actor.state["legal_actions"]))
        watcher.until(lambda f, b=before: f["type"] == "update" and f["seq"] > b)


def _expiry(client: TestClient, watcher: WsPlayer, seat: int) -> dict[str, Any]:
    """Run out ``seat``'s clock (it is to act): the update of the one decision made for it."""
    assert watcher.state["to_act"] == seat
    assert _expire(client, watcher.table_id)
    update = watcher.until(lambda f: f["type"] == "update")
    assert (update["seat"], update["by"]) == (seat, "clock")
    return update


def test_one_expiry_plays_exactly_one_decision_and_the_seat_stays_the_players(
        client: TestClient) -> None:
    """Issue 16: when the clock runs out the stand-in makes one decision (``by`` "clock"),
    the seat is not marked away, and the seat's next turn has its full clock again."""
    table, _, players, watcher = _two_people(client)
    seat = watcher.state["to_act"]
    clock = watcher.frames[-1]["clock"]
    assert clock["seat"] == seat and 0 < clock["ms"] <= 600_000

    seq = watcher.seq
    update = _expiry(client, watcher, seat)
    assert update["seq"] == seq + 1  # one entry: the decision, no seat change
    assert not [f for f in watcher.frames if f["type"] == "seats"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert not manager.tables[table].state.seats[seat].away
    since = Since()
    _answer_until(watcher, players, seat, random.Random(5))
    last = watcher.frames[-1]
    assert last["clock"]["seat"] == seat
    assert last["clock"]["ms"] >= since.least(600_000)  # restarted
    # the player plays the turn themselves: nothing else moved for them meanwhile
    me = players[seat]
    me.sync(watcher.seq)
    me.send(type="act", action=me.state["legal_actions"][0])
    assert watcher.until(lambda f: f["type"] == "update")["by"] == "player"


def test_three_expiries_in_a_row_mark_the_seat_away_until_the_player_is_back(
        client: TestClient) -> None:
    _, _, players, watcher = _two_people(client)
    seat = watcher.state["to_act"]
    rng = random.Random(6)
    for expiry in range(AWAY_AFTER):
        _answer_until(watcher, players, seat, rng)
        seats_before = len([f for f in watcher.frames if f["type"] == "seats"])
        _expiry(client, watcher, seat)
        changes = [f for f in watcher.frames if f["type"] == "seats"][seats_before:]
        if expiry < AWAY_AFTER - 1:
            assert changes == [], f"away after only {expiry + 1} expiries"
    away = changes[-1]
    assert away["change"] == "away" and away["seats"][seat]["away"] is True
    # from now on the stand-in plays every turn of the seat (without a clock)
    stand_in_moves = 0
    while stand_in_moves < 3 and not watcher.over:
        if watcher.state["to_act"] == 1 - seat:
            other = players[1 - seat]
            other.sync(watcher.seq)
            other.send(type="act", action=rng.choice(other.state["legal_actions"]))
        frame = watcher.until(lambda f: f["type"] == "update")
        if frame["by"] == "stand-in":
            assert frame["seat"] == seat
            stand_in_moves += 1
    assert stand_in_moves == 3
    # the player comes back
    me = players[seat]
    me.sync(watcher.seq)
    me.send(type="back")
    back = watcher.until(lambda f: f["type"] == "seats")
    assert back["change"] == "back" and back["seats"][seat]["away"] is False
    for _ in range(30):  # from now on only the player acts for the seat
        if watcher.state["to_act"] is None:
            break
        to_act = watcher.state["to_act"]
        actor = players[to_act]
        actor.sync(watcher.seq)
        actor.send(type="act", action=rng.choice(actor.state["legal_actions"]))
        frame = watcher.until(lambda f: f["type"] == "update")
        assert frame["by"] == "player"
        if frame["clock"] is not None:
            assert frame["clock"]["seat"] == watcher.state["to_act"]


def test_the_players_own_move_starts_the_count_again(client: TestClient) -> None:
    table, _, players, watcher = _two_people(client)
    seat = watcher.state["to_act"]
    rng = random.Random(7)
    for _ in range(AWAY_AFTER - 1):
        _answer_until(watcher, players, seat, rng)
        _expiry(client, watcher, seat)
    _answer_until(watcher, players, seat, rng)
    me = players[seat]
    me.sync(watcher.seq)
    me.send(type="act", action=me.state["legal_actions"][0])
    assert watcher.until(lambda f: f["type"] == "update")["by"] == "player"
    for _ in range(AWAY_AFTER - 1):
        _answer_until(watcher, players, seat, rng)
        _expiry(client, watcher, seat)
    assert not [f for f in watcher.frames if f["type"] == "seats"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert manager.tables[table].state.expiries[seat] == AWAY_AFTER - 1


def _patient_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in of an away seat waits an hour before it moves (bots keep their delay):
    a player who comes back is back before it moves, however slow the machine (the API
    allows a delay of 5 s at most, which a busy machine can use up)."""
    original = schedule.next_turn

    def patient(state: Any, at: float) -> Any:
        turn = original(state, at)
        if isinstance(turn, BotMoves) and turn.by == "stand-in":
            return dataclasses.replace(turn, delay=3600.0)
        return turn

    monkeypatch.setattr(schedule, "next_turn", patient)


def test_a_reconnection_or_an_action_gives_the_seat_back(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in waits here, so the player is back before it moves."""
    _patient_stand_in(monkeypatch)
    table, tokens, players, watcher = _two_people(client, bot_delay=5)
    seat = watcher.state["to_act"]
    rng = random.Random(8)
    for _ in range(AWAY_AFTER):
        _answer_until(watcher, players, seat, rng)
        _expiry(client, watcher, seat)
    assert [f for f in watcher.frames if f["type"] == "seats"][-1]["change"] == "away"
    me = players[seat]
    seq = watcher.seq
    me.close()
    me = WsPlayer(client, table, tokens[seat], last_seq=seq, view=me.view)
    assert watcher.until(lambda f: f["type"] == "seats")["change"] == "back"
    assert [f["type"] for f in me.frames][-1] == "resumed"
    players[seat] = me

    for _ in range(AWAY_AFTER):  # away again; this time an action brings the player back
        _answer_until(watcher, players, seat, rng)
        _expiry(client, watcher, seat)
    assert [f for f in watcher.frames if f["type"] == "seats"][-1]["change"] == "away"
    _answer_until(watcher, players, seat, rng)
    me.sync(watcher.seq)
    action = me.state["legal_actions"][0]
    me.send(type="act", action=action)
    assert watcher.until(lambda f: f["type"] == "seats")["change"] == "back"
    update = watcher.until(lambda f: f["type"] == "update")
    assert (update["by"], update["seat"], update["action"]) == ("player", seat, action)


def test_the_clock_runs_out_by_itself(client: TestClient) -> None:
    """A one-second clock: the stand-in makes the move without anyone's help."""
    info = create_table(client, ["open", "open"], clock=1, stand_in="random")
    table = info["id"]
    for seat in (0, 1):
        join(client, table, seat)
    watcher = WsPlayer(client, table)
    seat = watcher.state["to_act"]
    frame = watcher.until(lambda f: f["type"] == "update")
    assert (frame["by"], frame["seat"]) == ("clock", seat)


def _clock_ms(player: WsPlayer) -> int:
    player.send(type="view")
    clock = player.until(lambda f: f["type"] == "snapshot")["clock"]
    assert clock is not None
    ms: int = clock["ms"]
    return ms


def test_a_restart_keeps_the_turn_clock_running(tmp_path: Path) -> None:
    """The deadline is stored with the change that began the turn: after a restart the seat
    to act has what was left, not a fresh clock (here 3600 s, 3000 of them gone while the
    server was down: what is left is 600 s less the time the restart itself took, which a
    busy machine may make long)."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'clock.sqlite3'}", static_dir=None,
                        seed=11)
    with TestClient(create_app(settings)) as client:
        try:
            since = Since()
            table = create_table(client, ["open", "open"], clock=3600)["id"]
            tokens = [join(client, table, seat) for seat in (0, 1)]
            watcher = WsPlayer(client, table)
            assert since.least(3_600_000) <= _clock_ms(watcher) <= 3_600_000
        finally:
            close_all()
    age_log(settings.db_url, 3000)
    with TestClient(create_app(settings)) as client:
        try:
            watcher = WsPlayer(client, table)
            left = watcher.frames[-1]["clock"]["ms"]
            assert 300_000 < left <= 600_000
            seat = watcher.state["to_act"]
            me = WsPlayer(client, table, tokens[seat])
            since = Since()
            me.send(type="act", action=me.state["legal_actions"][0])  # the next turn: full
            update = watcher.until(lambda f: f["type"] == "update")
            assert update["clock"]["ms"] >= since.least(3_600_000)
        finally:
            close_all()


def test_a_clock_that_ran_out_while_down_gets_a_short_grace_then_the_stand_in(
        tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'grace.sqlite3'}", static_dir=None,
                        seed=12, clock_grace=0.5)
    with TestClient(create_app(settings)) as client:
        try:
            table = create_table(client, ["open", "open"], clock=60, stand_in="random")["id"]
            for seat in (0, 1):
                join(client, table, seat)
        finally:
            close_all()
    age_log(settings.db_url, 3600)
    with TestClient(create_app(settings)) as client:
        try:
            watcher = WsPlayer(client, table)
            assert watcher.frames[-1]["clock"]["ms"] <= 500
            seat = watcher.state["to_act"]
            update = watcher.until(lambda f: f["type"] == "update")
            assert (update["by"], update["seat"]) == ("clock", seat)
        finally:
            close_all()


def test_chat_does_not_extend_the_turn_clock(clocked_client: TestClient,
                                            clock: ShiftedClock) -> None:
    """Five minutes pass on the server's clock (moved, not waited for: before, the test
    slept 0.3 s and a busy machine could make any number of it); a chat line then leaves
    the turn clock where it was, five minutes (and the real time) down, not full again."""
    client = clocked_client
    table = create_table(client, ["open", "open"], clock=600)["id"]
    tokens = [join(client, table, seat) for seat in (0, 1)]
    watcher = WsPlayer(client, table)
    me = WsPlayer(client, table, tokens[watcher.state["to_act"]])
    before = _clock_ms(me)
    clock.advance(300)
    me.send(type="chat", text="thinking")
    me.until(lambda f: f["type"] == "chat")
    assert _clock_ms(me) <= before - 300_000


def test_seats_messages_say_the_status_and_the_clock(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game starts when the last open seat is joined, with a ``seats`` message and no new
    snapshot: it says ``status`` (waiting, then playing) and the turn clock that starts then;
    while the stand-in plays for the seat to act there is no clock, and given back it runs
    again (docs/PROTOCOL.md). (The stand-in waits until the seat is given back.)"""
    _patient_stand_in(monkeypatch)
    info = create_table(client, ["open", "open", "bot:random"], clock=600, stand_in="random",
                        bot_delay=5)
    table = info["id"]
    watcher = WsPlayer(client, table)
    tokens = [join(client, table, 0)]
    joined = watcher.until(lambda f: f["type"] == "seats")
    assert (joined["change"], joined["status"], joined["clock"]) == ("join", "waiting", None)
    since = Since()
    tokens.append(join(client, table, 1))
    joined = watcher.until(lambda f: f["type"] == "seats")
    assert joined["change"] == "join" and joined["status"] == "playing"
    seat = watcher.state["to_act"]
    assert seat in (0, 1), "the tests' seed makes a person act first"
    assert joined["clock"]["seat"] == seat
    assert since.least(600_000) <= joined["clock"]["ms"] <= 600_000
    assert not [f for f in watcher.frames if f["type"] == "snapshot" and f["reason"] != "hello"]
    players = [WsPlayer(client, table, t) for t in tokens]
    rng = random.Random(9)
    for _ in range(AWAY_AFTER):
        _answer_until(watcher, players, seat, rng)  # the bot after its 5 s too
        _expiry(client, watcher, seat)
    away = [f for f in watcher.frames if f["type"] == "seats"][-1]
    assert (away["change"], away["status"]) == ("away", "playing")
    # the clock now running (the change also holds the stand-in's move) is never the seat's
    assert away["clock"] is None or away["clock"]["seat"] != seat
    _answer_until(watcher, players, seat, rng)
    assert watcher.frames[-1]["clock"] is None  # the stand-in is to move: no clock
    WsPlayer(client, table, tokens[seat])  # hello with the token gives the seat back
    back = watcher.until(lambda f: f["type"] == "seats")
    assert back["change"] == "back" and back["clock"]["seat"] == seat
