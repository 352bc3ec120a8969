"""What a finished game stores for the club, with its last action (docs/CLUB.md); a game of
a duplicate tournament round stores it when its round ends, with every other table's."""

from __future__ import annotations

from chicago.club.stats import game_lines
from chicago.engine.game import Game
from chicago.engine.settlement import finish_places
from chicago.server.core.rows import GamePlayerRow, RatedGameRow
from chicago.server.core.state import TableState

__all__ = ["finish_rows", "held_back"]


def held_back(table: TableState) -> bool:
    """Whether the table plays a duplicate tournament round: what its game derives for the
    club (statistics, ratings) waits until every table of the round has finished, so that
    nothing tells the other tables about the cards still to come (docs/CLUB.md)."""
    place = table.options.tournament
    return place is not None and place.duplicate


def finish_rows(table: TableState, game: Game, at: float, *,
                release: bool = False) -> tuple[list[GamePlayerRow], RatedGameRow | None]:
    """The rows a table's finished ``game`` stores: one per seat held by a profile (its
    counters, for the profile's statistics and recent games), and the game to rate when the
    table is rated (:attr:`TableState.rated`). None at all for a table whose rows are
    :func:`held_back`, unless ``release`` (its round is over: the tournament director
    stores them then)."""
    if held_back(table) and not release:
        return [], None
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
