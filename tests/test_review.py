"""The graded review (issue 17): values, grades, fairness, determinism, the JSON form.

Levels are kept small (a few samples) so that the suite stays fast; the values the tests
check are exact (draw odds, solved positions) or far from any threshold.
"""

from __future__ import annotations

import dataclasses
import json
import random

import jsonschema
import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.review import (
    Grade,
    Review,
    ReviewFormatError,
    ReviewLevel,
    ReviewSet,
    grade_of,
    json_schema,
    review_game,
    review_seats,
)
from engine_helpers import stack
from review_helpers import one_deal, play_out

FAST = "expert:samples=6,exchange=6,holds=3"

# Seat 0 (left of dealer 3) is dealt a king-high heart flush; the stock's first cards are
# the ace, jack and ten of hearts: throwing 9h 5h 2h draws a royal flush.
FLUSH = "Kh Qh 9h 5h 2h"
ROYAL_STOCK = "Ah Jh Th"


def _flush_record(first_exchange: str) -> dict[str, object]:
    deck = stack(4, 3, {0: FLUSH}, ROYAL_STOCK)
    game = one_deal(4, deck, dealer=3)
    done = []

    def script(g: Game, seat: int) -> str | None:
        if g.view(seat).phase == "exchange" and not done:
            done.append(1)
            return first_exchange
        return None

    return play_out(game, 0, script)


@pytest.fixture(scope="module")
def broken_flush() -> Review:
    return review_game(_flush_record("discard 2h 5h 9h"), 0, level=FAST, hindsight=True)


@pytest.fixture(scope="module")
def kept_flush() -> Review:
    return review_game(_flush_record("keep"), 0, level=FAST, hindsight=True)


def test_throwing_away_a_made_flush_is_a_blunder(broken_flush):
    """R-EX-1, R-HAND-1: breaking a made flush in the first exchange loses far more than
    half a last trick of expected points; keeping it is the best hold."""
    first = broken_flush.decisions[0]
    assert (first.phase, first.round, first.action) == ("exchange", 1, "discard 2h 5h 9h")
    assert first.grade is Grade.BLUNDER
    assert first.best == "keep"
    assert first.loss >= 2.5
    keep = first.alternative("keep")
    assert keep.keep == tuple(sorted(FLUSH.split(), key=lambda c: broken_flush_id(c)))
    assert keep.parts.hand > 4  # a flush wins most scoring events it is in
    assert first.step in broken_flush.summary.biggest


def broken_flush_id(card: str) -> int:
    from chicago.cards import Card

    return int(Card(card))


def test_keeping_the_made_flush_is_graded_best(kept_flush):
    first = kept_flush.decisions[0]
    assert first.action == "keep"
    assert first.grade is Grade.BEST
    assert first.loss == 0
    assert first.best == "keep"


def test_hindsight_differs_and_the_fair_grade_ignores_it(broken_flush):
    """The stock held the royal flush's cards: with all cards known the broken flush was
    the best choice by far, yet the fair grade, on what the seat knew, stays a blunder."""
    first = broken_flush.decisions[0]
    assert first.hindsight_best == "discard 2h 5h 9h"
    assert first.hindsight_loss == 0
    done = first.alternative("discard 2h 5h 9h")
    assert done.hindsight is not None and done.hindsight > 40  # the royal flush's 52
    assert first.grade is Grade.BLUNDER
    without = review_game(_flush_record("discard 2h 5h 9h"), 0, level=FAST)
    strip = [dataclasses.replace(d, hindsight_best=None, hindsight_loss=None,
                                 alternatives=tuple(dataclasses.replace(a, hindsight=None)
                                                    for a in d.alternatives))
             for d in broken_flush.decisions]
    assert tuple(strip) == without.decisions


