"""``master:rulescall=1``: the Chicago call, and the play of the bot's own declared Chicago,
against opponents the view shows to be players of the rules of thumb (issue 30; R-CHI-1,
R-CHI-4). The rules defence the search assumes is ``basic``'s card; it makes every Chicago
the solver calls sure and more; a strong hand that is seldom sure against any defence is
declared against a rules table and not by ``master``; the options are checked; a seed fixes
every choice and the choice is a function of the view; against experts, or a table with
one expert, every choice is ``master``'s."""

from __future__ import annotations

import random

import pytest
from test_master_exploit import _game, decided_from_the_view

from chicago import Game
from chicago.bots import make_bot
from chicago.bots.heuristics import rules_card
from chicago.bots.master import DEFAULT_RULES_BAR, MasterBot
from chicago.bots.rulesdefence import rules_chicago_made, rules_chicago_moves
from chicago.bots.solver import Position, can_make_chicago
from chicago.cards import Card, ids_of_mask
from chicago.engine.actions import ActionKind
from chicago.engine.knowledge import knowledge
from engine_helpers import game as stacked_game

_RULES = (1.0, 0.0, 0.0)


def _trusting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``master`` sees its three opponents as rules players (as if earlier deals had
    shown them), whatever its view's history."""
    monkeypatch.setattr("chicago.bots.master.history_kinds",
                        lambda *a, **kw: {1: _RULES, 2: _RULES, 3: _RULES})


def _deal(rng: random.Random, players: int, cards: int) -> Position:
    deck = list(range(52))
    rng.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[s * cards:(s + 1) * cards]) for s in range(players))
    return Position(hands, rng.randrange(players), (), 0)


def _play_out(position: Position) -> bool:
    """Seat 0 plays a card :func:`rules_chicago_moves` says makes the Chicago, the others
    their ``basic`` card (:func:`rules_card`): whether seat 0 takes every trick."""
    while not position.is_over:
        seat = position.to_act
        if seat == 0:
            moves = rules_chicago_moves(position)
            card = next((c for c, ok in sorted(moves.items()) if ok), min(moves))
        else:
            hand = [Card(c) for c in ids_of_mask(position.hands[seat])]
            card = rules_card(hand, list(position.played), position.legal_moves())
        position = position.play(card)
        if not position.played and position.leader != 0:
            return False  # a defender took the trick just completed
    return True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rules_defence_makes_every_sure_chicago_and_plays_out_as_said_R_CHI_4(
    players: int,
) -> None:
    """On random deals of 3 to 5 cards: a Chicago sure against any defence is made against
    the rules defence; one the search says is made is made when played out card by card
    against ``basic``'s cards, and one it says is not is not."""
    rng = random.Random(players)
    more = 0
    for _ in range(150):
        position = _deal(rng, players, rng.choice((3, 4, 5)))
        made = rules_chicago_made(position)
        if can_make_chicago(position):
            assert made
        elif made:
            more += 1
        if position.to_act == 0:
            moves = rules_chicago_moves(position)
            assert any(moves.values()) == made
        assert _play_out(position) == made
    assert more > 0


def test_the_search_needs_a_declarer() -> None:
    position = Position.from_text(["Ah 3c", "Kh 2c"], leader=0)
    with pytest.raises(ValueError, match="declarer"):
        rules_chicago_made(position)
    with pytest.raises(ValueError, match="to act"):
        rules_chicago_moves(position, 1)


def test_rulescall_options_are_checked() -> None:
    bot = make_bot("master:rulescall=1;rulesbar=0.7;trust=0.9")
    assert isinstance(bot, MasterBot) and bot.rulescall and bot.rulesbar == 0.7
    default = make_bot("master")
    assert isinstance(default, MasterBot) and not default.rulescall
    assert default.rulesbar == DEFAULT_RULES_BAR
    for bad in ("rulescall=2", "rulescall=0.5", "rulescall=-1", "rulesbar=0",
                "rulesbar=1.5", "rulesbar=nan"):
        with pytest.raises(ValueError, match=bad.split("=")[0]):
            make_bot(f"master:{bad}")
    with pytest.raises(ValueError, match="infer=3"):
        make_bot("master:rulescall=1;infer=2")
    with pytest.raises(ValueError, match="rulesbar"):
        MasterBot(rulescall=True, rulesbar=0.0)
    assert make_bot("master:rulescall=1;rulescap=20").rulescap == 20  # type: ignore[attr-defined]
    for bad in ("rulescap=5", "rulescap=101", "rulescap=12.5"):
        with pytest.raises(ValueError, match="rulescap"):
            make_bot(f"master:{bad}")


_STRONG = "Ad Kd Ah Kh As"


