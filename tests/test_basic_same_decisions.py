"""The ``basic`` bot decides as it did before issue 28's thirty-third pass made two of its
steps cheaper: the exact discard of an exchange found by a C scan of the legal actions
(``list.index`` of the plain discard's tuple) rather than a Python loop over them, and a
play's card read from its mask rather than through ``Action.card``; and before the
thirty-fifth pass took its exchanges, announcements and plays from the seat's view alone,
without the :func:`~chicago.engine.knowledge.knowledge` of it.

The reference below is the bot's code as it was (its exchange rule's loop, its
``common_decision`` and its steps, verbatim, all from the knowledge); the bot is asked at
every turn with a choice of random games of every preset, random variations (V-LOCK-6's
six-card exchange, V-ONE-UP, V-REDEAL-LOW …) and 2-6 seats, from the seat's own view (what a
person in that seat is shown), and must give the same action for every view and seed
(R-EX-1, R-EX-2: which discards are legal; R-PLAY-1: which cards may be played). The games
go on with the bot's action mostly and a random one sometimes, so that hands the bot would
not keep are met too.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chicago import Game
from chicago.bots import basic as basic_module
from chicago.bots.basic import BasicBot, reset_is_better
from chicago.bots.heuristics import (
    basic_keep,
    basic_play,
    best_five,
    chicago_is_due,
    top_sequence_chicago,
    would_reset,
)
from chicago.cards import DECK, Card
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge, knowledge, view_dead, view_leader
from chicago.engine.viewtypes import SeatView
from chicago.poker import Category, evaluate
from chicago.rules import PRESETS
from test_engine_properties import Case, cases

_K = ActionKind


def _reference_discard(legal: Sequence[Action], hand: Sequence[Card],
                       keep: Sequence[Card]) -> Action:
    """``basic._discard_action`` as it was: one Python loop over the legal actions."""
    throw = 0
    for card in hand:
        if card not in keep:
            throw |= 1 << card
    best: Action | None = None
    best_count = -1
    discard = _K.DISCARD
    for action in legal:
        if action[0] is not discard:
            continue
        cards = action[1]
        if cards == throw:
            return action
        if not cards & ~throw:
            count = cards.bit_count()
            if count > best_count:
                best, best_count = action, count
    return best if best is not None else legal[0]


def _find(legal: Sequence[Action], kind: ActionKind) -> Action | None:
    return next((a for a in legal if a.kind is kind), None)


def _reference_common(k: Knowledge, legal: Sequence[Action]) -> Action | None:
    """``basic.common_decision`` as it was (with the old exchange rule's loop)."""
    if len(legal) == 1:
        return legal[0]
    phase = k.phase
    if phase == "redeal":
        redeal = _find(legal, _K.REDEAL)
        if redeal is not None and evaluate(k.hand, k.rules).category is Category.HIGH_CARD:
            return redeal
        return _find(legal, _K.DISCARD) or legal[0]
    if phase == "one up" and k.one_up is not None:
        card = k.one_up[1]
        hand = list(k.hand)
        with_card = evaluate([*hand, card], k.rules) if len(hand) == 4 else None
        take = card.rank >= 13 or (
            with_card is not None and with_card.category > Category.HIGH_CARD
        )
        return _find(legal, _K.ACCEPT if take else _K.REJECT) or legal[0]
    if phase in ("quads choice", "quads"):
        resets = [a for a in legal if a.kind is _K.RESET]
        reset = max(resets, key=lambda a: -1 if a.target is None else k.scores[a.target],
                    default=None)
        if reset is not None and reset_is_better(k, reset.target):
            return reset
        return _find(legal, _K.SCORE) or _find(legal, _K.PASS) or legal[0]
    if phase == "exchange" and len(k.hand) == 6:
        drop = best_five(k.hand, k.rules)
        return _reference_discard(legal, k.hand, [c for c in k.hand if c != drop])
    if phase == "announce":
        announce = _find(legal, _K.ANNOUNCE)
        if announce is not None and announce.category is not None:
            rules = k.rules
            category = announce.category
            instant = (rules.straight_flush_wins and category >= Category.STRAIGHT_FLUSH) or (
                rules.royal_wins and category is Category.ROYAL_FLUSH
            )
            if not instant and would_reset(k, rules.points_for(category)):
                return _find(legal, _K.PASS) or announce
    return None


def _reference_decide(view: SeatView, legal: Sequence[Action]) -> Action:
    """``BasicBot.decide`` as it was (every step from the knowledge; the old exchange rule
    for V-LOCK-6's six cards; the plays by ``Action.card``)."""
    k = knowledge(view)
    common = _reference_common(k, legal)
    if common is not None:
        return common
    phase = k.phase
    if phase == "exchange":
        keep = basic_keep(k.hand, k.rules, last=k.round >= k.exchanges_total)
        return _reference_discard(legal, k.hand, keep)
    if phase == "announce":
        announce = next((a for a in legal if a.kind is _K.ANNOUNCE), None)
        if announce is None:
            return legal[0]
        value = evaluate(k.hand, k.rules)
        weak = value.category is Category.PAIR and value.ranks[0] <= 6
        if weak and len(k.to_speak_after()) >= 2:
            return next((a for a in legal if a.kind is _K.PASS), None) or announce
        return announce
    if phase == "chicago":
        leads = k.rules.chicago_caller_leads or k.leader == k.seat
        call = top_sequence_chicago(k, leads=leads) or chicago_is_due(k)
        wanted = _K.CHICAGO if call else _K.NO_CHICAGO
        return next((a for a in legal if a.kind is wanted), None) or legal[0]
    if phase == "play":
        plays = {a.card: a for a in legal if a[0] is _K.PLAY}
        return plays[basic_play(k, list(plays))]
    return legal[0]


def _turns(case: Case, rng: random.Random, limit: int) -> Iterator[tuple[Game, int]]:
    """The turns with a choice of a game of ``case`` (at most ``limit``), the game going on
    with ``basic``'s action three times in four and a random legal one else."""
    game = Game(case.rules, players=case.players, seed=case.seed)
    bot = BasicBot()
    asked = 0
    while not game.is_over and asked < limit:
        legal = game.legal_actions()
        seat = game.to_act
        if seat is not None and len(legal) > 1:
            asked += 1
            yield game, seat
            action = (bot.decide(game.view(seat), legal, rng) if rng.random() < 0.75
                      else rng.choice(legal))
        else:
            action = legal[0] if len(legal) == 1 else rng.choice(legal)
        game.apply(action)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_basic_decides_as_before_on_every_view_R_EX_1_R_PLAY_1(preset: str,
                                                                 data: st.DataObject) -> None:
    case = data.draw(cases(preset=preset))
    rng = random.Random(case.seed)
    bot = BasicBot()
    kinds: set[str] = set()
    for game, seat in _turns(case, rng, 400):
        view = game.view(seat)
        legal = game.legal_actions()
        seed = rng.randrange(2**32)
        decided = bot.decide(view, legal, random.Random(seed))
        assert decided == _reference_decide(view, legal), (case, seat, view.phase)
        assert decided in legal
        kinds.add(view.phase)
    assert kinds  # the bot was asked


def test_a_plays_card_read_from_its_mask_is_its_card_R_PLAY_1() -> None:
    """What the play step reads in place of ``Action.card``: a play's mask has one bit."""
    for card in DECK:
        action = Action.play(card)
        assert DECK[action[1].bit_length() - 1] == action.card == card


def _no_knowledge(view: SeatView) -> Knowledge:
    raise AssertionError("the knowledge was made")


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_exchanges_announcements_and_plays_read_the_view_alone_R_EX_1_R_PLAY_1(
        preset: str, data: st.DataObject) -> None:
    """The thirty-fifth pass: ``basic`` makes no knowledge for an exchange (five cards or
    V-LOCK-6's six), an announcement, a Chicago call or a play, and still decides as the
    reference; the variations' choices (V-REDEAL-LOW, V-ONE-UP, V-QUADS-RESET) still make
    it."""
    case = data.draw(cases(preset=preset))
    rng = random.Random(case.seed)
    bot = BasicBot()
    for game, seat in _turns(case, rng, 150):
        view = game.view(seat)
        legal = game.legal_actions()
        expected = _reference_decide(view, legal)
        with pytest.MonkeyPatch.context() as patch:
            if view.phase in ("exchange", "announce", "chicago", "play"):
                patch.setattr(basic_module, "knowledge", _no_knowledge)
            assert bot.decide(view, legal, random.Random(0)) == expected, (case, view.phase)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), made=st.booleans(), declared=st.booleans())
