"""The accelerator's end of a scoring round (``Game._resolve_announcements`` in C, issue 28's
twenty-eighth pass) against the pure-Python one (``Game._resolve_announcements_python``).

The C method ends the rounds of rules without V-QUADS-* (reset, end of deal, to target),
instant wins, a suit order for ties or V-CHI-REQ3 (everyone passed, a tie by category or
after the staged reveals, a best hand scored, the combinations protected under
show-on-break) and hands every other round to the Python method. Two checks:

- random games of every preset, with random sets of variations and options, 2-6 players,
  plain, stacked and duplicate card sources, played in lockstep by two games that differ
  only in this method: every declared attribute the same after every action, and the
  events and records at the end;
- scoring rounds made to tie: hands dealt from six ranks only (pairs, two pairs, threes of
  a kind, full houses, the same category often, the same ranks sometimes), random claims of
  what the hands hold, the C and the Python method each run on a copy: the same attributes
  after, or the same error.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.cards import DECK
from chicago.engine import Phase
from chicago.engine.errors import WorldError
from chicago.engine.native import ENGINE
from chicago.poker import Category, evaluate
from test_engine_accelerator import LOCKSTEP, tables
from test_engine_start_deal import make, play_in_lockstep, slots

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")


class PythonRounds(Game):
    """The C turns with the pure-Python end of a scoring round."""

    _resolve_announcements = Game._resolve_announcements_python


def test_the_c_round_end_is_in_place() -> None:
    assert Game._resolve_announcements is not Game._resolve_announcements_python
    assert PythonRounds._resolve_announcements is Game._resolve_announcements_python


@LOCKSTEP
@given(tables())
def test_c_and_python_round_ends_make_the_same_games(
    table: tuple[Rules, int, int, str],
) -> None:
    """Every preset and variation (R-ANN-*, V-*): a game ending its scoring rounds in C and
    one ending them in Python hold the same attributes, every one, after every action, and
    the same events and record at the end."""
    play_in_lockstep(table, PythonRounds)


RANKS = (14, 13, 12, 7, 3, 2, 9, 5)


def few_ranks(players: int) -> list[int]:
    """The cards of six ranks (eight for five or six players, who hold 25-30 cards)."""
    ranks = RANKS[:6] if players <= 4 else RANKS
    return [card for card in DECK if card.rank in ranks]


def tied_hands(players: int, rng: random.Random, rules: Rules) -> list[list[int]]:
    """Hands of few ranks; now and then a seat holds the best hand's ranks so far in other
    suits (the suits permuted), an exact tie of ranks."""
    pool = few_ranks(players)
    hands: list[list[int]] = []
    used: set[int] = set()
    for _ in range(players):
        hand: list[int] = []
        if hands and rng.random() < 0.6:
            model = max(hands, key=lambda held: evaluate(held, rules))
            orders = list(itertools.permutations(range(4)))
            rng.shuffle(orders)
            for suits in orders:
                hand = [(card & ~3) | suits[card & 3] for card in model]
                if not used & set(hand):
                    break
            else:
                hand = []
        if not hand:
            hand = rng.sample([card for card in pool if card not in used], 5)
        used |= set(hand)
        hands.append(sorted(DECK[card] for card in hand))
    return hands


def at_round_end(game: Game, hands_seed: int, round_index: int) -> Game:
    """``game`` made to stand at the end of a scoring round: hands of few ranks (often
    tied), the claims made (now and then one that its hand does not fit), random scores.
    (A game of its own, not a copy: a copy shares its records' list until its next
    action, and these methods are only ever called in one.)"""
    players = game.players
    rng = random.Random(hands_seed)
    game.hands = tied_hands(players, rng, game.rules)
    game.round = min(round_index, game.rules.exchanges - 1)
    game.phase = Phase.ANNOUNCE
    game._order = [(game.dealer + 1 + i) % players for i in range(players)]
    game._turn = players
    game.scores = [rng.choice((0, 3, 20, game.rules.target - 1)) for _ in range(players)]
    announced: list[tuple[int, Category | None]] = []
    for seat in game._order:
        held = evaluate(game.hands[seat], game.rules).category
        claim: Category | None = rng.choice((None, held, held, held))
        if claim is Category.HIGH_CARD and rng.random() < 0.9:
            claim = None  # (no combination to show: KeyError under show-on-break, as Python)
        if claim is not None and rng.random() < 0.05:
            claim = Category(min(int(held) + 1, int(Category.ROYAL_FLUSH)))  # does not fit
        announced.append((seat, claim))
    game._announced = announced
    return game


@LOCKSTEP
@given(tables(), st.integers(0, 2**32), st.integers(0, 2))
def test_c_and_python_end_a_made_round_alike(
    table: tuple[Rules, int, int, str], hands_seed: int, round_index: int,
) -> None:
    """R-ANN-1 ... R-ANN-3: a scoring round's claims of hands from few ranks (ties of
    category and of ranks, staged reveals, exact ties) end the same in C and in Python:
    the scores, the protected cards, the records, the next round; or the same error when a
    claim does not fit its hand."""
    fast, python = (at_round_end(make(Game, table), hands_seed, round_index)
                    for _ in range(2))
    assert slots(fast) == slots(python)
    outcomes: list[Any] = []
    for g, method in ((fast, Game._resolve_announcements),
                      (python, Game._resolve_announcements_python)):
        try:
            method(g)
            outcomes.append(None)
        except (WorldError, KeyError) as exc:
            outcomes.append((type(exc), str(exc), getattr(exc, "seat", None)))
    assert outcomes[0] == outcomes[1]
    if outcomes[0] is None:
        assert slots(fast) == slots(python)
        assert fast.events == python.events
