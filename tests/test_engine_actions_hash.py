"""Actions equal their text form and hash like it, so sets and dicts mix them (notation)."""

from __future__ import annotations

from chicago import Action, Game, Rules


def test_action_hashes_like_its_text() -> None:
    game = Game(Rules.preset("pagat"), players=4, seed=3)
    for _ in range(200):
        legal = game.legal_actions()
        for action in legal:
            assert action == str(action)
            assert hash(action) == hash(str(action))
        texts = {str(a) for a in legal}
        assert all(a in texts for a in legal)
        assert all(t in set(legal) for t in texts)
        game.apply(legal[-1])
    assert {Action.parse("keep"): 1}["keep"] == 1
