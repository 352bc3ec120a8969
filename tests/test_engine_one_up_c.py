"""One up (V-ONE-UP) and a locked seat's six-card exchange (V-LOCK-6) in the engine's C
accelerator (issue 28, thirty-sixth pass).

Both went to Python on every occurrence: the one-up request and its answer through
``Game._HANDLERS`` (``_on_one_up_request``, ``_on_one_up_choice``), the locked seat's legal
actions through ``Game._legal_of`` (``_exchange_options``) and its discard through
``_on_exchange``. Now ``apply`` and ``legal_actions`` take them in C from a plain stock (the
other card sources still choose their cards in Python). Shown here: those turns call none of
the Python methods (this failed before the pass), and random games that ask for one up and
lock seats with six cards, of every preset with random variations and options, 2-6 seats,
plain, stacked and duplicate sources, are the same step by step as the pure-Python game's
(legal actions, the whole state, the errors of illegal actions, the events and the record).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accelerator_cases import OPTIONS, derandomized, draw_table
from chicago import Action, Game, IllegalAction, Rules, RulesError
from chicago.cards import DECK
from chicago.engine import ActionKind, Phase
from chicago.engine.native import ENGINE
from engine_helpers import PureGame
from test_engine_accelerator import make_game, new_games, state

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")

_K = ActionKind


def one_up_and_six(rules: Rules, lock_at: int) -> Rules:
    """``rules`` with one up (V-ONE-UP) and six cards for a locked seat (V-LOCK-6) at
    ``lock_at`` points, where the rules allow them."""
    for change in ({"one_up": True}, {"lock_six": True, "lock_at": lock_at}):
        with contextlib.suppress(RulesError):
            rules = rules.replace(**change)
    return rules


class Calls:
    """Counts the calls of the Python methods that did these turns before the pass."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        handlers = Game._HANDLERS
        for phase in (Phase.EXCHANGE, Phase.ONE_UP):
            monkeypatch.setitem(handlers, phase, self.spy(handlers[phase]))
        monkeypatch.setattr(Game, "_exchange_options", self.spy(Game._exchange_options))

    def spy(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any) -> Any:
            self.count += 1
            return method(*args)
        return counted


def turns(game: Game, rng: random.Random) -> Iterator[Action]:
    """Plays ``game`` to its end with random actions (one up asked for when it may be),
    yielding each action before it is applied."""
    while not game.is_over:
        legal = game.legal_actions()
        ups = [a for a in legal if a.kind is _K.ONE_UP]
        action = rng.choice(ups) if ups and rng.random() < 0.5 else rng.choice(legal)
        yield action
        game.apply(action)


@pytest.mark.parametrize("preset", ["wikipedia", "wikipedia-42", "pagat"])
def test_one_up_and_the_sixth_card_call_no_python(preset: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """V-ONE-UP's request and answer and V-LOCK-6's six-card turn (its legal actions and its
    discard) are taken without the Python handlers or ``_exchange_options``."""
    rules = one_up_and_six(Rules.preset(preset), lock_at=6).replace(max_deals=6)
    calls = Calls(monkeypatch)
    seen = {"request": 0, "accept": 0, "reject": 0, "sixth": 0}
    for seed in range(12):
        game = Game(rules, 4, seed=seed)
        for action in turns(game, random.Random(seed)):
            seat = game.to_act
            assert seat is not None
            six = game.phase is Phase.EXCHANGE and len(game.hands[seat]) == 6
            if action.kind is _K.ONE_UP:
                seen["request"] += 1
            elif action.kind in (_K.ACCEPT, _K.REJECT):
                seen[action.kind.value] += 1
            elif six:
                seen["sixth"] += 1
                assert len(game.legal_actions()) == 6 and action.kind is _K.DISCARD
            else:
                continue
            before = calls.count
            game.copy().apply(action)  # the legal actions known (listed above)
            fresh = game.copy()
            fresh._legal = None  # and not known: apply checks the action itself
            fresh.apply(action)
            assert calls.count == before, f"{action} went to Python"
    assert min(seen.values()) > 0, seen


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int, str]:
    """Rules of every preset with random variations and options, one up and V-LOCK-6 at a
    low lock (3-12 points) added; seats, seed and a card source."""
    rules, players, seed = draw_table(draw, OPTIONS, max_deals=5)
    rules = one_up_and_six(rules, draw(st.integers(3, 12)))
    source = draw(st.sampled_from(["plain", "plain", "stacked", "duplicate"]))
    return rules, players, seed, source


