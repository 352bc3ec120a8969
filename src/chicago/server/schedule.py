"""Turn scheduling: after every change of a table, the bot whose turn it is or the turn clock
of the person to act; the bots themselves and the thread pools they think in.

A bot seat (or a seat whose player is away: its table's stand-in bot plays) gets a timer of
the table's ``bot_delay``; when it fires, the scheduler's ``bot_turn`` callback (the table
manager) takes the table and asks :meth:`TurnScheduler.decide` for the action. A person's
seat at a table with a clock gets a timer until the stored deadline; when it fires,
``clock_ran_out`` is called. Bots play through the same view/legal-actions interface as every
shell: ``bot.decide(game.view(seat), game.legal_actions(), rng)`` with an rng seeded from the
table's secret and the sequence number (so a bot's choice does not depend on restarts).

During the pause after a deal (:attr:`TableState.pause`) nothing moves and no clock runs: the
one timer is the pause's end, when ``pause_over`` is called.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from chicago.bots import Bot, make_bot
from chicago.engine.actions import Action
from chicago.engine.game import Game
from chicago.seeding import SeededOnUse
from chicago.server.clock import Clock
from chicago.server.core.turns import AnswersRun, BotMoves, PauseRuns, next_turn
from chicago.server.live import LiveTable
from chicago.server.settings import Settings, default_bot_workers
from chicago.server.tasks import Tasks

__all__ = ["QUICK_LEVELS", "BotTurn", "ClockRanOut", "PauseOver", "TurnScheduler"]

QUICK_LEVELS = frozenset({"random", "basic"})
"""Built-in bot levels that decide in the event loop: their thinking (``basic``: about
0.05 ms a decision, p99.9 under 0.3 ms) costs less than handing it to a thread and back."""

log = logging.getLogger("chicago.server")

BotTurn = Callable[[LiveTable, int, int, str], Coroutine[Any, Any, None]]
"""``bot_turn(table, seq, seat, by)``: the bot (``by`` "bot") or stand-in ("stand-in") of
``seat`` is to move at ``seq``."""

ClockRanOut = Callable[[LiveTable, int, int], Coroutine[Any, Any, None]]
"""``clock_ran_out(table, seq, seat)``: the turn clock of ``seat`` ran out at ``seq``."""

PauseOver = Callable[[LiveTable, int], Coroutine[Any, Any, None]]
"""``pause_over(table, seq)``: the pause after a deal, as it was at ``seq``, ran out; also
``answers_over(table, seq)``: the time to answer Play again ran out."""


class TurnScheduler:
    """Timers of every table's next bot move or turn clock, and the bots' thread pools."""

    def __init__(self, settings: Settings, tasks: Tasks, *, bot_turn: BotTurn,
                 clock_ran_out: ClockRanOut, pause_over: PauseOver,
                 answers_over: PauseOver, clock: Clock) -> None:
        self.settings = settings
        self.clock = clock
        self._answers_over = answers_over
        self._tasks = tasks
        self._bot_turn = bot_turn
        self._clock_ran_out = clock_ran_out
        self._pause_over = pause_over
        self._bot_pool = ThreadPoolExecutor(
            settings.bot_workers or default_bot_workers(), thread_name_prefix="chicago-bot")
        """Where built-in bots decide (not the default executor: the database's)."""
        self._external_pool = ThreadPoolExecutor(
            settings.external_bot_workers, thread_name_prefix="chicago-program")
        """Where external bot programs are asked and stopped: each holds its thread while it
        thinks, so they never keep built-in bots or the database waiting."""

    # ------------------------------------------------------------------ timers
    def schedule(self, table: LiveTable, grace: float = 0.0) -> None:
        """After every change: start the bot whose turn it is, or the turn clock.

        ``grace``: extra seconds before the bot moves or the clock runs out, for a worker
        that did not store the last change (the one that did normally acts first; this one
        takes over if it died)."""
        self.cancel(table)
        state = table.state
        if self._tasks.stopping:
            return
        turn = next_turn(state, self.clock.time())
        if state.game is not None and state.game.is_over:
            # their programs end with the game (also while its people answer Play again)
            self.release_bots(table, game_over=True)
        if turn is None:
            return
        loop = asyncio.get_running_loop()
        seq = state.seq
        if isinstance(turn, PauseRuns):
            table.timer = loop.call_later(turn.wait + grace, self._fire,
                                          lambda: self._pause_over(table, seq))
        elif isinstance(turn, AnswersRun):
            table.timer = loop.call_later(turn.wait + grace, self._fire,
                                          lambda: self._answers_over(table, seq))
        elif isinstance(turn, BotMoves):
            table.timer = loop.call_later(
                turn.delay + grace, self._fire,
                lambda: self._bot_turn(table, seq, turn.seat, turn.by))
        else:
            table.deadline = (turn.seat, loop.time() + turn.left)
            table.timer = loop.call_later(
                turn.left + grace, self._fire,
                lambda: self._clock_ran_out(table, seq, turn.seat))

    def _fire(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self._tasks.spawn(make())

    @staticmethod
    def cancel(table: LiveTable) -> None:
        """Stop the table's timer (its turn clock no longer runs)."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.deadline = None

    @staticmethod
    def fired(table: LiveTable, seq: int) -> bool:
        """Whether the timer set at ``seq`` is still the table's (nothing changed since);
        then it is done. The callbacks check this holding the table."""
        if table.state.seq != seq:
            return False
        table.timer = None
        return True

    # ------------------------------------------------------------------ bots
    def bot(self, table: LiveTable, seat: int, level: str) -> Bot:
        """The table's bot of ``level`` for ``seat`` (made once, kept for the game).

        A level named by the operator (``Settings.external_bots``) is that external program
        (``make_bot("cmd:" + COMMAND)``); a level this server does not know (a table stored
        by a worker with other ``--bot`` options) is logged and played by ``basic``."""
        bot = table.bots.get((seat, level))
        if bot is None:
            command = self.settings.external_bots.get(level)
            spec = level if command is None else "cmd:" + command
            try:
                bot = make_bot(spec)
            except ValueError as exc:
                log.error("table %s seat %d: bot %r cannot play here (%s); basic plays for it",
                          table.id, seat, level, exc)
                bot = make_bot("basic")
            table.bots[(seat, level)] = bot
        return bot

    def in_loop(self, table: LiveTable, seat: int, level: str) -> bool:
        """Whether the bot of ``level`` for ``seat`` decides in the event loop (a quick
        built-in bot, or any built-in one without ``Settings.bot_threads``; not a program):
        then its reply may follow the action before it in the same write
        (:meth:`chicago.server.tables.TableManager`'s replies)."""
        return self._pool(self.bot(table, seat, level), level) is None

    def _pool(self, bot: Bot, level: str) -> ThreadPoolExecutor | None:
        """Where ``bot`` of ``level`` decides: a program in the programs' pool (it waits on
        its pipe), a built-in bot that thinks long in the bots' pool, else None (in the
        event loop)."""
        if _is_program(bot):
            return self._external_pool
        if self.settings.bot_threads and level not in QUICK_LEVELS:
            return self._bot_pool
        return None

    async def decide(self, table: LiveTable, seat: int, level: str, seq: int,
                     game: Game | None = None) -> Action:
        """The action of the bot of ``level`` for ``seat`` at ``seq`` (the seat to act) in
        ``game`` (None: the table's current game; else the game after actions decided but
        not yet stored): a built-in bot that thinks long thinks in the bots' pool (the
        quick ones, :data:`QUICK_LEVELS`, and without ``Settings.bot_threads`` all of them,
        in the loop), a program in the programs' pool. A program's turn lost to its
        fallback is logged. The bot is given the view of its own seat alone.

        A quick built-in bot (:data:`QUICK_LEVELS`, not a program) with one legal action
        plays it without being asked: each of them takes a forced move so
        (:func:`chicago.bots.basic.common_decision`; ``random``'s one choice), and a bot
        of a table is asked about more than a quarter of its turns for nothing else (the
        last trick, a suit it can follow with one card): no view, no knowledge."""
        bot = self.bot(table, seat, level)
        if game is None:
            game = table.state.current
        legal = game.legal_actions()
        if len(legal) == 1 and level in QUICK_LEVELS and not _is_program(bot):
            return legal[0]
        view = table.views.seat_view(game, seat)
        # seeded on its first draw (most quick bots' decisions draw nothing)
        rng = SeededOnUse(f"{table.state.row.secret}:{seq}:{seat}")
        failures = getattr(bot, "failures", None)
        lost = sum(failures.values()) if isinstance(failures, dict) else 0
        loop = asyncio.get_running_loop()
        pool = self._pool(bot, level)
        if pool is not None:
            action = await loop.run_in_executor(pool, bot.decide, view, legal, rng)
        else:
            action = bot.decide(view, legal, rng)
        if isinstance(failures, dict) and sum(failures.values()) > lost:
            log.warning("table %s seat %d: the %s program lost its turn to its fallback "
                        "(%s)", table.id, seat, level, getattr(bot, "last_error", None))
        return action

    def release_bots(self, table: LiveTable, *, game_over: bool = False) -> None:
        """Stop the table's external bot programs, in a worker thread (each may take half a
        second to end). ``game_over``: first tell each the game has ended, with its seat's
        final view. A later decision starts a program again if needed."""
        release = self._bots_release(table, game_over=game_over)
        if release is not None:
            self._tasks.spawn(self._in_pool(self._external_pool, release))

    @staticmethod
    async def _in_pool(pool: ThreadPoolExecutor, work: Callable[[], None]) -> None:
        await asyncio.get_running_loop().run_in_executor(pool, work)

    @staticmethod
    def _bots_release(table: LiveTable, *,
                      game_over: bool = False) -> Callable[[], None] | None:
        """Take the table's bots that run programs (those with ``close``) out of it and give
        back the function that stops them, or None when there are none."""
        external = {key: bot for key, bot in table.bots.items()
                    if _is_program(bot)}
        if not external:
            return None
        for key in external:
            del table.bots[key]
        views = ({seat: table.state.current.view(seat) for seat, _ in external}
                 if game_over and table.state.game is not None else {})

        def release() -> None:
            for (seat, _), bot in external.items():
                try:
                    if seat in views and callable(getattr(bot, "game_over", None)):
                        bot.game_over(views[seat])  # type: ignore[attr-defined]
                    bot.close()  # type: ignore[attr-defined]
                except Exception:
                    log.exception("table %s: stopping the bot of seat %d failed",
                                  table.id, seat)

        return release

    async def stop(self, tables: list[LiveTable]) -> None:
        """At shutdown (no task runs any more): stop every table's programs, then the pools
        (decisions still running finish in their threads, a program's by its time limit)."""
        for table in tables:
            self.cancel(table)
        releases = [r for r in (self._bots_release(t) for t in tables) if r is not None]
        if releases:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(self._external_pool, r)
                                   for r in releases))
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._external_pool.shutdown(wait=False, cancel_futures=True)


def _is_program(bot: Bot) -> bool:
    """Whether ``bot`` runs an outside program (it has ``close``, which stops it)."""
    return callable(getattr(bot, "close", None))
