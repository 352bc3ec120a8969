"""Club ratings (docs/CLUB.md): places, ladders, OpenSkill updates, recomputation, stats."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.club.ratings import (
    RatedGame,
    Rating,
    RatingBook,
    finish_places,
    ladder_key,
    rate_game,
    recompute,
)
from chicago.club.stats import game_lines, summarize


def test_places_put_winners_first_then_scores_with_shared_places() -> None:
    assert finish_places([1], [30, 52, 30, 12]) == [2, 1, 2, 4]
    assert finish_places([0, 2], [52, 40, 52]) == [1, 3, 1]
    # a winner below a loser's score (V-CHI-DECLARED can end a game that way) still leads
    assert finish_places([3], [50, 10, 10, 48]) == [2, 3, 3, 1]


def test_ladders_split_by_family_and_players_not_by_variation_or_length() -> None:
    pagat = Rules.preset("pagat")
    assert ladder_key(pagat, 4) == "pagat/4p"
    assert ladder_key(pagat.replace(max_deals=3), 4) == "pagat/4p"
    assert ladder_key(pagat.with_variations("V-NEG"), 4) == "pagat/4p"
    assert ladder_key(pagat, 3) == "pagat/3p"
    assert ladder_key(Rules.preset("denexa"), 4) == "denexa/4p"


def test_a_win_raises_and_a_loss_lowers() -> None:
    game = RatedGame("t/1", "pagat/4p", ("profile:a", "profile:b", "bot:basic", "profile:c"),
                     (1, 2, 3, 4))
    changes = {c.participant: c for c in rate_game({}, game)}
    assert changes["profile:a"].after.mu > 25 > changes["profile:c"].after.mu
    assert all(c.after.sigma < c.before.sigma for c in changes.values())
    assert all(c.before == Rating() for c in changes.values())


def test_one_level_at_several_seats_takes_the_mean_of_its_seats() -> None:
    """Two basic bots share first and last place: the level ends where the mean of its two
    seats' new ratings is, and it is one change with both seats."""
    game = RatedGame("t/1", "pagat/3p", ("bot:basic", "profile:a", "bot:basic"), (1, 2, 3))
    changes = rate_game({}, game)
    assert [c.participant for c in changes] == ["bot:basic", "profile:a"]
    basic = changes[0]
    assert basic.seats == (0, 2)
    alone = rate_game({}, RatedGame("x", "l", ("x", "y", "z"), (1, 2, 3)))
    assert abs(basic.after.mu - (alone[0].after.mu + alone[2].after.mu) / 2) < 1e-9


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.permutations(["profile:a", "profile:b", "bot:basic", "bot:ev"]),
                          st.lists(st.integers(1, 4), min_size=4, max_size=4)),
                min_size=1, max_size=12))
def test_recompute_from_the_games_gives_the_ratings_kept_game_by_game(games: list) -> None:
    """Ratings kept as games finish equal ratings recomputed from the stored games."""
    book = RatingBook()
    stored: list[RatedGame] = []
    for number, (seats, places) in enumerate(games):
        game = RatedGame(f"t/{number}", "pagat/4p", tuple(seats), tuple(places))
        book.apply(game)
        stored.append(game)
    again = recompute(stored)
    assert again.ratings == book.ratings and again.games == book.games
    assert sum(book.games.values()) == 4 * len(games)


def test_stats_lines_of_a_played_game_add_up() -> None:
    rng = random.Random(3)
    game = Game(Rules.preset("pagat", max_deals=4), 3, seed=12)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    lines = game_lines(game)
    assert [line["score"] for line in lines] == game.scores
    assert sum(line["won"] for line in lines) == len(game.winners)
    assert all(line["deals"] == 4 for line in lines)
    # last tricks: one per deal that reached trick play
    tricks = sum(1 for e in game.events if e.data["type"] == "trick" and e.data["trick"] == 5)
    assert sum(line["last_tricks"] for line in lines) == tricks
    total = summarize(lines)
    assert total.games == 3 and total.deals == 12
    assert total.points == sum(sum(d.points) for d in game.deal_history)