def illegal(game: Game, rng: random.Random) -> Action:
    """An action not legal now, chosen to be near the turns of this pass."""
    seat = game.to_act
    assert seat is not None
    hand = game.hands[seat]
    legal = game.legal_actions()
    for _ in range(200):
        candidate = rng.choice([
            Action.one_up(rng.choice(hand)), Action.one_up(rng.choice(DECK)),
            Action.discard(rng.sample(hand, min(len(hand), rng.randrange(3)))),
            Action.discard([rng.choice(DECK)]), Action.parse("accept"), Action.parse("reject"),
        ])
        if candidate not in legal:
            return candidate
    raise AssertionError("no illegal action found")


@derandomized(80)
@given(tables())
def test_one_up_and_the_sixth_card_are_the_pure_games(table: tuple[Rules, int, int,
                                                                   str]) -> None:
    """V-ONE-UP and V-LOCK-6 (with R-EX-2's reshuffles, R-EX-4's shown hands and every
    other variation drawn): the accelerated game and the pure-Python one give the same legal
    actions, state, errors, events and record, action for action."""
    fast, pure = new_games(*table)
    rng = random.Random(table[2])
    while not pure.is_over:
        legal = pure.legal_actions()
        if rng.random() < 0.6:  # else apply() checks the action without the list
            assert fast.legal_actions() == legal
        if rng.random() < 0.3:  # a seat's view (its hand's category worked out and kept)
            seat = rng.randrange(pure.players)
            assert fast.view(seat) == pure.view(seat)
        if rng.random() < 0.1:
            bad = illegal(pure, rng)
            with pytest.raises(IllegalAction) as pure_error:
                pure.apply(bad)
            with pytest.raises(IllegalAction) as fast_error:
                fast.apply(bad)
            assert fast_error.value.reason == pure_error.value.reason
            assert state(fast) == state(pure)
        ups = [a for a in legal if a.kind is _K.ONE_UP]
        action = rng.choice(ups) if ups and rng.random() < 0.4 else rng.choice(legal)
        if rng.random() < 0.1:
            action = Action.parse(str(action))  # an equal action, not the listed object
        pure.apply(action)
        fast.apply(action)
        assert state(fast) == state(pure), f"{action} at deal {pure.deal_number}"
        assert fast._categories == pure._categories
        if rng.random() < 0.05:
            fast, pure = fast.copy(), pure.copy()
    assert fast.events == pure.events and fast.record() == pure.record()


def test_a_one_up_request_from_an_almost_empty_stock_reshuffles_alike() -> None:
    """R-EX-2 with V-ONE-UP: a request and a rejection that empty the stock reshuffle the
    pile as the pure-Python game does (the face-up card and the rejected one not in it)."""
    rules = Rules.preset("wikipedia").replace(max_discard=5, max_players=6)
    found = 0
    for seed in range(60):
        fast, pure = (make_game(cls, (rules, 6 if seed % 2 else 5, seed, "plain"))
                      for cls in (Game, PureGame))
        rng = random.Random(seed)
        while not pure.is_over and pure.deal_number == 1:
            legal = pure.legal_actions()
            ups = [a for a in legal if a.kind is _K.ONE_UP]
            if ups and len(pure._stock) <= 1:
                action = rng.choice(ups)
                found += 1
            elif pure.phase is Phase.ONE_UP and len(pure._stock) == 0:
                action = Action.parse("reject")
            else:  # the stock emptied exactly where a discard can
                size = len(pure._stock)
                action = min(legal, key=lambda a: (abs(a[1].bit_count() - size), rng.random()))
            pure.apply(action)
            fast.apply(action)
            assert state(fast) == state(pure), f"{action} (seed {seed})"
    assert found > 0

