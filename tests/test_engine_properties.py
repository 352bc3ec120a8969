"""Rules engine: property tests over many random games (Hypothesis, derandomized).

Random presets, player counts 2-6 (V-LARGE when more than 4), random variation sets and
seeds; a random legal-action player that declines Chicago most of the time; ``max_deals``
keeps the games short. Checked at every action: the 52 cards are all accounted for
(``Game._check_invariants``, R-TABLE-2), scores stay at 0 or above unless V-NEG (R-CHI-5),
every legal action is legal, random illegal actions raise and change nothing, and no view
holds a card its seat has not seen (R-EX-3, R-ANN-5). At the end: the game ended,
``Game.replay(record())`` reaches the identical state, and the text notation round-trips.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chicago import Action, Category, Game, HandValue, IllegalAction, Rules, RulesError, evaluate
from chicago.cards import DECK
from chicago.record import read_text, write_text
from chicago.rules import PRESETS, VARIATIONS
from engine_helpers import card_strings, play_random, random_action, seen_cards, snapshot

PROPERTY_SETTINGS = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI never flakes
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, random.Random]:
    """A fresh game under a random rule set, and the rng of its random player."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    variations = draw(st.lists(st.sampled_from(sorted(VARIATIONS)), max_size=4, unique=True))
    players = draw(st.integers(2, 6))
    if players > 4 and "V-LARGE" not in variations:
        variations.append("V-LARGE")
    try:
        rules = Rules.preset(preset).with_variations(*variations)
        rules = rules.replace(max_deals=draw(st.integers(1, 3)))
    except RulesError:
        assume(False)
        raise
    seed = draw(st.integers(10**9, 10**12))  # long seeds: a leak would show in the JSON
    return Game(rules, players, seed=seed), random.Random(seed)


ALL_TEXTS = (
    ["keep", "accept", "reject", "redeal", "pass", "chicago", "no chicago", "reset", "score"]
    + [f"announce {c}" for c in ("pair", "two pair", "three of a kind", "straight", "flush",
                                 "full house", "four of a kind", "straight flush",
                                 "royal flush")]
)


def random_illegal(g: Game, rng: random.Random) -> Action:
    """A random action that is not legal now."""
    legal = set(g.legal_actions())
    for _ in range(100):
        kind = rng.randrange(4)
        if kind == 0:
            action = Action.parse(rng.choice(ALL_TEXTS))
        elif kind == 1:
            action = Action.play(rng.choice(DECK))
        elif kind == 2:
            action = Action.one_up(rng.choice(DECK))
        else:
            action = Action.discard(rng.sample(DECK, rng.randrange(1, 6)))
        if action not in legal:
            return action
    raise AssertionError("no illegal action found")


def check_view(g: Game, seat: int | None) -> None:
    """No card in the view that the seat has not seen; no seed, no stock order."""
    view = g.view(seat)
    text = json.dumps(view)
    assert str(g.seed) not in text
    assert "seed" not in _keys(view)
    assert isinstance(view["stock"], int)
    seen = seen_cards(view["events"], seat)
    if seat is not None:
        seen |= set(view["hand"])  # the hand is made of dealt and drawn cards
    leaked = card_strings(view) - seen
    assert not leaked, f"seat {seat} sees {sorted(leaked)} it has not seen"
    if seat is not None:
        mine = set(view["hand"]) | set(view["discarded"])
        assert mine <= seen_cards(view["events"], seat) | mine
        assert set(view["hand"]) == {str(c) for c in g.hands[seat]}
    else:
        assert view["hand"] == [] and view["discarded"] == []


def check_log(g: Game, seat: int | None) -> None:
    """Every card in the seat's event log was seen by it by then, deal by deal."""
    seen: set[str] = set()
    for event in g.events_for(seat):
        if event["type"] == "deal":
            seen = set()
        seen |= seen_cards([event], seat)
        leaked = card_strings(event) - seen
        assert not leaked, f"seat {seat} is told {sorted(leaked)} in {event}"


