"""The frames of a table: what each audience is sent for each stored entry, and the
snapshots and replays that bring a (re)connecting client up to date (docs/PROTOCOL.md).

An audience is a seat or the spectators (None). Every frame is a typed dict built here from
the table's state, and encoded once per audience by the shell that sends it
(:mod:`chicago.server.fanout`). What each audience may see is docs/SERVER.md's "Frames and
secrecy": another seat's discards and one-up request travel without their cards, and the
events of an action are those the audience may see (:meth:`Event.visible_to`). Times come
in as arguments: ``clock`` is the turn clock as it runs now, ``at`` the UNIX time now.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, cast

from chicago.engine.events import GameEnd, Trick
from chicago.engine.eventtext import events_json, events_text
from chicago.engine.jsontypes import EventJSON, StateJSON, ViewJSON
from chicago.engine.viewjson import view_json
from chicago.server import protocol
from chicago.server.core import actionkind
from chicago.server.core.rematch import VoteInfo, vote_info
from chicago.server.core.rows import LogEntry
from chicago.server.core.seats import PauseInfo
from chicago.server.core.state import TableState

__all__ = [
    "REPLAY_STATES",
    "BatchFrame",
    "ChatFrame",
    "ClockInfo",
    "ContinueFrame",
    "Frame",
    "GameOverFrame",
    "PresenceFrame",
    "RematchFrame",
    "ResumedFrame",
    "SeatsFrame",
    "SnapshotFrame",
    "UpdateFrame",
    "batch",
    "ends_trick",
    "entry_frames",
    "pause_info",
    "presence",
    "replay",
    "replay_batches",
    "snapshot",
    "with_state",
]


class ClockInfo(TypedDict):
    """The turn clock as it runs: the seat whose clock it is, milliseconds left."""

    seat: int
    ms: int


class SnapshotFrame(TypedDict):
    """The whole view of one audience (after hello, a rematch, a gap)."""

    type: Literal["snapshot"]
    seq: int
    """The table's sequence number after this frame."""
    reason: str
    """Why it was sent: ``hello``, ``view``, ``rematch`` or ``resync`` (docs/PROTOCOL.md)."""
    you: int | None
    """The audience's seat; null for a spectator."""
    table: dict[str, Any]
    """The table (docs/PROTOCOL.md)."""
    view: ViewJSON
    """The whole view of the audience."""
    clock: ClockInfo | None
    """The turn clock, if the table has one and it runs."""


class UpdateFrame(TypedDict):
    """An action and the events it caused, as one audience sees them. A live update sent
    alone, the last of a replay, and in a ``batch`` the last update and every one that ends
    a trick also carry the state, the clock and the pause; the others carry ``state`` and
    ``clock`` null."""

    type: Literal["update"]
    seq: int
    """The table's sequence number after this frame."""
    game: int
    """The table's game the action was made in (1, 2, … after rematches)."""
    seat: int | None
    """The seat that acted."""
    action: str | None
    """The action's text, null when this audience may not see it (another seat's
    discards)."""
    kind: str
    """The action's kind (``discard``, ``play`` …), which every audience sees."""
    by: str
    """Who made it: ``player``, ``bot``, ``stand-in`` (for a player away) or ``clock`` (the
    turn clock ran out)."""
    events: list[EventJSON]
    """The events the action caused that this audience may see."""
    clock: ClockInfo | None
    """The turn clock as it runs now (null in an update without the state)."""
    pause: NotRequired[PauseInfo | None]
    """The pause after a deal (with the state only)."""
    state: StateJSON | None
    """The audience's view without rules, events and history; null in an earlier update
    of a replay or a batch that ends no trick."""


class BatchFrame(TypedDict):
    """For a client that said ``"batch": true`` in hello: the updates of one burst (a
    person's action and the bots' replies stored with it), in order, in one frame. Only the
    last update and those that end a trick carry the state."""

    type: Literal["batch"]
    seq: int
    """The table's sequence number after this frame (its last update's)."""
    updates: list[UpdateFrame]
    """The updates, one per action, in the order they were made."""


