"""The full-screen game: ``chicago play`` in a Textual app.

Keys (also shown on the buttons and in the key line at the bottom), one key per action:

- ``1``-``6`` or a mouse click on a card: select it for discarding (exchange rounds), or
  play it (trick play; cards that may not be played are dimmed); ``Esc`` clears the choice;
- ``Enter`` exchange the selected cards (none selected: keep all), ``u`` one up with the one
  selected card; ``a`` announce, ``p`` pass, ``c`` Chicago, ``n`` no Chicago, ``y`` take the
  face-up card, ``r`` reject it / redeal / reset, ``k`` keep the dealt hand, ``t`` take the
  points for four of a kind;
- ``:`` type an answer as in the line mode (card numbers, card names, ``play`` and a
  card, ``pass``);
- ``s`` the score sheet of every deal, ``h`` the exact draw odds of your hand, ``?`` the keys
  and the rules, ``q`` save and quit. Every window opens with the keyboard in it: arrows,
  PageUp/PageDown and Home/End scroll it, Esc closes it.

At a deal's end the table, the scores and the log stay on that deal until Enter: the next
deal's cards are held back until the player goes on.

Everything on screen comes from the human's seat view and the events that seat may see, in
the player's language (``lang``).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Header, Input, RichLog, Static

from chicago.cards import SUIT_SYMBOLS, Card
from chicago.engine import Action, ActionKind, IllegalAction, SeatView
from chicago.engine.events import Deal, DealEnd, Event, GameEnd, Reveal
from chicago.tui.explain import why_not
from chicago.tui.hint_words import no_odds
from chicago.tui.hints import hint
from chicago.tui.inputs import InputError, command_of, parse_answer
from chicago.tui.lang import Lang
from chicago.tui.notice import say
from chicago.tui.render import (
    RED,
    card_text,
    colour_cards,
    hint_pages,
    hint_table,
    score_sheet,
    scores_table,
    table_panel,
)
from chicago.tui.rules_help import rules_help
from chicago.tui.screens import SizeNotice, TextScreen, keys_markdown
from chicago.tui.session import PlaySession, Step
from chicago.tui.summary import deal_summary, score_history
from chicago.tui.words import Words, symbol_card

__all__ = ["GAME_KEYS", "CardView", "KeyButton", "PlayApp"]

GAME_KEYS = (
    ("1-6", "tui.key.cards"), ("Enter", "tui.key.enter"), ("u", "tui.key.one_up"),
    ("Esc", "tui.key.esc"), ("a / p", "tui.key.announce"), ("c / n", "tui.key.chicago"),
    ("y / r", "tui.key.face_up"), ("r / k", "tui.key.redeal"), ("r / t", "tui.key.quads"),
    (":", "tui.key.type"), ("s", "tui.key.scores"), ("h", "tui.key.hint"),
    ("?", "tui.key.help"), ("q", "tui.key.quit"),
)
"""The keys of the game and what they do (catalogue keys), for the help window."""

_ACTION_KEYS = "apcnyrktu"
"""The letter keys that stand for an action; which one depends on the decision."""

_LETTERS = {
    ActionKind.ANNOUNCE: "a", ActionKind.PASS: "p", ActionKind.CHICAGO: "c",
    ActionKind.NO_CHICAGO: "n", ActionKind.ACCEPT: "y", ActionKind.REJECT: "r",
    ActionKind.REDEAL: "r", ActionKind.RESET: "r", ActionKind.SCORE: "t",
    ActionKind.DISCARD: "k",
}
"""The key of each kind of decision outside the exchange rounds (one key per action)."""

_TABLE_ACTIONS = frozenset(
    {"rules", "hint", "scores", "type", "quit_game", "confirm", "unfocus", "card", "key"}
)
"""The app's own actions (its key bindings), which belong to the table."""

_HAND_WIDTH = 6 * 8 + 2
"""The columns the left side needs for six cards (V-LOCK-6) and its padding."""