def _call_game() -> Game:
    """A pagat deal (dealer 2: seat 3 leads) at seat 0's Chicago call, seat 0 holding
    :data:`_STRONG`, every seat with the 15 points a call needs (R-CHI-2)."""
    others = ["2c 3c 9d Tc 5h", "4c 7d 8s 2s Jc", "6d 3h 4h 5s Td"]
    game = stacked_game("pagat", hands=[_STRONG, *others], dealer=2, scores=[20, 20, 20, 20])
    while not (str(game.phase) == "chicago" and game.to_act == 0):
        legal = game.legal_actions()
        game.apply(next(a for a in legal if str(a) in ("keep", "pass", "no chicago")))
    return game


def test_a_strong_hand_is_declared_against_a_rules_table_R_CHI_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three aces, two kings: a Chicago seldom sure against any defence (seat 3 leads), so
    ``master`` keeps the last trick; against three rules players ``rulescall=1`` finds it
    made in most worlds and declares. Without the rules table it calls as ``master``."""
    game = _call_game()
    view, legal = game.view(0), game.legal_actions()
    plain = make_bot("master")
    bot = make_bot("master:rulescall=1")
    assert isinstance(plain, MasterBot) and isinstance(bot, MasterBot)
    assert plain.decide(view, legal, random.Random(1)).kind is ActionKind.NO_CHICAGO
    assert bot.decide(view, legal, random.Random(1)).kind is ActionKind.NO_CHICAGO
    assert bot.note is None  # no earlier deal: no opponent known, today's call
    _trusting(monkeypatch)
    sure, _ = plain._chicago_shares(knowledge(view), random.Random(1))
    assert bot.decide(view, legal, random.Random(1)).kind is ActionKind.CHICAGO
    assert bot.note is not None and bot.note >= DEFAULT_RULES_BAR > sure


def test_the_declared_chicago_is_made_against_basic_R_CHI_4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 0 declares with :data:`_STRONG` and plays its Chicago by the rules defence on its
    worlds; the three ``basic`` defenders do not break it."""
    _trusting(monkeypatch)
    game = _call_game()
    game.apply(next(a for a in game.legal_actions() if a.kind is ActionKind.CHICAGO))
    bot = make_bot("master:rulescall=1")
    basic = make_bot("basic")
    deal = game.deal_number
    while game.deal_number == deal and not game.is_over:
        seat = game.to_act
        assert seat is not None
        player = bot if seat == 0 else basic
        game.apply(player.decide(game.view(seat), game.legal_actions(), random.Random(2)))
    record = game.view(0).history[-1]
    assert record.chicago == 0
    assert [t.winner for t in record.tricks] == [0] * 5


def test_a_seed_fixes_every_call_and_the_view_alone_decides() -> None:
    """At every Chicago call of seat 0 against three ``basic`` after the first deals: the
    rules table applies (the history shows three rules players); the same seed gives the
    same call, and so does a copy of the game whose hidden cards are dealt anew (the same
    view)."""
    spec = "master:rulescall=1;samples=10;pool=2"
    bot = make_bot(spec)
    assert isinstance(bot, MasterBot)
    shuffle = random.Random(3)
    counts = {"calls": 0, "applied": 0}

    def compare(game: Game, seat: int) -> None:
        legal = game.legal_actions()
        if str(game.phase) != "chicago" or len(legal) < 2:
            return
        decided_from_the_view(bot, game, seat, counts["calls"], shuffle)
        counts["applied"] += bot.note is not None  # of the last of the three, the same view
        counts["calls"] += 1

    _game(4, 16, [bot, *(make_bot("basic") for _ in range(3))], compare)
    assert counts["calls"] >= 3 and counts["applied"] >= 2, counts


@pytest.mark.parametrize("others", [("expert", "expert", "expert"),
                                    ("basic", "expert:samples=8", "basic")])
def test_against_experts_every_choice_is_masters(others: tuple[str, str, str]) -> None:
    """Against three experts, or a table with one expert among ``basic`` players, no
    opponent set is all rules players, so every choice of ``rulescall=1`` — calls and trick
    play — is ``master``'s, seed for seed."""
    bot = make_bot("master:rulescall=1;samples=8;pool=2")
    plain = make_bot("master:samples=8;pool=2")
    assert isinstance(bot, MasterBot)
    bots = [bot, *(make_bot(spec if spec != "expert" else "expert:samples=8")
                   for spec in others)]
    checked = {"all": 0, "calls": 0}

    def compare(game: Game, seat: int) -> None:
        view, legal = game.view(seat), game.legal_actions()
        index = checked["all"]
        here = bot.decide(view, legal, random.Random(index))
        assert plain.decide(view, legal, random.Random(index)) == here
        checked["all"] += 1
        checked["calls"] += str(game.phase) == "chicago" and len(legal) > 1

    _game(5, 14, bots, compare)
    assert checked["all"] > 30 and checked["calls"] >= 2, checked