def _relabel_undrawn(record: dict[str, object], seed: int) -> dict[str, object]:
    """The record with the cards that were never dealt nor drawn in its one deal (the
    bottom of the stacked stock) shuffled: every seat saw the same game."""
    game = Game.replay(record)
    seen = set()
    for event in game.events:
        data = event.to_json()
        for key in ("cards", "drawn", "discarded"):
            if isinstance(data.get(key), list):
                seen.update(data[key])
        if isinstance(data.get("card"), str):
            seen.add(data["card"])
        if data.get("type") == "showdown":
            for cards in data["hands"].values():
                seen.update(cards)
    deck = list(record["decks"][0])  # type: ignore[index]
    dealt = 5 * game.players
    tail = [i for i in range(dealt, 52) if deck[i] not in seen]
    cards = [deck[i] for i in tail]
    random.Random(seed).shuffle(cards)
    for i, card in zip(tail, cards, strict=True):
        deck[i] = card
    return {**record, "decks": [deck]}


def test_relabelling_unseen_cards_leaves_the_fair_review_unchanged():
    """Hidden information never leaks into the grade: the undrawn stock cards shuffled
    give a different record (another hash) with exactly the same fair decisions."""
    record = _flush_record("discard 2h 5h 9h")
    other = _relabel_undrawn(record, 3)
    assert other["decks"] != record["decks"]
    a = review_game(record, 0, level=FAST)
    b = review_game(other, 0, level=FAST)
    assert a.record.hash != b.record.hash
    assert a.decisions == b.decisions
    assert a.summary == b.summary


def test_trick_play_on_a_position_the_solver_decides():
    """R-TRICK-2/3/4: two players; the opponent showed it holds only spades (it threw
    spades on three leads). Leading 2s at trick four loses it to a spade and the ace wins
    the last trick: 5 points for sure; leading the ace wins trick four and leaves 2s to be
    beaten: 0. Every sample agrees, so the loss is exactly 5 and the grade a blunder."""
    deck = stack(2, 1, {0: "As 2s 3c 3d 3h", 1: "9s 7s 6s 5s 4s"})
    plays = iter(["play 3c", "play 3d", "play 3h", "play As"])

    def script(g: Game, seat: int) -> str | None:
        phase = g.view(seat).phase
        if phase == "exchange":
            return "keep"
        if phase == "play":
            return next(plays, None)
        return None

    def rival(g: Game, seat: int) -> str | None:
        return "keep" if g.view(seat).phase == "exchange" else None

    game = one_deal(2, deck, dealer=1)
    player = make_bot("basic")
    rng = random.Random(0)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        choice = (script if seat == 0 else rival)(game, seat)
        game.apply(choice or player.decide(game.view(seat), game.legal_actions(), rng))
    review = review_game(game.record(), 0, level="ev:samples=5")
    trick4 = [d for d in review.decisions if d.phase == "play" and d.round == 4]
    assert len(trick4) == 1
    decision = trick4[0]
    assert decision.action == "play As"
    assert decision.best == "play 2s"
    assert decision.alternative("play 2s").value == 5.0
    assert decision.alternative("play 2s").parts.chance == 1.0
    assert decision.alternative("play As").value == 0.0
    assert decision.loss == 5.0 and decision.grade is Grade.BLUNDER


@pytest.fixture(scope="module")
def small_game() -> dict[str, object]:
    """A whole three-player game of two deals among ev bots."""
    rules = Rules.preset("pagat", max_deals=2)
    game = Game(rules, 3, seed=11)
    bot = make_bot("ev")
    rng = random.Random(2)
    while not game.is_over:
        game.apply(bot.decide(game.view(game.to_act), game.legal_actions(), rng))
    return game.record()


def test_deterministic_for_a_seed(small_game):
    a = review_game(small_game, 1, level=FAST, seed=4)
    b = review_game(small_game, 1, level=FAST, seed=4)
    assert a == b
    assert json.dumps(a.to_json()) == json.dumps(b.to_json())
    assert (a.level, a.seed) == (ReviewLevel.parse(FAST).spec, 4)


def test_jobs_give_the_same_reviews(small_game):
    one = review_seats(small_game, [0, 1, 2], level=FAST, jobs=1)
    two = review_seats(small_game, [0, 1, 2], level=FAST, jobs=2)
    assert one == two


