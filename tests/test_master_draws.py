"""``master:draws=N`` (issue 30's decision times): the dealing of the trick search's pool
stops at a budget of random draws, a count a seed fixes, never the clock. Where the deals
are easy the budget does not bind and every choice is as before; where they are hard to
find (a protected combination, R-EX-4, that few deals fit) the pool is cut short."""

from __future__ import annotations

import dataclasses
import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.drawcount import CountingRandom, DrawBudget
from chicago.bots.master import DEFAULT_DRAWS, MasterBot
from chicago.bots.playmodel import observed_plays
from chicago.cards import Card
from chicago.cli import main
from chicago.engine.actions import Action
from chicago.engine.knowledge import Claim, Knowledge, knowledge
from chicago.engine.sampling import consistent
from chicago.poker import Category

_RULES = Rules.preset("pagat")


def _master(spec: str) -> MasterBot:
    bot = make_bot(spec)
    assert isinstance(bot, MasterBot)
    return bot


# ------------------------------------------------------------------ the counting generator

_OPS = st.lists(st.sampled_from(["random", "bits", "sample", "choices", "shuffle", "range"]),
                max_size=40)


def _run(rng: random.Random, ops: list[str]) -> list[object]:
    out: list[object] = []
    for op in ops:
        if op == "random":
            out.append(rng.random())
        elif op == "bits":
            out.append(rng.getrandbits(37))
        elif op == "sample":
            out.append(rng.sample(range(52), 5))
        elif op == "choices":
            out.append(rng.choices(range(9), weights=range(1, 10), k=3))
        elif op == "shuffle":
            cards = list(range(20))
            rng.shuffle(cards)
            out.append(cards)
        else:
            out.append(rng.randrange(1, 1000))
    return out


@given(seed=st.integers(0, 2**32), ops=_OPS, more=_OPS)
@settings(max_examples=60, deadline=None)
def test_the_counting_generator_draws_the_same_numbers(
        seed: int, ops: list[str], more: list[str]) -> None:
    """A :class:`CountingRandom` in the state of a generator gives its very numbers, every
    method alike, counts a draw for each, and hands its state back: after it the generator
    goes on as if it had drawn them itself."""
    plain = random.Random(seed)
    rng = random.Random(seed)
    counting = CountingRandom(rng)
    assert _run(counting, ops) == _run(plain, ops)
    assert (counting.draws > 0) == bool(ops)
    counting.hand_back(rng)
    assert _run(rng, more) == _run(plain, more)


# ------------------------------------------------------------------ the option


@given(st.integers(0, 2**32 - 1), st.integers(0, 400), st.integers(0, 6))
@settings(max_examples=40, deadline=None)
def test_a_budget_allows_the_floor_then_draws_up_to_its_limit(
    seed: int, limit: int, floor: int
) -> None:
    """The one bookkeeping of both pools (`_pool`, `_tilt_pool`): every deal below the
    floor, then deals while fewer than ``limit`` draws are taken (none without a limit),
    and on leaving ``rng`` stands where dealing from it alone would have."""
    rng, alone = random.Random(seed), random.Random(seed)
    with DrawBudget(rng, limit) as budget:
        dealt = 0
        while dealt < 50 and budget.allows(dealt, floor):
            source = budget.source
            assert dealt < floor or (isinstance(source, CountingRandom)
                                     and source.draws < limit) or not limit
            source.sample(range(52), 5)
            dealt += 1
    for _ in range(dealt):
        alone.sample(range(52), 5)
    assert rng.getstate() == alone.getstate()
    assert budget.cut == (dealt < 50)
    assert dealt >= min(floor, 50)
    if not limit:
        assert budget.source is rng and dealt == 50


