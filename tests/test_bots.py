"""Bots: one interface, legal moves only, no hidden information, deterministic given the rng.

Each level plays short games under several presets; a bot's decision depends only on its
seat's view (tests/test_bots_isolation.py proves it over whole games) and it never imports or
touches the game object (static check of chicago.bots).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import random
from pathlib import Path

import pytest

from chicago import Action, Game, Rules, SeatView
from chicago.bots import BOT_LEVELS, make_bot
from chicago.bots.expert import ExpertBot, parse_options
from chicago.cards import DECK, parse_cards
from chicago.engine.viewjson import view_json

LEVELS = ["random", "basic", "ev", "expert:samples=8,budget=1000"]
BOTS_DIR = Path(__file__).resolve().parents[1] / "src" / "chicago" / "bots"


def test_levels_are_registered_in_order():
    make_bot("basic")
    assert BOT_LEVELS[:4] == ["random", "basic", "ev", "expert"]


def test_unknown_bot_and_bad_options_are_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="samples=N") as refused:
        make_bot("expert:depth=3")
    for option in ("budget=", "contested=", "model=", "weighted=", "chicago=", "holds="):
        assert option in str(refused.value)
    with pytest.raises(ValueError, match="number"):
        make_bot("expert:samples=many")


def test_expert_options():
    assert parse_options("expert:samples=12;budget=0.2") == {"samples": 12.0, "budget": 0.2}
    assert parse_options("expert:contested=0") == {"contested": 0.0}
    assert make_bot("expert:contested=0.5").contested == 0.5
    bot = make_bot("expert:budget=0.2")
    assert isinstance(bot, ExpertBot) and bot.budget == 0.2 and bot.samples == 40


def test_expert_count_options_must_be_whole():
    """``expert:samples=12.5`` is refused with an error naming the option (it used to be
    cut to 12)."""
    for option in ("samples=12.5", "holds=2.5", "weighted=0.5"):
        with pytest.raises(ValueError, match=f"option {option.split('=')[0]} .*whole number"):
            make_bot(f"expert:{option}")


def test_the_expert_reads_no_clock_unless_given_a_cap(monkeypatch):
    """Deterministic: by default the expert's choices depend on the seed alone (the sample
    count bounds its work), so a match reproduces on any machine under any load; a game
    of experts plays with the clock made unreadable, and gives the same actions twice.
    ``budget=SECONDS`` opts in to a cap, which reads the clock."""
    import chicago.bots.expert as expert_module

    assert make_bot("expert").budget is None

    def no_clock() -> float:
        raise AssertionError("the expert read the clock")

    monkeypatch.setattr(expert_module.time, "perf_counter", no_clock)

    def actions(spec: str = "expert:samples=6") -> list[str]:
        game = Game(Rules.preset("pagat", max_deals=2), players=3, seed=4)
        bots = [make_bot(spec) for _ in range(3)]
        rng = random.Random(9)
        played = []
        while not game.is_over:
            seat = game.to_act
            action = bots[seat].decide(game.view(seat), game.legal_actions(), rng)
            game.apply(action)
            played.append(str(action))
        return played

    first = actions()
    assert first == actions() and any(a.startswith("play") for a in first)
    with pytest.raises(AssertionError, match="read the clock"):
        actions("expert:samples=6,budget=1000")


@pytest.mark.parametrize("preset", ["pagat", "wikipedia", "wikipedia-42", "denexa"])
def test_every_level_plays_legal_games(preset):
    """R-ANN-1, R-TRICK-2, R-EX-1: every decision is one of the legal actions."""
    rules = Rules.preset(preset, max_deals=3)
    bots = [make_bot(spec) for spec in LEVELS]
    game = Game(rules, players=4, seed=21)
    rng = random.Random(1)
    while not game.is_over:
        seat = game.to_act
        legal = game.legal_actions()
        action = bots[seat].decide(game.view(seat), legal, rng)
        assert action in legal
        game.apply(action)
    assert game.winners


def test_variations_are_handled():
    """V-REDEAL-LOW, V-ONE-UP, V-QUADS-RESET, V-LOCK-6, V-DEUCE, V-CHI-13 under all levels."""
    rules = Rules.preset("wikipedia", max_deals=4, redeal_low="ten-and-below",
                         quads_reset=True, deuce_bonus=True, lock_at=10, lock_six=True,
                         chicago_caller_leads=True)
    bots = [make_bot(spec) for spec in ["basic", "ev", "expert:samples=6,budget=1000"]]
    for seed in range(3):
        game = Game(rules, players=3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions()
            action = bots[seat].decide(game.view(seat), legal, rng)
            assert action in legal
            game.apply(action)


def _decisions(spec: str, seed: int, limit: int = 400) -> list[str]:
    bot = make_bot(spec)
    game = Game(Rules.preset("pagat"), players=4, seed=seed)
    rng = random.Random(seed)
    out = []
    while not game.is_over and len(out) < limit:
        seat = game.to_act
        action = bot.decide(game.view(seat), game.legal_actions(), rng)
        out.append(str(action))
        game.apply(action)
    return out


@pytest.mark.parametrize("spec", ["basic", "ev", "expert:samples=6,budget=1000"])
def test_deterministic_given_the_rng(spec):
    """The same rng gives the same decisions (the expert's time cap is set out of reach, so a
    busy machine cannot cut one run's search shorter than the other's)."""
    assert _decisions(spec, 3, 150) == _decisions(spec, 3, 150)


@pytest.mark.parametrize("spec", ["basic", "ev", "expert:samples=10,budget=1000"])
def test_bot_sees_only_a_frozen_view(spec):
    """The view is a frozen value: a copy decides the same, its JSON form holds the same
    facts, and a bot cannot change the game through it."""
    game = Game(Rules.preset("pagat"), players=4, seed=9)
    basic = make_bot("basic")
    rng = random.Random(2)
    while game.phase.value != "play" or game.trick_number < 2:
        seat = game.to_act
        game.apply(basic.decide(game.view(seat), game.legal_actions(), rng))
    seat = game.to_act
    view = game.view(seat)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()
    legal = [Action.parse(text) for text in view_json(view)["legal_actions"]]
    assert legal == game.legal_actions() == list(view.legal_actions)
    bot = make_bot(spec)
    before = game.record()
    a = bot.decide(view, legal, random.Random(5))
    b = bot.decide(copy.deepcopy(view), game.legal_actions(), random.Random(5))
    assert a == b and a in legal
    assert game.record() == before


_GAME_INTERNALS = {"_stock", "_rng", "_discards", "_own_discards", "_decks", "deal_events",
                   "seed", "legal_actions_for", "_draw"}


def test_bots_never_import_the_game():
    """No bot module imports chicago.engine.game, chicago.sim or the Game class."""
    for path in sorted(BOTS_DIR.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                names = {alias.name for alias in node.names}
                assert module not in ("chicago.engine.game", "chicago.sim", "chicago.engine"), (
                    path.name, module)
                assert not (module == "chicago" and names & {"Game"}), path.name
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name not in ("chicago.engine.game", "chicago.sim"), path.name
            elif isinstance(node, ast.Attribute):
                assert node.attr not in _GAME_INTERNALS, (path.name, node.attr)
            elif isinstance(node, ast.Name):
                assert node.id != "Game", path.name


def _chicago_game(
    hand: str, caller_leads: bool = False, stop_at: str = "chicago", others_draw: int = 0,
    **options,
) -> Game:
    """A deal where the dealer's left holds ``hand``; it keeps its cards, the others draw
    ``others_draw`` cards each, and everyone passes, until the phase ``stop_at``."""
    rules = Rules.preset("pagat", chicago_min_score=None, negative_scores=True,
                         chicago_caller_leads=caller_leads, **options)
    mine = list(parse_cards(hand))
    rest = [c for c in DECK if c not in mine]
    random.Random(3).shuffle(rest)
    deck = []
    for r in range(5):
        deck.append(mine[r])
        deck.extend(rest[r * 3 : r * 3 + 3])
    deck.extend(rest[15:])
    game = Game(rules, players=4, seed=1, dealer=3, decks=[deck])
    while game.phase.value != stop_at:
        legal = game.legal_actions()
        keep = next((a for a in legal if str(a) in ("keep", "pass")), legal[0])
        if others_draw and game.to_act != 0 and game.phase.value == "exchange":
            keep = next(a for a in legal if str(a).startswith("discard")
                        and len(a.cards) == others_draw)
        game.apply(keep)
    return game


@pytest.mark.parametrize("spec", ["basic", "ev", "expert:samples=16,budget=1000"])
def test_chicago_with_top_sequences_R_CHI_1(spec):
    """A hand of top sequences on lead is a sure Chicago: every level declares it."""
    game = _chicago_game("As Ks Qs Ah Ad")
    assert game.to_act == 0
    action = make_bot(spec).decide(game.view(0), game.legal_actions(), random.Random(0))
    assert str(action) == "chicago"


@pytest.mark.parametrize("spec", ["basic", "ev", "expert:samples=16,budget=1000"])
def test_no_chicago_with_a_weak_hand_R_CHI_1(spec):
    game = _chicago_game("7s 5s Qd 8h 2c")
    action = make_bot(spec).decide(game.view(0), game.legal_actions(), random.Random(0))
    assert str(action) == "no chicago"


def test_expert_weighs_the_chicago_by_samples_R_CHI_3_R_CHI_4():
    """On lead with As Ks Ah Ad Ac every trick is sure; with 7c instead of the ace of clubs
    the last lead loses to almost any higher club, so the expert does not declare."""
    game = _chicago_game("As Ks Ah Ad Ac")
    game_bad = _chicago_game("As Ks Ah Ad 7c")
    expert = make_bot("expert:samples=24,budget=1000")
    good = expert.decide(game.view(0), game.legal_actions(), random.Random(1))
    bad = expert.decide(game_bad.view(0), game_bad.legal_actions(), random.Random(1))
    assert str(good) == "chicago"
    assert str(bad) == "no chicago"


def test_the_expert_declarer_keeps_the_2_for_the_last_trick_V_DEUCE():
    """V-DEUCE: two players; seat 0 throws every other club in the exchanges, draws to
    As Ks Ah Kh 2c, declares Chicago and leads the spades and the Ah. With Kh 2c left both
    are sure winners and both make the Chicago, but only the 2 kept for the last trick
    scores 30: the expert used to lead the 2 (the rule of thumb's lower of two sure
    winners) and score 15."""
    from engine_helpers import stack
    from review_helpers import one_deal

    deck = stack(2, 1, {0: "3c 4c 5c 6c 7c", 1: "Qd Jd 9d 8d 7d"},
                 stock="8c 9c Tc Jc Qc Kc Ac As Ks 2c Ah Kh")
    game = one_deal(2, deck, dealer=1, chicago_min_score=None, deuce_bonus=True)
    basic = make_bot("basic")
    rng = random.Random(0)
    throws = iter(["discard 3c 4c 5c 6c 7c", "discard 8c 9c Tc Jc Qc", "discard Kc Ac"])
    leads = iter(["play As", "play Ks", "play Ah"])

    def fourth_lead() -> bool:
        view = game.view(0)
        return game.to_act == 0 and view.phase == "play" and len(view.hand) == 2

    while not fourth_lead():
        seat = game.to_act
        assert seat is not None
        phase = game.view(seat).phase
        if phase == "exchange":
            game.apply(next(throws) if seat == 0 else "keep")
        elif phase == "chicago":
            game.apply("chicago")
        elif phase == "play" and seat == 0:
            game.apply(next(leads))
        else:
            game.apply(basic.decide(game.view(seat), game.legal_actions(), rng))
    assert sorted(map(str, game.view(0).hand)) == ["2c", "Kh"]
    expert = make_bot("expert:samples=8,budget=1000")
    choice = expert.decide(game.view(0), game.legal_actions(), random.Random(1))
    assert str(choice) == "play Kh"
    game.apply(choice)
    game.apply(game.legal_actions()[0])
    game.apply("play 2c")
    game.apply(game.legal_actions()[0])
    assert game.scores[0] >= 30  # the Chicago won with the 2 (and the rounds' points)


def _with(view: SeatView, **changes: object) -> SeatView:
    """The view with some public fields changed (a bot decides from the view alone)."""
    return dataclasses.replace(view, **{k: tuple(v) for k, v in changes.items()})


@pytest.mark.parametrize("spec", ["basic", "ev", "expert:samples=8,budget=1000"])
def test_a_required_chicago_is_declared_near_the_target_V_CHI_DECLARED(spec):
    """Under V-CHI-DECLARED only a player who has declared a Chicago can win: at or near
    the target a player who never did declares, whatever its hand; one who did, or one far
    from the target, does not with a weak hand."""
    game = _chicago_game("7s 5s Qd 8h 2c", chicago_required="declared")
    view, legal = game.view(0), game.legal_actions()
    bot = make_bot(spec)
    near = _with(view, scores=[48, 30, 30, 30])
    assert str(bot.decide(near, legal, random.Random(0))) == "chicago"
    above = _with(view, scores=[70, 30, 30, 30])
    assert str(bot.decide(above, legal, random.Random(0))) == "chicago"
    done = _with(near, chicago_declared=[True, False, False, False])
    assert str(bot.decide(done, legal, random.Random(0))) == "no chicago"
    far = _with(view, scores=[20, 30, 30, 30])
    assert str(bot.decide(far, legal, random.Random(0))) == "no chicago"


@pytest.mark.parametrize("spec", ["basic", "ev", "expert:samples=8,budget=1000"])
def test_a_required_chicago_near_the_target_and_no_reset_V_CHI_REQ3(spec):
    """Under V-CHI-REQ3 reaching the target without a made Chicago resets the score: close
    to the target the bot tries a Chicago, and it passes an announcement whose points
    would take it to the target."""
    game = _chicago_game("7s 5s Qd 8h 2c", chicago_required="made",
                         chicago_made_any_size=True)
    view, legal = game.view(0), game.legal_actions()
    bot = make_bot(spec)
    assert str(bot.decide(_with(view, scores=[45, 30, 30, 30]), legal,
                          random.Random(0))) == "chicago"
    made = _with(view, scores=[45, 30, 30, 30], chicago_made=[True, False, False, False])
    assert str(bot.decide(made, legal, random.Random(0))) == "no chicago"
    assert str(bot.decide(_with(view, scores=[20, 30, 30, 30]), legal,
                          random.Random(0))) == "no chicago"
    # an announcement: a pair of aces scores 1 point, which would reach 52 from 51
    announce = _chicago_game("Ah Ad Kc Qd 9h", chicago_required="made",
                             chicago_made_any_size=True, stop_at="announce", others_draw=3)
    legal = announce.legal_actions()
    assert "announce pair" in [str(a) for a in legal]
    view = announce.view(0)
    assert str(bot.decide(_with(view, scores=[51, 30, 30, 30]), legal,
                          random.Random(0))) == "pass"
    assert str(bot.decide(_with(view, scores=[30, 30, 30, 30]), legal,
                          random.Random(0))) == "announce pair"


@pytest.mark.parametrize(
    ("preset", "specs", "seed"),
    [
        ("wikipedia-42", ["basic"] * 4, 1),
        ("wikipedia-42", ["ev"] * 4, 1),
        ("wikipedia-42",
         ["expert:samples=4,budget=1000", "ev", "basic", "expert:samples=4,budget=1000"], 3),
        ("req3", ["basic"] * 3, 1),
        ("req3", ["ev"] * 3, 1),
        ("req3", ["expert:samples=4,budget=1000", "ev", "basic"], 2),
    ],
)
def test_games_needing_a_chicago_end_V_CHI_DECLARED_V_CHI_REQ3(preset, specs, seed):
    """Whole games under V-CHI-DECLARED (wikipedia-42, four players) and V-CHI-REQ3 (three
    players) end: the bots declare the Chicago the rules require (before, they never
    did, and such games went on past deal 200)."""
    if preset == "req3":
        rules = Rules.preset("pagat").with_variations("V-CHI-REQ3")
    else:
        rules = Rules.preset(preset)
    bots = [make_bot(spec) for spec in specs]
    game = Game(rules, players=len(specs), seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.deal_number <= 100:
        seat = game.to_act
        game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rng))
    assert game.is_over, f"still playing at deal {game.deal_number}: {game.scores}"
    view = game.view(0)
    flags = view.chicago_declared if preset != "req3" else view.chicago_made
    assert all(flags[w] for w in game.winners)


@pytest.mark.parametrize("spec", ["basic", "ev", "expert:samples=6,budget=1000"])
def test_quads_choices_V_QUADS_ONE_V_QUADS_52(spec):
    """V-QUADS-ONE: a bot with the winning four of a kind resets the leader among the others
    (not everyone, and not a seat it may not name); V-QUADS-52: it takes the raise to the
    target instead of a reset. Whole games under both play to the end with legal actions."""
    from engine_helpers import game as stacked
    from engine_helpers import keep_all, run

    bot = make_bot(spec)
    rng = random.Random(1)
    g = stacked(Rules.preset("pagat").with_variations("V-QUADS-ONE"), 3, dealer=2,
                hands=["9c 9d 9h 9s 2c"], scores=[20, 30, 40])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "2: pass"])
    legal = g.legal_actions()
    assert [str(a) for a in legal] == ["score", "reset 1", "reset 2"]
    assert str(bot.decide(g.view(0), legal, rng)) == "reset 2"
    both = Rules.preset("pagat").with_variations("V-QUADS-52", "V-QUADS-RESET")
    g = stacked(both, 3, dealer=2, hands=["9c 9d 9h 9s 2c"], scores=[20, 30, 40])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "2: pass"])
    assert str(bot.decide(g.view(0), g.legal_actions(), rng)) == "score"
    for variations in (("V-QUADS-ONE",), ("V-QUADS-52", "V-QUADS-ONE")):
        rules = Rules.preset("wikipedia", max_deals=2).with_variations(*variations)
        game = Game(rules, players=3, seed=4)
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions()
            action = bot.decide(game.view(seat), legal, rng)
            assert action in legal
            game.apply(action)
