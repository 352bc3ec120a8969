"""A profile's statistics, summed from its games.

When a game ends, each seat's counters are derived from the game (:func:`game_line`, from
:func:`chicago.sim.seat_counters` and the result) and stored with the game, so a profile
page sums stored numbers (:func:`summarize`) and every number can be derived again from the
game records.

>>> total = summarize([
...     {"won": 1, "score": 52, "deals": 6, "points": 52, "chicago_calls": 1,
...      "chicago_made": 1, "last_tricks": 2},
...     {"won": 0, "score": 30, "deals": 4, "points": 30, "chicago_calls": 0,
...      "chicago_made": 0, "last_tricks": 1},
... ])
>>> total.games, total.wins, total.points_per_deal, total.chicago_made
(2, 1, 8.2, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chicago.engine.game import Game

__all__ = ["LINE_KEYS", "ProfileStats", "game_line", "game_lines", "summarize"]

LINE_KEYS = ("won", "score", "deals", "points", "chicago_calls", "chicago_made",
             "last_tricks", "announce_wins", "showdown_wins")
"""The counters of one seat in one game (a *line*)."""


def game_lines(game: Game) -> list[dict[str, int]]:
    """Every seat's line of a finished game: whether it won (``won`` 1 or 0: a shared win
    counts for each winner), its final ``score``, and the counters of
    :func:`chicago.sim.seat_counters` (deals, points gained, Chicagos declared and made,
    scoring rounds and showdowns won, last tricks)."""
    from chicago.sim import seat_counters

    lines = []
    for seat, counters in enumerate(seat_counters(game)):
        line = {"won": int(seat in game.winners), "score": game.scores[seat]}
        line.update(counters)
        lines.append({key: int(line.get(key, 0)) for key in LINE_KEYS})
    return lines


def game_line(game: Game, seat: int) -> dict[str, int]:
    """One seat's line (:func:`game_lines`)."""
    return game_lines(game)[seat]


@dataclass(frozen=True, slots=True)
class ProfileStats:
    """What a profile page shows: sums over the profile's finished games."""

    games: int
    wins: int
    deals: int
    points: int
    points_per_deal: float
    """Points gained per deal played (0 before any deal)."""
    chicago_calls: int
    """Chicagos declared (R-CHI-1)."""
    chicago_made: int
    last_tricks: int
    """Last tricks won (R-TRICK-5)."""
    announce_wins: int
    showdown_wins: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return asdict(self)


def summarize(lines: Iterable[Mapping[str, int]]) -> ProfileStats:
    """The sums of a profile's game lines (:func:`game_lines`)."""
    total = dict.fromkeys(LINE_KEYS, 0)
    games = 0
    for line in lines:
        games += 1
        for key in LINE_KEYS:
            total[key] += int(line.get(key, 0))
    deals = total["deals"]
    return ProfileStats(
        games=games, wins=total["won"], deals=deals, points=total["points"],
        points_per_deal=round(total["points"] / deals, 2) if deals else 0.0,
        chicago_calls=total["chicago_calls"], chicago_made=total["chicago_made"],
        last_tricks=total["last_tricks"], announce_wins=total["announce_wins"],
        showdown_wins=total["showdown_wins"],
    )
