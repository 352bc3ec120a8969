"""A table's public views, made once per state and shared (:mod:`chicago.server.views`):
each audience's view and update state made from them are those made afresh, a game changed
in place is worked out again, and a table holds few states (issue 28)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.engine.viewjson import public_state, seat_state
from chicago.rules import PRESETS
from chicago.server.views import KEEP, PublicViews


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.integers(2, 4), st.integers(0, 2**32))
def test_shared_views_are_the_views_made_afresh_V_HIDDEN(preset: str, players: int,
                                                           seed: int) -> None:
    """At every action of a random game, played in place (as a table that follows another
    worker's entries does) and as copies (as the table manager's actions are), the
    shared public part gives each seat ``game.view(seat)`` and each audience the update
    state of :func:`~chicago.engine.viewjson.seat_state` from nothing: no seat gets
    another's cards."""
    views = PublicViews()
    game = Game(Rules.preset(preset), players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(120):  # the first deals' actions
        if game.is_over:
            break
        for played in (game, game.copy()):
            for seat in [None, *range(players)]:
                assert views.seat_view(played, seat) == played.view(seat)
                assert (seat_state(played, seat, views.public_state(played))
                        == seat_state(played, seat, public_state(played)))
        game.apply(rng.choice(game.legal_actions()))


def test_a_table_holds_few_states() -> None:
    """At most :data:`KEEP` states are held, and after a change is published only the
    table's current one."""
    views = PublicViews()
    game = Game(Rules.preset("pagat"), players=4, seed=1)
    games = [game]
    for _ in range(KEEP + 3):
        game = game.copy()
        game.apply(game.legal_actions()[0])
        games.append(game)
        views.public_state(game)
    assert len(views._held) == KEEP
    views.keep(games[-1])
    assert list(views._held) == [id(games[-1])]
    views.keep(None)
    assert views._held == {}
