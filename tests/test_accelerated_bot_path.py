"""A bot's reply made by the C accelerator against the pure-Python code: the seat's
knowledge, the views, the game's copy.

With the accelerator built, :func:`chicago.engine.knowledge.knowledge` makes its
:class:`~chicago.engine.knowledge.Knowledge` (the opponents, the tricks, the dead and unseen
cards) with ``_engine.knowledge_of``; ``knowledge._assemble_python`` is the pure-Python
maker. Random games of every preset, with random sets of variations (every V-*, among them
those that change what a seat knows: V-ONE-UP, V-QUADS-RESET, V-LOCK-6, V-REDEAL-LOW …) and
options (``show_on_break`` for R-EX-4's shown hands and kept combinations, few exchanges for
reshuffles), 2-6 players, are played with random choices; at every state, for the seat to
act and for another seat, the knowledge of its view is made both ways and compared field by
field, the types of the values included: from ``Game.view`` (its walk carried in the seat's
log), from a view made as a server's table makes it (``seat_view_from`` a public view), and
from a view whose events are a plain tuple (the walk folded afresh). Hypothesis runs
derandomized: the same games on every run.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from accelerator_cases import OPTIONS as BASE_OPTIONS
from accelerator_cases import derandomized, differences, draw_table
from chicago import Game, Rules
from chicago.engine import knowledge as knowledge_module
from chicago.engine import state as state_module
from chicago.engine import viewjson as viewjson_module
from chicago.engine import views as views_module
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.native import ENGINE
from chicago.engine.phases import Phase
from chicago.engine.viewjson import own_json, own_state
from chicago.engine.views import own_part, public_view, seat_view_from
from chicago.engine.viewtypes import SeatView
from chicago.server.views import PublicViews

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")

GAMES = derandomized(80)

OPTIONS = {**BASE_OPTIONS, "no_show": {"show_on_break": False}}


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """Rules (a preset, up to four variations, up to two options), seats and a seed."""
    return draw_table(draw, OPTIONS, max_deals=3)


def pure_knowledge(view: SeatView, monkeypatch: pytest.MonkeyPatch) -> Knowledge:
    """``knowledge(view)`` made by the pure-Python code."""
    with monkeypatch.context() as patch:
        patch.setattr(knowledge_module, "_assemble", knowledge_module._assemble_python)
        return knowledge(view)


def check_view(view: SeatView, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = knowledge(view)
    pure = pure_knowledge(view, monkeypatch)
    found = list(differences(fast, pure))
    assert not found, found
    assert fast == pure
    # each call's knowledge is its own: changing one changes no other
    for opponent in fast.opponents.values():
        opponent.announcements[99] = None
        opponent.exchanges.append(9)
    fast.scores.append(1)
    again = knowledge(view)
    assert not list(differences(again, pure))


PYTHON_VIEW_MAKERS = views_module._slot_writers()
"""The pure-Python makers of a view (the accelerator's ``new_view`` and ``view_with_own``
replace them)."""


def check_views(game: Game, seat: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The public view and ``seat``'s views (whole, and made from the public one) are the
    same made by the accelerator's makers and by the Python ones."""
    fast = (public_view(game), seat_view_from(public_view(game), game, seat),
            game.view(seat))
    with monkeypatch.context() as patch:
        patch.setattr(views_module, "_new_view", PYTHON_VIEW_MAKERS[0])
        patch.setattr(views_module, "_public_with_own", PYTHON_VIEW_MAKERS[1])
        patch.setattr(views_module, "_public_of", None)
        patch.setattr(views_module, "_own_of", None)
        pure = (public_view(game), seat_view_from(public_view(game), game, seat),
                game.view(seat))
    found = list(differences(fast, pure, "views"))
    assert not found, found
    assert fast == pure


