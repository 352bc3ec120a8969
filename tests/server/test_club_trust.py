"""A hostile client against the club layer (issue 23): each finding, one test against the
real app, asserting the reply and that nothing changed.

1. a revoked credential ends what it opened: the socket of a seat token closes at once when
   the profile claims the seat on another device, or signs out everywhere, and the old token
   neither says ``hello`` again nor authenticates a request (the two-worker version is in
   tests/scale/test_revocation_workers.py);
2. nothing derived from a table of a running duplicate round reaches anyone until the round
   ends (statistics, rating history, ratings, leaderboards, the tournament page, table
   infos), then everything at once;
3. every table the server starts passes one admission: a tournament whose first round would
   pass the caps on tables of bots only or on running tables is refused, as are more
   running tournaments than an address or the site may have, and a rematch beyond the
   site's running tables;
4. a name that only looks like another profile's is refused (20 pairs), and so is a name
   that mixes scripts;
5. one client holds at most a small share of the review queue (one client from 8 addresses
   took all 500 places), and a player of the game goes first, even when strangers filled
   the queue.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from club_support import (
    ORGANIZER,
    PROFILE,
    error_reply,
    make_profile,
    make_tournament,
    started,
    state,
    wait_for,
)
from server_support import WsPlayer, close_all, create_table, play_out
from sqlalchemy import func, select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_hostile import FromAddress

from chicago.server import Settings, create_app
from chicago.server.storage import Store
from chicago.server.storage.models import (
    game_players,
    profiles,
    rated_games,
    reviews,
    tournament_tables,
)
from chicago.server.storage.models import tables as tables_model

pytestmark = pytest.mark.timeout(180)


def _store(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def _closed(player: WsPlayer) -> tuple[int, str]:
    """Read until the server closes the socket: its close code and reason."""
    while True:
        try:
            player.ws.receive_text()
        except WebSocketDisconnect as exc:
            player.close()
            return exc.code, exc.reason


def _seated(client: TestClient, secret: str) -> tuple[str, str, WsPlayer]:
    """A table of a profile and a bot that waits for the profile (its turn first or the
    bot's: the bot moves at once); the profile's seat token and its open socket."""
    info = create_table(client, ["open", "bot:random"], bot_delay=5)
    joined = client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                         headers={PROFILE: secret})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    return info["id"], token, WsPlayer(client, info["id"], token)


def _rows(client: TestClient, table: Any) -> int:
    with _store(client).engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def _log(client: TestClient, table_id: str) -> list[tuple[int, str]]:
    loaded = _store(client).load(table_id)
    assert loaded is not None
    return [(e.seq, e.kind) for e in loaded.entries]


def test_a_claim_closes_the_old_seat_tokens_socket_at_once(client: TestClient) -> None:
    """The profile takes its seat on another device: the first device's socket is closed
    (4409, in words), its token says hello no more, and nothing it sent is applied."""
    _, secret = make_profile(client, "Anna")
    table_id, old, first = _seated(client, secret)
    before = _log(client, table_id)
    claimed = client.post(f"/api/tables/{table_id}/claim", headers={PROFILE: secret})
    assert claimed.status_code == 200, claimed.text
    assert _closed(first) == (4409, "seat taken on another device")
    after = _log(client, table_id)
    assert after[:len(before)] == before and [k for _, k in after[len(before):]] == ["join"]

    again = WsPlayer(client, table_id, old, hello=False)
    again.send(type="hello", token=old, last_seq=None)
    assert again.recv()["code"] == "bad_token"
    again.send(type="chat", text="still here?")
    assert again.recv()["code"] == "hello_required"
    assert _log(client, table_id) == after
    new = WsPlayer(client, table_id, claimed.json()["token"])
    assert new.you == 0


def test_signing_out_everywhere_closes_every_socket_of_the_old_secret(
        client: TestClient) -> None:
    """``POST /api/profiles/me/rotate``: the sockets of seat tokens issued under the old
    secret close (4401), those tokens are refused by hello and by HTTP, the old secret signs
    in no more; the new secret takes the seat again."""
    _, secret = make_profile(client, "Anna")
    table_id, old, first = _seated(client, secret)
    second_id, other, second = _seated(client, secret)
    guest_table = create_table(client, ["open", "bot:random"], bot_delay=5)
    guest = client.post(f"/api/tables/{guest_table['id']}/join", json={"seat": 0}).json()
    guest_ws = WsPlayer(client, guest_table["id"], guest["token"])
    before = (_log(client, table_id), _log(client, second_id))

    rotated = client.post("/api/profiles/me/rotate", headers={PROFILE: secret})
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()["secret"]
    assert _closed(first) == (4401, "signed out everywhere")
    assert _closed(second) == (4401, "signed out everywhere")
    guest_ws.send(type="ping")  # another person's socket is untouched
    guest_ws.until(lambda f: f["type"] == "pong")

    for table, token in ((table_id, old), (second_id, other)):
        again = WsPlayer(client, table, token, hello=False)
        again.send(type="hello", token=token, last_seq=None)
        reply = again.recv()
        assert reply["type"] == "error" and reply["code"] == "bad_token", reply
        hint = client.post(f"/api/web/hint/{table}", json={},
                           headers={"Authorization": f"Bearer {token}"})
        error_reply(hint, 401, "bad_token")
    error_reply(client.get("/api/profiles/me", headers={PROFILE: secret}), 401, "bad_profile")
    assert (_log(client, table_id), _log(client, second_id)) == before

    claimed = client.post(f"/api/tables/{table_id}/claim", headers={PROFILE: fresh})
    assert claimed.status_code == 200, claimed.text
    assert WsPlayer(client, table_id, claimed.json()["token"]).you == 0


def test_an_action_racing_the_claim_is_refused(client: TestClient) -> None:
    """The old socket's messages after the claim's entry are not applied: the manager
    refuses a request of a connection whose token no longer holds the seat."""
    from chicago.server.credentials import require_holder
    from chicago.server.protocol import TableError

    _, secret = make_profile(client, "Anna")
    table_id, _old, first = _seated(client, secret)
    manager: Any = client.app.state.manager  # type: ignore[attr-defined]
    table = manager.tables[table_id]
    (conn,) = list(table.conns)
    client.post(f"/api/tables/{table_id}/claim", headers={PROFILE: secret})
    _closed(first)
    with pytest.raises(TableError) as refused:
        require_holder(table, 0, conn)
    assert refused.value.code == "revoked" and refused.value.status == 401
    assert json.loads(json.dumps(table.info()))["seats"][0]["profile"] is not None


def _visible(client: TestClient, tid: str, people: dict[str, str],
             tables: list[str]) -> dict[str, Any]:
    """Everything anyone may read that a finished game could change: every profile page,
    every ladder's leaderboard, the tournament page's entrants, standings and results, the
    tables' infos (their seats' ratings and scores)."""
    seen: dict[str, Any] = {}
    for pid in people:
        response = client.get(f"/api/profiles/{pid}")
        assert response.status_code == 200 and "etag" not in response.headers
        seen[f"profile {pid}"] = response.json()
    board = client.get("/api/leaderboard").json()
    seen["ladders"] = board["ladders"]
    for ladder in board["ladders"]:
        seen[f"ladder {ladder['ladder']}"] = client.get(
            "/api/leaderboard", params={"ladder": ladder["ladder"]}).json()["rows"]
    page = state(client, tid)
    seen["entrants"] = page["entrants"]
    seen["standings"] = page["standings"]
    seen["results"] = [[(t["scores"], t["winners"], t["deals"], t["record"], t["replay"])
                        for t in r["tables"]] for r in page["rounds_played"]]
    for table_id in tables:
        info = client.get(f"/api/tables/{table_id}").json()
        seen[f"table {table_id}"] = (info["scores"], [s["rating"] for s in info["seats"]])
    return seen


def test_a_running_duplicate_round_tells_nothing_until_its_last_table_ends(
        client: TestClient) -> None:
    """Three profiles and a bot at two tables of two, duplicate, two rounds: the table of a
    profile and the bot finishes first. Until the other table finishes, nothing anyone can
    read changes (its result was readable from the profile page's statistics and rating
    history, the leaderboard and the tournament page's ratings); then it all appears at
    once, rated together with the round's other game."""
    tid, people, tables = started(client, ("Anna", "Bert", "Cilla"), tables=2,
                                  table_size=2, rounds=2)
    first = next(t for t in tables if any(s["kind"] == "bot" for s in t["seats"]))
    last = next(t for t in tables if t is not first)
    ids = [t["table"] for t in tables]
    before = _visible(client, tid, people, ids)
    store = _store(client)
    assert _rows(client, rated_games) == 0

    def play(table: dict[str, Any], seed: int) -> None:
        players = {}
        for seat in table["seats"]:
            if seat["kind"] == "profile":
                taken = client.post(f"/api/tournaments/{tid}/seat",
                                    headers={PROFILE: people[seat["profile"]]}).json()
                players[taken["seat"]] = WsPlayer(client, table["table"], taken["token"])
        watcher = next(iter(players.values()))
        play_out(players, watcher, random.Random(seed))
        for player in players.values():
            player.close()

    play(first, 5)
    game = store.game(first["table"], 1)
    assert game is not None and game.status == "finished"
    assert _visible(client, tid, people, ids) == before
    assert _rows(client, rated_games) == 0 and _rows(client, game_players) == 0

    play(last, 6)
    after = wait_for(client, tid, lambda s: s["round"] == 2)
    assert _rows(client, rated_games) == 2 and _rows(client, game_players) == 3
    club: Any = client.app.state.club  # type: ignore[attr-defined]
    wait_for(client, tid, lambda s: all(e["rating"] is not None for e in s["entrants"]))
    assert not club.store.pending_ratings()
    opened = _visible(client, tid, people, ids)
    for pid in people:
        page = opened[f"profile {pid}"]
        assert page["stats"]["games"] == 1 and len(page["history"]) == 1
        assert page["games"][0]["result"] is not None
    assert all(r is not None for r in opened["results"][0][0][:3])
    assert len(after["standings"]) == 4 and opened["ladders"] != before["ladders"]


@pytest.fixture
def tight(settings: Settings) -> Iterator[TestClient]:
    """A server with small caps: 3 tables of bots only an address, 6 running tables on the
    site, 2 tournaments in play an address."""
    small = dataclasses.replace(settings, max_bot_tables_per_address=3, max_running_tables=6,
                                max_tournaments_per_address=2, max_tournaments=20)
    with TestClient(create_app(small)) as test_client:
        try:
            yield test_client
        finally:
            close_all()


def _tournament_rows(client: TestClient) -> tuple[int, ...]:
    with _store(client).engine.connect() as conn:
        return tuple(int(conn.execute(select(func.count()).select_from(t)).scalar_one())
                     for t in (tables_model, tournament_tables))


def _entered(client: TestClient, secret: str, **options: Any) -> tuple[str, str]:
    created, organizer = make_tournament(client, **options)
    joined = client.post(f"/api/tournaments/{created['id']}/join", headers={PROFILE: secret})
    assert joined.status_code == 200, joined.text
    return created["id"], organizer


def test_a_tournament_of_bots_beyond_the_address_cap_is_refused(tight: TestClient) -> None:
    """The probe: an address at its cap of tables of bots only started a tournament of 16
    tables with one profile, 15 of them bots only. Now the start is refused, saying which
    cap, and nothing is stored; a tournament that fits starts."""
    for _ in range(2):
        create_table(tight, ["bot:random", "bot:random"], bot_delay=5)
    _, secret = make_profile(tight, "Anna")
    tid, organizer = _entered(tight, secret, tables=4, table_size=2, clock=None)
    before = _tournament_rows(tight)
    refused = tight.post(f"/api/tournaments/{tid}/start", headers={ORGANIZER: organizer})
    message = error_reply(refused, 429, "too_many_tables")
    assert "of bots only from one address" in message and "would start 3" in message
    assert refused.headers["Retry-After"]
    assert _tournament_rows(tight) == before and state(tight, tid)["status"] == "registering"

    small, organizer = _entered(tight, secret, tables=1, table_size=2, clock=None)
    started = tight.post(f"/api/tournaments/{small}/start", headers={ORGANIZER: organizer})
    assert started.status_code == 200, started.text
    # its table is a person's: the address still has one table of bots only to start
    assert create_table(tight, ["bot:random", "bot:random"], bot_delay=5)["status"] == "playing"
    error_reply(tight.post("/api/tables", json={"seats": ["bot:random", "bot:random"]}), 429,
                "too_many_tables")


def test_the_sites_running_tables_count_tournament_rounds_and_rematches(
        tight: TestClient) -> None:
    """Six running tables on the site: a round that would pass it is refused; so is a
    rematch once the site is full."""
    people = [make_profile(tight, name)[1] for name in ("Anna", "Bert", "Cilla", "Doris")]
    created, organizer = make_tournament(tight, tables=4, table_size=2, clock=None)
    tid = created["id"]
    for secret in people:
        tight.post(f"/api/tournaments/{tid}/join", headers={PROFILE: secret})
    rematched = create_table(tight, ["open", "bot:random"], deal_pause=0)
    token = tight.post(f"/api/tables/{rematched['id']}/join", json={"seat": 0}).json()["token"]
    player = WsPlayer(tight, rematched["id"], token)
    play_out({0: player}, player, random.Random(3))
    def person_plays() -> None:  # a running table of a person and a slow bot
        table = create_table(tight, ["open", "bot:random"], bot_delay=5)
        joined = tight.post(f"/api/tables/{table['id']}/join", json={"seat": 0})
        assert joined.status_code == 200 and joined.json()["table"]["status"] == "playing"

    for _ in range(3):
        person_plays()
    before = _tournament_rows(tight)
    message = error_reply(tight.post(f"/api/tournaments/{tid}/start",
                                     headers={ORGANIZER: organizer}), 429, "too_many_tables")
    assert "in play on this site (this would start 4)" in message
    assert _tournament_rows(tight) == before
    for _ in range(3):
        person_plays()
    seq = _store(tight).load(rematched["id"])
    assert seq is not None
    player.send(type="rematch")
    reply = player.until(lambda f: f["type"] == "error", errors_ok=True)
    assert reply["code"] == "too_many_tables", reply
    after = _store(tight).load(rematched["id"])
    assert after is not None and len(after.entries) == len(seq.entries)


def test_running_tournaments_are_capped_per_address(tight: TestClient) -> None:
    _, secret = make_profile(tight, "Anna")
    for _ in range(2):
        tid, organizer = _entered(tight, secret, tables=1, table_size=2, clock=None)
        started = tight.post(f"/api/tournaments/{tid}/start", headers={ORGANIZER: organizer})
        assert started.status_code == 200, started.text
    tid, organizer = _entered(tight, secret, tables=1, table_size=2, clock=None)
    before = _tournament_rows(tight)
    message = error_reply(tight.post(f"/api/tournaments/{tid}/start",
                                     headers={ORGANIZER: organizer}), 429,
                          "too_many_tournaments")
    assert "2 tournaments in play started from one address" in message
    assert _tournament_rows(tight) == before and state(tight, tid)["status"] == "registering"


LOOKALIKES = [
    ("Anna", "\u0410nna"),  # Cyrillic А (the probe's)
    ("Anna", "Ann\u0430"),  # Cyrillic а (the probe's)
    ("Anna", "A\u0578na"),  # Armenian ո (the probe's)
    ("Paul", "\u0420aul"),  # Cyrillic Р
    ("Cecilia", "\u0421ecilia"),  # Cyrillic С
    ("Olof", "\u041elof"),  # Cyrillic О
    ("Eva", "\u0395va"),  # Greek Ε
    ("Kim", "\u041aim"),  # Cyrillic К
    ("Tom", "\u03a4om"),  # Greek Τ
    ("Mia", "M\u0456a"),  # Cyrillic і
    ("Ylva", "\u04aelva"),  # Cyrillic Ү
    ("Jonas", "\u0408onas"),  # Cyrillic Ј
    ("Hanna", "\u0397anna"),  # Greek Η
    ("Ali", "A1i"),  # the digit 1 for l
    ("Molly", "Mo11y"),
    ("Amy", "Arny"),  # rn for m
    ("Oskar", "0skar"),  # the digit 0 for O
    ("Coco", "\u0441\u043e\u0441\u043e"),  # all Cyrillic: с о с о
    ("TOM", "\u03a4\u039f\u039c"),  # all Greek capitals: Τ Ο Μ
    ("Bo", "\uff22\U0001d428"),  # full-width Ｂ, mathematical bold 𝐨
]
"""20 names, each beside a name that only looks like it (the issue asked for 20 pairs)."""


def _profiles(client: TestClient) -> list[str]:
    with _store(client).engine.connect() as conn:
        return sorted(r[0] for r in conn.execute(select(profiles.c.name)).all())


@pytest.mark.parametrize("name, lookalike", LOOKALIKES)
def test_a_name_that_looks_like_another_is_refused(client: TestClient, name: str,
                                                   lookalike: str) -> None:
    """``Anna`` exists: ``Аnna`` (Cyrillic А), ``Annа``, ``Aոna`` were all accepted beside
    it. Now each look-alike is refused (409 ``name_taken``, or 400 naming the mixed
    scripts), nothing is stored, and the look-alike taken first keeps out the name too."""
    make_profile(client, name)
    before = _profiles(client)
    refused = client.post("/api/profiles", json={"name": lookalike})
    assert refused.status_code in (400, 409), refused.text
    code = refused.json()["error"]["code"]
    assert code in ("name_taken", "bad_request")
    if code == "bad_request":
        assert "mixes the" in refused.json()["error"]["message"]
    assert _profiles(client) == before


def test_names_that_only_differ_in_script_are_distinct(client: TestClient) -> None:
    """Real names of other scripts, and real names that differ by a letter, are not look-
    alikes: each gets its profile."""
    for name in ("Anna", "\u0410\u043d\u043d\u0430", "Ana", "Anna B", "Eli", "Ell",
                 "\u5c71\u7530\u3055\u3093", "\u0396\u03c9\u03ae", "Jan", "Jon"):
        make_profile(client, name)
    assert len(_profiles(client)) == 10


@pytest.fixture
def queueing(settings: Settings) -> Iterator[TestClient]:
    """A server that takes review requests but computes none (its runner is stopped, so
    the queue only fills): 16 asked-for reviews at most, 2 a client."""
    fair = dataclasses.replace(settings, review_workers=1, review_level="ev:samples=1",
                               review_queue=16, review_share=2)
    with TestClient(FromAddress(create_app(fair))) as test_client:
        try:
            manager: Any = test_client.app.state.manager  # type: ignore[attr-defined]
            test_client.portal.call(manager.reviews.stop)
            yield test_client
        finally:
            close_all()


def _finished_bots(client: TestClient) -> str:
    table = create_table(client, ["bot:random"] * 4, rules={"max_deals": 1})["id"]
    watcher = WsPlayer(client, table)
    if not watcher.over:
        watcher.until(lambda f: f["type"] == "game_over")
    watcher.close()
    return table


def _review_rows(client: TestClient) -> list[tuple[str, int, int, str | None]]:
    with _store(client).engine.connect() as conn:
        return sorted((r.table_id, r.seat, r.priority, r.asked_by)
                      for r in conn.execute(select(reviews)).all())


def test_one_client_holds_a_small_share_of_the_review_queue(queueing: TestClient) -> None:
    seats = [(table, seat) for table in (_finished_bots(queueing) for _ in range(7))
             for seat in range(4)]
    asked = iter(seats)
    for n in range(8):  # one client, 8 addresses: 2 places each, then 429
        address = {"x-test-address": f"127.0.0.{n + 1}"}
        for attempt in range(3):
            table, seat = next(asked)
            before = _review_rows(queueing)
            answer = queueing.post(f"/api/games/{table}/1/reviews/{seat}", headers=address)
            if attempt < 2:
                assert answer.status_code == 202, answer.text
            else:
                error_reply(answer, 429, "too_many_reviews")
                assert answer.headers["Retry-After"]
                assert _review_rows(queueing) == before
    assert len(_review_rows(queueing)) == 16
    table, seat = next(asked)  # the queue is full for everyone else: 503, as before
    error_reply(queueing.post(f"/api/games/{table}/1/reviews/{seat}",
                              headers={"x-test-address": "198.51.100.9"}), 503, "review_busy")

    # a player of a game goes first, and is not refused because strangers filled the queue
    people = create_table(queueing, ["open", "bot:random"], rules={"max_deals": 1})["id"]
    token = queueing.post(f"/api/tables/{people}/join", json={"seat": 0}).json()["token"]
    player = WsPlayer(queueing, people, token)
    play_out({0: player}, player, random.Random(4))
    mine = queueing.post(f"/api/games/{people}/1/reviews/1",
                         headers={"Authorization": f"Bearer {token}",
                                  "x-test-address": "127.0.0.1"})
    assert mine.status_code == 202, mine.text
    assert mine.json()["ahead"] == 0  # before the 16 strangers' requests
    stranger = queueing.post(f"/api/games/{people}/1/reviews/0",
                             headers={"Authorization": "Bearer not-a-token"})
    error_reply(stranger, 401, "bad_token")