class GameOverFrame(TypedDict):
    """The game has ended: winners, scores, settlement, where its record is, and who is asked
    to play again (None at a tournament table)."""

    type: Literal["game_over"]
    seq: int
    game: int
    winners: list[int]
    scores: list[int]
    settlement: list[float]
    record: str
    rematch: VoteInfo | None


class SeatsFrame(TypedDict):
    """A seat was joined, its player went away or came back, left after a game (``leave``:
    the seat is open) or an open seat was given to a bot (``fill``)."""

    type: Literal["seats"]
    seq: int
    change: str
    seat: int | None
    seats: list[dict[str, Any]]
    status: str
    clock: ClockInfo | None
    rematch: VoteInfo | None


class RematchFrame(TypedDict):
    """After a game: a person agreed to play again (``seat``), or the table closed
    (``closed``: everyone left)."""

    type: Literal["rematch"]
    seq: int
    seat: int | None
    rematch: VoteInfo | None
    closed: bool


class ContinueFrame(TypedDict):
    """A person pressed Continue after a deal, or the pause ran out (``seat`` None)."""

    type: Literal["continue"]
    seq: int
    seat: int | None
    pause: PauseInfo | None
    clock: ClockInfo | None


class ChatFrame(TypedDict):
    """A chat line of a seat."""

    type: Literal["chat"]
    seq: int
    seat: int | None
    name: str | None
    text: str


class ResumedFrame(TypedDict):
    """The end of a replay: the client is up to date."""

    type: Literal["resumed"]
    seq: int
    you: int | None
    table: dict[str, Any]
    clock: ClockInfo | None


class PresenceFrame(TypedDict):
    """Who is connected now, per seat."""

    type: Literal["presence"]
    seq: int
    connected: list[bool]


Frame = (SnapshotFrame | UpdateFrame | BatchFrame | GameOverFrame | SeatsFrame | ContinueFrame
         | ChatFrame | ResumedFrame | PresenceFrame | RematchFrame)
"""Any frame of a table."""

_action_kind = actionkind.kind_shown
"""An action text's kind word and whether every seat may see it
(:func:`chicago.server.core.actionkind.kind_shown`: read once per stored text, and not
at all for a text the server wrote itself)."""


def pause_info(state: TableState, at: float) -> PauseInfo | None:
    """The pause after a deal as frames carry it at UNIX time ``at``, or None."""
    return state.pause.info(at) if state.pause is not None else None


def entry_frames(
    state: TableState, entry: LogEntry, audience: int | None, *, with_state: bool,
    clock: ClockInfo | None, at: float, seat_state: dict[str, Any] | None = None,
    events_texts: list[str] | None = None,
) -> list[Frame]:
    """The frames of one stored entry (already applied) for one audience.

    ``with_state``: an update carries the table's current state, clock and pause (every live
    update, and the last of a replay). ``seat_state``: that state when the caller made it
    (:func:`~chicago.server.protocol.update_state`, sharing the public part between
    audiences). ``events_texts``: an update's events are written as text
    (:func:`~chicago.engine.eventtext.events_text`, the events the audience may see),
    appended to that list, and the update holds :data:`~chicago.server.protocol.EVENTS_MARK`
    in their place (for :func:`~chicago.server.protocol.dumps_with_states`).
    """
    kind = entry.kind
    if kind == "act":
        return _act_frames(state, entry, audience, with_state=with_state, clock=clock,
                           seat_state=seat_state, at=at, events_texts=events_texts)
    if kind in ("join", "away", "back", "leave", "fill"):
        # status: a join that takes the last open seat starts the game ("playing");
        # clock: the turn clock as it runs now (it starts then, stops while a stand-in
        # plays, and starts again when the seat to act is given back)
        return [SeatsFrame(type="seats", seq=entry.seq, change=kind, seat=entry.seat,
                           seats=state.seat_infos(), status=state.status, clock=clock,
                           rematch=vote_info(state, at))]
    if kind in ("rematch", "close"):
        return [RematchFrame(type="rematch", seq=entry.seq, seat=entry.seat,
                             rematch=vote_info(state, at), closed=state.closed)]
    if kind == "continue":
        # a person pressed Continue after a deal, or the pause ran out (seat null); the
        # next deal starts when "pause" is null, and its first turn clock with it
        return [ContinueFrame(type="continue", seq=entry.seq, seat=entry.seat,
                              pause=pause_info(state, at), clock=clock)]
    if kind == "chat":
        seat = entry.seat if entry.seat is not None else -1
        return [ChatFrame(type="chat", seq=entry.seq, seat=entry.seat,
                          name=state.seats[seat].name, text=entry.data["text"])]
    if kind == "game":  # a new game
        return [snapshot(state, audience, "rematch", clock=clock, at=at)]
    raise ValueError(f"table {state.id}: no frames for entry kind {kind!r}")


