"""Step through a recorded game, as one seat saw it or with every card face up.

Step 0 is the position before the first action (the first deal dealt); step ``i`` is the
position after the record's ``i``-th action. :meth:`Replayer.events_of` gives the events an
action caused, :meth:`Replayer.view_at` the view at a step, :meth:`Replayer.hands_at` the
hands that may be shown.

A finished game may be shown with every card face up (``seat=None``). A record of an
unfinished game is shown only from one seat: only that seat's cards and the public events,
exactly what that seat saw while playing. :meth:`Replayer.for_record` is the choice that
``chicago replay`` makes: an unfinished game from the seat of the player who saved it
(``chicago play``'s ``Human`` tag), another seat only when asked for, with a warning.
"""

from __future__ import annotations

from typing import Any

from chicago.cards import Card
from chicago.engine import Game
from chicago.engine.events import Deal, Event
from chicago.engine.viewtypes import SeatView
from chicago.record import replay_record
from chicago.tui.notice import Notice
from chicago.tui.words import Words

__all__ = ["CHECKPOINT_EVERY", "Replayer", "human_seat"]

CHECKPOINT_EVERY = 32
"""A copy of the game is kept every this many actions, so any step is reached quickly."""


def human_seat(tags: dict[str, str], players: int | None = None) -> int | None:
    """The seat of the player who saved the game (the ``Human`` tag), None if not recorded."""
    text = tags.get("Human", "").strip()
    if not text.isdigit():
        return None
    seat = int(text)
    return seat if players is None or seat < players else None