@pytest.mark.parametrize("pieces", [1, 3, 50])
def test_a_review_in_shares_in_any_order_is_the_same_review(small_game, pieces):
    """The shares of plan_review, judged in any order (as the server's processes finish
    them) and assembled, are the review of review_game."""
    from chicago.review import assemble_review, plan_review, review_chunk

    whole = review_game(small_game, 2, level=FAST, hindsight=True)
    chunks = plan_review(small_game, [2], pieces=pieces, hindsight=True)
    assert sum(c.decisions for c in chunks) == len(whole.decisions)
    assert len(chunks) == len({(c.first, c.last) for c in chunks}) >= min(pieces, 2)
    judged = [d for c in reversed(chunks)
              for d in review_chunk(small_game, c, level=FAST, hindsight=True)]
    assert assemble_review(small_game, 2, judged, level=FAST, hindsight=True) == whole
    with pytest.raises(ValueError, match="pieces"):
        plan_review(small_game, [2], pieces=0)
    with pytest.raises(ValueError, match="seat"):
        plan_review(small_game, [7])


def test_every_decision_and_its_summary(small_game):
    review = review_game(small_game, 2, level=FAST)
    game = Game.replay(small_game)
    mine = [i + 1 for i, (seat, _) in enumerate(small_game["actions"]) if seat == 2]
    steps = [d.step for d in review.decisions]
    assert steps == sorted(steps) and set(steps) <= set(mine)
    assert {"exchange", "announce", "play"} <= {d.phase for d in review.decisions}
    for d in review.decisions:
        assert small_game["actions"][d.step - 1] == [2, d.action]
        values = [a.value for a in d.alternatives]
        assert values == sorted(values, reverse=True)
        assert d.alternatives[0].action == d.best
        assert d.loss == round(d.alternatives[0].value - d.alternative(d.action).value, 4)
        assert d.grade is grade_of(d.loss)
        for a in d.alternatives:
            assert a.value == a.parts.total
    s = review.summary
    assert s.decisions == len(review.decisions)
    assert s.loss == round(sum(d.loss for d in review.decisions), 4)
    assert sum(p.decisions for p in s.phases) == s.decisions
    assert [d.deal for d in s.deals] == [1, 2]
    assert [d.points for d in s.deals] == [h.points[2] for h in game.deal_history]
    assert 0 <= s.accuracy <= 100
    costs = [review.decision(step).loss for step in s.biggest]
    assert costs == sorted(costs, reverse=True)
    assert review.record.finished and review.record.hash.startswith("sha256:")


def test_json_round_trip_and_schema(small_game, broken_flush):
    """The stored form: typed, exact round trip, valid against the JSON Schema file."""
    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    reviews = review_seats(small_game, [0, 1], level=FAST)
    for review in [*reviews, broken_flush]:
        data = json.loads(json.dumps(review.to_json()))
        jsonschema.validate(data, schema)
        assert Review.from_json(data) == review
    both = ReviewSet(tuple(reviews)).to_json()
    jsonschema.validate(json.loads(json.dumps(both)), schema)
    assert ReviewSet.from_json(both).reviews == tuple(reviews)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.update(format="chicago-record"), "format"),
        (lambda d: d["decisions"][0].update(grade="great"), "grade"),
        (lambda d: d["decisions"][0].update(loss="1"), "loss"),
        (lambda d: d["summary"].pop("accuracy"), "accuracy"),
        (lambda d: d["record"].update(extra=1), "extra"),
    ],
)
def test_bad_review_data_is_refused_by_name(kept_flush, change, message):
    data = json.loads(json.dumps(kept_flush.to_json()))
    change(data)
    with pytest.raises(ReviewFormatError, match=message):
        Review.from_json(data)


