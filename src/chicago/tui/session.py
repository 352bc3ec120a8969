"""A game of one human against bots, with saving and resuming; shared by every terminal shell.

:class:`PlaySession` owns the :class:`~chicago.Game`, asks the bots for their actions, takes
forced decisions for the human (a single legal action, such as "pass" with nothing to
announce) and saves the record after every action. The shells only call :meth:`view`,
:meth:`step`, :meth:`act` and read the returned events, which are those the human's seat may
see: the session never hands out another seat's cards.

Bots get a fresh random generator per decision, seeded from the game's seed and the number
of actions so far, so a resumed game goes on exactly as it would have without the break.

>>> from chicago import Rules
>>> s = PlaySession.new(Rules.preset("pagat"), players=3, bot_specs=["random"], seed=5)
>>> while s.step() is not None:
...     pass
>>> s.waiting_for_human
True
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chicago.bots import Bot, level_names, make_bot
from chicago.engine import Action, Game, IllegalAction, SeatView
from chicago.engine.events import DealEnd, Event
from chicago.rules import Rules
from chicago.tui.lang import Lang, get_lang
from chicago.tui.notice import Notice, Seats
from chicago.tui.storage import is_text_name, load_record, save_record

__all__ = ["DEFAULT_BOT", "PlaySession", "Step", "bot_name", "make_bots"]

DEFAULT_BOT = "basic"
"""The bot level used when none is asked for (``random`` if it is not installed)."""



def bot_name(seat: int, lang: Lang | str | None = None) -> str:
    """A bot seat's name, as the browser app names it: ``Bot 2`` (``Dator 2`` in Swedish)
    for seat 1.

    >>> bot_name(1), bot_name(3, "sv")
    ('Bot 2', 'Dator 4')
    """
    return get_lang(lang).t("bot_name", n=seat + 1)


@dataclass
class Step:
    """One action and what the human saw of it."""

    seat: int
    """Who acted."""
    action: str | None
    """The action's text when the human may know it (their own actions), else None."""
    automatic: bool
    """True for a forced action the session took for the human (the only legal one)."""
    events: list[Event] = field(default_factory=list)
    """The events the action caused that the human's seat may see."""


def make_bots(
    specs: Sequence[str], players: int, human: int = 0
) -> tuple[dict[int, Bot], list[str], list[str]]:
    """Bots for every seat but ``human``: ``(bots by seat, specs used, notices)``.

    ``specs`` are given for the other seats in seat order; a shorter list repeats its last
    entry (none: :data:`DEFAULT_BOT`). A bot level of :data:`chicago.bots.LEVELS` that is not
    installed falls back to ``random`` with a notice; an unknown name raises ``ValueError``.
    """
    others = [s for s in range(players) if s != human]
    wanted = [spec.strip() for spec in specs if spec.strip()] or [DEFAULT_BOT]
    if len(wanted) > len(others):
        raise ValueError(
            f"{len(wanted)} bots given for {len(others)} other seats (--players {players})"
        )
    wanted += [wanted[-1]] * (len(others) - len(wanted))
    bots: dict[int, Bot] = {}
    used: list[str] = []
    notices: list[str] = []
    for seat, spec in zip(others, wanted, strict=True):
        try:
            bot = make_bot(spec)
        except ValueError:
            if spec.split(":", 1)[0].lower() not in level_names():
                raise
            note = Notice("tui.note.unavailable", spec=spec)
            if note not in notices:
                notices.append(note)
            spec = "random"
            bot = make_bot(spec)
        bots[seat] = bot
        used.append(spec)
    return bots, used, notices


