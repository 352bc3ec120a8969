"""Club storage on SQLite and PostgreSQL (migration 0002, docs/CLUB.md): profiles keep only
a hash of their secret, a rated game is rated exactly once and the stored ratings equal a
recomputation, a tournament round starts exactly once, joining counts seats atomically;
migration 0004 (the tournament controls) upgrades a stored tournament."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import inspect, select

from chicago import Rules
from chicago.club.names import fold_name
from chicago.club.ratings import recompute
from chicago.server.storage import (
    Change,
    GamePlayerRow,
    GameRow,
    LogEntry,
    RatedGameRow,
    Store,
    TableRow,
)
from chicago.server.storage.club import (
    ClubStore,
    NameTaken,
    ProfileRow,
    TournamentRefused,
    TournamentRow,
    TournamentTableRow,
)
from chicago.server.storage.models import profiles

pytestmark = pytest.mark.timeout(180)


def _store(db_url: str) -> tuple[Store, ClubStore]:
    store = Store(db_url)
    store.migrate()
    return store, ClubStore(store)


def _table(table_id: str) -> Change:
    now = time.time()
    row = TableRow(
        id=table_id, name=table_id, players=2, preset="pagat",
        rules=Rules.preset("pagat").to_dict(), variations=[], seats=["open", "bot:basic"],
        options={}, private=True, secret="s" * 22, status="playing", open_seats=0, game=1,
        created_at=now, updated_at=now)
    game = GameRow(table_id=table_id, number=1, seed=3, rules=row.rules, players=2,
                   status="playing", started_at=now)
    return Change(table_id, [LogEntry(1, 1, "game", None, {"number": 1, "seed": 3}, now)],
                  new_table=row, new_game=game)


def _finish(table_id: str, participants: list[str], places: list[int]) -> Change:
    """The change that ends a table's game: its players and (all seats rated) its rating."""
    now = time.time()
    players = [GamePlayerRow(table_id, 1, seat, p, p.split(":")[1] if p.startswith(
        "profile:") else None, "pagat/2p", True, {"won": int(places[seat] == 1)}, now)
        for seat, p in enumerate(participants)]
    return Change(table_id, [LogEntry(2, 1, "chat", 0, {"text": "gg"}, now)],
                  game_number=1, game_updates={"status": "finished", "finished_at": now},
                  players=players,
                  rated=RatedGameRow(table_id, 1, "pagat/2p", participants, places, now))


def test_the_migration_creates_the_club_tables(db_url: str) -> None:
    store, _ = _store(db_url)
    assert store.revision() == "0011_online"  # the newest revision: 0002 and after
    names = set(inspect(store.engine).get_table_names())
    assert {"profiles", "game_players", "rated_games", "rating_changes", "ratings",
            "tournaments", "tournament_entrants", "tournament_rounds",
            "tournament_tables"} <= names
    store.close()


def test_profiles_keep_a_hash_and_rotation_needs_the_current_one(db_url: str) -> None:
    store, club = _store(db_url)
    club.create_profile(ProfileRow("p1", "Anna", "a" * 64, 1.0, 1.0))
    assert club.profile_by_secret("a" * 64) is not None
    assert club.profile_by_secret("b" * 64) is None
    assert not club.rotate_secret("p1", "c" * 64, "d" * 64, 2.0)  # not its secret
    assert club.rotate_secret("p1", "a" * 64, "b" * 64, 2.0)
    assert club.profile_by_secret("a" * 64) is None
    found = club.profile_by_secret("b" * 64)
    assert found is not None and found.rotated_at == 2.0
    with store.engine.connect() as conn:
        assert set(conn.execute(select(profiles)).mappings().first() or {}) == {
            "id", "name", "secret_hash", "created_at", "rotated_at", "name_key"}
    store.close()