class Replayer:
    """The steps of a recorded game; ``seat`` None shows everything (finished games only).

    Raises :class:`~chicago.record.RecordError` for a bad record, and ``ValueError`` for a
    seat out of range or ``seat=None`` with an unfinished game.
    """

    def __init__(
        self,
        record: dict[str, Any],
        seat: int | None = None,
        tags: dict[str, str] | None = None,
        *,
        unfinished_seat: int | None = None,
    ) -> None:
        final = replay_record(record)  # checks the whole record and its result
        self.finished = final.is_over
        self.players = final.players
        self.rules = final.rules
        self.seed = final.seed
        if seat is None and not self.finished and unfinished_seat is not None:
            seat = unfinished_seat if 0 <= unfinished_seat < final.players else 0
        if seat is not None and not 0 <= seat < final.players:
            raise ValueError(f"seat must be 0-{final.players - 1}, not {seat}")
        if seat is None and not self.finished:
            raise ValueError(
                "the game is not finished: a replay shows only what one seat saw (give --seat)"
            )
        self.seat = seat
        self.tags = dict(tags or {})
        self.names = [self.tags.get(f"Name{s}", f"Seat {s}") for s in range(self.players)]
        human = self.tags.get("Human", "")
        self.you: int | None = (
            int(human) if human.isdigit() and int(human) < self.players
            and self.names[int(human)] == "You" else None
        )
        """The seat called "You" in the record (``chicago play``'s human), for the grammar."""
        self.notices: list[str] = []
        """Lines shown with the first step (how the replay was chosen)."""
        self.warnings: list[str] = []
        """Lines shown with every step (another seat's cards of an unfinished game)."""
        actions = [str(text) for _, text in record.get("actions", [])]
        self._actions = actions
        self._seats = [int(seat) for seat, _ in record.get("actions", [])]
        walker = replay_record({**record, "actions": [], "result": None})
        self._checkpoints: list[Game] = []
        self._bounds = [len(walker.events)]
        self.deal_starts = [0]
        for index, text in enumerate(actions):
            if index % CHECKPOINT_EVERY == 0:
                self._checkpoints.append(walker.copy())
            deal = walker.deal_number
            walker.apply(text)
            self._bounds.append(len(walker.events))
            if walker.deal_number != deal:
                self.deal_starts.append(index + 1)
        self._events = walker.events
        self._final = walker

    @classmethod
    def for_record(
        cls, record: dict[str, Any], tags: dict[str, str] | None = None, seat: int | None = None
    ) -> Replayer:
        """The replay ``chicago replay`` shows of ``record``, with ``--seat`` if given.

        A finished game: every card face up, or only ``seat``'s view. An unfinished game:
        only one seat's view, by default the seat of the player who saved it (the
        ``Human`` tag, else seat 0), with a notice. Asking for another seat of an unfinished
        game that a player saved shows it, with a warning: those cards were hidden from
        that player, and the game may still be played on.
        """
        tags = dict(tags or {})
        human = human_seat(tags)
        replayer = cls(record, seat, tags, unfinished_seat=0 if human is None else human)
        if replayer.finished:
            return replayer
        shown = replayer.seat
        assert shown is not None
        names = tuple(replayer.names)
        if seat is None:
            replayer.notices.append(Notice(
                "tui.note.replay_unfinished_seat", names, n=shown, name=replayer.names[shown]
            ))
        elif human is not None and human < replayer.players and seat != human:
            replayer.warnings.append(Notice(
                "tui.note.replay_other_seat", names, human=human,
                human_name=replayer.names[human], n=seat, name=replayer.names[seat],
            ))
        else:
            replayer.notices.append(Notice(
                "tui.note.replay_unfinished", names, n=shown, name=replayer.names[shown]
            ))
        return replayer

    # ------------------------------------------------------------------ steps
    @property
    def steps(self) -> int:
        """The number of actions (the last step's number)."""
        return len(self._actions)

    def title(self, words: Words | None = None) -> str:
        """One line: rules, players, seed, and whose view is shown (``words``: its language,
        English by default)."""
        words = words if words is not None else Words(self.names, me=self.you)
        if self.seat is None:
            who = words.t("tui.rp.face_up")
        else:
            who = words.t("tui.rp.as_seat", whom=words.whom(self.seat), n=self.seat)
        return words.t(
            "tui.rp.title_finished" if self.finished else "tui.rp.title_unfinished",
            rules=self.rules.preset_name, n=self.players, names=", ".join(self.names),
            seed=self.seed, steps=self.steps, who=who,
        )

    def _visible(self, audience: int | None) -> bool:
        return self.seat is None or audience is None or audience == self.seat

    def events_of(self, step: int) -> list[Event]:
        """The events shown at ``step``: those its action caused (step 0: the first deal)."""
        step = self._check(step)
        start = 0 if step == 0 else self._bounds[step - 1]
        return [e for e in self._events[start : self._bounds[step]] if self._visible(e.audience)]

    def deal_events(self, step: int) -> list[Event]:
        """The shown events of the deal in play at ``step``, up to and including the step."""
        step = self._check(step)
        first = max(s for s in self.deal_starts if s <= step)
        start = 0 if first == 0 else self._bounds[first - 1]
        # the deal that ``first`` starts begins at its "deal" event
        events = self._events[start : self._bounds[step]]
        for index in range(len(events) - 1, -1, -1):
            if isinstance(events[index], Deal):
                events = events[index:]
                break
        return [e for e in events if self._visible(e.audience)]

    def game_at(self, step: int) -> Game:
        """An independent game in the position of ``step``."""
        step = self._check(step)
        if step == self.steps:
            return self._final.copy()
        index = step // CHECKPOINT_EVERY
        game = self._checkpoints[index].copy()
        for text in self._actions[index * CHECKPOINT_EVERY : step]:
            game.apply(text)
        return game

    def view_at(self, step: int) -> SeatView:
        """The shown seat's view at ``step`` (a spectator's view when every card is shown)."""
        return self.game_at(step).view(self.seat)

    def hands_at(self, step: int) -> dict[int, tuple[Card, ...]]:
        """The hands shown at ``step``: every seat's face up, or only the shown seat's."""
        game = self.game_at(step)
        seats = range(self.players) if self.seat is None else [self.seat]
        return {s: game.view(s).hand for s in seats}

    def actor_of(self, step: int) -> int | None:
        """Who acted at ``step`` (None for step 0)."""
        step = self._check(step)
        return None if step == 0 else self._seats[step - 1]

    def next_deal(self, step: int) -> int:
        """The first step of the next deal (or the last step)."""
        later = [s for s in self.deal_starts if s > step]
        return later[0] if later else self.steps

    def previous_deal(self, step: int) -> int:
        """The first step of this deal, or of the previous one when already there."""
        earlier = [s for s in self.deal_starts if s < step]
        return earlier[-1] if earlier else 0

    def _check(self, step: int) -> int:
        if not 0 <= step <= self.steps:
            raise IndexError(f"step must be 0-{self.steps}, not {step}")
        return step
