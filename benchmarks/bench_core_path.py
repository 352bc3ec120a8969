"""The table core's path of a person move alone: no event loop, no storage, deterministic.

A table of one person (seat 0, random legal actions) and three ``basic`` bots, driven
through the server's own core as :class:`chicago.server.tables.TableManager` drives it
(``_act_locked``, ``_replies``, ``TableCache.store_all``) and as
:mod:`chicago.server.fanout` writes a batched person's frames, one call after the other:

- the person's action decided on the table's state (:func:`~chicago.server.core.decide.act`:
  a copy of the game, the action applied to it);
- a preview of the state (:meth:`TableState.preview`) with the action applied, on which the
  bots' replies are decided one after the other (a forced move without a view; else the
  seat's view from :class:`~chicago.server.views.PublicViews` and ``BasicBot.decide`` with
  the table's seeded generator), each a copy of the game before it;
- the moves' entries applied to the table's state with the games the preview made, and per
  ``act`` entry the person's update (whether it ends a trick, and then the state's text;
  :func:`~chicago.server.core.frames.entry_frames`, its events as text); the batch written
  with the state's and the events' texts put in; the views held for a bot's turn or given back.

A deal's pause is answered at once (Continue), a bot that acts first after it acts as its
timer would; a finished game is followed by a new table. The tables take turns. The same
seeds give the same games and the same work on any version that has these functions, so
two versions can be compared in instructions (``valgrind --tool=cachegrind
--cache-sim=no``, a run with ``--moves 0`` subtracted) as well as in CPU time; what the
whole in-process server adds (the event loop, the writer thread and SQLite, the people's
JSON) is ``bench_table_core.py``'s.

``--count`` also counts, per person move, what a game's shared logs do
(:mod:`chicago.engine.segments`): forks (a game adding past a copy's items), joins of
segments, and a game's events taken apart from its copies' (``Game._own_events``). The
forks and joins are Python calls only with ``CHICAGO_PURE_PYTHON=1`` (the accelerator does
the same in C); the events' part is Python either way.

    python benchmarks/bench_core_path.py --tables 200 --warm 60 --moves 3000 --runs 3
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from chicago.bots import make_bot
from chicago.engine import game as game_module
from chicago.rules import Rules
from chicago.seeding import SeededOnUse
from chicago.server import protocol
from chicago.server.core import decide, frames
from chicago.server.core.decide import Move, TableSpec
from chicago.server.core.rows import LogEntry
from chicago.server.core.seats import TableOptions, hash_token
from chicago.server.core.state import TableState
from chicago.server.core.turns import BotMoves, next_turn
from chicago.server.views import PublicViews

AT = 1_700_000_000.0
"""The UNIX time of every decision (the core reads no clock)."""
SEATS = ["open", "bot:basic", "bot:basic", "bot:basic"]
BOT = make_bot("basic")
COUNTS: collections.Counter[str] = collections.Counter()
"""What ``--count`` counted in the measured moves (of the last run)."""
COUNTING: list[str] = []
"""What ``--count`` counts (each shown, even if none)."""


class Table:
    """One table and its person, played through the core."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.rng = random.Random(number)
        self.games = 0
        self.updates: list[Any] = []
        self.texts: list[str] = []
        self.events: list[str] = []
        self.sent = ""
        self.new_game()

    def new_game(self) -> None:
        """A new table of the same seats (its first game), the person seated."""
        self.games += 1
        state, _ = decide.new_table(
            TableSpec(Rules.preset("pagat"), SEATS, TableOptions()),
            table_id=f"t{self.number}", secret=f"secret{self.number:010d}",
            seed=self.number * 1000 + self.games, at=AT)
        _, change = decide.join(state, 0, "p", None, token_hash=hash_token("token"), seed=1,
                                at=AT)
        for entry in change.entries:
            state.apply(entry)
        self.state = state
        self.views = PublicViews()

    def step(self) -> bool:
        """The table's next step; True if it was a person's move."""
        state = self.state
        if state.current.is_over:
            self.new_game()
            return False
        if state.pause is not None:
            change = decide.continue_deal(state, 0, at=AT)  # the person presses Continue
            if change is None:  # the pause waits for nobody: it runs out
                change = decide.pause_over(state, at=AT)
            for entry in change.entries if change is not None else ():
                state.apply(entry)
            return False
        game = state.current
        seat = game.to_act
        assert seat is not None
        if seat == 0:
            move = decide.act(state, 0, str(self.rng.choice(game.legal_actions())), "player",
                              at=AT)
        else:  # a bot's timer after a deal's pause
            move = decide.act(state, seat, self.decide(state, seat), "bot", at=AT)
        moves = [move, *self.replies(move)]
        for part in moves:
            for index, entry in enumerate(part.change.entries):
                state.apply(entry, part.games[index])
            for entry in part.change.entries:
                self.gather(entry)
        self.flush()
        turn = next_turn(state, AT)
        self.views.keep(state.game if isinstance(turn, BotMoves) else None)
        return seat == 0

    def decide(self, state: TableState, seat: int) -> Any:
        """The bot's action for ``seat`` in the state's game, as the scheduler asks it."""
        game = state.current
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = self.views.seat_view(game, seat)
        return BOT.decide(view, legal, SeededOnUse(f"{state.row.secret}:{state.seq}:{seat}"))

    def replies(self, move: Move) -> list[Move]:
        """The bots' replies to ``move``, decided on a preview (``TableManager._replies``)."""
        if move.game_over:
            return []
        state = self.state.preview()
        for entry, after in zip(move.change.entries, move.games, strict=True):
            state.apply(entry, after)
        replies: list[Move] = []
        while len(replies) < 2 * state.players:
            turn = next_turn(state, AT)
            if not isinstance(turn, BotMoves):
                break
            reply = decide.act(state, turn.seat, self.decide(state, turn.seat), turn.by, at=AT)
            replies.append(reply)
            if reply.game_over:
                break
            for entry, after in zip(reply.change.entries, reply.games, strict=True):
                state.apply(entry, after)
        return replies

    def gather(self, entry: LogEntry) -> None:
        """The person's update of an applied entry, gathered for the batch (``fanout``)."""
        if entry.kind != "act":
            return
        state = self.state
        trick = frames.ends_trick(state, entry)
        seat_state = None
        if trick:
            current = state.current
            self.texts.append(protocol.seat_state_text(current, 0,
                                                       self.views.public_text(current)))
            seat_state = protocol.STATE_MARK
        update, *_ = frames.entry_frames(state, entry, 0, with_state=trick, clock=None, at=AT,
                                         seat_state=seat_state, events_texts=self.events)
        self.updates.append(update)

    def flush(self) -> None:
        """The batch written, the state now's text in its last update (``fanout.flush``)."""
        updates, texts, events = self.updates, self.texts, self.events
        self.updates, self.texts, self.events = [], [], []
        if not updates:
            return
        state = self.state
        current = state.current
        if updates[-1]["state"] is None:
            texts.append(protocol.seat_state_text(current, 0, self.views.public_text(current)))
            updates[-1] = frames.with_state(updates[-1], state, 0, clock=None, at=AT,
                                            seat_state=protocol.STATE_MARK)
        self.sent = protocol.dumps_with_states(frames.batch(updates), texts, events)