def test_rated_games_are_applied_once_and_recompute_to_the_stored_ratings(
        db_url: str) -> None:
    store, club = _store(db_url)
    club.create_profile(ProfileRow("a", "A", "1" * 64, 1.0, 1.0))
    club.create_profile(ProfileRow("b", "B", "2" * 64, 1.0, 1.0))
    outcomes = [(["profile:a", "bot:basic"], [1, 2]), (["profile:b", "bot:basic"], [2, 1]),
                (["profile:a", "profile:b"], [1, 2]), (["bot:basic", "profile:a"], [1, 1])]
    for index, (who, places) in enumerate(outcomes):
        table_id = f"t{index}"
        assert store.write([_table(table_id)]) == [None]
        assert store.write([_finish(table_id, who, places)]) == [None]
    # two appliers at once (two workers): every game is applied by exactly one of them
    with ThreadPoolExecutor(2) as pool:
        batches = list(pool.map(lambda _: club.apply_ratings(time.time()), range(2)))
    assert sorted(g.table_id for batch in batches for g, _ in batch) == ["t0", "t1", "t2", "t3"]
    assert club.apply_ratings(time.time()) == []
    book = recompute(club.applied_games())
    stored = club.ratings_of(["profile:a", "profile:b", "bot:basic"], "pagat/2p")
    assert {k: r for k, (r, _) in stored.items()} == book.ratings
    assert {k: n for k, (_, n) in stored.items()} == book.games
    assert stored[("pagat/2p", "profile:a")][1] == 3
    history = club.rating_history("profile:a")
    assert [h["table"] for h in history] == ["t0", "t2", "t3"]
    assert history[0]["after"]["mu"] > history[0]["before"]["mu"]
    board = club.leaderboard("pagat/2p")
    assert board[0][0] == "profile:a"
    assert club.ladders() == [("pagat/2p", 3)]
    assert len(club.profile_lines("a")) == 3
    assert [g["table"] for g in club.profile_games("a")] == ["t3", "t2", "t0"]
    store.close()


def _tournament(club: ClubStore, tid: str = "T") -> None:
    club.create_tournament(TournamentRow(tid, "Club night", "o" * 64, {"tables": 1},
                                         2**62, "registering", 0, 1.0, 1.0))


def test_joining_counts_seats_and_refuses_with_a_reason(db_url: str) -> None:
    store, club = _store(db_url)
    _tournament(club)
    for i in range(3):
        club.create_profile(ProfileRow(f"p{i}", f"P{i}", f"{i}" * 64, 1.0, 1.0))
    # two joins at once for the last seat: one gets it, the other is told it is full
    club.add_entrant("T", "p0", "P0", 2, 1.0)
    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(
            lambda p: _try_join(club, p), ["p1", "p2"]))
    assert sorted(outcomes) == ["e2", "tournament_full"]
    with pytest.raises(TournamentRefused) as refused:
        club.add_entrant("T", "p0", "P0", 5, 1.0)
    assert refused.value.code == "already_joined"
    assert [e.entrant for e in club.entrants("T")] == ["e1", "e2"]
    assert club.tournament("T") is not None
    store.close()


def _try_join(club: ClubStore, profile: str) -> str:
    try:
        return club.add_entrant("T", profile, profile, 2, 1.0).entrant
    except TournamentRefused as exc:
        return exc.code


def test_a_round_starts_exactly_once(db_url: str) -> None:
    """Two workers start round 1 at the same moment: one stores the round and its table,
    the other stores nothing (the round's primary key and the status check)."""
    store, club = _store(db_url)
    _tournament(club)

    def start(table_id: str) -> bool:
        return club.start_round(
            "T", 1, {"number": 1}, [TournamentTableRow("T", 1, 1, table_id, ["e1", "b1"])],
            [_table(table_id)], time.time())

    with ThreadPoolExecutor(2) as pool:
        started = list(pool.map(start, ["x1", "x2"]))
    assert sorted(started) == [False, True]
    winner = "x1" if started[0] else "x2"
    assert [t.table_id for t in club.tournament_tables("T")] == [winner]
    assert store.table("x1" if winner == "x2" else "x2") is None
    row = club.tournament("T")
    assert row is not None and row.status == "playing" and row.round == 1
    assert [r.number for r in club.rounds("T")] == [1]
    place = club.table_place(winner)
    assert place is not None and place[1] == "playing"
    assert club.round_games("T", 1)[1].status == "playing"
    assert not start("x3")  # and never again
    assert club.playing_tournament_ids() == ["T"]
    assert club.finish("T", 1, time.time()) and not club.finish("T", 1, time.time())
    store.close()


def test_migration_0004_upgrades_a_stored_tournament(db_url: str) -> None:
    """A tournament with two people stored before 0004 (down to 0003, the columns gone)
    loads after the upgrade: not ended early, two entrant numbers handed out, so the next
    joiner is e3 even after e2 left (numbers are never handed out twice)."""
    store, club = _store(db_url)
    _tournament(club)
    for i in range(3):
        club.create_profile(ProfileRow(f"p{i}", f"P{i}", f"{i}" * 64, 1.0, 1.0))
        if i < 2:
            club.add_entrant("T", f"p{i}", f"P{i}", 4, 1.0)
    store.downgrade("0003_reviews")
    columns = {c["name"] for c in inspect(store.engine).get_columns("tournaments")}
    assert not {"ends_after", "joins"} & columns
    store.migrate()
    assert store.revision() == "0011_online"
    row = club.tournament("T")
    assert row is not None and row.ends_after is None and row.joins == 2
    club.remove_entrant("T", 2.0, entrant="e2")
    assert club.add_entrant("T", "p2", "P2", 4, 3.0).entrant == "e3"
    assert [(e.entrant, e.ord) for e in club.entrants("T")] == [("e1", 0), ("e3", 2)]
    store.close()


