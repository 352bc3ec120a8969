"""``master:alphamu=N``: the trick search's sure points by αμ (:mod:`chicago.bots.alphamu`)
instead of per world (issue 30; R-TRICK-2, R-TRICK-3, R-TRICK-4). On a hand-built pair of
worlds plain determinized search fuses strategies (it rates a lead that needs a different
second card in each world as sure in both) and αμ does not; with one world, or one decision
deep, αμ is the per-world solver; it never promises more than the solver; the options are
checked; a seed fixes every choice; ``alphamu=0`` is ``master`` exactly."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.alphamu import alphamu_values
from chicago.bots.master import MasterBot
from chicago.bots.solver import Position, last_trick_values
from chicago.cards import Card
from chicago.sim import derive_seed, duplicate_game

# The club guess (three seats, seat 0 leads, three tricks left). Seat 0 holds 9c Qc Kh; the
# two worlds differ in where Tc and Qs are. After the lead of Kh, seat 1 follows with 9h and
# seat 2 throws a diamond or a spade in both worlds, so seat 0 sees the same trick either way
# — yet it must then lead Qc in world A (seat 2's Tc falls under it and 9c is the last club)
# and 9c in world B (seat 1 keeps a club over 9c; it wins the 9c and must lead into Qc).
# A solver per world finds the right club in each, so plain search counts Kh sure in both,
# as sure as Qc, which wins in both worlds whatever follows.
_WORLD_A = Position.from_text(["9c Qc Kh", "9h Jc Qs", "Tc Kd Ks"], leader=0)
_WORLD_B = Position.from_text(["9c Qc Kh", "9h Tc Jc", "Qs Kd Ks"], leader=0)


def test_the_club_guess_is_fused_by_plain_search_and_not_by_alphamu_R_TRICK_4() -> None:
    plain = [last_trick_values(p) for p in (_WORLD_A, _WORLD_B)]
    assert [row[Card("Kh")] for row in plain] == [5, 5]  # fused: a different club per world
    assert [row[Card("Qc")] for row in plain] == [5, 5]
    free = alphamu_values([_WORLD_A, _WORLD_B], 0)
    assert [row[Card("Qc")] for row in free] == [5, 5]
    assert sum(row[Card("Kh")] for row in free) == 5  # one club for both: one world only
    assert [row[Card("9c")] for row in free] == [row[Card("9c")] for row in plain]
    # one decision deep is plain determinized search; each world alone has no fusion
    assert alphamu_values([_WORLD_A, _WORLD_B], 0, depth=1) == plain
    assert alphamu_values([_WORLD_A], 0) == plain[:1]
    assert alphamu_values([_WORLD_B], 0) == plain[1:]


def test_master_fuses_the_club_guess_and_alphamu_does_not_R_TRICK_4() -> None:
    """``master``'s one-decision correction (``fusion=1`` and ``2``) groups the worlds by the
    others' lowest stopping replies — after Kh seat 2 throws Tc in world A and Qs in world B,
    different groups — so it leaves the fusion in and scores Kh as high as Qc; αμ lets seat 2
    throw the same card in both (a king), keeps the bot in the dark, and Kh falls below Qc."""
    k = SimpleNamespace(hand=[Card("9c"), Card("Qc"), Card("Kh")], seat=0, players=3,
                        rules=Rules.preset("pagat"), declarer=None)
    worlds = [_WORLD_A, _WORLD_B]
    cards = list(k.hand)
    for spec in ("master", "master:fusion=2"):
        scores = make_bot(spec)._card_scores(k, cards, worlds)  # type: ignore[attr-defined]
        assert scores[Card("Kh")] == scores[Card("Qc")]
    bot = make_bot("master:alphamu=3")
    assert isinstance(bot, MasterBot)
    sure = bot._sure_values(k, worlds)  # type: ignore[arg-type]
    assert [row[Card("Kh")] for row in sure] == [5, 0]
    scores = bot._card_scores(k, cards, worlds)  # type: ignore[arg-type]
    assert scores[Card("Qc")] > scores[Card("Kh")]
    # too few cards in hand for alphamu=3's range: master's values
    assert make_bot("master:alphamu=2")._sure_values(  # type: ignore[attr-defined]
        k, worlds) == make_bot("master")._sure_values(k, worlds)  # type: ignore[attr-defined]


def _worlds(rng: random.Random, seats: int, cards: int, count: int) -> list[Position]:
    """``count`` worlds of one view: seat 0's hand, the leader and the trick fixed; the other
    cards dealt anew in each world from one pool (mid-trick when the leader is not 0)."""
    deck = list(range(52))
    rng.shuffle(deck)
    mine = sum(1 << c for c in deck[:cards])
    leader = rng.randrange(seats)
    before = (0 - leader) % seats  # seats that played to the trick before seat 0
    played = tuple(Card(c) for c in deck[cards:cards + before])
    pool = deck[cards + before:cards + before + (seats - 1) * cards + 6]
    out = []
    for _ in range(count):
        rng.shuffle(pool)
        hands, at = [mine], 0
        for seat in range(1, seats):
            size = cards - 1 if (seat - leader) % seats < before else cards
            hands.append(sum(1 << c for c in pool[at:at + size]))
            at += size
        out.append(Position(tuple(hands), leader, played))
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("deuce", [None, 10])
def test_alphamu_is_the_solver_alone_and_never_promises_more_R_TRICK_2(
    seats: int, deuce: int | None,
) -> None:
    """On random views (mid-trick too, V-DEUCE's deuce points too): one world, or depth 1,
    gives the solver's values; several worlds never more than the solver's in any world."""
    rng = random.Random(seats * 7 + (deuce or 0))
    for _ in range(25):
        worlds = _worlds(rng, seats, rng.randrange(2, 5), rng.randrange(2, 7))
        plain = [last_trick_values(p, deuce_points=deuce) for p in worlds]
        assert alphamu_values(worlds[:1], 0, deuce_points=deuce) == plain[:1]
        assert alphamu_values(worlds, 0, deuce_points=deuce, depth=1) == plain
        free = alphamu_values(worlds, 0, deuce_points=deuce)
        for row, top in zip(free, plain, strict=True):
            assert all(row[card] <= top[card] for card in top)
        # a copy of a world counts twice, and is valued like the world
        twice = alphamu_values([*worlds, worlds[0]], 0, deuce_points=deuce)
        assert twice[-1] == twice[0]


def test_alphamu_needs_one_view() -> None:
    with pytest.raises(ValueError, match="differ"):
        alphamu_values([_WORLD_A, Position.from_text(["9c Qc Ah", "9h Jc Qs", "Tc Kd Ks"])], 0)
    with pytest.raises(ValueError, match="seat to act"):
        alphamu_values([_WORLD_A], 1)
    assert alphamu_values([], 0) == []


def test_alphamu_options_are_checked() -> None:
    bot = make_bot("master:alphamu=3;amdepth=2")
    assert isinstance(bot, MasterBot) and (bot.alphamu, bot.amdepth) == (3, 2)
    assert make_bot("master").alphamu == 0  # type: ignore[attr-defined]
    for bad in ("alphamu=6", "alphamu=2.5", "amdepth=6", "amdepth=-1"):
        with pytest.raises(ValueError):
            make_bot(f"master:{bad}")


def _compare(first: str, second: str, seed: int, deals: int) -> tuple[int, int]:
    """Seat 0's trick decisions in a pagat game of ``first`` against three small experts,
    each asked of ``second`` too with the same random state: (decisions, differing)."""
    bot, other = make_bot(first), make_bot(second)
    bots = [bot, *(make_bot("expert:samples=8") for _ in range(3))]
    game: Game = duplicate_game(Rules.preset("pagat"), 4, seed=derive_seed(seed, 0, 1),
                                deck_seed=derive_seed(seed, 0, 2))
    rngs = [random.Random(seed * 10 + s) for s in range(4)]
    asked = differing = 0
    while not game.is_over and game.deal_number < deals:
        seat = game.to_act
        assert seat is not None
        view, legal = game.view(seat), game.legal_actions()
        if seat == 0 and str(game.phase) == "play" and len(legal) > 1:
            state = rngs[0].getstate()
            here = bot.decide(view, legal, rngs[0])
            after = rngs[0].getstate()
            rngs[0].setstate(state)
            there = other.decide(view, legal, rngs[0])
            assert rngs[0].getstate() == after
            asked += 1
            differing += here != there
            game.apply(here)
            continue
        game.apply(bots[seat].decide(view, legal, rngs[seat]))
    return asked, differing


def test_alphamu_0_is_master_and_a_seed_fixes_alphamu_choices() -> None:
    """``alphamu=0`` makes ``master``'s every trick decision; ``alphamu=3`` makes the same
    decision for the same seed, and its games run."""
    asked, differing = _compare("master:alphamu=0;samples=8;pool=2",
                                "master:samples=8;pool=2", 4, 8)
    assert asked > 15 and differing == 0
    asked, differing = _compare("master:alphamu=3;samples=8;pool=2",
                                "master:alphamu=3;samples=8;pool=2", 5, 8)
    assert asked > 15 and differing == 0
