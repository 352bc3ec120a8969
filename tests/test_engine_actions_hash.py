"""Actions: equality and hashing agree (issue 19, item 4), and the text is canonical.

An action equals another action of the same meaning (and hashes like it), whatever text it
was read from; it never equals a text, so a set or dict never holds an action and its text
as two keys that compare equal (docs/NOTATION.md).
"""

from __future__ import annotations

import pickle

from chicago import Action, Game, Rules


def _legal_actions_of_a_game(seed: int = 3, steps: int = 200) -> list[Action]:
    game = Game(Rules.preset("wikipedia").with_variations("V-QUADS-RESET"), players=4, seed=seed)
    seen: list[Action] = []
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        seen.extend(legal)
        game.apply(legal[-1])
    return seen


def test_equal_actions_hash_alike_and_texts_are_canonical() -> None:
    """Every legal action: parsing its text gives an equal action with the same hash, and
    the text of that is the same text (canonical)."""
    for action in _legal_actions_of_a_game():
        again = Action.parse(str(action))
        assert again == action and hash(again) == hash(action)
        assert str(again) == str(action)
        assert pickle.loads(pickle.dumps(action)) == action


def test_synonyms_and_orders_give_one_action() -> None:
    """Different texts of one meaning are one action in a set (the issue's example)."""
    texts = ["discard 7c 2h", "discard 2h 7c", "exchange 7C 2H", "change 2h 7c"]
    assert len({Action.parse(t) for t in texts}) == 1
    assert str(Action.parse("discard 7c 2h")) == "discard 2h 7c"


def test_an_action_never_equals_its_text() -> None:
    """No equality with strings, so no set holds two members that compare equal."""
    action = Action.parse("discard 7c 2h")
    assert action != "discard 7c 2h" and action != "discard 2h 7c"
    assert "discard 2h 7c" != action  # noqa: SIM300 (the text on the left, on purpose)
    assert len({action, "discard 7c 2h"}) == 2  # and they are not equal either
    assert "keep" not in Game(Rules.preset("pagat"), players=4, seed=1).legal_actions()
    assert Action.parse("keep") in {Action.discard(): 1}


def test_equality_with_its_tuple_agrees_with_hashing() -> None:
    """An action is the tuple (kind, card mask, category): equal to it, and hashed alike."""
    for action in _legal_actions_of_a_game(steps=50):
        plain = tuple(action)
        assert action == plain and hash(action) == hash(plain)


def test_an_actions_kept_text_is_its_text_made_afresh() -> None:
    """``str(action)`` keeps each action's text (issue 28: the legal actions of a seat are
    written out in every update): the kept text is the one made afresh, for actions made
    by the engine and parsed from text."""
    for seed in (1, 2):
        for action in _legal_actions_of_a_game(seed=seed):
            fresh = action._text()
            assert str(action) == fresh and str(action) == fresh  # made, then kept
            assert str(Action.parse(fresh)) == fresh