def test_migration_0005_keeps_profiles_that_share_a_name(db_url: str) -> None:
    """Profiles stored before 0005 may share a name: after the upgrade each keeps its name
    and loads, and a new profile of that name is refused (``NameTaken``) while another
    name is stored; a downgrade and an upgrade again give the same keys."""
    store, club = _store(db_url)
    store.downgrade("0004_tournament_controls")
    assert "name_key" not in {c["name"] for c in inspect(store.engine).get_columns("profiles")}
    with store.engine.begin() as conn:
        for i, name in enumerate(["Anna", "anna ", "Bo", "ANNA"]):
            conn.execute(profiles.insert().values(id=f"p{i}", name=name,
                                                  secret_hash=f"{i}" * 64,
                                                  created_at=float(i), rotated_at=float(i)))
    store.migrate()
    assert store.revision() == "0011_online"
    with store.engine.connect() as conn:
        keys = dict(conn.execute(select(profiles.c.id, profiles.c.name_key)).all())
    assert keys == {"p0": "anna", "p1": "anna#p1", "p2": "bo", "p3": "anna#p3"}
    assert [club.profile(f"p{i}").name for i in range(4)] == [  # type: ignore[union-attr]
        "Anna", "anna ", "Bo", "ANNA"]
    with pytest.raises(NameTaken):
        club.create_profile(ProfileRow("p4", "Anna", "4" * 64, 5.0, 5.0))
    with pytest.raises(NameTaken):
        club.create_profile(ProfileRow("p5", "bo", "5" * 64, 5.0, 5.0))
    club.create_profile(ProfileRow("p6", "Cilla", "6" * 64, 5.0, 5.0))
    store.downgrade("0004_tournament_controls")
    store.migrate()
    with store.engine.connect() as conn:
        assert dict(conn.execute(select(profiles.c.id, profiles.c.name_key)).all()) == {
            **keys, "p6": "cilla"}
    store.close()


def test_two_profiles_of_one_name_at_once_store_one(db_url: str) -> None:
    """Requests for the same new name at the same moment on two workers (two stores on
    one database, each with its own write lock): the unique index stores one and the
    others get ``NameTaken``."""
    store, club = _store(db_url)
    other_store, other = _store(db_url)

    def make(i: int) -> bool:
        try:
            (club, other)[i % 2].create_profile(
                ProfileRow(f"q{i}", "Dora", f"{i}" * 64, 1.0, 1.0))
        except NameTaken:
            return False
        return True

    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(make, range(8)))
    assert made.count(True) == 1
    with store.engine.connect() as conn:
        rows = conn.execute(select(profiles.c.id).where(profiles.c.name == "Dora")).all()
    assert len(rows) == 1
    other_store.close()
    store.close()


def test_migration_0006_keeps_profiles_whose_names_look_alike(db_url: str) -> None:
    """Profiles stored before 0006 may have names that only look alike (a Cyrillic ``А``):
    after the upgrade each keeps its name, the oldest keeps the key, and a new look-alike is
    refused; a downgrade gives back 0005's keys."""
    store, club = _store(db_url)
    store.downgrade("0005_profile_names")
    with store.engine.begin() as conn:
        for i, name in enumerate(["Anna", "\u0410nna", "Bo", "A\u0578na"]):
            conn.execute(profiles.insert().values(
                id=f"p{i}", name=name, secret_hash=f"{i}" * 64, created_at=float(i),
                rotated_at=float(i), name_key=fold_name(name)))
    store.migrate()
    assert store.revision() == "0011_online"
    with store.engine.connect() as conn:
        keys = dict(conn.execute(select(profiles.c.id, profiles.c.name_key)).all())
    assert keys == {"p0": "anna", "p1": "anna#p1", "p2": "bo", "p3": "anna#p3"}
    assert [club.profile(f"p{i}").name for i in range(4)] == [  # type: ignore[union-attr]
        "Anna", "\u0410nna", "Bo", "A\u0578na"]
    with pytest.raises(NameTaken):
        club.create_profile(ProfileRow("p4", "\u0391NNA", "4" * 64, 5.0, 5.0))  # Greek Α
    store.downgrade("0005_profile_names")
    with store.engine.connect() as conn:
        assert dict(conn.execute(select(profiles.c.id, profiles.c.name_key)).all()) == {
            f"p{i}": fold_name(n) for i, n in enumerate(["Anna", "\u0410nna", "Bo",
                                                          "A\u0578na"])}
    store.close()
