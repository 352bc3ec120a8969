"""The full-screen game: ``chicago play`` in a Textual app.

Keys (also shown on the buttons and in the footer):

- ``1``-``6`` or a mouse click on a card: select it for discarding (exchange rounds), or
  play it (trick play; cards that may not be played are dimmed);
- ``Enter``/``x`` exchange the selected cards (none selected: keep all), ``k`` keep all,
  ``u`` one up with the one selected card; ``a`` announce / accept, ``p`` pass,
  ``c`` Chicago, ``n`` no Chicago, ``r`` reject / redeal / reset, ``s`` score;
- ``:`` type an answer as in the line mode (card numbers, card names, ``play`` and a
  card, ``pass``);
- ``h`` the exact draw odds of your hand, ``?`` the rules, ``q`` save and quit.

Everything on screen comes from the human's seat view and the events that seat may see.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, RichLog, Static

from chicago.cards import SUIT_SYMBOLS, Card
from chicago.engine import Action, ActionKind
from chicago.tui.hints import hint
from chicago.tui.inputs import command_of, parse_answer
from chicago.tui.render import (
    RED,
    card_text,
    colour_cards,
    hint_table,
    scores_table,
    table_panel,
)
from chicago.tui.rules_help import rules_help
from chicago.tui.screens import TextScreen
from chicago.tui.session import PlaySession, Step
from chicago.tui.words import Words, symbol_card

__all__ = ["KEYS_HELP", "CardView", "KeyButton", "PlayApp"]

KEYS_HELP = """## Keys

- `1`-`6` or click a card: select it for discarding (exchange rounds) or play it (tricks)
- `Enter` or `x`: exchange the selected cards (nothing selected: keep all); `k` keep all
- `u`: ask for the new card face up (one up), with exactly one card selected
- `a` announce or accept · `p` pass · `c` Chicago · `n` no Chicago
- `r` reject, redeal or reset · `s` score
- `:` type an answer: card numbers (`1 3`), card names (rank and suit letter), `keep`,
  `play` and a card, `pass`, `announce pair`
