"""The public view of a table's game, made once per state and shared by everyone who is
given a view of that state: the bot that decides next (its own seat's view, built from the
public one: :func:`chicago.engine.views.seat_view_from`) and every audience of the
update frame that the state follows (its public part as JSON, made once).

Views stay per seat: what is shared is the public part alone, the same for every audience;
each seat's own fields and the events it may see are put in for that seat only.

A state is a game object with its number of actions: the server never changes a stored
game in place except by applying an action (another worker's entry, followed), which a
new key tells apart. At most :data:`KEEP` states are held per table, and after a change is
published only its last one, and only when a bot decides on it next
(:meth:`PublicViews.keep`, :meth:`chicago.server.cache.TableCache.store_all`): a table where
a person is to act holds none between moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from chicago.engine.game import Game
from chicago.engine.jsontypes import JSON
from chicago.engine.viewjson import public_json, public_text
from chicago.engine.views import public_view, seat_view_from
from chicago.engine.viewtypes import SeatView

__all__ = ["KEEP", "PublicViews"]

KEEP = 16
"""Most game states whose public views a table holds at once (an action and the bots'
replies stored with it are one state each: up to ``1 + REPLIES_PER_SEAT * players`` of
:mod:`chicago.server.tables`)."""


@dataclass(slots=True)
class _Public:
    game: Game
    actions: int
    view: SeatView
    state: Mapping[str, JSON] | None = None
    text: str | None = None


class PublicViews:
    """A table's public views of its latest game states (see the module docstring)."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: dict[int, _Public] = {}

    def __len__(self) -> int:
        """The number of states whose public views are held."""
        return len(self._held)

    def _public(self, game: Game) -> _Public:
        held = self._held.get(id(game))
        if held is not None and held.game is game and held.actions == game.action_count:
            return held
        if len(self._held) >= KEEP:
            del self._held[next(iter(self._held))]  # the oldest
        held = self._held[id(game)] = _Public(game, game.action_count, public_view(game))
        return held

    def seat_view(self, game: Game, seat: int | None) -> SeatView:
        """``game.view(seat)``, its public part shared with the other audiences of this
        state."""
        return seat_view_from(self._public(game).view, game, seat)

    def public_state(self, game: Game) -> Mapping[str, JSON]:
        """The public part of an update's state for this state of ``game``
        (:func:`chicago.engine.viewjson.public_state`), made once."""
        held = self._public(game)
        if held.state is None:
            held.state = public_json(held.view)
        return held.state

    def public_text(self, game: Game) -> str:
        """:meth:`public_state` as compact JSON text (:func:`chicago.engine.viewjson.
        public_text`, written from the view without the dicts between), made once."""
        held = self._public(game)
        if held.text is None:
            held.text = public_text(held.view)
        return held.text

    def keep(self, game: Game | None) -> None:
        """Forget every state but ``game``'s as it is now (None: every one)."""
        held = self._held.get(id(game)) if game is not None else None
        self._held.clear()
        if held is not None and held.game is game and held.actions == game.action_count:
            self._held[id(game)] = held