class PlaySession:
    """A game between the human at seat ``human`` and bots at every other seat.

    Build one with :meth:`new` or :meth:`resume`. ``save_path`` (None: no saving) receives
    the record after every action; ``auto`` lets :meth:`step` take forced decisions for the
    human.
    """

    def __init__(
        self,
        game: Game,
        bots: dict[int, Bot],
        names: Sequence[str],
        *,
        human: int = 0,
        save_path: Path | None = None,
        tags: dict[str, str] | None = None,
        auto: bool = True,
        notices: Sequence[str] = (),
        text_format: bool = False,
    ) -> None:
        if sorted(bots) != [s for s in range(game.players) if s != human]:
            raise ValueError("every seat but the human's needs a bot")
        self._game = game
        self.bots = dict(bots)
        self.names = list(names)
        self.human = human
        self.save_path = save_path
        self.tags = dict(tags or {})
        self.auto = auto
        self.notices = list(notices)
        self.text_format = text_format
        self.save_error: str | None = None
        self._texts: list[list[Any]] | None = None  # [seat, action text], as in the record
        self._header: dict[str, Any] = {}
        self._told_why_on = False

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int = 4,
        bot_specs: Sequence[str] = (),
        seed: int | None = None,
        name: str = "You",
        save_path: Path | None = None,
        *,
        human: int = 0,
        auto: bool = True,
        lang: Lang | str | None = None,
    ) -> PlaySession:
        """A new game; raises ``ValueError`` for a bad player count or an unknown bot. The
        bots are named in ``lang`` (:func:`bot_name`), as the browser names them."""
        game = Game(rules, players=players, seed=seed)
        bots, used, notices = make_bots(bot_specs, players, human)
        names = [name if seat == human else bot_name(seat, lang) for seat in range(players)]
        tags = {
            "Event": "chicago play",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "Human": str(human),
        }
        for seat in range(players):
            tags[f"Name{seat}"] = names[seat]
        for seat, spec in zip((s for s in range(players) if s != human), used, strict=True):
            tags[f"Bot{seat}"] = spec
        session = cls(
            game, bots, names, human=human, save_path=save_path, tags=tags, auto=auto,
            notices=notices, text_format=save_path is not None and is_text_name(save_path),
        )
        session.save()
        return session

    @classmethod
    def resume(
        cls, path: str | Path, save_path: Path | None = None, *, auto: bool = True
    ) -> PlaySession:
        """Continue a saved game (JSON or text record). By default it keeps saving to ``path``.

        Raises :class:`~chicago.record.RecordError` (a ``ValueError``) for a bad record and
        ``OSError`` if the file cannot be read.
        """
        loaded = load_record(path)
        game = Game.replay(loaded.record)
        tags = dict(loaded.tags)
        try:
            human = int(tags.get("Human", "0"))
        except ValueError:
            human = 0
        if not 0 <= human < game.players:
            human = 0
        specs = [tags.get(f"Bot{s}", DEFAULT_BOT) for s in range(game.players) if s != human]
        bots, used, notices = make_bots(specs, game.players, human)
        for seat, spec in zip((s for s in range(game.players) if s != human), used, strict=True):
            tags[f"Bot{seat}"] = spec
        names = []
        for seat in range(game.players):
            default = "You" if seat == human else bot_name(seat)
            names.append(tags.setdefault(f"Name{seat}", default))
        tags.setdefault("Human", str(human))
        return cls(
            game, bots, names, human=human,
            save_path=Path(path) if save_path is None else save_path,
            tags=tags, auto=auto, notices=notices, text_format=loaded.text_format,
        )

    # ------------------------------------------------------------------ what the human sees
    @property
    def rules(self) -> Rules:
        """The rule set of the game."""
        return self._game.rules

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._game.players

    @property
    def seed(self) -> int:
        """The game's seed."""
        return self._game.seed

    @property
    def to_act(self) -> int | None:
        """The seat to act, None when the game is over."""
        return self._game.to_act

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return self._game.is_over

    @property
    def waiting_for_human(self) -> bool:
        """True when the human must decide (and it is not a forced decision for :meth:`step`)."""
        game = self._game
        if game.to_act != self.human:
            return False
        return not (self.auto and len(game.legal_actions()) == 1)

    def view(self) -> SeatView:
        """The human's seat view (:meth:`chicago.Game.view`)."""
        return self._game.view(self.human)

    def legal(self) -> list[Action]:
        """The human's legal actions now ([] when it is not the human's turn)."""
        return list(self.view().legal_actions)

    def history(self) -> list[Event]:
        """Every event of the game so far that the human may see."""
        return self._game.events_for(self.human)

    def record(self) -> dict[str, Any]:
        """The game record so far, with this session's tags."""
        record = self._game_record()
        return {**record, "actions": list(record["actions"]), "tags": dict(self.tags)}

    def _game_record(self) -> dict[str, Any]:
        """:meth:`chicago.Game.record`, without turning every action into text again.

        The game is saved after every action, and a long game (hundreds of deals under
        V-CHI-DECLARED) has many thousands: the action texts are kept as they come, and
        the record is built from them and the game's public state. A finished game (and
        anything unusual, such as a record with fixed decks) gets the engine's own record.
        """
        game = self._game
        texts = self._texts
        if game.is_over or texts is None or len(texts) != len(game.actions):
            full: dict[str, Any] = dict(game.record())
            if not game.is_over and "decks" not in full:
                self._texts = [list(item) for item in full["actions"]]
                self._header = {
                    k: v for k, v in full.items() if k not in ("actions", "result")
                }
            return full
        return {
            **self._header,
            "actions": texts,
            "result": {
                "over": False,
                "deals": game.deal_number,
                "scores": list(game.scores),
                "winners": list(game.winners),
                "settlement": None,
            },
        }

    # ------------------------------------------------------------------ moving on
    def step(self) -> Step | None:
        """Take the next action that is not the human's to choose.

        That is a bot's action, or the human's only legal action when ``auto`` is on.
        Returns None when the human must decide or the game is over.
        """
        game = self._game
        seat = game.to_act
        if seat is None:
            return None
        legal = game.legal_actions()
        if seat == self.human:
            if not (self.auto and len(legal) == 1):
                return None
            return self._apply(seat, legal[0], automatic=True)
        key = f"chicago-play:{game.seed}:{len(game.actions)}"
        view = game.view(seat)
        problem: str | None = None
        error = ""
        try:
            action = self.bots[seat].decide(view, legal, random.Random(key))
            if not game.is_legal(action):
                problem = "illegal"
        except Exception as exc:  # a broken bot must not end the human's game
            # never its message: it could name the bot's hidden cards
            problem, error = "failed", type(exc).__name__
        if problem is not None:
            # Never say what the bot wanted to do: an illegal "play 6h" names a hidden card.
            action, instead = self._stand_in(view, legal, random.Random(key + ":fallback"))
            self.notices.append(Notice(
                f"tui.note.bot_{problem}_{instead}", name=self.names[seat], error=error,
                level=DEFAULT_BOT,
            ))
        return self._apply(seat, action, automatic=False)

    def _stand_in(
        self, view: SeatView, legal: list[Action], rng: random.Random
    ) -> tuple[Action, str]:
        """The action that replaces a misbehaving bot's, and who chose it (``stand_in`` for
        the basic bot, ``random`` for a random legal action).

        The stand-in is the ``basic`` bot deciding from the same seat view; a random legal
        action if it is not installed or fails too.
        """
        try:
            action = make_bot(DEFAULT_BOT).decide(view, legal, rng)
            chosen = Action.parse(action)
            if chosen in legal:
                return chosen, "stand_in"
        except Exception:  # the stand-in must not end the game either
            pass
        return legal[rng.randrange(len(legal))], "random"

    def act(self, action: Action | str) -> Step:
        """The human's action (an Action or its text).

        Raises :class:`~chicago.IllegalAction` with the reason, changing nothing, when it is
        not the human's turn or the action is not legal.
        """
        game = self._game
        if game.to_act != self.human:
            reason = "the game is over" if game.is_over else "it is not your turn"
            raise IllegalAction(reason, action, self.human)
        return self._apply(self.human, action, automatic=False)

    def _apply(self, seat: int, action: Action | str, automatic: bool) -> Step:
        game = self._game
        start = len(game.events)
        game.apply(action)
        if self._texts is not None:
            done_by, done = game.actions[-1]
            self._texts.append([done_by, str(done)])
        events = [e for e in game.events[start:] if e.visible_to(self.human)]
        text = str(Action.parse(action)) if seat == self.human else None
        if not self._told_why_on and any(isinstance(e, DealEnd) for e in events):
            self._tell_why_the_game_goes_on()
        self._autosave()
        return Step(seat, text, automatic, events)

    def _tell_why_the_game_goes_on(self) -> None:
        """Once, a notice when a deal ends above the target and the game still goes on.

        Under V-CHI-DECLARED only a player who has declared a Chicago can win, and under
        V-WIN-AGAIN a player at the target must win a later last trick, so a game can go on
        for many deals; the notice says why (from public information only: the view's
        ``chicago_declared``).
        """
        game, rules = self._game, self.rules
        if game.is_over:
            return
        above = [s for s in range(game.players) if game.scores[s] >= rules.target]
        if not above:
            return
        if rules.chicago_required == "declared":
            declared = self.view().chicago_declared  # public: the whole table saw them
            waiting = [s for s in above if not declared[s]]
            if not waiting:
                return
            scores = Seats(tuple((s, game.scores[s]) for s in waiting))
            note = Notice(
                "tui.note.goes_on_declared", tuple(self.names), n=rules.target, scores=scores
            )
        elif rules.win_again:
            note = Notice("tui.note.goes_on_again", n=rules.target)
        else:
            return
        self._told_why_on = True
        self.notices.append(note)

    # ------------------------------------------------------------------ saving
    def _autosave(self) -> None:
        if self.text_format and not (self.over or self._game.to_act == self.human):
            return  # the text notation replays the game to write it: save at decisions only
        self.save()

    def save(self) -> bool:
        """Write the record to ``save_path`` now; False (and ``save_error``) if that failed."""
        if self.save_path is None:
            return True
        try:
            save_record(
                self.save_path, self._game_record(), self.tags, text_format=self.text_format
            )
        except OSError as exc:
            self.save_error = f"could not save to {self.save_path}: {exc}"
            return False
        self.save_error = None
        return True