def count_logs() -> Callable[[], None]:
    """Count what the games' shared logs do (see the module's docstring); the function
    returned puts the engine's own functions back."""
    module: Any = game_module
    undo: list[tuple[Any, str, Any]] = []
    COUNTING[:] = ["events: a game's own part taken apart", "events: items copied so"]
    if hasattr(module, "fork"):
        COUNTING.extend(["segments: a fork", "segments: a join, of segments",
                         "segments: a join, of one list (Game.actions)"])
        fork, joined = module.fork, module.joined

        def counted_fork(log: Any, count: int, base: Any, offset: int) -> Any:
            COUNTS["segments: a fork"] += 1
            return fork(log, count, base, offset)

        def counted_joined(base: Any, log: Any, count: int) -> Any:
            COUNTS["segments: a join, of segments" if base else
                   "segments: a join, of one list (Game.actions)"] += 1
            return joined(base, log, count)

        undo += [(module, "fork", fork), (module, "joined", joined)]
        module.fork, module.joined = counted_fork, counted_joined
    own = module.Game.__dict__["_own_events"]

    def counted_own(game: Any) -> Any:
        COUNTS["events: a game's own part taken apart"] += 1
        COUNTS["events: items copied so"] += game._event_count
        return own(game)

    undo.append((module.Game, "_own_events", own))
    module.Game._own_events = counted_own

    def put_back() -> None:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)
        COUNTING.clear()

    return put_back


def run(tables: int, warm: int, moves: int) -> tuple[int, float]:
    """Play ``warm`` person moves a table, then ``moves`` in all: (moves, CPU s of those)."""
    playing = [Table(number) for number in range(tables)]

    def play(wanted: int) -> int:
        made = 0
        while made < wanted:
            for table in playing:
                made += table.step()
                if made >= wanted:
                    break
        return made

    play(warm * tables)
    COUNTS.clear()
    if COUNTING:
        COUNTS.update(dict.fromkeys(COUNTING, 0))
    start = time.process_time()
    made = play(moves)
    return made, time.process_time() - start


def module_pure() -> bool:
    """Whether the engine runs in Python alone (its segments' functions are then called)."""
    return not getattr(game_module, "ACCELERATED", False)


def main() -> None:
    """Run the benchmark and print the CPU per person move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--warm", type=int, default=30,
                        help="person moves a table played first, not measured")
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", action="store_true",
                        help="count what the games' shared logs do (see the docstring)")
    args = parser.parse_args()
    if args.count:
        count_logs()
    per_move = []
    for _ in range(args.runs):
        made, cpu = run(args.tables, args.warm, args.moves)
        if made:
            per_move.append(cpu * 1000 / made)
    if not per_move:
        print("no person moves measured")
        return
    print(f"the table core's path of a person move ({args.tables} tables, after {args.warm} "
          f"moves a table, {args.moves} moves x {args.runs} runs, CPU time, load average "
          f"{os.getloadavg()[0]:.1f}): median {statistics.median(per_move):.4f} ms (runs: "
          f"{', '.join(f'{x:.4f}' for x in per_move)})")
    for key, value in sorted(COUNTS.items()):
        print(f"  {key}: {value / args.moves:.3f} a person move"
              + ("" if module_pure() or ("fork" not in key and "of segments" not in key) else
                 " (in C: not counted; CHICAGO_PURE_PYTHON=1 counts it)"))


if __name__ == "__main__":
    main()
