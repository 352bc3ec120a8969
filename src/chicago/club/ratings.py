"""Ratings of people and bot levels: OpenSkill (Plackett-Luce), one ladder per rule family.

A *participant* is a profile (``profile:ID``) or a bot level (``bot:LEVEL``): every bot of
one level is one participant, so the levels get ratings of their own. A *rated game* is a
finished game whose every seat is a participant (docs/CLUB.md says when a table is rated);
it moves the ratings of its participants on its *ladder* once, in the order the games are
applied, and the change is stored with the game, so that :func:`recompute` rebuilds every
rating from the stored games alone.

Ladders
    Ratings are kept apart where the game differs enough to need other skills: by the rule
    family (the preset the rules start from: ``pagat``, ``denexa``, ``wikipedia``,
    ``wikipedia-42``) and by the number of players. Variations and the length of a game
    (deals or target) stay within the family's ladder: they change details, not the game.
    See :func:`ladder_key`.

Places
    A game's result is a finishing order: the winners share first place, the others follow
    by final score, equal scores share a place
    (:func:`chicago.engine.settlement.finish_places`).

Several seats, one participant
    Bots of one level may hold several seats of one game. Each seat is rated as its own
    competitor from the level's rating before the game; the level then takes the mean of its
    seats' new means and deviations. A profile holds at most one seat of a game.

>>> finish_places([2], [40, 53, 55, 40])
[3, 2, 1, 3]
>>> ladder_key(Rules.preset("wikipedia-42"), 4)
'wikipedia-42/4p'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from chicago.engine.settlement import finish_places
from chicago.rules import PRESETS, Rules

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "RatedGame",
    "Rating",
    "RatingBook",
    "RatingChange",
    "bot_participant",
    "finish_places",
    "ladder_key",
    "profile_participant",
    "rate_game",
    "recompute",
]

DEFAULT_MU = 25.0
"""The mean skill of a participant without games (OpenSkill's default)."""
DEFAULT_SIGMA = 25.0 / 3.0
"""The uncertainty of a participant without games (OpenSkill's default)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A participant's skill estimate: mean ``mu`` and deviation ``sigma``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> float:
        """The rating shown beside names and on the leaderboard: ``mu - 3 * sigma``, a
        conservative estimate (0 without games; it grows as games make ``sigma`` shrink
        and as the participant wins)."""
        return self.mu - 3.0 * self.sigma

    def to_dict(self) -> dict[str, float]:
        """JSON form: ``{"mu", "sigma", "rating"}`` (``rating`` is :attr:`shown`)."""
        return {"mu": self.mu, "sigma": self.sigma, "rating": self.shown}


def profile_participant(profile_id: str) -> str:
    """The participant id of a profile."""
    return f"profile:{profile_id}"


def bot_participant(level: str) -> str:
    """The participant id of a bot level."""
    return f"bot:{level}"


def rule_family(rules: Rules) -> str:
    """The family of a rule set: the preset it was built from (``custom`` if none)."""
    return rules.preset_name if rules.preset_name in PRESETS else "custom"


def ladder_key(rules: Rules, players: int) -> str:
    """The ladder of games with these rules and this many players: ``FAMILY/Np``."""
    return f"{rule_family(rules)}/{players}p"


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished game as the ratings see it."""

    game: str
    """Its id (``TABLE/NUMBER`` on the server)."""
    ladder: str
    participants: tuple[str, ...]
    """Per seat, its participant."""
    places: tuple[int, ...]
    """Per seat, its place (:func:`finish_places`)."""

    def __post_init__(self) -> None:
        if len(self.participants) != len(self.places) or len(self.places) < 2:
            raise ValueError("a rated game needs a participant and a place per seat, 2+ seats")


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one participant's rating moved in one game."""

    participant: str
    seats: tuple[int, ...]
    before: Rating
    after: Rating

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"participant": self.participant, "seats": list(self.seats),
                "before": self.before.to_dict(), "after": self.after.to_dict()}


@cache
def _model() -> PlackettLuce:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def rate_game(current: Mapping[str, Rating], game: RatedGame) -> list[RatingChange]:
    """The rating changes of one game, from the participants' ratings before it (a
    participant missing from ``current`` starts at the default); one change per
    participant, in the order of their first seats."""
    model = _model()
    before = [current.get(p, Rating()) for p in game.participants]
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = model.rate(teams, ranks=[float(p) for p in game.places])
    seats_of: dict[str, list[int]] = {}
    for seat, participant in enumerate(game.participants):
        seats_of.setdefault(participant, []).append(seat)
    changes = []
    for participant, seats in seats_of.items():
        mu = math.fsum(float(rated[s][0].mu) for s in seats) / len(seats)
        sigma = math.fsum(float(rated[s][0].sigma) for s in seats) / len(seats)
        changes.append(RatingChange(participant, tuple(seats), before[seats[0]],
                                    Rating(mu, sigma)))
    return changes


@dataclass
class RatingBook:
    """Every participant's current rating on every ladder, and how many rated games each
    played there."""

    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)
    games: dict[tuple[str, str], int] = field(default_factory=dict)

    def rating(self, ladder: str, participant: str) -> Rating:
        """The participant's rating on the ladder (the default before any game)."""
        return self.ratings.get((ladder, participant), Rating())

    def apply(self, game: RatedGame) -> list[RatingChange]:
        """Rate one game and keep the new ratings; the changes."""
        current = {p: self.rating(game.ladder, p) for p in game.participants}
        changes = rate_game(current, game)
        for change in changes:
            key = (game.ladder, change.participant)
            self.ratings[key] = change.after
            self.games[key] = self.games.get(key, 0) + 1
        return changes

    def ladder(self, ladder: str) -> list[tuple[str, Rating, int]]:
        """One ladder's participants, best shown rating first: (participant, rating,
        games); equal ratings by participant id."""
        rows = [(p, r, self.games.get((lad, p), 0)) for (lad, p), r in self.ratings.items()
                if lad == ladder]
        return sorted(rows, key=lambda row: (-row[1].shown, row[0]))


def recompute(games: Iterable[RatedGame]) -> RatingBook:
    """Every rating rebuilt from the rated games, in the order given (the order in which
    they were applied)."""
    book = RatingBook()
    for game in games:
        book.apply(game)
    return book