def test_an_announcement_near_the_target_as_before_V_CHI_REQ3(
        preset: str, data: st.DataObject, made: bool, declared: bool) -> None:
    """An announcement from the view (V-CHI-REQ3's pass to avoid a reset, V-CHI-DECLARED)
    equals the reference's with the seat's score at every distance below the target, and
    the Chicagos declared and made set either way: the scores and Chicagos of the view are
    the knowledge's."""
    case = data.draw(cases(preset=preset))
    rules = case.rules
    rng = random.Random(case.seed)
    bot = BasicBot()
    asked = 0
    for game, seat in _turns(case, rng, 120):
        view = game.view(seat)
        if view.phase != "announce":
            continue
        legal = game.legal_actions()
        for below in range(1, 12):
            score = max(0, rules.target - below)
            scores = tuple(score if s == seat else v for s, v in enumerate(view.scores))
            flags = tuple(made if s == seat else v for s, v in enumerate(view.chicago_made))
            said = tuple(declared if s == seat else v
                         for s, v in enumerate(view.chicago_declared))
            near = dataclasses.replace(view, scores=scores, chicago_made=flags,
                                       chicago_declared=said)
            assert bot.decide(near, legal, random.Random(0)) == _reference_decide(near, legal)
            asked += 1
    assume(asked)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_views_dead_cards_and_leader_are_the_knowledges_R_EX_2_V_ONE_UP(
        preset: str, data: st.DataObject) -> None:
    """``view_dead`` and ``view_leader`` (the Chicago call's inputs, read from the view with
    no walk) equal the knowledge's ``dead`` and ``leader`` in every seat's view after every
    action of random games (reshuffles of the discards, R-EX-2, and rejected face-up cards,
    V-ONE-UP, among them), the views of a game and of a copy of its state alike."""
    case = data.draw(cases(preset=preset))
    rng = random.Random(case.seed)
    game = Game(case.rules, players=case.players, seed=case.seed)
    bot = BasicBot()
    steps = 0
    while not game.is_over and steps < 300:
        steps += 1
        for seat in range(case.players):
            view = game.view(seat)
            k = knowledge(view)
            assert view_dead(view) == k.dead, (case, seat, view.phase)
            assert view_leader(view) == k.leader, (case, seat, view.phase)
        legal = game.legal_actions()
        seat = game.to_act
        if seat is not None and len(legal) > 1 and rng.random() < 0.6:
            action = bot.decide(game.view(seat), legal, rng)
        else:
            action = rng.choice(legal)
        game.apply(action)
        if rng.random() < 0.05:
            game = game.copy()
