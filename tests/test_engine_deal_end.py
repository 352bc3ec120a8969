"""The accelerator's end of a trick and of a deal (``Game._resolve_trick`` in C, issue 28's
thirtieth pass: the last trick, a broken or made Chicago, the final showdown, the deal's
record, the game's end or the next deal) against the pure-Python one
(``Game._resolve_trick_python``).

The C method does the rules without V-CHI-REQ3 (made), instant wins (V-SF-WIN, V-ROYAL),
V-QUADS-52 or win-again and hands everything else to the Python method; ``apply`` calls it
directly (and the C end of a scoring round, and the opening of the Chicago round after the
last exchange) when the game's class has the C method, else ``Game._advance`` as before.
The C exchange also shows a hand whose discard breaks a protected combination (R-EX-4)
itself, for Game's own ``_show_if_breaking``. Three checks:

- random games of every preset, with random sets of variations and options, 2-6 players,
  plain, stacked and duplicate card sources, played in lockstep by two games that differ
  only in this method: every declared attribute the same after every action, and the
  events and records at the end;
- tricks made to end a deal: every seat's five played cards from few ranks (ties of
  category and exact ties of ranks in the showdown), a Chicago declared or not and made or
  broken, a deuce now and then, scores near the target, the deal near ``max_deals``, a
  trick that is not the last; ended by the C method in one game and the Python method in
  another: the same attributes and events after, or the same error;
- random games in lockstep by two games that differ only in that show.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.cards import DECK
from chicago.engine import Phase
from chicago.engine.native import ENGINE
from test_engine_accelerator import LOCKSTEP, tables
from test_engine_resolve import tied_hands
from test_engine_start_deal import make, play_in_lockstep, slots

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")


class PythonTricks(Game):
    """The C turns with the pure-Python end of a trick (and of the deal after it)."""

    _resolve_trick = Game._resolve_trick_python


def test_the_c_trick_end_is_in_place() -> None:
    assert Game._resolve_trick is not Game._resolve_trick_python
    assert PythonTricks._resolve_trick is Game._resolve_trick_python


@LOCKSTEP
@given(tables())
def test_c_and_python_deal_ends_make_the_same_games(
    table: tuple[Rules, int, int, str],
) -> None:
    """Every preset and variation (R-TRICK-*, R-CHI-*, R-FIN-1, V-*): a game ending its
    tricks and deals in C and one ending them in Python hold the same attributes, every
    one, after every action, and the same events and record at the end."""
    play_in_lockstep(table, PythonTricks)


class PythonShows(Game):
    """The C turns with the pure-Python show of a hand that breaks a protected combination
    (a method of its own: the C exchange shows the hand itself only for Game's)."""

    def _show_if_breaking(self, seat: int, discard_mask: int) -> None:
        Game._show_if_breaking(self, seat, discard_mask)


@LOCKSTEP
@given(tables())
def test_c_and_python_shows_of_a_broken_combination_make_the_same_games(
    table: tuple[Rules, int, int, str],
) -> None:
    """R-EX-4 (and every preset and variation): a game whose exchanges show a hand that
    breaks a protected combination in C and one that shows it in Python hold the same
    attributes after every action, and the same events and record at the end."""
    play_in_lockstep(table, PythonShows)


def at_trick_end(game: Game, seed: int) -> Game:
    """``game`` made to stand at the end of a trick: five played cards a seat from few
    ranks (often tied hands), the trick the last cards played (or, now and then, an earlier
    trick), a Chicago declared or not (its declarer often not the trick's winner), a deuce
    led now and then, scores about the target, the deal about ``max_deals``. (A game of its
    own, not a copy: a copy shares its records' list until its next action.)"""
    players = game.players
    rng = random.Random(seed)
    rules = game.rules
    played = [[DECK[card] for card in hand] for hand in tied_hands(players, rng, rules)]
    for hand in played:
        rng.shuffle(hand)
        if rng.random() < 0.2:  # a two last: the deuce bonus (V-DEUCE) when it wins
            twos = [i for i, card in enumerate(hand) if card.rank == 2]
            if twos:
                hand.append(hand.pop(twos[0]))
    order = [(game.dealer + 1 + i) % players for i in range(players)]
    last = rng.choice((5, 5, 5, 4, 1))
    game.hands = [hand[last:] for hand in played]
    game.played = [hand[:last] for hand in played]
    game.tricks = [(rng.randrange(players),
                    tuple((seat, played[seat][k]) for seat in order)) for k in range(last - 1)]
    game.trick = [(seat, played[seat][last - 1]) for seat in order]
    game.trick_number = last
    game.phase = Phase.PLAY
    game._order = order
    game._turn = players
    game.to_act = None
    target = rules.target
    game.scores = [rng.choice((0, 3, target - 20, target - 5, target - 1, target, target + 4))
                   for _ in range(players)]
    game._deal_start_scores = [max(0, s - rng.choice((0, 5, 15))) for s in game.scores]
    game.declarer = rng.choice((None, None, rng.randrange(players)))
    game._declared_chicago = [rng.random() < 0.3 for _ in range(players)]
    game._made_chicago = [rng.random() < 0.3 for _ in range(players)]
    if game.declarer is not None:
        game._declared_chicago[game.declarer] = True
    game.deal_number = rng.randrange(1, 6)
    return game


@LOCKSTEP
@given(tables(), st.integers(0, 2**32))
def test_c_and_python_end_a_made_trick_alike(
    table: tuple[Rules, int, int, str], seed: int,
) -> None:
    """R-FIN-1 (ties of category and exact ties score nothing), R-CHI-* (made, broken, the
    breaker's points, V-DEUCE), the game's end (target, a declared Chicago required,
    ``max_deals``) and the next deal: the same in C and in Python, or the same error."""
    fast, python = (at_trick_end(make(Game, table), seed) for _ in range(2))
    assert slots(fast) == slots(python)
    outcomes: list[Any] = []
    for g, method in ((fast, Game._resolve_trick), (python, Game._resolve_trick_python)):
        try:
            method(g)
            outcomes.append(None)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            outcomes.append((type(exc), str(exc)))
    assert outcomes[0] == outcomes[1]
    if outcomes[0] is None:
        assert slots(fast) == slots(python)
        assert fast.events == python.events
        assert fast.deal_history == python.deal_history


@pytest.mark.parametrize("deuce", [False, True])
def test_a_trick_of_other_cards_goes_to_python(deuce: bool) -> None:
    """A trick holding plain ints (not the deck's Card objects) is Python's to end: the
    same result, or the Python method's error (under V-DEUCE ``card.rank`` of an int)."""
    rules = Rules.preset("pagat").replace(deuce_bonus=deuce)
    seed = next(s for s in range(100)
                if at_trick_end(make(Game, (rules, 4, 7, "plain")), s).trick_number == 5)
    games = [at_trick_end(make(Game, (rules, 4, 7, "plain")), seed) for _ in range(2)]
    outcomes: list[Any] = []
    for g, method in zip(games, (Game._resolve_trick, Game._resolve_trick_python),
                         strict=True):
        plain: Any = g  # the trick of plain ints that no game makes
        plain.trick = [(seat, int(card)) for seat, card in g.trick]
        try:
            method(g)
            outcomes.append(None)
        except AttributeError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1]
    if outcomes[0] is None:
        assert slots(games[0]) == slots(games[1])
        assert games[0].events == games[1].events
