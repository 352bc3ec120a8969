"""The decisions on a table: each request checked against the table's state and answered with
what to store (a :class:`~chicago.server.core.rows.Change`), or refused with a
:class:`~chicago.server.protocol.TableError` that names why. A decision changes nothing: the
state moves on only when the change is stored and its entries applied
(:meth:`TableState.apply`), and what each audience is sent then follows from the entries
(:mod:`chicago.server.core.frames`).

Everything a decision needs from outside comes in as an argument: the time (``at``, UNIX
seconds), the secrets (a seed, a seat token's hash), the settings. So the same request on the
same state always gives the same change, and the core is tested without a server
(tests/server/test_table_core.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chicago.engine.actions import Action
from chicago.engine.game import Game, IllegalAction
from chicago.rules import Rules, RulesError
from chicago.server.core import actionkind
from chicago.server.core.finish import finish_rows
from chicago.server.core.makers import new_change, slot_maker
from chicago.server.core.rematch import (
    agree,
    answers_over,
    decline,
    fill,
    starts_next,
    with_next_game,
)
from chicago.server.core.rows import Change, GameRow, LogEntry, SeatHolder, TableRow
from chicago.server.core.seats import TableOptions
from chicago.server.core.state import (
    AWAY_AFTER,
    FINISHED,
    PLAYING,
    WAITING,
    TableState,
    build_table,
)
from chicago.server.protocol import TableError

__all__ = [
    "ACT_DATA_KEPT",
    "Joiner",
    "Move",
    "TableSpec",
    "act",
    "act_data",
    "agree",
    "answers_over",
    "back",
    "chat",
    "claim",
    "continue_deal",
    "decline",
    "fill",
    "join",
    "new_table",
    "pause_over",
]


@dataclass
class TableSpec:
    """A checked request to create a table: its rules, its seats (``"open"`` or
    ``"bot:LEVEL"``), its options and its lobby entry."""

    rules: Rules
    seats: list[str]
    options: TableOptions = field(default_factory=TableOptions)
    name: str = ""
    preset: str = "pagat"
    variations: list[str] = field(default_factory=list)
    private: bool = False

    @property
    def bots_only(self) -> bool:
        """Whether every seat is a bot's (nobody at the table can stop its game)."""
        return all(seat != "open" for seat in self.seats)


@dataclass(frozen=True, slots=True)
class Joiner:
    """A profile taking a seat (docs/CLUB.md): its id and display name."""

    profile: str
    name: str
    grant: str | None = None
    """The profile's current credential (:func:`chicago.server.credentials.grant_of`): the
    seat token issued is tied to it."""


@dataclass(frozen=True, slots=True, init=False)
class Move:
    """An accepted action: the change to store, and per entry of it the game after that
    entry when it was computed (the action's; None for a seat change before it)."""

    change: Change
    games: list[Game | None]

    def __init__(self, change: Change, games: list[Game | None]) -> None:
        # the frozen dataclass's own __init__, through the slots' setters taken once (as
        # LogEntry's: chicago.server.core.rows)
        _MOVE_CHANGE(self, change)
        _MOVE_GAMES(self, games)

    @property
    def game_over(self) -> bool:
        """Whether the action ended the game."""
        last = self.games[-1]
        return last is not None and last.is_over


_MOVE_CHANGE: Callable[[Move, Change], None] = Move.__dict__["change"].__set__
_MOVE_GAMES: Callable[[Move, list[Game | None]], None] = Move.__dict__["games"].__set__
_new_move: Callable[[Change, list[Game | None]], Move] = slot_maker(Move, ("change", "games"))
"""``Move(change, games)``, made in C when it may be (:func:`~chicago.server.core.rows.
slot_maker`: issue 28, forty-second pass)."""


def new_table(spec: TableSpec, *, table_id: str, secret: str, seed: int,
              at: float) -> tuple[TableState, Change]:
    """A new table (its first game begun) and the change that stores it.

    The state is built from the very row that will be stored, through the constructors that
    load it (:class:`TableState`, ``Rules.from_dict``, its seats and options): what is
    stored always loads. TableError ``bad_request`` if it cannot be."""
    open_seats = sum(1 for s in spec.seats if s == "open")
    row = TableRow(
        id=table_id, name=spec.name, players=len(spec.seats), preset=spec.preset,
        rules=spec.rules.to_dict(), variations=list(spec.variations), seats=list(spec.seats),
        options=spec.options.to_dict(), private=spec.private, secret=secret,
        status=WAITING if open_seats else PLAYING, open_seats=open_seats, game=1,
        created_at=at, updated_at=at,
    )
    entry = LogEntry(1, 1, "game", None, {"number": 1, "seed": seed}, at)
    game_row = GameRow(table_id=table_id, number=1, seed=seed, rules=row.rules,
                       players=row.players, status="playing", started_at=at)
    try:
        state = build_table(row, [entry])
    except (RulesError, ValueError, TypeError, KeyError) as exc:
        raise TableError("bad_request", f"this table could not be stored: {exc}") from None
    row.to_act, row.turn_at = state.current.to_act, at
    return state, Change(table_id, [entry], new_table=row, new_game=game_row)


