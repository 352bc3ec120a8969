"""The ceiling benchmark's oracle (``benchmarks/bench_ceiling.py``, issue 30): ``master``
given the true hidden cards. It plays a tiny duplicate match the same way from the same
seed, its base setting plays exactly ``chicago.sim``'s games, its Chicago calls are made, and
nothing in the package can build or reach it."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import ModuleType

from chicago import Rules
from chicago.bots import bot_levels, make_bot
from chicago.bots.base import Bot
from chicago.sim import run_match
from script_loader import ROOT, load_script

RULES = Rules.preset("pagat", max_deals=2)
OTHERS = "expert:samples=4"


def _tool() -> ModuleType:
    return load_script("benchmarks/bench_ceiling.py")


def test_the_oracle_plays_a_tiny_match_the_same_way_from_the_same_seed_R_EX_1(
    tmp_path: Path,
) -> None:
    """R-EX-1, R-CHI-1, R-TRICK-5: every oracle setting plays one set twice with the same
    choices (equal digests); the one that knows the hands at the Chicago call declares only
    Chicagos that are sure, so each one it declares is made. A saved run reads back the
    same games."""
    tool = _tool()
    played = {}
    for setting in ("play", "stock"):
        first = tool.play_sets(setting, OTHERS, RULES, 11, [0])
        again = tool.play_sets(setting, OTHERS, RULES, 11, [0])
        assert [g.digest for g in first] == [g.digest for g in again]
        assert len(first) == 4
        assert sum(g.counters[0]["decisions"] for g in first) > 20
        made = sum(g.counters[0]["chicago_made"] for g in first)
        assert made == sum(g.counters[0]["chicago_calls"] for g in first)
        played[setting] = first
    path = str(tmp_path / "ceiling.json")
    args = argparse.Namespace(preset="pagat", others=OTHERS, seed=11, players=4)
    tool._save(path, args, played)
    _, saved = tool._load(path)
    assert {s: [g.digest for g in gs] for s, gs in saved.items()} == {
        s: [g.digest for g in gs] for s, gs in played.items()}
    lines = tool.summary(saved, OTHERS, 4)
    assert "   stock" in lines and "too few sets to compare" in lines  # one set: no pairs
    assert "nan" not in lines and "± n/a (one set)" in lines  # no spread of one set


def test_the_base_setting_plays_the_games_of_chicago_sim() -> None:
    """The ``master`` setting is ``run_match``'s game for game (same seeds, same bots), so
    the oracle settings are compared with ``master`` on the deals a simulate run plays."""
    tool = _tool()

    def base(setting: str) -> Bot:
        return make_bot("master:samples=4")

    ours = tool.play_sets("master", OTHERS, RULES, 7, [0], make_first=base)
    theirs = run_match(["master:samples=4", OTHERS, OTHERS, OTHERS], 4, RULES, seed=7)
    assert [g.digest for g in ours] == [g.digest for g in theirs.games]


def test_nothing_in_the_package_exposes_the_oracle() -> None:
    """The oracle reads the whole game, so it is no level and no bot spec: make_bot
    refuses it, no level names it, and no module under src/chicago mentions it."""
    tool = _tool()
    assert isinstance(tool.first_seat("play"), tool.Oracle)
    assert not any("oracle" in level for level in bot_levels())
    for spec in ("oracle", "oracle:play", "play", "stock"):
        try:
            make_bot(spec)
        except ValueError:
            continue
        raise AssertionError(f"make_bot built {spec!r}")
    package = ROOT / "src" / "chicago"
    for source in package.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "bench_ceiling" not in text and "Oracle(" not in text, source


def test_the_oracle_deals_the_real_hands_and_reads_the_real_draw_queues_R_EX_2() -> None:
    """R-EX-2: where the setting knows the hands the oracle's 'sample' is the real deal,
    elsewhere a sampled one; the draw queues it reads are the cards the seat then draws."""
    import random

    from chicago.cards import mask_of
    from chicago.engine.actions import Action
    from chicago.engine.knowledge import knowledge
    from chicago.sim import duplicate_game

    tool = _tool()
    game = duplicate_game(Rules.preset("pagat"), 4, seed=3, deck_seed=4)
    seat = game.to_act
    assert seat is not None
    k = knowledge(game.view(seat))
    real = [mask_of(hand) for hand in game.hands]
    knows_hands, knows_play = tool.first_seat("hands"), tool.first_seat("play")
    for oracle in (knows_hands, knows_play):
        oracle.observe(game, seat)
    assert knows_hands._sample(k, random.Random(1)) == real
    assert knows_play._sample(k, random.Random(1)) != real  # the exchange: sampled
    queues = tool.true_queues(game, 4)
    assert queues is not None and sum(map(len, queues)) == 52 - 20
    thrown = tuple(sorted(game.hands[seat])[:2])
    game.apply(Action.discard(thrown))
    drawn = [c for c in game.hands[seat] if c not in k.hand]
    assert sorted(drawn) == sorted(queues[seat][:2])
