"""Finished and reviewed bot games for the browser tests of the review and practice pages."""

from __future__ import annotations

from .driver import api, game_over
from .serving import WAIT_MS, LiveServer, until


def finished_bot_game(live: LiveServer, seats: list[str], deals: int) -> str:
    """A table of bots (no delay) whose one game of ``deals`` deals has ended; its id."""
    table = api(live, "POST", "api/tables", {"seats": seats, "bot_delay": 0.0,
                                             "rules": {"max_deals": deals}})
    game_over(live, table["id"])
    return str(table["id"])


def reviewed(live: LiveServer, table: str, seat: int) -> None:
    """Ask for the review of ``seat`` of the table's first game and wait until it is ready."""
    api(live, "POST", f"api/games/{table}/1/reviews/{seat}")
    # a review's progress is pushed to no one: its status is the only observable, asked
    # until a deadline for a hang (a review on a busy machine may take a minute or two)
    until(lambda: api(live, "GET", f"api/games/{table}/1/reviews/{seat}")["status"]
          == "ready", "the review to be ready", 8 * WAIT_MS)