def _keys(obj: Any) -> set[str]:
    keys: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys.update(map(str, item))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return keys


def same_game(a: Game, b: Game) -> None:
    assert a.record() == b.record()
    assert a.scores == b.scores and a.winners == b.winners and a.is_over == b.is_over
    assert [(e.data, e.audience) for e in a.events] == [(e.data, e.audience) for e in b.events]


@PROPERTY_SETTINGS
@given(games())
def test_random_games_invariants_and_views(case: tuple[Game, random.Random]) -> None:
    """R-TABLE-2, R-CHI-5, R-EX-3, R-ANN-5: cards accounted for, floors kept, nothing leaks."""
    g, rng = case
    steps = 0
    values: dict[int, HandValue] = {}  # hands of the current scoring round
    while not g.is_over:
        g._check_invariants()
        legal = g.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        for seat in [None, *range(g.players)]:
            check_view(g, seat)
        if steps % 10 == 0:  # every legal action applies (on copies)
            for legal_action in legal:
                branch = g.copy()
                branch.apply(legal_action)
                branch._check_invariants()
        if steps % 7 == 0:
            bad = random_illegal(g, rng)
            before = snapshot(g)
            with pytest.raises(IllegalAction):
                g.apply(bad)
            assert snapshot(g) == before
            assert not g.is_legal(bad)
        if g.phase.value == "play":  # R-TRICK-2, computed independently
            hand = g.hands[g.to_act]  # type: ignore[index]
            led = [c for c in hand if g.trick and c.suit == g.trick[0][1].suit]
            assert sorted(a.card for a in legal) == sorted(led or hand)
        if g.phase.value == "announce":
            check_announce_options(g, legal, values)
        action = random_action(g, rng)
        assert g.is_legal(action) and g.is_legal(str(action))
        seen_events = len(g.events)
        g.apply(action)
        check_round_results(g, seen_events, values)
        steps += 1
        assert steps < 5000, "the game does not end"
    g._check_invariants()
    assert g.winners and g.to_act is None and g.legal_actions() == []
    if not g.rules.negative_scores:
        assert min(g.scores) >= 0
    assert abs(sum(g.settlement())) < 1e-6
    for seat in [None, *range(g.players)]:
        check_view(g, seat)
        check_log(g, seat)
    check_tricks_and_points(g)


def check_announce_options(g: Game, legal: list[Action], values: dict[int, HandValue]) -> None:
    """R-ANN-1/2: pass, plus the hand's exact category if it is at least the highest so far."""
    seat = g.to_act
    assert seat is not None
    value = evaluate(g.hands[seat], g.rules)
    values[seat] = value
    round_events = [e.data for e in g.deal_events if e.data.get("round") == g.round + 1]
    announced = [Category[e["category"]] for e in round_events if e["type"] == "announce"]
    expected = ["pass"]
    if value.category is not Category.HIGH_CARD and all(value.category >= c for c in announced):
        expected.append(f"announce {value.category.text}")
    assert [str(a) for a in legal] == expected


def check_round_results(g: Game, start: int, values: dict[int, HandValue]) -> None:
    """R-ANN-3/4/6, V-TIE-CATEGORY, V-TIE-SUIT: a round's result, computed independently."""
    for index in range(start, len(g.events)):
        result = g.events[index].data
        if result["type"] != "round_result":
            continue
        deal_start = max(i for i in range(index) if g.events[i].data["type"] == "deal")
        claims = [e.data for e in g.events[deal_start:index] if e.data["type"] == "announce"
                  and e.data["round"] == result["round"]]
        if not claims:
            assert result["winner"] is None
        else:
            top = max(Category[c["category"]] for c in claims)
            tied = [c["seat"] for c in claims if Category[c["category"]] == top]
            best = max(values[s] for s in tied)
            leaders = [s for s in tied if values[s] == best]
            if g.rules.tie_mode == "category":
                leaders = tied
            assert result["winner"] == (leaders[0] if len(leaders) == 1 else None), (
                result, claims)
        values.clear()


