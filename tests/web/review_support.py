"""Finished and reviewed bot games for the browser tests of the review and practice pages."""

from __future__ import annotations

import time

from .driver import api
from .serving import LiveServer


def finished_bot_game(live: LiveServer, seats: list[str], deals: int) -> str:
    """A table of bots (no delay) whose one game of ``deals`` deals has ended; its id."""
    table = api(live, "POST", "api/tables", {"seats": seats, "bot_delay": 0.0,
                                             "rules": {"max_deals": deals}})
    for _ in range(2400):  # a bound, not a timing: bot games end in well under a second
        if api(live, "GET", f"api/tables/{table['id']}")["status"] == "finished":
            break
        time.sleep(0.05)
    return str(table["id"])


def reviewed(live: LiveServer, table: str, seat: int) -> None:
    """Ask for the review of ``seat`` of the table's first game and wait until it is ready."""
    api(live, "POST", f"api/games/{table}/1/reviews/{seat}")
    for _ in range(2400):
        if api(live, "GET", f"api/games/{table}/1/reviews/{seat}")["status"] == "ready":
            return
        time.sleep(0.05)