def _act_frames(state: TableState, entry: LogEntry, audience: int | None, *,
                with_state: bool, clock: ClockInfo | None, at: float,
                seat_state: dict[str, Any] | None,
                events_texts: list[str] | None = None) -> list[Frame]:
    """An ``act`` entry's update, and the ``game_over`` frame when it ended the game (its
    events as text in ``events_texts`` if given: :func:`entry_frames`)."""
    game = state.current
    start, end = state.spans[entry.seq]
    played = game.events_between(start, end)
    events: list[EventJSON]
    if events_texts is None:
        events = events_json(played, audience)
    else:  # the same events as text, written once, a mark in their place
        events_texts.append(events_text(played, audience))
        events = protocol.EVENTS_MARK
    text = entry.data["action"]
    kind, shown = _action_kind(text)
    action = text if shown or audience == entry.seat else None
    by = entry.data.get("by", "player")
    update: UpdateFrame
    if with_state:
        if seat_state is None:
            seat_state = protocol.update_state(game, audience)[1]
        update = {"type": "update", "seq": entry.seq, "game": entry.game, "seat": entry.seat,
                  "action": action, "kind": kind, "by": by, "events": events, "clock": clock,
                  "pause": pause_info(state, at), "state": seat_state}
    else:  # an earlier update of a replay: the state comes with the last one
        update = {"type": "update", "seq": entry.seq, "game": entry.game, "seat": entry.seat,
                  "action": action, "kind": kind, "by": by, "events": events, "state": None,
                  "clock": None}
    frames: list[Frame] = [update]
    end_event = None
    for event in played:  # (a loop, not next() of a generator: issue 28, forty-second pass)
        if isinstance(event, GameEnd):
            end_event = event
            break
    if end_event is not None:
        frames.append(GameOverFrame(
            type="game_over", seq=entry.seq, game=entry.game, winners=list(end_event.winners),
            scores=list(end_event.scores), settlement=list(end_event.settlement),
            record=f"/api/games/{state.id}/{entry.game}", rematch=vote_info(state, at)))
    return frames


def ends_trick(state: TableState, entry: LogEntry) -> bool:
    """Whether an applied ``act`` entry finished a trick (its events hold a ``trick``
    event, which every audience sees): in a batch its update carries the state, so that a
    client can show the finished trick."""
    start, end = state.spans[entry.seq]
    for event in state.current.events_between(start, end):  # noqa: SIM110
        if isinstance(event, Trick):  # (a loop, not any() of a generator: a frame less)
            return True
    return False


def with_state(update: UpdateFrame, state: TableState, audience: int | None, *,
               clock: ClockInfo | None, at: float,
               seat_state: dict[str, Any] | None = None) -> UpdateFrame:
    """``update`` (made without the state) with the table's current state, clock and pause
    for ``audience``: the last update of a batch, made when the batch is sent (the state is
    then the one after that update's action). ``seat_state`` as for :func:`entry_frames`."""
    if seat_state is None:
        seat_state = protocol.update_state(state.current, audience)[1]
    filled = update.copy()
    filled["clock"] = clock
    filled["pause"] = pause_info(state, at)
    filled["state"] = seat_state
    return filled


def batch(updates: list[UpdateFrame]) -> BatchFrame:
    """A ``batch`` frame of ``updates`` (at least one; the last carries the state)."""
    return BatchFrame(type="batch", seq=updates[-1]["seq"], updates=updates)