def test_the_option_is_parsed_and_checked() -> None:
    """``draws`` is on by default (:data:`DEFAULT_DRAWS`), 0 turns it off; a negative, a
    fraction or a word is refused with an error naming the option."""
    assert _master("master").draws == DEFAULT_DRAWS > 0
    assert _master("master:draws=0").draws == 0
    assert _master("master:draws=5000").draws == 5000
    with pytest.raises(ValueError, match=r"option draws .*0\.\.1e"):
        make_bot("master:draws=-1")
    with pytest.raises(ValueError, match=r"option draws .*whole number"):
        make_bot("master:draws=2.5")
    with pytest.raises(ValueError, match="draws"):
        make_bot("master:draws=many")
    with pytest.raises(ValueError, match="draws must be a whole number"):
        MasterBot(draws=-3)


# ------------------------------------------------------------------ where it binds


def _trick_decision(seed: int, played: int = 1) -> tuple[Game, int]:
    """A pagat game of ``basic`` players up to the first trick decision of a seat with the
    card of an opponent who has played ``played`` cards or more on the table; (game, that
    opponent)."""
    game = Game(_RULES, 4, seed=seed)
    bots = [make_bot("basic") for _ in range(4)]
    rng = random.Random(seed)
    while True:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if str(view.phase) == "play" and len(game.legal_actions()) > 1:
            k = knowledge(view)
            if k.trick and k.declarer is None:
                other = k.trick[-1][0]
                if len(k.opponents[other].played) >= played:
                    return game, other
        game.apply(bots[seat].decide(view, game.legal_actions(), rng))


def _protected(k: Knowledge, other: int) -> Knowledge | None:
    """``k`` with opponent ``other`` known to keep trips (R-EX-4) twice: once won without a
    tie-break, once revealed as trips of a rank of which the seat holds one card and has
    seen no other. The dealer of hidden cards used to draw the first trips' rank among all
    those that fit, most of them wrong, and reject most deals (the kind of position that
    took seconds, docs/BOTS.md); it now knows the two are one. None if no rank fits."""
    unseen = {int(c) for c in k.unseen}
    opp = k.opponents[other]
    for card in sorted(k.hand, key=int):
        rank = int(card) // 4 + 2
        if len({(rank - 2) * 4 + suit for suit in range(4)} & unseen) != 3:
            continue
        kept = (Claim(1, Category.THREE_OF_A_KIND), Claim(2, Category.THREE_OF_A_KIND, (rank,)))
        protected = dataclasses.replace(k, opponents=dict(k.opponents))
        protected.opponents[other] = dataclasses.replace(opp, kept=kept)
        return protected
    return None


def _decide(bot: MasterBot, k: Knowledge, legal: list[Action], seed: int) -> tuple[Action, int]:
    """The bot's trick card in ``k`` and the draws it took."""
    counting = CountingRandom(random.Random(seed))
    bot.note = None
    action = bot._play(k, legal, counting)
    return action, counting.draws


def _draws_per_deal(k: Knowledge, legal: list[Action]) -> float:
    """The random draws one deal of the pool takes in ``k`` (counted on a pool of one)."""
    small = _master("master:draws=0;pool=1")
    _, draws = _decide(small, k, legal, 1)
    return draws / small.samples


