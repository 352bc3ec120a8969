"""What a finished game stores for the club, with its last action (docs/CLUB.md)."""

from __future__ import annotations

from chicago.club.stats import game_lines
from chicago.engine.game import Game
from chicago.engine.settlement import finish_places
from chicago.server.core.rows import GamePlayerRow, RatedGameRow
from chicago.server.core.state import TableState

__all__ = ["finish_rows"]


def finish_rows(table: TableState, game: Game,
                at: float) -> tuple[list[GamePlayerRow], RatedGameRow | None]:
    """The rows a table's finished ``game`` stores: one per seat held by a profile (its
    counters, for the profile's statistics and recent games), and the game to rate when the
    table is rated (:attr:`TableState.rated`)."""
    rated = table.rated
    lines = game_lines(game) if any(s.profile for s in table.seats) else []
    players = [
        GamePlayerRow(table.id, table.game_number, seat, s.participant, s.profile,
                      table.ladder, rated, lines[seat], at)
        for seat, s in enumerate(table.seats) if s.profile
    ]
    if not rated:
        return players, None
    participants = [s.participant or "" for s in table.seats]
    return players, RatedGameRow(table.id, table.game_number, table.ladder, participants,
                                 finish_places(game.winners, game.scores), at)