def test_bad_arguments_are_refused(small_game):
    with pytest.raises(ValueError, match="seat must be 0-2"):
        review_game(small_game, 3, level=FAST)
    with pytest.raises(ValueError, match="unknown review level"):
        review_game(small_game, 0, level="grandmaster")
    with pytest.raises(ValueError, match="samples"):
        ReviewLevel.parse("expert:samples=0")
    unfinished = {**small_game, "actions": small_game["actions"][:30], "result": None}
    with pytest.raises(ValueError, match="finished game"):
        review_game(unfinished, 0, level=FAST, hindsight=True)
    partial = review_game(unfinished, 0, level=FAST)
    assert not partial.record.finished and partial.decisions


def test_fair_modules_never_touch_the_game():
    """Only the walk, the identity and the values with all cards known may import the
    engine's Game; everything that judges reads the seat's view (like the bots)."""
    import ast
    import pathlib

    import chicago.review as package

    allowed = {"walk.py", "identity.py", "hindsight.py", "core.py"}
    folder = pathlib.Path(package.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {
            alias.name
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        modules = {
            node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        }
        if path.name not in allowed:
            assert "Game" not in names, path.name
            assert "chicago.engine.game" not in modules, path.name
            assert "chicago.review.hindsight" not in modules, path.name


def test_what_counts_in_the_accuracy():
    """docs/REVIEW.md: real choices and every decision that lost points; not forced,
    indifferent or obvious ones answered right."""
    from chicago.review.grades import accuracy, counts_for_accuracy

    assert counts_for_accuracy([2.0, 1.5], 0.0)  # a real choice, answered right
    assert counts_for_accuracy([2.0, 1.5], 0.5)
    assert not counts_for_accuracy([2.0, -15.0], 0.0)  # declining a hopeless Chicago
    assert counts_for_accuracy([2.0, -15.0], 17.0)  # declaring it
    assert not counts_for_accuracy([1.25, 1.25, 1.25], 0.0)  # equal cards
    assert accuracy([]) == 100.0 and accuracy([0.0]) == 100.0
    assert round(accuracy([0.5]), 1) == 71.7 and round(accuracy([3.0]), 1) == 13.5


def _consistent(review: Review) -> None:
    """What every review must satisfy, whatever the phase."""
    schema = json_schema()
    data = json.loads(json.dumps(review.to_json()))
    jsonschema.validate(data, schema)
    assert Review.from_json(data) == review
    for d in review.decisions:
        values = [a.value for a in d.alternatives]
        assert values == sorted(values, reverse=True) and len(values) >= 2
        assert d.best == d.alternatives[0].action
        assert d.grade is grade_of(d.loss)
        assert any(a.action == d.action for a in d.alternatives)


def _played(preset: str, variations: tuple[str, ...], players: int, seed: int,
            deals: int, wild: float) -> dict[str, object]:
    """A game of basic bots that now and then (``wild``) take any kind of legal action,
    to reach one-up requests, redeals and odd calls."""
    rules = Rules.preset(preset, max_deals=deals).with_variations(*variations)
    game = Game(rules, players, seed=seed)
    bot = make_bot("basic")
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        if rng.random() < wild:
            kind = rng.choice(sorted({a.kind.name for a in legal}))
            game.apply(rng.choice([a for a in legal if a.kind.name == kind]))
        else:
            game.apply(bot.decide(game.view(game.to_act), legal, rng))
    return game.record()


def test_every_phase_of_the_variations_is_reviewed():
    """V-ONE-UP (the request and the answer), V-REDEAL-LOW, V-LOCK-6 (six cards, one to
    throw), a declared Chicago (declarer and defenders), V-CHI-REQ3, V-DEUCE."""
    games = [
        _played("wikipedia", ("V-ONE-UP", "V-REDEAL-LOW", "V-QUADS-RESET", "V-DEUCE"), 3, 2,
                3, 0.3),
        _played("wikipedia-42", (), 4, 3, 3, 0.3),
        _played("pagat", ("V-CHI-REQ3",), 3, 1, 3, 0.3),
        _played("wikipedia-42", ("V-QUADS-RESET",), 3, 0, 12, 0.0),
    ]
    seen = set()
    for index, record in enumerate(games):
        players = int(record["players"])  # type: ignore[call-overload]
        for review in review_seats(record, list(range(players)), level="ev:samples=2",
                                   hindsight=index < 3):
            _consistent(review)
            for d in review.decisions:
                seen.add((d.phase, d.action.split()[0], len(d.hand)))
    kinds = {(phase, head) for phase, head, _ in seen}
    assert {("exchange", "one"), ("one up", "accept"), ("one up", "reject"),
            ("redeal", "redeal"), ("chicago", "chicago"), ("play", "play")} <= kinds, kinds
    assert ("exchange", "discard", 6) in seen  # V-LOCK-6


def test_four_of_a_kind_reset_or_score():
    """V-QUADS-RESET: the scoring round's winner with four kings chooses; at scores of 0
    a reset is worth nothing and scoring the 7 is best."""
    deck = stack(3, 2, {0: "Kc Kd Kh Ks 2d"})
    game = one_deal(3, deck, dealer=2, quads_reset=True)
    record = play_out(game, 0, lambda g, s: "score" if g.view(s).phase == "quads choice"
                      else ("keep" if g.view(s).phase == "exchange" else None))
    review = review_game(record, 0, level="ev:samples=2")
    _consistent(review)
    choice = [d for d in review.decisions if d.phase == "quads choice"]
    assert choice and choice[0].action == "score" and choice[0].grade is Grade.BEST
    assert choice[0].alternative("reset").value == 0.0
    assert choice[0].alternative("score").parts.hand >= 7


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_counts_every_decision(small_game, jobs):
    calls: list[tuple[int, int]] = []
    reviews = review_seats(small_game, [0, 2], level=FAST, jobs=jobs,
                           progress=lambda done, total: calls.append((done, total)))
    total = sum(r.summary.decisions for r in reviews)
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_the_fair_review_never_reads_the_game(small_game, monkeypatch):
    """At every decision the real game is swapped for a copy in which every card the seat
    cannot see (the other hands, the stock, the discards) is relabelled (the bots'
    isolation check, tests/test_bots_isolation.py); the seat's view is the same, and so
    must be every fair value and grade."""
    import chicago.review.core as core
    from chicago.review.walk import DecisionPoint, decision_points
    from test_bots_isolation import _relabelled

    expected = review_game(small_game, 0, level=FAST)
    rng = random.Random(9)
    changed = 0

    def swapped(record, seat, deals=None):
        nonlocal changed
        for point in decision_points(record, seat, deals):
            other = _relabelled(point.game, seat, rng)
            assert other.view(seat) == point.view
            changed += [other.view(s).hand for s in range(other.players)] != [
                point.game.view(s).hand for s in range(other.players)]
            yield DecisionPoint(point.step, point.deal, point.view, point.legal,
                                point.action, other)

    monkeypatch.setattr(core, "decision_points", swapped)
    assert review_game(small_game, 0, level=FAST) == expected
    assert changed > len(expected.decisions) // 2  # late in a deal few cards are hidden


def test_a_sure_chicago_not_declared_is_a_blunder():
    """R-CHI-1/3: four aces and the king of spades on lead win every trick whatever the
    others hold: the Chicago is sure on every sampled deal (chance 1), worth its 15 points
    instead of the last trick's 5, so not declaring loses exactly 10."""
    deck = stack(4, 3, {0: "As Ks Ah Ad Ac"})
    game = one_deal(4, deck, dealer=3, chicago_min_score=None)

    def script(g: Game, seat: int) -> str | None:
        phase = g.view(seat).phase
        return {"exchange": "keep", "chicago": "no chicago"}.get(phase)

    review = review_game(play_out(game, 0, script), 0, level="ev:samples=6")
    call = [d for d in review.decisions if d.phase == "chicago"]
    assert len(call) == 1
    decision = call[0]
    assert decision.action == "no chicago" and decision.best == "chicago"
    assert decision.alternative("chicago").parts.chance == 1.0
    assert decision.alternative("chicago").parts.chicago == 15.0
    assert decision.alternative("no chicago").parts.trick == 5.0
    assert decision.loss == 10.0 and decision.grade is Grade.BLUNDER
