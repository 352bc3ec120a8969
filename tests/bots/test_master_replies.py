"""``master:exploit=1;replies=N``: the best reply to players of the rules of thumb searched
on ``N`` worlds resampled from the same dealt pool (with ``chain``, moved by the trades, so
distinct ones; issue 30). The option is checked; ``replies`` equal to ``samples`` decides
exactly as without it; the search yields ``N`` worlds; a seed fixes every choice and the
choice is a function of the view; against experts, or a table with one expert, every
choice is ``master``'s. Also the pool's cap as a parameter of ``_positions``: the play of a
declared Chicago with ``rulescap`` passes its cap and leaves the bot's ``cap`` alone."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_master_exploit import decided_from_the_view, trick_decisions

from chicago.bots import make_bot
from chicago.bots.master import DEFAULT_REPLIES, MasterBot
from chicago.bots.solver import Position
from chicago.cards import Card
from chicago.engine.knowledge import Knowledge, knowledge


def test_replies_options_are_checked() -> None:
    bot = make_bot("master:exploit=1;chain=20;replies=120")
    assert isinstance(bot, MasterBot) and bot.replies == 120
    default = make_bot("master")
    assert isinstance(default, MasterBot) and default.replies == DEFAULT_REPLIES == 0
    for bad in ("replies=-1", "replies=10001", "replies=12.5", "replies=x"):
        with pytest.raises(ValueError, match="replies"):
            make_bot(f"master:exploit=1;{bad}")
    with pytest.raises(ValueError, match="exploit=1"):
        make_bot("master:replies=80")
    with pytest.raises(ValueError, match="replies"):
        MasterBot(exploit=True, replies=-3)


def test_replies_equal_to_samples_decide_as_without() -> None:
    """``replies=10`` with ``samples=10`` resamples the same worlds with the same random
    numbers as the default, so every trick card is the same (the best reply applies at some
    of them: the option's plumbing leaves the search as it was)."""
    plain = make_bot("master:exploit=1;chain=5;samples=10;pool=3")
    same = make_bot("master:exploit=1;chain=5;samples=10;pool=3;replies=10")
    assert isinstance(plain, MasterBot) and isinstance(same, MasterBot)
    applied = 0
    for game, index in trick_decisions(4, 8, "master:samples=10;pool=3"):
        view, legal = game.view(0), game.legal_actions()
        card = plain.decide(view, legal, random.Random(index))
        applied += plain._exploiting(knowledge(view))
        assert same.decide(view, legal, random.Random(index)) == card
    assert applied > 5


def test_the_search_yields_replies_worlds() -> None:
    """With ``count`` the trick search's worlds are ``count`` many, before any play is seen
    (dealt) and after (resampled from the pool); without it ``samples``."""
    bot = make_bot("master:exploit=1;chain=5;samples=10;pool=3;replies=25")
    assert isinstance(bot, MasterBot)
    sizes: set[tuple[int, int]] = set()
    for game, index in trick_decisions(4, 3, "master:samples=10;pool=3"):
        k = knowledge(game.view(0))
        many = list(bot._positions(k, random.Random(index), None, count=25))
        few = list(bot._positions(k, random.Random(index), None))
        sizes.add((len(many), len(few)))
        assert all(len(p.hands) == 4 for p in many)
    assert sizes == {(25, 10)}


def test_a_seed_fixes_every_choice_and_the_view_alone_decides() -> None:
    """At every trick decision of seat 0 against three ``basic``: the same seed gives the
    same card, and so does a copy of the game whose hidden cards are dealt anew (the same
    view); with 30 replies some card differs from 10's."""
    spec = "master:exploit=1;chain=5;samples=10;pool=3;replies=30"
    bot = make_bot(spec)
    fewer = make_bot("master:exploit=1;chain=5;samples=10;pool=3")
    assert isinstance(bot, MasterBot)
    shuffle = random.Random(7)
    counts = {"decisions": 0, "changed": 0}
    for game, index in trick_decisions(4, 9, spec):
        view, legal = game.view(0), game.legal_actions()
        card = decided_from_the_view(bot, game, 0, index, shuffle)
        counts["changed"] += fewer.decide(view, legal, random.Random(index)) != card
        counts["decisions"] += 1
    assert counts["decisions"] > 20
    assert counts["changed"] >= 1, counts


# Against experts the best reply never applies, with or without ``replies``:
# tests/bots/test_master_exploit.py, test_against_experts_it_never_applies.


def test_a_declared_chicagos_play_passes_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rulescall=1;rulescap=20``: the play of the bot's own Chicago asks the search for
    ``cap=20`` and leaves the bot's ``cap`` as it was (it is no longer set for the search);
    without ``rulescap`` the search is asked as every trick decision's."""
    asked: list[dict[str, int | None]] = []

    def positions(self: MasterBot, k: Knowledge, rng: random.Random, declarer: int | None,
                  cap: int | None = None, count: int | None = None) -> Iterator[Position]:
        asked.append({"cap": cap, "count": count, "own": self.cap})
        return iter(())

    monkeypatch.setattr(MasterBot, "_positions", positions)
    monkeypatch.setattr(MasterBot, "_card_scores",
                        lambda self, k, cards, ps: dict.fromkeys(cards, 0.0))
    monkeypatch.setattr("chicago.bots.master.ev_play", lambda k, cards: cards[0])
    for spec, cap in (("master:rulescall=1;rulescap=20", 20), ("master:rulescall=1", None)):
        bot = make_bot(spec)
        assert isinstance(bot, MasterBot)
        k = type("K", (), {"seat": 0})()
        action = bot._rules_chicago_play(k, [Card(0), Card(5)], random.Random(0))
        assert action.card == Card(0)
        assert asked[-1] == {"cap": cap, "count": None, "own": 0}
        assert bot.cap == 0