- `h` draw odds of your hand · `?` these rules · `q` save and quit
"""

_ACTION_KEYS = "xkuapcnrs"


class CardView(Static):
    """One card of the hand: a small face; click to select or play it."""

    DEFAULT_CSS = """
    CardView {
        width: 8;
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

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"card-{index}")
        self.index = index
        self.card: str | None = None

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
        face.append(f"{label:^6}\n", style=style)
        face.append(f"{suit:^6}\n", style=style)
        face.append(f"{'out' if selected else '':^6}", style="bold")
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
    """A game of Chicago against bots, full screen. ``delay`` paces the bots (seconds)."""

    TITLE = "Chicago"
    AUTO_FOCUS = None
    CSS = """
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #right { width: 40%; min-width: 30; border-left: solid $panel-lighten-1; }
    #status { height: auto; color: $text-muted; }
    #table-box { height: 1fr; }
    #hand { height: 5; }
    #prompt { height: auto; min-height: 2; }
    #actions { height: auto; }
    #actions Button { margin: 0 1 0 0; }
    #command { height: 1; margin-top: 1; }
    #scores { height: auto; }
    #log { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "rules", "Rules"),
        Binding("h", "hint", "Odds"),
        Binding("colon,slash", "type", "Type"),
        Binding("q", "quit_game", "Save & quit"),
        Binding("enter,space", "confirm", "Confirm", show=False),
        Binding("escape", "unfocus", "Back", show=False),
        *[Binding(str(n), f"card({n - 1})", f"card {n}", show=False) for n in range(1, 7)],
        *[Binding(key, f"key('{key}')", key, show=False) for key in _ACTION_KEYS],
    ]

    def __init__(self, session: PlaySession, *, delay: float = 0.25) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.words = Words(session.names, me=session.human, card=symbol_card)
        self.levels = [
            "" if s == session.human else session.tags.get(f"Bot{s}", "")
            for s in range(session.players)
        ]
        self.selected: set[str] = set()
        self.error = ""
        self.notice = ""
        self.paused_summary: list[str] | None = None
        self._deal_lines: list[str] = []
        self._timer: Timer | None = None
        self._shown_notices = 0
        self._keys: dict[str, Action] = {}
        self._queue: list[Text] = []

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Table, hand, prompt and buttons on the left; scores and the log on the right."""
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="status")
                with VerticalScroll(id="table-box"):
                    yield Static(id="table")
                with Horizontal(id="hand"):
                    for index in range(6):
                        yield CardView(index)
                yield Static(id="prompt")
                with Horizontal(id="actions"):
                    for key in _ACTION_KEYS:
                        yield KeyButton("", id=f"key-{key}", compact=True)
                    yield KeyButton(Content("[Enter] continue"), id="key-continue", compact=True)
                yield Input(
                    placeholder="press : to type an answer (card numbers, cards, pass, help …)",
                    id="command",
                    compact=True,
                )
            with Vertical(id="right"):
                yield Static(id="scores")
                yield RichLog(id="log", wrap=True, min_width=20, max_lines=2000)
        yield Footer()

    def on_mount(self) -> None:
        """Write the story so far to the log and let the bots start."""
        self.sub_title = f"rules {self.session.rules.preset_name}, seed {self.session.seed}"
        log = self.query_one("#log", RichLog)
        history = self.session.history()
        for ev in history[-300:]:
            if (text := self._log_text(ev)) is not None:
                log.write(text)
        self._deal_lines = [
            line for ev in self.session.view()["events"] if (line := self.words.event(ev))
        ]
        self._pump()

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
        log = self.query_one("#log", RichLog)
        for index, ev in enumerate(step.events):
            prefix = "(automatic) " if step.automatic and index == 0 else ""
            text = self._log_text(ev, prefix)
            if text is not None:
                if self.delay > 0 and (self._queue or ev.get("type") == "reveal"):
                    self._queue.append(text)  # shown one stage at a time
                else:
                    log.write(text)
            if ev.get("type") == "deal":
                self._deal_lines = []
                self.selected.clear()
            if (line := self.words.event(ev)) is not None:
                self._deal_lines.append(prefix + line)
            if ev.get("type") == "deal_end" and not self.session.over:
                self.paused_summary = self._summary_of_deal()
        if step.seat == self.session.human:
            self.selected.clear()

    def _summary_of_deal(self) -> list[str]:
        """The end of the deal in words: from the last trick (or what ended it) on."""
        lines = self._deal_lines
        for index, line in enumerate(lines):
            last_trick = " trick 5 with " in line
            if last_trick or line.startswith(("The Chicago fails", "Four of a kind:")):
                return lines[index:]
        return lines[-6:]

    def _log_text(self, ev: dict[str, Any], prefix: str = "") -> Text | None:
        line = self.words.event(ev)
        if line is None:
            return None
        text = colour_cards(prefix + line)
        if ev.get("type") in ("deal", "deal_end", "game_end"):
            text.stylize("bold")
        return text

    # ------------------------------------------------------------------ drawing
    def _refresh_all(self) -> None:
        session = self.session
        view = session.view()
        for notice in session.notices[self._shown_notices :]:
            self.query_one("#log", RichLog).write(Text(notice, style="yellow"))
        self._shown_notices = len(session.notices)
        self.query_one("#scores", Static).update(
            scores_table(view, self.words, self.levels, title="Scores")
        )
        self.query_one("#status", Static).update(self.words.phase_line(view))
        self.query_one("#table", Static).update(self._table_renderable(view))
        self._draw_hand(view)
        self._draw_prompt(view)
        self._draw_buttons(view)

    def _table_renderable(self, view: dict[str, Any]) -> RenderableType:
        if self.session.over:
            return self._final_renderable(view)
        if self.paused_summary is not None:
            return Group(
                Text("The deal is over.", style="bold"),
                *[colour_cards(line) for line in self.paused_summary],
            )
        return table_panel(view, self.words)

    def _final_renderable(self, view: dict[str, Any]) -> RenderableType:
        winners = view.get("winners", [])
        names = " and ".join(self.words.who(s) for s in winners) or "nobody"
        verb = "win" if len(winners) != 1 or winners[0] == self.session.human else "wins"
        parts: list[RenderableType] = [
            Text(f"The game is over: {names} {verb}!", style="bold green")
        ]
        parts.append(scores_table(view, self.words, self.levels, title="Final scores"))
        settlement = view.get("settlement") or []
        if settlement:
            parts.append(Text(
                f"Settlement at {self.session.rules.stake:g} per point: "
                + self.words.money(settlement)
            ))
        if self.session.save_path is not None:
            parts.append(Text(f"Record: {self.session.save_path}", style="dim"))
            parts.append(Text(f"Watch it again: chicago replay {self.session.save_path}",
                              style="dim"))
        return Group(*parts)

    def _draw_hand(self, view: dict[str, Any]) -> None:
        hand = view["hand"] if not self.session.over else []
        legal = [Action.parse(a) for a in view.get("legal_actions", [])]
        playing = view["phase"] == "play" and self.session.waiting_for_human
        playable = {str(a.card) for a in legal if a.kind is ActionKind.PLAY}
        self.selected &= set(hand)
        for index, widget in enumerate(self.query(CardView)):
            card = hand[index] if index < len(hand) and self.paused_summary is None else None
            widget.show(
                card,
                selected=card in self.selected,
                playable=(card in playable) if playing else None,
            )

    def _draw_prompt(self, view: dict[str, Any]) -> None:
        text = Text()
        if self.session.over:
            text.append("The game is over. Press q to quit.", style="bold")
        elif self.paused_summary is not None:
            text.append("Press Enter to go on to the next deal.", style="bold")
        elif self.session.waiting_for_human and not self._queue:
            text.append(self._question(view), style="bold")
        else:
            who = self.words.whom(view.get("to_act"))
            text.append(f"Waiting for {who}…", style="dim")
        if self.error:
            text.append(f"\n{self.error}", style="bold red")
        elif self.notice:
            text.append(f"\n{self.notice}", style="dim")
        self.query_one("#prompt", Static).update(text)

    def _question(self, view: dict[str, Any]) -> str:
        phase = view["phase"]
        if phase == "exchange":
            if len(view["hand"]) == 6:
                return "You hold six cards: select the one to discard (1-6), then Enter."
            chosen = len(self.selected)
            return (
                f"Exchange round {view['round']}: select cards to discard (1-5 or click), "
                f"then Enter. Selected: {chosen}."
            )
        if phase == "play":
            return f"Trick {view['trick_number']}: play a card (its number or a click)."
        return self.words.question(view)

    def _draw_buttons(self, view: dict[str, Any]) -> None:
        keys = self._key_actions(view)
        self._keys = keys
        for key in _ACTION_KEYS:
            button = self.query_one(f"#key-{key}", Button)
            action = keys.get(key)
            button.display = action is not None
            if action is not None:
                button.label = Content(f"[{key}] {self._button_label(key, action, view)}")
        self.query_one("#key-continue", Button).display = self.paused_summary is not None

    def _button_label(self, key: str, action: Action, view: dict[str, Any]) -> str:
        if key == "x":
            return f"exchange {len(self.selected)}" if self.selected else "keep all (Enter)"
        if action.kind is ActionKind.ONE_UP:
            return f"one up {symbol_card(str(action.card))}"
        if action.kind is ActionKind.ACCEPT and view.get("one_up"):
            return f"accept {symbol_card(view['one_up']['card'])}"
        if action.kind is ActionKind.DISCARD and not action.cards:
            return "keep"
        return str(action)

    def _key_actions(self, view: dict[str, Any]) -> dict[str, Action]:
        """The letter keys that mean an action now."""
        if self.paused_summary is not None or not self.session.waiting_for_human or self._queue:
            return {}
        legal = [Action.parse(a) for a in view.get("legal_actions", [])]
        kinds = {a.kind: a for a in legal}
        keys: dict[str, Action] = {}
        phase = view["phase"]
        if phase == "exchange":
            keys["x"] = Action.discard(self.selected)
            if len(view["hand"]) != 6:
                keys["k"] = Action.discard(())
            if ActionKind.ONE_UP in kinds and len(self.selected) == 1:
                keys["u"] = Action.one_up(next(iter(self.selected)))
            return keys
        letters = {
            ActionKind.ANNOUNCE: "a", ActionKind.ACCEPT: "a", ActionKind.PASS: "p",
            ActionKind.CHICAGO: "c", ActionKind.NO_CHICAGO: "n", ActionKind.REJECT: "r",
            ActionKind.REDEAL: "r", ActionKind.RESET: "r", ActionKind.SCORE: "s",
            ActionKind.DISCARD: "k",
        }
        for action in legal:
            letter = letters.get(action.kind)
            if letter is not None:
                keys[letter] = action
        return keys

    # ------------------------------------------------------------------ the human's turn
    def _act(self, action: Action | str) -> None:
        self.notice = ""
        try:
            step = self.session.act(action)
        except ValueError as exc:
            self.error = f"Not accepted: {exc}."
            self._refresh_all()
            return
        self.error = ""
        self._take(step)
        self._pump()

    def _may_act(self) -> bool:
        """True when the human may act now; otherwise say why."""
        if self.session.over:
            self.error = "The game is over. Press q to quit."
        elif self.paused_summary is not None:
            self.error = "Press Enter to go on to the next deal."
        elif self._queue or not self.session.waiting_for_human:
            self.error = "Wait for your turn."
        else:
            return True
        self._refresh_all()
        return False

    def action_card(self, index: int) -> None:
        """Select (exchange) or play (tricks) the card at ``index`` of the hand."""
        if not self._may_act():
            return
        view = self.session.view()
        hand = view["hand"]
        if index >= len(hand):
            self.error = f"There is no card {index + 1}: you hold {len(hand)} cards."
            self._refresh_all()
            return
        card = hand[index]
        if view["phase"] == "exchange":
            self.error = ""
            if card in self.selected:
                self.selected.discard(card)
            else:
                self.selected.add(card)
            self._refresh_all()
        elif view["phase"] == "play":
            self._act(Action.play(card))
        else:
            self.error = "No card is asked for now: " + self.words.question(view)
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
            self.error = f"The key {key} means nothing now: " + self.words.question(view)
            self._refresh_all()
            return
        self._act(action)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        event.stop()
        key = (event.button.id or "").removeprefix("key-")
        if key == "continue":
            self.action_confirm()
        else:
            self.action_key(key)

    def action_confirm(self) -> None:
        """Enter: go on after a deal, or exchange the selected cards."""
        if self.paused_summary is not None and not self.session.over:
            self.paused_summary = None
            self.error = ""
            self._pump()
            return
        if not self._may_act():
            return
        view = self.session.view()
        if view["phase"] == "exchange":
            self._act(Action.discard(self.selected))
        else:
            self.error = self.words.question(view)
            self._refresh_all()

    def action_type(self) -> None:
        """Focus the input line to type an answer."""
        self.query_one("#command", Input).focus()

    def action_unfocus(self) -> None:
        """Leave the input line."""
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
        if request == "help":
            self.action_rules()
            return
        if request == "hint":
            self.action_hint()
            return
        if request == "quit":
            self.action_quit_game()
            return
        if request == "state":
            self._refresh_all()
            return
        if self.paused_summary is not None and not self.session.over:
            self.action_confirm()
        if not self._may_act():
            return
        try:
            action = parse_answer(text, self.session.view(), menu=False)
        except ValueError as exc:
            self.error = f"Not accepted: {exc}."
            self._refresh_all()
            return
        self._act(action)

    # ------------------------------------------------------------------ pop-ups and quitting
    def action_rules(self) -> None:
        """The rules of this game's rule set, and the keys."""
        body = Markdown(rules_help(self.session.rules) + "\n" + KEYS_HELP)
        self.push_screen(TextScreen("Rules and keys", body, "help-screen"))

    def action_hint(self) -> None:
        """The exact draw odds of the hand (from your own view only)."""
        try:
            result = hint(self.session.view())
        except ValueError as exc:
            self.error = f"No odds: {exc}."
            self._refresh_all()
            return
        hand = Text("Your hand: ")
        for index, card in enumerate(result.hand):
            if index:
                hand.append(" ")
            hand.append_text(card_text(card))
        body = Group(hand, Text(""), hint_table(result))
        self.push_screen(TextScreen("Odds (h)", body, "hint-screen"))

    def action_quit_game(self) -> None:
        """Save and leave."""
        if self._timer is not None:
            self._timer.stop()
        self.session.save()
        self.exit()