def join(state: TableState, seat: int | None, name: str | None, joiner: Joiner | None, *,
         token_hash: str, seed: int, at: float) -> tuple[int, Change]:
    """Take an open seat (``seat`` None: the first one) with the token whose hash is
    ``token_hash``: the seat and the change. ``joiner``: the profile taking it (its name is
    the seat's name); a rated table takes only profiles, one seat each. A seat taken after
    a game is taken to play the next (:mod:`chicago.server.core.rematch`): when it was the
    last open seat and everyone else agreed, the next game (``seed``) starts with it."""
    if state.closed:
        raise TableError("table_closed", "everyone left this table: no game is played here "
                         "again", 409)
    if joiner is None and state.options.rated:
        raise TableError("profile_required", "this table is rated: join it with a "
                         "profile (docs/CLUB.md)", 403)
    if joiner is not None and any(s.profile == joiner.profile for s in state.seats):
        raise TableError("already_seated", "this profile holds a seat at this table "
                         "already", 409)
    if seat is None:
        seat = next((i for i, s in enumerate(state.seats) if s.kind == "open"), None)
        if seat is None:
            raise TableError("seat_taken", "every seat is taken", 409)
    elif not 0 <= seat < state.players:
        raise TableError("bad_request", f"seat must be 0-{state.players - 1}, not {seat}", 400)
    elif state.seats[seat].kind != "open":
        what = "a bot's" if state.seats[seat].kind == "bot" else "taken"
        raise TableError("seat_taken", f"seat {seat} is {what}", 409)
    data: dict[str, Any] = {"name": name or None, "token": token_hash}
    if joiner is not None:
        data.update(name=joiner.name, profile=joiner.profile)
        if joiner.grant is not None:
            data["grant"] = joiner.grant
    entry = state.entry("join", seat, data, at)
    open_after = state.open_seats - 1
    status = WAITING if open_after else FINISHED if state.current.is_over else PLAYING
    change = Change(state.id, [entry], table_updates={
        "open_seats": open_after, "status": status, "updated_at": entry.created_at},
        holders=[SeatHolder(seat, data.get("profile"), token_hash)])
    if state.vote is not None:
        people = {i for i, s in enumerate(state.seats) if s.kind == "human"} | {seat}
        if starts_next(state, open_after=open_after, people_after=people,
                       agreed_after=state.vote.agreed | {seat}):
            return seat, with_next_game(state, change, seed=seed, at=at)
    return seat, change


def claim(state: TableState, profile: str, *, token_hash: str, at: float,
          grant: str | None = None) -> tuple[int, Change]:
    """The seat a profile holds, given a new token issued under the profile's ``grant``
    (the old one stops working, and its connections end: docs/CLUB.md); TableError 404
    ``not_seated`` if it holds none."""
    seat = next((i for i, s in enumerate(state.seats) if s.profile == profile), None)
    if seat is None:
        raise TableError("not_seated", "this profile holds no seat at this table", 404)
    data: dict[str, Any] = {"name": state.seats[seat].name, "token": token_hash,
                            "profile": profile, "claim": True}
    if grant is not None:
        data["grant"] = grant
    entry = state.entry("join", seat, data, at)
    return seat, Change(state.id, [entry], holders=[SeatHolder(seat, profile, token_hash)])


ACT_DATA_KEPT = 4096
"""The most ``act`` entries' data dicts :func:`act_data` keeps to share (it forgets them
all when full: a table's entries keep theirs)."""

_act_data: dict[tuple[str, str, bool], dict[str, Any]] = {}


def act_data(action: str, by: str, forced: bool) -> dict[str, Any]:
    """The data of an ``act`` entry: ``{"action": action, "by": by}``, with ``"forced":
    True`` when the action was the seat's only choice. Equal data is one dict, shared by
    every entry that holds it (in every table of the process), so a live table's entries
    hold no dict of their own for their moves: about 180 bytes an entry, four entries a
    person move, kept for the whole game (issue 28, fiftieth pass). An entry's data is
    never changed once the entry is made (the entries are frozen; their data is read,
    written to the log as JSON and sent), so sharing it changes nothing that is read."""
    key = (action, by, forced)
    data = _act_data.get(key)
    if data is None:
        data = {"action": action, "by": by, "forced": True} if forced else {
            "action": action, "by": by}
        if len(_act_data) >= ACT_DATA_KEPT:
            _act_data.clear()
        _act_data[key] = data
    return data


