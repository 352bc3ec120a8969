"""Replays (Resync) for batched connections (issue 28): a client that said ``"batch": true``
and reconnects with its last seq gets the updates it missed in batches, one per run of
updates with no other frame between them, the state on each batch's last update and on
every update that ends a trick (R-TRICK-4: the trick's winner is shown before the next one
is led), the state then, never more than the seat was shown live; an unbatched client gets
exactly the frames it got before (tests/data/replay_unbatched.json, recorded from the
code before this change: tests/server/replay_support.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from replay_support import Played, play, steady, unbatched_golden

from chicago.server.core.frames import REPLAY_STATES

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "replay_unbatched.json"
LIVE_ONLY = ("state", "clock", "pause")
"""The fields of an update that a batch may leave out (and whose times differ)."""

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    path = tmp_path_factory.mktemp("replay") / "replay.sqlite3"
    return asyncio.run(play(str(path)))


def _decoded(texts: list[str]) -> list[dict[str, Any]]:
    return [json.loads(t) for t in texts]


def _flat(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames with each batch's updates in its place."""
    out: list[dict[str, Any]] = []
    for frame in frames:
        out.extend(frame["updates"] if frame["type"] == "batch" else [frame])
    return out


def _bare(update: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in update.items() if k not in LIVE_ONLY}


def _ends_trick(update: dict[str, Any]) -> bool:
    return any(e["type"] == "trick" for e in update["events"])


def test_an_unbatched_replay_is_byte_for_byte_as_before(played: Played) -> None:
    """Every unbatched replay (a seat and a spectator, from every fourth seq and the last
    few, in a deal's pause and after the game) is the same text as the code before batched
    replays sent, but for the times and the table's id."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert unbatched_golden(played) == golden
    assert len(golden) > 40


def test_a_batched_replay_comes_in_batches(played: Played) -> None:
    """A batched replay has no lone update: each run of missed updates is one batch (a
    chat line, a Continue, the game's end … between them end it and keep their place), the
    state on the last update of each batch and on those that end a trick; flattened, the
    same frames as the unbatched replay, the state the same where both carry it."""
    assert {key[0] for key in played.replays} == {"middle", "end"}
    checked = runs = 0
    snapshots = 0
    for (moment, audience, batched, last_seq), texts in played.replays.items():
        plain = _decoded(played.replays[(moment, audience, False, last_seq)] or [])
        if not batched:
            continue
        if texts is None:  # more trick ends missed than a replay rebuilds: a snapshot
            ends = [u for u in plain if u["type"] == "update" and _ends_trick(u)]
            assert len(ends) >= REPLAY_STATES
            snapshots += 1
            continue
        frames = _decoded(texts)
        assert frames[-1]["type"] == "resumed" and steady(frames[-1]) == steady(plain[-1])
        assert not [f for f in frames if f["type"] == "update"]
        kinds = [f["type"] for f in frames]
        for before, after in itertools.pairwise(kinds):
            assert not (before == after == "batch")  # a run is one batch
        seqs = [f["seq"] for f in _flat(frames)]
        assert seqs == sorted(seqs)
        for frame in frames:
            if frame["type"] != "batch":
                continue
            runs += 1
            updates = frame["updates"]
            assert frame["seq"] == updates[-1]["seq"]
            assert [u["seq"] for u in updates] == list(
                range(updates[0]["seq"], updates[0]["seq"] + len(updates)))
            for number, update in enumerate(updates):
                last = number == len(updates) - 1
                assert (update["state"] is not None) == (last or _ends_trick(update))
                if update["state"] is None:
                    assert update["clock"] is None and "pause" not in update
        flat, flat_plain = _flat(frames), plain
        assert len(flat) == len(flat_plain)
        for mine, theirs in zip(flat, flat_plain, strict=True):
            if mine["type"] != "update":
                assert steady(mine) == steady(theirs)
                continue
            assert _bare(mine) == _bare(theirs)
            if theirs["state"] is not None:  # the replay's last update: the state now
                assert steady(mine) == steady(theirs)
        checked += 1
    assert checked > 40 and runs > checked  # batches broken by chat lines and pauses
    assert snapshots > 10


def test_a_replay_reveals_nothing_the_seat_has_not_seen(played: Played) -> None:
    """Hidden information: every update of a batched replay, for the seat and for a
    spectator, is the update that audience was sent live, and the state it carries is the
    state that audience was shown after that action (an unbatched connection's), so no
    card of another seat's hand or discard is in it; a spectator's states hold no hand."""
    shown: dict[int | None, dict[int, dict[str, Any]]] = {}
    for audience in (0, None):
        live = _flat(_decoded(played.live[(audience, False)]))
        shown[audience] = {u["seq"]: u for u in live if u["type"] == "update"}
    states = 0
    for (_, audience, batched, _), texts in played.replays.items():
        if not batched or texts is None:
            continue
        for update in _flat(_decoded(texts)):
            if update["type"] != "update":
                continue
            twin = shown[audience][update["seq"]]
            assert _bare(update) == _bare(twin)
            if update["state"] is not None:
                assert update["state"] == twin["state"]
                states += 1
                if audience is None:
                    assert not update["state"]["hand"]
                    assert not update["state"]["legal_actions"]
            if audience is None and update["kind"] == "discard":
                assert update["action"] is None
    assert states > 100


def test_a_batched_replay_matches_the_live_batches(played: Played) -> None:
    """A replayed update that ends a trick carries the very state a live batch carried for
    it: a batched client sees the same trick ends whether it stayed or came back."""
    for audience in (0, None):
        live = {u["seq"]: u for u in _flat(_decoded(played.live[(audience, True)]))
                if u["type"] == "update"}
        for (_, seen_by, batched, _), texts in played.replays.items():
            if not batched or seen_by != audience or texts is None:
                continue
            for update in _flat(_decoded(texts)):
                if update["type"] == "update" and _ends_trick(update):
                    assert update["state"] == live[update["seq"]]["state"]