def check_own(game: Game, seat: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``seat``'s view made from the public one by the accelerator's ``own_view_of`` (its
    own fields read from the game's slots) is the one the Python code makes."""
    public = public_view(game)
    visible = game.seen_by(seat)
    out = knowledge_module.out_of_stock(visible, seat)
    made_in_c = views_module._own_of(public, game, seat, visible, out)
    assert type(made_in_c) is SeatView
    with monkeypatch.context() as patch:
        patch.setattr(views_module, "_public_with_own", PYTHON_VIEW_MAKERS[1])
        patch.setattr(views_module, "_own_of", None)
        pure = seat_view_from(public, game, seat)
    for made in (seat_view_from(public, game, seat), made_in_c):
        found = list(differences(made, pure, f"seat {seat}'s view"))
        assert not found, found
        assert made == pure


def check_own_json(game: Game, seat: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON of ``seat``'s own fields (an update's own part) written by the
    accelerator's ``own_json_of`` from the game's slots is, as text, the one the Python code
    makes (``own_json(own_part(...))``): the same keys in the same order, the same values
    and types, every legal action's text among them."""
    fast = own_state(game, seat)
    if seat is not None:
        out = views_module.known_out(game, seat)
        made_in_c = ENGINE.own_json_of(game, seat, out, viewjson_module._CARD_TEXT)
        if type(game) is Game and type(game.hands[seat]) is list:
            assert made_in_c is not NotImplemented
        else:  # another shape: the Python code's
            made_in_c = fast
        assert made_in_c == fast
        assert json.dumps(made_in_c) == json.dumps(fast)
    with monkeypatch.context() as patch:
        patch.setattr(viewjson_module, "_own_json_of", None)
        pure = own_state(game, seat)
    assert pure == own_json(own_part(game, seat))
    assert json.dumps(fast) == json.dumps(pure)


def check_public(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The public view of ``game`` made by the accelerator's ``public_view_of`` (from the
    game's slots) is the one the Python code makes from the game's public API, field by
    field."""
    fast = public_view(game)
    made_in_c = views_module._public_of(game, *views_module._scoring_parts(game))
    assert made_in_c is not NotImplemented
    with monkeypatch.context() as patch:
        patch.setattr(views_module, "_new_view", PYTHON_VIEW_MAKERS[0])
        patch.setattr(views_module, "_public_of", None)
        pure = public_view(game)
    for made in (fast, made_in_c):
        found = list(differences(made, pure, "public view"))
        assert not found, found
        assert made == pure


PYTHON_COPY = state_module._build_copier_python(Game)
"""The pure-Python copier of a game (the accelerator's ``copier`` replaces it)."""
COPY_PLAN = state_module._plan(Game)[0]


def check_copy(game: Game) -> None:
    """A copy made by the accelerator's copier has the same value in every slot as one made
    by the Python copier, and shares no list or dict with the original (nor its lists'
    lists) that the Python copy does not share."""
    fast = state_module.copy_state(game)
    pure = PYTHON_COPY(game)
    assert type(fast) is type(pure) is type(game)
    for name, kind in COPY_PLAN.items():
        mine, theirs, original = (getattr(g, name) for g in (fast, pure, game))
        found = list(differences(mine, theirs, name))
        assert not found, found
        assert (mine is original) == (theirs is original), name
        if kind == "lists":
            assert not any(a is b for a, b in zip(mine, original, strict=True)), name


def test_the_accelerated_maker_is_in_place() -> None:
    assert knowledge_module._assemble is not knowledge_module._assemble_python
    assert knowledge_module._assemble is ENGINE.knowledge_of  # type: ignore[union-attr]
    assert views_module._new_view is ENGINE.new_view  # type: ignore[union-attr]
    assert views_module._public_with_own is ENGINE.view_with_own  # type: ignore[union-attr]
    assert views_module._public_of is ENGINE.public_view_of  # type: ignore[union-attr]
    assert views_module._own_of is ENGINE.own_view_of  # type: ignore[union-attr]
    assert viewjson_module._own_json_of is ENGINE.own_json_of  # type: ignore[union-attr]
    assert "PyCapsule" in repr(state_module._build_copier(Game))  # the C copier's


LOCKED_SIX = Rules.preset("pagat").with_variations("V-LOCK-6").replace(lock_at=8, target=25)
"""Locked players dealt six cards early (V-LOCK-6 with a low lock): the random tables seldom
draw both."""


@GAMES
@given(tables())
@example((LOCKED_SIX, 4, 3))
@example((LOCKED_SIX.with_variations("V-ONE-UP"), 3, 5))
def test_accelerated_and_pure_knowledge_are_the_same(table: tuple[Rules, int, int]) -> None:
    """Every preset and variation (R-EX-2 reshuffles, R-EX-4 shown hands and kept
    combinations, R-ANN-3 stages, V-ONE-UP, V-QUADS-RESET, V-LOCK-6, V-REDEAL-LOW, the
    tricks' voids): the knowledge of every seat's view at every state is the same made in
    C and in Python; so are the views, made by the C makers and by the Python ones, and
    the game's copies, made by the C copier and the Python one; the public view of every
    state (and of the game over), and the views of the seat to act and another seat made
    from it, read from the game's slots in C and made by the Python code; and those seats'
    own fields as an update's JSON (V-HIDDEN: only the seat's own cards), written in C and
    by the Python code."""
    rules, players, seed = table
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    with pytest.MonkeyPatch.context() as monkeypatch:
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            other = rng.randrange(players)
            check_public(game, monkeypatch)
            check_own(game, seat, monkeypatch)
            check_own(game, other, monkeypatch)
            check_own_json(game, seat, monkeypatch)
            check_own_json(game, other, monkeypatch)
            if rng.random() < 0.1:
                check_own_json(game, None, monkeypatch)
            check_view(game.view(seat), monkeypatch)
            check_view(game.view(other), monkeypatch)
            if rng.random() < 0.3:  # as a server's table makes a bot's view
                check_view(seat_view_from(public_view(game), game, seat), monkeypatch)
                check_views(game, other, monkeypatch)
            if rng.random() < 0.2:  # events that are no seat's log: the walk folded afresh
                view = game.view(other)
                check_view(dataclasses.replace(view, events=tuple(view.events)), monkeypatch)
            legal = game.legal_actions()
            action = rng.choice(legal)
            if action.kind is ActionKind.CHICAGO and rng.random() < 0.7:
                action = legal[0]
            if rng.random() < 0.2:
                check_copy(game)
            if rng.random() < 0.05:
                game = game.copy()
            game.apply(action)
        check_public(game, monkeypatch)  # over: the settlement and the winners
        check_own(game, rng.randrange(players), monkeypatch)
        check_own_json(game, rng.randrange(players), monkeypatch)
        check_views(game, rng.randrange(players), monkeypatch)


def test_a_view_of_another_shape_gives_the_same_knowledge(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lists where a view holds tuples, a card that is no card id: the accelerator hands
    what it does not expect to the Python code, which gives the same knowledge (or error)."""
    game = Game(Rules.preset("pagat"), 4, seed=11)
    rng = random.Random(11)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    listed = dataclasses.replace(view, scores=list(view.scores), hand=list(view.hand),
                                 exchanges=[list(r) for r in view.exchanges])
    check_view(listed, monkeypatch)  # type: ignore[arg-type]
    odd = dataclasses.replace(view, hand=(*view.hand, 60))
    assert not list(differences(knowledge(odd), pure_knowledge(odd, monkeypatch)))
    spectator = game.view(None)
    with pytest.raises(ValueError, match="spectator"):
        knowledge(spectator)
    broken = dataclasses.replace(view, hand=("Ah",))
    with pytest.raises(TypeError):
        pure_knowledge(broken, monkeypatch)
    with pytest.raises(TypeError):
        knowledge(broken)


def test_the_view_makers_refuse_what_is_no_view() -> None:
    """The C makers refuse a missing or unknown field and a public part that is no view."""
    assert ENGINE is not None
    game = Game(Rules.preset("pagat"), 4, seed=2)
    public = public_view(game)
    fields = {f.name: getattr(public, f.name) for f in dataclasses.fields(SeatView)}
    assert ENGINE.new_view(**fields) == public
    with pytest.raises(TypeError):
        ENGINE.new_view(**{k: v for k, v in fields.items() if k != "seat"})
    with pytest.raises(TypeError):
        ENGINE.new_view(**{**{k: v for k, v in fields.items() if k != "seat"}, "sea": 1})
    with pytest.raises(TypeError):
        ENGINE.view_with_own(object(), 0, (), None, (), (), (), ())
    with pytest.raises(TypeError):
        ENGINE.view_with_own(public, 0)


def test_a_game_of_another_shape_gets_its_public_view_from_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``public_view_of`` leaves what it does not expect to the Python code: a subclass of
    Game (its properties may differ), lists where the game holds tuples, a play that is no
    card, an unset slot; the view made is the Python code's, or its error."""
    assert ENGINE is not None
    game = Game(Rules.preset("pagat"), 4, seed=7)
    rng = random.Random(7)
    while game.phase != "play" or not game.tricks or not game.trick:
        game.apply(rng.choice(game.legal_actions()))
    scoring = views_module._scoring_parts(game)
    assert ENGINE.public_view_of(game, *scoring) is not NotImplemented
    noted = game.copy()
    noted.__class__ = NotedGame
    assert ENGINE.public_view_of(noted, *scoring) is NotImplemented
    check_views(noted, 0, monkeypatch)
    odd = game.copy()
    odd.trick = [list(play) for play in odd.trick]  # type: ignore[misc]
    assert ENGINE.public_view_of(odd, *scoring) is NotImplemented
    check_views(odd, 0, monkeypatch)
    outside = game.copy()
    outside.trick = [(0, 60)]  # no card: Python's IndexError
    assert ENGINE.public_view_of(outside, *scoring) is NotImplemented
    with pytest.raises(IndexError):
        public_view(outside)
    listed = game.copy()
    listed.exchange_counts = tuple(listed.exchange_counts)  # type: ignore[assignment]
    assert ENGINE.public_view_of(listed, *scoring) is NotImplemented
    check_views(listed, 0, monkeypatch)
    unset = Game.__new__(Game)
    assert ENGINE.public_view_of(unset, *scoring) is NotImplemented
    with pytest.raises(TypeError):
        ENGINE.public_view_of(game)


def test_a_seat_of_another_shape_gets_its_view_from_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``own_view_of`` leaves what it does not expect to the Python code: a subclass of
    Game, a spectator, a seat that is no int in range, a hand that is a tuple, known-out
    cards that are no set, a public part that is no view, an unset slot."""
    assert ENGINE is not None
    game = Game(Rules.preset("pagat"), 4, seed=8)
    rng = random.Random(8)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    public = public_view(game)
    seat = game.to_act
    assert seat is not None
    visible = game.seen_by(seat)
    out = knowledge_module.out_of_stock(visible, seat)
    assert type(ENGINE.own_view_of(public, game, seat, visible, out)) is SeatView
    noted = game.copy()
    noted.__class__ = NotedGame
    for args in ((public, noted, seat, visible, out), (public, game, None, visible, out),
                 (public, game, 9, visible, out), (public, game, -1, visible, out),
                 (public, game, True, visible, out), (public, game, seat, visible, list(out)),
                 (object(), game, seat, visible, out),
                 (public, Game.__new__(Game), seat, visible, out)):
        assert ENGINE.own_view_of(*args) is NotImplemented
    check_views(noted, seat, monkeypatch)
    check_views(game, None, monkeypatch)  # type: ignore[arg-type]
    held = game.copy()
    held.hands[seat] = tuple(held.hands[seat])  # type: ignore[call-overload]
    assert ENGINE.own_view_of(public, held, seat, visible, out) is NotImplemented
    check_views(held, seat, monkeypatch)
    with pytest.raises(TypeError):
        ENGINE.own_view_of(public, game, seat)


def test_own_json_of_leaves_another_shape_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """``own_json_of`` leaves what it does not expect to the Python code, which gives the
    same JSON: a subclass of Game, a spectator, a seat that is no int in range, known-out
    cards that are no set, card texts that are not the 52 texts, a hand that is a tuple,
    a card that is no card id, an unset slot."""
    assert ENGINE is not None
    game = Game(Rules.preset("pagat"), 4, seed=8)
    rng = random.Random(8)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.to_act
    assert seat is not None
    out = views_module.known_out(game, seat)
    texts = viewjson_module._CARD_TEXT
    assert type(ENGINE.own_json_of(game, seat, out, texts)) is dict
    noted = game.copy()
    noted.__class__ = NotedGame
    for args in ((noted, seat, out, texts), (game, None, out, texts), (game, 9, out, texts),
                 (game, -1, out, texts), (game, True, out, texts),
                 (game, seat, list(out), texts), (game, seat, out, list(texts)),
                 (game, seat, out, texts[:51]), (Game.__new__(Game), seat, out, texts)):
        assert ENGINE.own_json_of(*args) is NotImplemented
    check_own_json(noted, seat, monkeypatch)
    check_own_json(game, None, monkeypatch)
    held = game.copy()
    held.hands[seat] = tuple(held.hands[seat])  # type: ignore[call-overload]
    assert ENGINE.own_json_of(held, seat, out, texts) is NotImplemented
    check_own_json(held, seat, monkeypatch)
    odd = game.copy()
    odd.hands[seat] = [*odd.hands[seat], 60]  # type: ignore[list-item]
    assert ENGINE.own_json_of(odd, seat, out, texts) is NotImplemented
    with pytest.raises(TypeError):
        ENGINE.own_json_of(game, seat, out)


def test_own_json_of_writes_every_discard_and_play_as_its_text() -> None:
    """The texts of the legal actions that ``own_json_of`` writes itself (a discard's, a
    play's) are ``str`` of the actions: every discard of up to five cards of a hand (the
    keep among them) and every card played."""
    assert ENGINE is not None
    game = Game(Rules.preset("pagat"), 4, seed=3)
    seat = game.to_act
    assert seat is not None
    out = views_module.known_out(game, seat)
    made = ENGINE.own_json_of(game, seat, out, viewjson_module._CARD_TEXT)
    assert made["legal_actions"] == [str(a) for a in game.legal_actions()]
    assert len(made["legal_actions"]) == 32
    assert [str(Action.play(card)) for card in range(52)] == [
        f"play {viewjson_module._CARD_TEXT[card]}" for card in range(52)]


class NotedGame(Game):
    """A game with attributes of its own (a ``__dict__``), as tests' subclasses have."""


def test_a_game_with_attributes_of_its_own_is_copied_as_in_python() -> None:
    """The C copier copies an instance's own attributes as the Python copier does: lists and
    dicts inside them anew, the rest shared; an unset slot is an AttributeError."""
    game = NotedGame(Rules.preset("pagat"), 4, seed=5)
    game.note = [1, [2, 3], {"a": [4]}]  # type: ignore[attr-defined]
    fast = state_module.copy_state(game)
    pure = state_module._build_copier_python(NotedGame)(game)
    assert fast.note == pure.note == game.note  # type: ignore[attr-defined]
    assert fast.note is not game.note and fast.note[1] is not game.note[1]  # type: ignore[attr-defined]
    assert fast.note[2]["a"] is not game.note[2]["a"]  # type: ignore[attr-defined]
    check_copy(game)
    unset = Game.__new__(Game)
    with pytest.raises(AttributeError):
        state_module.copy_state(unset)
    with pytest.raises(AttributeError):
        PYTHON_COPY(unset)
    with pytest.raises(TypeError):
        state_module._COPIERS[Game](NotedGame.__new__(NotedGame))


def pure_view(game: Game, seat: int | None, monkeypatch: pytest.MonkeyPatch) -> SeatView:
    """``seat``'s view of ``game`` made by the pure-Python code from a copy with no log
    carried (a pickled game's memo matches no deal: every fact folded afresh, in one go)."""
    fresh = pickle.loads(pickle.dumps(game))
    with monkeypatch.context() as patch:
        patch.setattr(views_module, "_new_view", PYTHON_VIEW_MAKERS[0])
        patch.setattr(views_module, "_public_with_own", PYTHON_VIEW_MAKERS[1])
        patch.setattr(views_module, "_public_of", None)
        patch.setattr(views_module, "_own_of", None)
        return fresh.view(seat)  # type: ignore[no-any-return]


@derandomized(40)
@given(tables())
@example((LOCKED_SIX.with_variations("V-ONE-UP"), 3, 5))
def test_a_bots_view_as_a_table_makes_it_is_the_pure_one(table: tuple[Rules, int, int]
                                                          ) -> None:
    """Every preset and variation (R-EX-2 reshuffles, R-EX-4 shown hands, R-ANN-3 stages,
    V-ONE-UP, V-QUADS-RESET, V-LOCK-6 …): played as a server's table plays (each state a
    copy of the last with one action applied), the view of the seat to act that
    :class:`~chicago.server.views.PublicViews` gives a bot (its public part shared, its log's
    facts carried on: the cards known out of the stock, the scoring rounds) is, field by
    field, the view the pure-Python code makes of the same state with nothing carried;
    so is another seat's, and the cards each knows out of the stock."""
    rules, players, seed = table
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    views = PublicViews()
    with pytest.MonkeyPatch.context() as monkeypatch:
        while True:
            seat = game.to_act
            other = rng.randrange(players)
            for who in {seat, other} - {None}:
                fast = views.seat_view(game, who)
                pure = pure_view(game, who, monkeypatch)
                found = list(differences(fast, pure, f"seat {who}'s view"))
                assert not found, found
                assert fast == pure
                assert set(views_module.known_out(game, who)) == (
                    knowledge_module.card_places(tuple(pure.events), who).out_of_stock())
            if game.is_over:
                break
            log, count = game.seat_log(other)
            assert count == len(game.seen_by(other)) and log is game.seen_by(other).log
            action = rng.choice(game.legal_actions())
            game = game.copy()
            game.apply(action)
            views.keep(game)


def test_a_bots_views_share_what_no_event_changed() -> None:
    """Between two states of a deal's tricks (plays only), the scoring rounds of their
    views and the cards their seat knows out of the stock are the ones carried in the logs,
    not made again; an event that moves a card or a scoring event makes them anew."""
    game = Game(Rules.preset("pagat"), 4, seed=4)
    rng = random.Random(4)
    while game.phase is not Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    views = PublicViews()
    seat = game.to_act
    assert seat is not None
    first = views.seat_view(game, seat)
    out = views_module.known_out(game, seat)
    for _ in range(game.players):  # a whole trick: every seat plays
        game = game.copy()
        game.apply(rng.choice(game.legal_actions()))
    later = views.seat_view(game, seat)
    assert later.scoring_round is first.scoring_round
    assert (later.announcements, later.reveals) == (first.announcements, first.reveals)
    assert later.announcements is first.announcements
    assert views_module.known_out(game, seat) is out
    assert knowledge_module.out_of_stock(game.seen_by(seat), seat) is not out  # a copy


def test_the_scoring_parts_are_shared_through_an_exchange_round() -> None:
    """Two exchanges of the same round, with a scoring round shown before it (R-ANN-3):
    the public views of the states between share the scoring parts carried in the
    spectators' log (the round's words, reveals, results), made once after the last
    scoring event; the round shown is gone once the exchanges begin, as before."""
    game = Game(Rules.preset("pagat"), 4, seed=8)
    rng = random.Random(8)
    shared = 0
    last: Action | None = None
    while not game.is_over and shared < 3:
        before = public_view(game)
        action = rng.choice(game.legal_actions())
        game = game.copy()
        game.apply(action)
        after = public_view(game)
        if action.kind is ActionKind.DISCARD and last is not None and (
                last.kind is ActionKind.DISCARD) and after.announcements:
            assert after.announcements is before.announcements
            assert after.round_results is before.round_results
            assert after.scoring_round is before.scoring_round is None
            shared += 1
        last = action
    assert shared == 3
