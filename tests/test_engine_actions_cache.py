"""The caches of actions' texts stay bounded and keep caching what is in use (issue 28,
fifteenth pass): past :data:`~chicago.engine.actions.CACHE_BOUND` entries a cache is emptied
and fills again, so new actions are cached after a server has seen many (before, a full
cache of 100,000 entries cached nothing more). Counted: entries, never times."""

from __future__ import annotations

import itertools

from chicago import Action
from chicago.engine import actions

CACHE_BOUND: int = getattr(actions, "CACHE_BOUND", 100_000)  # the fixed stop of before


def _discards(count: int) -> list[str]:
    """``count`` texts of distinct discards (up to four cards of the deck)."""
    from chicago.cards import DECK

    texts = []
    for size in range(1, 5):
        for cards in itertools.combinations(DECK, size):
            texts.append("discard " + " ".join(str(c) for c in cards))
            if len(texts) == count:
                return texts
    raise AssertionError("not enough discards")  # pragma: no cover


def test_the_caches_stay_bounded_and_cache_new_actions_when_full() -> None:
    texts = _discards(CACHE_BOUND + 50)
    parsed = [Action.parse(text) for text in texts]
    for action in parsed:
        str(action)
    assert len(actions._PARSE_CACHE) <= CACHE_BOUND
    assert len(actions._TEXT_CACHE) <= CACHE_BOUND
    # the last ones, seen after the caches filled, are cached (the bound does not freeze them)
    assert actions._PARSE_CACHE.get(texts[-1]) == parsed[-1]
    assert actions._TEXT_CACHE.get(parsed[-1]) == str(parsed[-1])
    # and what they hold is right: a cached text gives the action, a cached action its text
    for text, action in zip(texts[-50:], parsed[-50:], strict=True):
        assert Action.parse(text) is actions._PARSE_CACHE[text] and Action.parse(text) == action
        assert str(action) == action._text()
