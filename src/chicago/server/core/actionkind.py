"""An action text's kind and whether every seat may see it, read once per text.

An update names the action's kind (``discard``, ``play`` …) to every audience and its text
only to those who may see it: another seat's discards (R-EX-2) and one-up request
(V-ONE-UP) travel without their cards. Both follow from the parsed action
(:meth:`Action.parse <chicago.engine.actions.Action.parse>`), which costs about as much as
the rest of an update when the text is new, as a bot's discard nearly always is (issue 28,
thirty-seventh pass). The server writes every stored action's text itself, from the action
it checked (``str(action)``, :func:`chicago.server.core.decide.act`), and notes the pair
then (:func:`note`): the frames read it back (:func:`kind_shown`) without parsing the text.
A text the server did not note (an entry of another worker, one read from the store)
is parsed as before. Both ways give the same answer, since a text read back is the action
it was written from (``Action.parse(str(action)) == action``).
"""

from __future__ import annotations

from chicago.engine.actions import Action, ActionKind

__all__ = ["BOUND", "clear", "kind_shown", "note"]

BOUND = 4096
"""The most texts kept; when full, the cache starts again (as the engine's parse cache)."""

_HIDDEN_KINDS = (ActionKind.DISCARD, ActionKind.ONE_UP)
_KNOWN: dict[str, tuple[str, bool]] = {}


_WORDS = {kind: kind.value for kind in ActionKind}


def _of(action: Action) -> tuple[str, bool]:
    """An action's kind word, and whether its text may be shown to every seat (read from the
    action's tuple: its kind, and its cards' mask, which is 0 when it has no cards)."""
    kind, mask = action[0], action[1]
    return _WORDS[kind], not (kind in _HIDDEN_KINDS and mask != 0)


def _keep(text: str, known: tuple[str, bool]) -> None:
    if len(_KNOWN) >= BOUND:
        _KNOWN.clear()
    _KNOWN[text] = known


def note(text: str, action: Action) -> None:
    """Note that ``text`` is ``str(action)``, the text the server stores for ``action``."""
    if text not in _KNOWN:
        _keep(text, _of(action))


def kind_shown(text: str) -> tuple[str, bool]:
    """A stored action text's kind word, and whether the text may be shown to every seat:
    the cards of a discard (R-EX-2) or of a one-up request (V-ONE-UP) are for the actor's
    eyes only. Kept per text (noted when the server wrote it, else parsed once)."""
    known = _KNOWN.get(text)
    if known is None:
        known = _of(Action.parse(text))
        _keep(text, known)
    return known


def clear() -> None:
    """Forget every text kept (for tests)."""
    _KNOWN.clear()