class CardView(Static):
    """One card of the hand: a small face; click to select or play it."""

    DEFAULT_CSS = """
    CardView {
        width: 7;
        height: 5;
        border: round $panel-lighten-2;
        padding: 0;
        margin: 0 1 0 0;
        content-align: center middle;
    }
    CardView.selected {
        border: heavy $warning;
        background: $warning 20%;
    }
    CardView.unplayable {
        opacity: 50%;
    }
    CardView.playable {
        border: round $success;
    }
    """

    class Pressed(Message):
        """A card of the hand was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int, out: str = "out") -> None:
        super().__init__("", id=f"card-{index}")
        self.index = index
        self.card: str | None = None
        self.out = out

    def show(self, card: str | None, *, selected: bool, playable: bool | None) -> None:
        """Show ``card`` (None hides the widget) with its selection and playability."""
        self.card = card
        self.display = card is not None
        if card is None:
            return
        label = symbol_card(card)
        suit = SUIT_SYMBOLS[Card(card).suit]
        style = RED if Card(card).suit in (1, 2) else "bold"
        face = Text()
        face.append(f"{label:^5}\n", style=style)
        face.append(f"{suit:^5}\n", style=style)
        face.append(f"{self.out if selected else '':^5}", style="bold")
        self.update(face)
        self.border_title = str(self.index + 1)
        self.set_class(selected, "selected")
        self.set_class(playable is True, "playable")
        self.set_class(playable is False, "unplayable")

    def on_click(self, event: events.Click) -> None:
        """Tell the app which card was clicked."""
        event.stop()
        self.post_message(self.Pressed(self.index))


class KeyButton(Button):
    """A button that never takes the keyboard focus (keys belong to the game)."""

    can_focus = False


class PlayApp(App[None]):
    """A game of Chicago against bots, full screen. ``delay`` paces the bots (seconds);
    ``lang`` is the language of every word on screen (English by default)."""

    TITLE = "Chicago"
    AUTO_FOCUS = None
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #right { width: 40%; border-left: solid $panel-lighten-1; }
    #status { height: auto; color: $text-muted; }
    #table-box { height: 1fr; }
    #hand { height: 5; }
    #prompt { height: auto; min-height: 2; }
    #actions { height: auto; }
    #actions Button { margin: 0 1 0 0; min-width: 0; width: auto; }
    #command { height: 1; }
    #scores { height: auto; }
    #log { height: 1fr; }
    #keys { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "rules", "Rules", show=False),
        Binding("h", "hint", "Odds", show=False),
        Binding("s", "scores", "Scores", show=False),
        Binding("colon,slash", "type", "Type", show=False),
        Binding("q", "quit_game", "Save & quit", show=False),
        Binding("enter,space", "confirm", "Confirm", show=False),
        Binding("escape", "unfocus", "Back", show=False),
        *[Binding(str(n), f"card({n - 1})", f"card {n}", show=False) for n in range(1, 7)],
        *[Binding(key, f"key('{key}')", key, show=False) for key in _ACTION_KEYS],
    ]

    def action_help_quit(self) -> None:
        """Ctrl+C: say, in the game's language, how to quit (Textual's own words are
        English and name ctrl+q)."""
        self.notify(self.words.t("tui.quit.play"), title=self.words.t("tui.quit.title"))

    def __init__(
        self, session: PlaySession, *, delay: float = 0.25, lang: Lang | str | None = None
    ) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.words = Words(session.names, me=session.human, card=symbol_card, lang=lang)
        self.levels = [
            "" if s == session.human else session.tags.get(f"Bot{s}", "")
            for s in range(session.players)
        ]
        self.selected: set[str] = set()
        self.error = ""
        self.notice = ""
        self.paused_summary: list[str] | None = None
        """The end of the deal in words while the screen waits for Enter (else None)."""
        self._pause_view: SeatView | None = None
        self._held: list[Event] = []
        self._deal_events: list[Event] = []
        self._last_view: SeatView = session.view()
        self._timer: Timer | None = None
        self._shown_notices = 0
        self._keys: dict[str, Action] = {}
        self._queue: list[Text] = []

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Table, hand, prompt and buttons on the left; scores and the log on the right."""
        t = self.words.t
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="status")
                with VerticalScroll(id="table-box"):
                    yield Static(id="table")
                with Horizontal(id="hand"):
                    for index in range(6):
                        yield CardView(index, out=t("tui.fs.out"))
                yield Static(id="prompt")
                with Horizontal(id="actions"):
                    yield KeyButton("", id="key-enter", compact=True)
                    for key in _ACTION_KEYS:
                        yield KeyButton("", id=f"key-{key}", compact=True)
                    yield KeyButton(
                        Content(f"[Enter] {t('btn.continue')}"), id="key-continue", compact=True
                    )
                yield Input(placeholder=t("tui.fs.placeholder"), id="command", compact=True)
            with Vertical(id="right"):
                yield Static(id="scores")
                yield RichLog(id="log", wrap=True, min_width=20, max_lines=2000)
        yield Static(t("tui.fs.keys_line"), id="keys")
        yield SizeNotice(self.words, "chicago play --plain --resume")

    def on_mount(self) -> None:
        """Write the story so far to the log and let the bots start."""
        self.sub_title = self.words.t(
            "tui.subtitle", rules=self.session.rules.preset_name, seed=self.session.seed
        )
        self._fit(self.size.width)
        log = self.query_one("#log", RichLog)
        for ev in self.session.history()[-300:]:
            if (text := self._log_text(ev)) is not None:
                log.write(text)
        self._deal_events = list(self._last_view.events)
        self._pump()

    def on_resize(self, event: events.Resize) -> None:
        """Keep room for six cards on the left; the scores and the log get the rest. Below
        80×24 a message covers the screen."""
        self._fit(event.size.width)
        self.query_one(SizeNotice).fit(event.size.width, event.size.height)

    def _fit(self, width: int) -> None:
        right = max(28, min(width * 2 // 5, width - _HAND_WIDTH))
        self.query_one("#right").styles.width = right

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys act on the table only when no window is open over it."""
        return not (action in _TABLE_ACTIONS and isinstance(self.screen, ModalScreen))

    # ------------------------------------------------------------------ the bots' turns
    def _pump(self) -> None:
        """Let bots (and forced decisions) act until the human decides or a deal ends.

        With a delay, one bot action (or one stage of a tie-break in the log) is shown per
        tick, so the table can be followed as it happens.
        """
        if self._timer is not None:
            return  # a tick is already due
        if self._queue:
            self.query_one("#log", RichLog).write(self._queue.pop(0))
            self._schedule()
            return
        while self.paused_summary is None:
            self._last_view = self.session.view()
            step = self.session.step()
            if step is None:
                break
            self._take(step)
            if self.delay > 0 and self.paused_summary is None and (
                step.seat != self.session.human or self._queue
            ):
                self._refresh_all()
                self._schedule()
                return
        self._refresh_all()

    def _schedule(self) -> None:
        self._timer = self.set_timer(self.delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self._pump()

    def _take(self, step: Step) -> None:
        """Show what a step did; at a deal's end, hold the next deal back until Enter."""
        for index, ev in enumerate(step.events):
            automatic = step.automatic and index == 0
            self._see(ev, self.words.t("tui.automatic") + " " if automatic else "")
            if isinstance(ev, DealEnd) and not self.session.over:
                self._pause(step.events[: index + 1])
                self._held = step.events[index + 1 :]
                break
        if step.seat == self.session.human:
            self.selected.clear()

    def _see(self, ev: Event, prefix: str = "") -> None:
        """One event: into the log (staged with a delay) and into this deal's events."""
        text = self._log_text(ev, prefix)
        if text is not None:
            if self.delay > 0 and (self._queue or isinstance(ev, Reveal)):
                self._queue.append(text)  # shown one stage at a time
            else:
                self.query_one("#log", RichLog).write(text)
        if isinstance(ev, Deal):
            self._deal_events = []
            self.selected.clear()
        self._deal_events.append(ev)

    def _pause(self, seen: list[Event]) -> None:
        """The deal is over: keep its table (scores, dealer, exchanges) until Enter."""
        end = seen[-1]
        assert isinstance(end, DealEnd)
        before = self._last_view
        self._pause_view = dataclasses.replace(
            before, to_act=None, scores=end.scores, events=(*before.events, *seen[: -1]),
            hand=(), hand_category=None, legal_actions=(), one_up=None,
        )
        self.paused_summary = deal_summary(self._deal_events, self.words)

    def _go_on(self) -> None:
        """Enter after a deal: show the next deal's events that were held back, go on."""
        self.paused_summary = None
        self._pause_view = None
        held, self._held = self._held, []
        for ev in held:
            self._see(ev)
        self.error = ""
        self._pump()

    def _log_text(self, ev: Event, prefix: str = "") -> Text | None:
        line = self.words.event(ev)
        if line is None:
            return None
        text = colour_cards(prefix + line)
        if isinstance(ev, Deal | DealEnd | GameEnd):
            text.stylize("bold")
        return text

    # ------------------------------------------------------------------ drawing
    def _view(self) -> SeatView:
        """What the screen shows: the ended deal while paused, else the seat's view now."""
        return self._pause_view if self._pause_view is not None else self.session.view()

    def _refresh_all(self) -> None:
        session = self.session
        view = self._view()
        for notice in session.notices[self._shown_notices :]:
            self.query_one("#log", RichLog).write(Text(say(notice, self.words), style="yellow"))
        self._shown_notices = len(session.notices)
        self.query_one("#scores", Static).update(scores_table(view, self.words, self.levels))
        if self._pause_view is not None:
            status = (
                self.words.deal_line(view.deal, view.dealer) + " · "
                + self.words.t("phase.deal_over")
            )
        else:
            status = self.words.phase_line(view)
        self.query_one("#status", Static).update(status)
        self.query_one("#table", Static).update(self._table_renderable(view))
        self.query_one("#hand").display = not (self.paused_summary is not None or session.over)
        self._draw_hand(view)
        self._draw_prompt(view)
        self._draw_buttons(view)

    def _table_renderable(self, view: SeatView) -> RenderableType:
        if self.session.over:
            return self._final_renderable(self.session.view())
        if self.paused_summary is not None:
            title, *rest = self.paused_summary
            return Group(Text(title, style="bold"), *[colour_cards(line) for line in rest])
        return table_panel(view, self.words)

    def _final_renderable(self, view: SeatView) -> RenderableType:
        words = self.words
        winners = view.winners
        names = words.listing(winners, start=True)
        plural = len(winners) != 1 or winners[0] == self.session.human
        parts: list[RenderableType] = [
            Text(words.t("tui.fs.over_head", names=names, plural=plural), style="bold green")
        ]
        parts.append(scores_table(view, words, self.levels, title=words.t("over.final")))
        settlement = view.settlement
        if settlement:
            parts.append(Text(words.t(
                "tui.settlement_at", stake=f"{self.session.rules.stake:g}",
                money=words.money(settlement),
            )))
        if self.session.save_path is not None:
            path = self.session.save_path
            parts.append(Text(words.t("tui.record_in", path=path), style="dim"))
            parts.append(Text(words.t("tui.watch_again", path=path), style="dim"))
        return Group(*parts)

    def _draw_hand(self, view: SeatView) -> None:
        hand = [str(c) for c in view.hand] if not self.session.over else []
        legal = view.legal_actions
        playing = view.phase == "play" and self.session.waiting_for_human
        playable = {str(a.card) for a in legal if a.kind is ActionKind.PLAY}
        self.selected &= set(hand)
        for index, widget in enumerate(self.query(CardView)):
            card = hand[index] if index < len(hand) and self.paused_summary is None else None
            widget.show(
                card,
                selected=card in self.selected,
                playable=(card in playable) if playing else None,
            )

    def _draw_prompt(self, view: SeatView) -> None:
        t = self.words.t
        text = Text()
        if self.session.over:
            text.append(t("tui.fs.over"), style="bold")
        elif self.paused_summary is not None:
            text.append(t("tui.fs.press_enter"), style="bold")
        elif self.session.waiting_for_human and not self._queue:
            text.append(self._question(view), style="bold")
        else:
            text.append(t("q.wait", whom=self.words.whom(view.to_act)), style="dim")
        if self.error and self.error != text.plain:
            text.append(f"\n{self.error}", style="bold red")
        elif self.notice:
            text.append(f"\n{self.notice}", style="dim")
        self.query_one("#prompt", Static).update(text)

    def _question(self, view: SeatView) -> str:
        t = self.words.t
        phase = view.phase
        if phase == "exchange":
            if len(view.hand) == 6:
                return t("tui.fs.q.six")
            most = max(
                (len(a.cards) for a in view.legal_actions if a.kind is ActionKind.DISCARD),
                default=0,
            )
            return (
                t("tui.fs.q.exchange", r=view.round) + " "
                + t("sel.count", n=len(self.selected), max=most) + "."
            )
        if phase == "play":
            key = "q.play_follow" if view.trick else "q.play_lead"
            return t(key, r=view.trick_number) + " " + t("tui.fs.q.play")
        return self.words.question(view)

    def _draw_buttons(self, view: SeatView) -> None:
        keys = self._key_actions(view)
        self._keys = keys
        for key in _ACTION_KEYS:
            button = self.query_one(f"#key-{key}", Button)
            action = keys.get(key)
            button.display = action is not None
            if action is not None:
                label = self.words.choice_label(action, view)
                self._label(button, f"[{key}] {label}")
        enter = self.query_one("#key-enter", Button)
        exchange = self._exchange_action(view)
        enter.display = exchange is not None
        if exchange is not None:
            self._label(enter, f"[Enter] {self._exchange_label(exchange, view)}")
        self.query_one("#key-continue", Button).display = (
            self.paused_summary is not None and not self.session.over
        )

    @staticmethod
    def _label(button: Button, text: str) -> None:
        """A new label, and the button's width measured again (a longer label is whole)."""
        if str(button.label) != text:
            button.label = Content(text)
            button.refresh(layout=True)

    def _exchange_action(self, view: SeatView) -> Action | None:
        """What Enter does now in an exchange round (None: not the human's exchange)."""
        if not self._deciding() or view.phase != "exchange":
            return None
        if len(view.hand) == 6 and len(self.selected) != 1:
            return None  # V-LOCK-6: exactly one card goes
        return Action.discard(self.selected)

    def _exchange_label(self, action: Action, view: SeatView) -> str:
        t = self.words.t
        count = len(action.cards)
        if len(view.hand) == 6:
            return t("tui.btn.discard", cards=self.words.cards(action.cards))
        return t("btn.exchange", n=count) if count else t("btn.keep")

    def _deciding(self) -> bool:
        return (
            self.paused_summary is None and self.session.waiting_for_human and not self._queue
        )

    def _key_actions(self, view: SeatView) -> dict[str, Action]:
        """The letter keys that mean an action now (Enter's exchange is apart)."""
        if not self._deciding():
            return {}
        legal = view.legal_actions
        keys: dict[str, Action] = {}
        if view.phase == "exchange":
            if len(self.selected) == 1:
                one_up = Action.one_up(next(iter(self.selected)))
                if one_up in legal:
                    keys["u"] = one_up
            return keys
        for action in legal:
            letter = _LETTERS.get(action.kind)
            if letter is not None and action.target is None:  # "reset 2" is typed (V-QUADS-ONE)
                keys[letter] = action
        return keys

    # ------------------------------------------------------------------ the human's turn
    def _act(self, action: Action) -> None:
        self.notice = ""
        view = self.session.view()
        self._last_view = view
        try:
            step = self.session.act(action)
        except IllegalAction:
            self.error = self.words.t("tui.refused", why=why_not(action, view, self.words))
            self._refresh_all()
            return
        self.error = ""
        self._take(step)
        self._pump()

    def _may_act(self) -> bool:
        """True when the human may act now; otherwise say why."""
        t = self.words.t
        # the prompt asks already (Enter, q): say what the key did, not the question again
        if self.session.over:
            self.error = t("tui.fs.not_now_over")
        elif self.paused_summary is not None:
            self.error = t("tui.fs.not_now_deal_over")
        elif self._queue or not self.session.waiting_for_human:
            self.error = t("tui.fs.wait")
        else:
            return True
        self._refresh_all()
        return False

    def action_card(self, index: int) -> None:
        """Select (exchange) or play (tricks) the card at ``index`` of the hand."""
        if not self._may_act():
            return
        view = self.session.view()
        hand = [str(c) for c in view.hand]
        if index >= len(hand):
            self.error = self.words.t("tui.fs.no_card", n=index + 1, size=len(hand))
            self._refresh_all()
            return
        card = hand[index]
        if view.phase == "exchange":
            self.error = ""
            if card in self.selected:
                self.selected.discard(card)
            else:
                self.selected.add(card)
            self._refresh_all()
        elif view.phase == "play":
            self._act(Action.play(card))
        else:
            self.error = self.words.t("tui.fs.no_card_now", question=self.words.question(view))
            self._refresh_all()

    def on_card_view_pressed(self, message: CardView.Pressed) -> None:
        """A click on a card is the same as its number key."""
        self.action_card(message.index)

    def action_key(self, key: str) -> None:
        """A letter key: the action it stands for now."""
        if not self._may_act():
            return
        action = self._keys.get(key)
        if action is None:
            view = self.session.view()
            self.error = self.words.t(
                "tui.fs.key_means_nothing", letter=key, question=self._question(view)
            )
            self._refresh_all()
            return
        self._act(action)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        event.stop()
        key = (event.button.id or "").removeprefix("key-")
        if key in ("continue", "enter"):
            self.action_confirm()
        else:
            self.action_key(key)

    def action_confirm(self) -> None:
        """Enter: go on after a deal, or exchange the selected cards (none: keep all)."""
        if self.paused_summary is not None and not self.session.over:
            self._go_on()
            return
        if not self._may_act():
            return
        view = self.session.view()
        exchange = self._exchange_action(view)
        if exchange is not None:
            self._act(exchange)
        elif view.phase == "exchange":  # six cards, not exactly one selected
            self.error = self.words.t("tui.fs.q.six")
            self._refresh_all()
        else:
            self.error = self._question(view)
            self._refresh_all()

    def action_type(self) -> None:
        """Focus the input line to type an answer."""
        self.query_one("#command", Input).focus()

    def action_unfocus(self) -> None:
        """Leave the input line; on the table, clear the selected cards."""
        if self.focused is None and self.selected:
            self.selected.clear()
            self.error = ""
            self._refresh_all()
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A typed answer, as in the line mode (numbers are card positions)."""
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        self.set_focus(None)
        if not text:
            return
        request = command_of(text)
        if request is not None:
            actions = {
                "help": self.action_rules, "hint": self.action_hint,
                "quit": self.action_quit_game, "scores": self.action_scores,
                "state": self._refresh_all,
            }
            actions[request]()
            return
        if self.paused_summary is not None and not self.session.over:
            self._go_on()
        if not self._may_act():
            return
        try:
            action = parse_answer(text, self.session.view(), menu=False)
        except InputError as exc:
            self.error = self.words.t("tui.not_accepted", why=exc.say(self.words))
            self._refresh_all()
            return
        self._act(action)

    # ------------------------------------------------------------------ windows and quitting
    def _window(self, title: str, body: RenderableType, screen_id: str, keys: str) -> None:
        self.push_screen(TextScreen(
            title, body, screen_id, close_keys=keys, footer=self.words.t("tui.window_keys"),
        ))

    def action_rules(self) -> None:
        """The keys, then the rules of this game's rule set."""
        t = self.words.t
        text = keys_markdown(GAME_KEYS, self.words) + "\n" + rules_help(
            self.session.rules, self.words.lang
        )
        self._window(t("tui.fs.help_title"), Markdown(text), "help-screen", "question_mark,f1")

    def action_scores(self) -> None:
        """The score sheet: every finished deal's points and the totals."""
        deals = score_history(self.session.history())
        body = score_sheet(deals, self.session.players, self.words)
        self._window(self.words.t("score.title"), body, "scores-screen", "s")

    def action_hint(self) -> None:
        """The exact draw odds of the hand (from your own view only)."""
        if self.paused_summary is not None:
            self.error = self.words.t("tui.fs.not_now_deal_over")
            self._refresh_all()
            return
        view = self.session.view()
        try:
            result = hint(view)
        except ValueError:
            self.error = no_odds(len(view.hand), self.words)
            self._refresh_all()
            return
        hand = Text(self.words.t("table.hand") + ": ")
        for index, card in enumerate(result.hand):
            if index:
                hand.append(" ")
            hand.append_text(card_text(card))
        # the window's inside: 90% of the screen less its border, padding and scroll bar
        width = self.size.width * 9 // 10 - 6
        pages = hint_pages(result, self.words, width)
        bodies = [
            Group(hand, Text(""), hint_table(result, words=self.words, columns=columns,
                                             page=(number, len(pages))))
            for number, columns in enumerate(pages, 1)
        ]
        self.push_screen(TextScreen(
            self.words.t("tui.fs.odds_title"), bodies[0], "hint-screen", close_keys="h",
            footer=self.words.t("tui.window_pages" if len(pages) > 1 else "tui.window_keys"),
            pages=bodies[1:],
        ))

    def action_quit_game(self) -> None:
        """Save and leave."""
        if self._timer is not None:
            self._timer.stop()
        self.session.save()
        self.exit()