def act(state: TableState, seat: int, text: str | Action, by: str, *, at: float,
        review_due: Sequence[int] = ()) -> Move:
    """The action ``text`` (in the notation) of ``seat``, made ``by`` its player, its bot,
    its stand-in (``stand-in``) or its turn clock running out (``clock``). A bot's action
    may come as the :class:`~chicago.engine.actions.Action` it chose: checked against the
    legal actions as a text is, without being written out and read again (a person's text
    is read strictly, as ever).

    A player who acts while away takes the seat back first (a ``back`` entry); the third
    clock in a row marks the seat away (an ``away`` entry: its stand-in plays on). An action
    that ends the game stores the game's record and result, its club rows, and
    ``review_due``: the seats to review (with the game's end, so that no restart can forget
    them)."""
    game = state.current
    if not state.closed and _has_open(state):  # the table's status is "waiting"
        raise TableError("not_started", "an open seat is still waiting for a player", 409)
    if game.is_over:
        raise TableError("game_over", "the game is over; ask for a rematch", 409)
    if state.pause is not None:
        raise TableError("paused", f"deal {state.pause.deal} starts when everyone has "
                         "pressed Continue", 409)
    to_act = game.to_act
    if to_act != seat:
        raise TableError("not_your_turn", f"seat {to_act} is to act, not seat {seat}", 409)
    after = game.copy()
    try:
        after.apply(text)
    except IllegalAction as exc:
        raise TableError("illegal_action", f"{str(text)!r}: {exc.reason}", 400) from None
    entries: list[LogEntry] = []
    games: list[Game | None] = []
    if by == "player" and state.seats[seat].away:
        entries.append(state.entry("back", seat, {}, at))
        games.append(None)
    elif by == "clock" and state.expiries[seat] + 1 >= AWAY_AFTER:
        # the third clock in a row: the seat is marked away, its stand-in plays on
        entries.append(state.entry("away", seat, {"reason": "clock"}, at))
        games.append(None)
    # a bot's Action is the one applied (the game keeps the very object); a text, as read
    done = text if type(text) is Action else after.actions_between(-1)[0][1]
    written = str(done)
    actionkind.note(written, done)  # its frames read the kind without parsing it again
    # forced: the only choice, not a sign the player is there; the data shared (act_data,
    # its lookup written out here: a call less an entry)
    forced = len(game.legal_actions()) == 1
    data = _act_data.get((written, by, forced))
    if data is None:
        data = act_data(written, by, forced)
    entries.append(state.entry("act", seat, data, at, offset=len(entries) + 1))
    games.append(after)
    change = new_change(state.id, entries)
    over = after.is_over
    if over or after.to_act != to_act:  # "Your games" reads whose turn it is
        change.table_updates = {"to_act": None if over else after.to_act,
                                "turn_at": at, "updated_at": at}
    if over:
        record = after.record()
        change.game_number = state.game_number
        change.game_updates = {
            "status": "finished", "finished_at": at, "record": record,
            "result": record["result"],
            "names": [s.name for s in state.seats],  # None: a person gave no name
        }
        if review_due:
            change.game_updates["review_due"] = list(review_due)
        change.table_updates.update(status=FINISHED)
        if state.options.tournament is None and any(s.kind == "human" for s in state.seats):
            # its people are asked to play again (chicago.server.core.rematch)
            change.table_updates["answer_by"] = at + state.options.answer_seconds
        change.players, change.rated = finish_rows(state, after, at)
    return _new_move(change, games)


def _has_open(state: TableState) -> bool:
    """Whether a seat of the table is open (not closed: its status is then ``waiting``).
    A loop, not ``any()`` of a generator, which costs a frame of its own on every action."""
    for info in state.seats:  # noqa: SIM110
        if info.kind == "open":
            return True
    return False


def back(state: TableState, seat: int, *, at: float) -> Change | None:
    """The player of ``seat`` takes the seat back from the stand-in; None when it is not
    away."""
    if not state.seats[seat].away:
        return None
    return Change(state.id, [state.entry("back", seat, {}, at)])


def continue_deal(state: TableState, seat: int, *, at: float) -> Change | None:
    """The person of ``seat`` pressed Continue after a deal; None when there is no pause or
    they pressed it already (a click racing the pause's end is harmless)."""
    if state.pause is None or seat not in state.pause.waiting:
        return None
    return Change(state.id, [state.entry("continue", seat, {"by": "player"}, at)])


def pause_over(state: TableState, *, at: float) -> Change | None:
    """The pause after a deal ran out: the next deal starts (a ``continue`` of no seat),
    whoever has not pressed Continue; None when there is no pause."""
    if state.pause is None:
        return None
    return Change(state.id, [state.entry("continue", None, {"by": "timeout"}, at)])


def chat(state: TableState, seat: int, text: str, *, at: float) -> Change:
    """A chat line of a seated player (its limits are checked first:
    :class:`~chicago.server.core.chat.ChatAllowance`)."""
    return Change(state.id, [state.entry("chat", seat, {"text": text}, at)])