def snapshot(state: TableState, audience: int | None, reason: str, *,
             clock: ClockInfo | None, at: float) -> SnapshotFrame:
    """A ``snapshot`` frame for one audience."""
    return SnapshotFrame(type="snapshot", seq=state.seq, reason=reason, you=audience,
                         table=state.info(at), view=view_json(state.current.view(audience)),
                         clock=clock)


def replay(state: TableState, audience: int | None, last_seq: int, *,
           clock: ClockInfo | None, at: float, batched: bool = False) -> list[Frame] | None:
    """The frames after ``last_seq`` for a reconnecting client, ending with ``resumed``; or
    None when only a snapshot will do (``last_seq`` before the current game or beyond the
    table's seq). ``batched``: the client takes batches (:func:`replay_batches`); else each
    update comes alone, only the last one with the state."""
    if last_seq < state.game_start_seq or last_seq > state.seq:
        return None
    missed = [e for e in state.entries if e.seq > last_seq]
    frames: list[Frame]
    if batched:
        batches = replay_batches(state, audience, missed, clock=clock, at=at)
        if batches is None:
            return None
        frames = batches
    else:
        last_act = max((e.seq for e in missed if e.kind == "act"), default=None)
        frames = []
        for entry in missed:
            frames.extend(entry_frames(state, entry, audience,
                                       with_state=entry.seq == last_act, clock=clock, at=at))
    frames.append(ResumedFrame(type="resumed", seq=state.seq, you=audience,
                               table=state.info(at), clock=clock))
    return frames


REPLAY_STATES = 8
"""The most earlier states a batched replay rebuilds (each costs about as much as a
snapshot); a longer absence gets a snapshot instead (:func:`replay_batches`)."""


def replay_batches(state: TableState, audience: int | None, missed: list[LogEntry], *,
                   clock: ClockInfo | None, at: float) -> list[Frame] | None:
    """The frames of the ``missed`` entries (of the current game, in order) for a client
    that takes batches: each run of updates that no other frame comes between is one
    ``batch``; every other frame (``seats``, ``chat``, ``continue``, ``game_over`` …) keeps
    its place. As in a live batch, the last update of each batch and every update that ends
    a trick carry the state after their action: the replay's last update the state now
    (with the clock and the pause), an earlier one the state then, rebuilt from the game's
    actions (:meth:`TableState.games_after`), with ``clock`` and ``pause`` null (the clock
    then has run, and a pause an earlier update began is over: an action came after it).
    None when that takes more than :data:`REPLAY_STATES` earlier states: a snapshot is
    cheaper to make and to apply."""
    acts = [e.seq for e in missed if e.kind == "act"]
    last_act = acts[-1] if acts else None
    stated = set()
    for index, entry in enumerate(missed):
        if entry.kind != "act" or entry.seq == last_act:
            continue
        run_ends = index + 1 == len(missed) or missed[index + 1].kind != "act"
        if run_ends or ends_trick(state, entry):
            stated.add(entry.seq)
    if len(stated) > REPLAY_STATES:
        return None
    earlier = state.games_after(stated)
    frames: list[Frame] = []
    run: list[UpdateFrame] = []
    for entry in missed:
        if entry.kind != "act":
            if run:
                frames.append(batch(run))
                run = []
            frames.extend(entry_frames(state, entry, audience, with_state=False, clock=clock,
                                       at=at))
            continue
        current = entry.seq == last_act
        first, *rest = _act_frames(state, entry, audience, with_state=current, clock=clock,
                                   at=at, seat_state=None)
        update = cast(UpdateFrame, first)
        then = earlier.get(entry.seq)
        if then is not None:
            update["state"] = protocol.update_state(then, audience)[1]
            update["pause"] = None
        run.append(update)
        if rest:  # the game's end: its batch, then game_over
            frames.append(batch(run))
            run = []
            frames.extend(rest)
    if run:
        frames.append(batch(run))
    return frames


def presence(state: TableState) -> PresenceFrame:
    """Who is connected, per seat (:attr:`TableState.connected`)."""
    return PresenceFrame(type="presence", seq=state.seq, connected=list(state.connected))