def test_a_pool_dearer_than_the_budget_is_cut_R_EX_4() -> None:
    """Where the pool of 400 deals would take more draws than the budget (here a quarter of
    what it takes: a position is that dear only where few deals fit what is known, as the
    one of docs/BOTS.md was before the sampler learnt to deal it), the budgeted bot deals
    fewer — never fewer than the worlds it searches — notes how many, and spends about the
    budget; the deals it keeps are the unbudgeted bot's first ones."""
    game, other = _trick_decision(13, played=2)
    k = _protected(knowledge(game.view(game.to_act or 0)), other)
    assert k is not None
    legal = game.legal_actions()
    per_deal = _draws_per_deal(k, legal)
    plain = _master("master")
    budget = int(per_deal * plain.samples * plain.pool / 4)
    budgeted = _master(f"master:draws={budget}")
    _, spent = _decide(budgeted, k, legal, 1)
    assert budgeted.samples <= budgeted.pool_dealt < budgeted.samples * budgeted.pool
    assert budgeted.note == budgeted.pool_dealt
    assert budget <= spent < budget + 10 * per_deal
    # the budget cuts the pool, it does not change the deals: a smaller budget deals a
    # prefix of a larger one's pool (the same generator, the same order)
    pools = []
    for share in (4, 2):  # a pool of 100 deals, cut to about 25 and 50
        bot = _master(f"master:samples=10;draws={int(per_deal * 100 / share)}")
        counting = CountingRandom(random.Random(1))
        dealt, _ = bot._pool(k, counting, observed_plays(k), 0)
        assert all(not consistent(k, hands) for hands in dealt)
        pools.append(dealt)
    assert len(pools[0]) < len(pools[1]) and pools[1][: len(pools[0])] == pools[0]


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_where_the_deals_are_easy_nothing_changes(seed: int) -> None:
    """On an ordinary trick decision the budget does not bind: the same 400 deals, no note,
    the same card as without it, and the generator left in the same state."""
    game, _ = _trick_decision(seed)
    view = game.view(game.to_act or 0)
    legal = game.legal_actions()
    cards = []
    states = []
    for spec in ("master", "master:draws=0"):
        bot = _master(spec)
        rng = random.Random(seed)
        cards.append(bot.decide(view, legal, rng))
        states.append(rng.getstate())
        assert bot.pool_dealt == bot.samples * bot.pool and bot.note is None
    assert cards[0] == cards[1] and states[0] == states[1]


def test_a_seed_fixes_every_choice_with_a_binding_budget_for_any_jobs(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A budget small enough to bind at most trick decisions: the same digest with one
    worker process and with two, and some decisions differ from an unbudgeted match."""
    bots = "master:samples=6;pool=4;draws={},expert:samples=6,basic,ev"
    args = ["simulate", "--games", "8", "--set", "max_deals=3", "--seed", "30", "--json",
            "--no-progress"]
    digests = []
    for budget, jobs in ((200, 1), (200, 2), (0, 1)):
        assert main([*args, "--bots", bots.format(budget), "--jobs", str(jobs)]) == 0
        digests.append(json.loads(capsys.readouterr().out)["digest"])
    assert digests[0] == digests[1] != digests[2]


def test_the_budget_counts_draws_not_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A binding budget reads no clock: with every clock of the process made unreadable the
    budgeted bot decides, and the same twice (its card a function of the view and the
    generator)."""
    game, other = _trick_decision(13, played=2)
    k = _protected(knowledge(game.view(game.to_act or 0)), other)
    assert k is not None
    legal = game.legal_actions()
    budget = int(_draws_per_deal(k, legal) * 10)  # a quarter of the 40 worlds searched

    def no_clock() -> float:
        raise AssertionError("master read the clock")

    for name in ("perf_counter", "monotonic", "time", "process_time", "thread_time"):
        monkeypatch.setattr(time, name, no_clock)
    bot = _master(f"master:draws={budget}")
    first = _decide(bot, k, legal, 4)
    assert bot.note is not None and bot.pool_dealt == bot.samples
    assert _decide(_master(f"master:draws={budget}"), k, legal, 4) == first
    assert isinstance(first[0].card, Card)


def test_with_cap_the_budget_grows_with_the_pool() -> None:
    """``cap`` asks for up to ``cap`` / ``pool`` times the pool: the budget grows by as much,
    so a cap option is not cut to the plain pool's budget."""
    game, other = _trick_decision(13, played=2)
    k = _protected(knowledge(game.view(game.to_act or 0)), other)
    assert k is not None
    plays = observed_plays(k)
    budget = int(_draws_per_deal(k, game.legal_actions()) * 20)  # half of the plain pool
    plain = _master(f"master:samples=10;pool=4;draws={budget}")
    grown = _master(f"master:samples=10;pool=4;cap=16;fit=1;draws={budget}")
    sizes = []
    for bot in (plain, grown):
        dealt, _ = bot._pool(k, random.Random(2), plays, bot.cap)
        sizes.append(len(dealt))
    assert sizes[0] < plain.samples * plain.pool <= sizes[1]