def check_tricks_and_points(g: Game) -> None:
    """R-TRICK-3: each trick goes to the highest card of the suit led. R-FIN-1: the showdown's
    best hand wins. R-FIN-2: the score events of each deal lead from the scores at its start
    to the scores at its end."""
    order = "23456789TJQKA"
    plays: list[tuple[int, str]] = []
    totals: list[int] = []
    for event in g.events_for(None):
        kind = event["type"]
        if kind == "deal":
            totals = list(event["scores"])
            plays = []
        elif kind == "play":
            plays.append((event["seat"], event["card"]))
        elif kind == "trick":
            led = plays[0][1][1]
            best = max((p for p in plays if p[1][1] == led), key=lambda p: order.index(p[1][0]))
            assert (event["winner"], event["card"]) == best, (event, plays)
            plays = []
        elif kind == "score":
            totals[event["seat"]] = event["total"]
        elif kind == "showdown":  # R-FIN-1, computed independently
            values = {int(s): evaluate(cards, g.rules) for s, cards in event["hands"].items()}
            best = max(values.values())
            if g.rules.tie_mode == "category":
                leaders = [s for s, v in values.items() if v.category == best.category]
            else:
                leaders = [s for s, v in values.items() if v == best]
            assert event["winner"] == (leaders[0] if len(leaders) == 1 else None), event
            assert event["category"] == best.category.name
        elif kind == "deal_end":
            assert event["scores"] == totals, (event, totals)


@PROPERTY_SETTINGS
@given(games())
def test_random_games_replay_and_text(case: tuple[Game, random.Random]) -> None:
    """Records: replay(record()) is identical; the text notation round-trips; copy() too."""
    g, rng = case
    half: Game | None = None
    while not g.is_over:
        g.apply(random_action(g, rng))
        if half is None and len(g.actions) == 40:
            half = g.copy()
    same_game(Game.replay(g.record()), g)
    same_game(Game.replay(json.loads(json.dumps(g.record()))), g)
    parsed = read_text(write_text(g.record()))
    assert parsed.ok, parsed.errors
    same_game(Game.replay(parsed.record), g)
    if half is not None:  # a copy taken mid-game plays on to the same end
        for _, action in g.actions[40:]:
            half.apply(action)
        same_game(half, g)


def test_thousands_of_games_end_with_cards_accounted_for() -> None:
    """R-END-1 / R-TABLE-2: 1,000 short random games of every preset end; cards are whole."""
    rng = random.Random(2024)
    presets = sorted(PRESETS)
    variations = sorted(VARIATIONS)
    played = 0
    while played < 1000:
        extra = rng.sample(variations, rng.randrange(3))
        players = rng.randrange(2, 7)
        if players > 4:
            extra.append("V-LARGE")
        try:
            rules = Rules.preset(rng.choice(presets)).with_variations(*extra)
        except RulesError:
            continue
        g = Game(rules.replace(max_deals=2), players, seed=rng.randrange(10**6))
        while not g.is_over:
            g.apply(random_action(g, rng))
            if rng.random() < 0.05:
                g._check_invariants()
        g._check_invariants()
        assert g.winners
        if not rules.negative_scores:
            assert min(g.scores) >= 0
        if played % 50 == 0:
            same_game(Game.replay(g.record()), g)
        played += 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_whole_games_without_max_deals(preset: str) -> None:
    """R-END-1: whole games to the target end, for every preset (random players)."""
    for seed in range(3):
        g = play_random(Game(Rules.preset(preset), 4, seed=seed), random.Random(seed))
        assert g.is_over and g.winners
        assert max(g.scores) >= g.rules.target or g._instant_winner is not None or (
            g.rules.chicago_required != "none"
        )
