"""The full-screen replay: ``chicago replay`` in a Textual app, one action per step.

Keys: ``→``/``l``/``space`` next step, ``←``/``h``/``backspace`` previous step, ``n``/``p``
next/previous deal, ``Home``/``End`` (``g``/``G``) first/last step, ``?`` the rules, ``q`` quit.

What is shown comes from :class:`~chicago.tui.replayer.Replayer`: every card face up for a
finished game, or only what one seat saw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group
from rich.markdown import Markdown
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, RichLog, Static

from chicago.tui.render import colour_cards, scores_table, table_panel
from chicago.tui.replayer import Replayer
from chicago.tui.rules_help import rules_help
from chicago.tui.screens import TextScreen
from chicago.tui.words import Words, symbol_card

if TYPE_CHECKING:
    from chicago.review import DecisionReview

__all__ = ["REPLAY_KEYS_HELP", "ReplayApp"]

REPLAY_KEYS_HELP = """## Keys

- `→`, `l` or `space`: next step · `←`, `h` or `backspace`: previous step
- `n` / `p`: next / previous deal · `Home` / `End` (`g` / `G`): first / last step
- `?` these rules · `q` quit
"""


class ReplayApp(App[None]):
    """Step through ``replayer``'s game, starting at step ``start``."""

    TITLE = "Chicago replay"
    AUTO_FOCUS = None
    CSS = """
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #right { width: 42%; min-width: 40; border-left: solid $panel-lighten-1; }
    #status { height: auto; text-style: bold; }
    #table { height: 1fr; overflow-y: auto; }
    #step { height: auto; min-height: 3; border-top: solid $panel-lighten-1; }
    #scores { height: auto; }
    #log { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "move(1)", "Next"),
        Binding("left,h,backspace", "move(-1)", "Back"),
        Binding("n,pagedown", "deal(1)", "Next deal"),
        Binding("p,pageup", "deal(-1)", "Previous deal"),
        Binding("home,g", "jump(0)", "Start", show=False),
        Binding("end,G", "jump(-1)", "End", show=False),
        Binding("question_mark,f1", "rules", "Rules"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self, replayer: Replayer, *, start: int = 0,
        reviews: Mapping[int, DecisionReview] | None = None,
    ) -> None:
        super().__init__()
        self.replayer = replayer
        self.reviews = dict(reviews or {})
        """Step → the review of the decision made there (``chicago replay --review``)."""
        self.position = max(0, min(start, replayer.steps))
        self.words = Words(replayer.names, me=replayer.you, card=symbol_card)
        self.levels = [replayer.tags.get(f"Bot{s}", "") for s in range(replayer.players)]

    def compose(self) -> ComposeResult:
        """The table and the step on the left; scores and the deal's log on the right."""
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="status")
                yield Static(id="table")
                yield Static(id="step")
            with Vertical(id="right"):
                yield Static(id="scores")
                yield RichLog(id="log", wrap=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        """Show the first step."""
        self.sub_title = self.replayer.title()
        self._draw()

    def _draw(self) -> None:
        replayer, step = self.replayer, self.position
        view = replayer.view_at(step)
        hands = replayer.hands_at(step)
        who = "every card face up" if replayer.seat is None else (
            f"as {self.words.whom(replayer.seat)} saw it"
        )
        self.query_one("#status", Static).update(
            f"Step {step} of {replayer.steps} · {self.words.phase_line(view)} · {who}"
        )
        self.query_one("#table", Static).update(table_panel(view, self.words, hands))
        actor = replayer.actor_of(step)
        lines = [colour_cards(text) for ev in replayer.events_of(step)
                 if (text := self.words.event(ev))]
        head = Text(
            "Start of the game" if actor is None else f"Step {step}: {self.words.who(actor)}",
            style="bold",
        )
        notices = [Text(n, style="bold red") for n in replayer.warnings]
        if step in self.reviews:
            from chicago.tui.review_words import GRADE_STYLE, decision_note

            decision = self.reviews[step]
            notices.insert(0, Text(decision_note(decision, symbol_card),
                                   style=GRADE_STYLE[decision.grade]))
        if step == 0:
            notices += [Text(n, style="yellow") for n in replayer.notices]
        self.query_one("#step", Static).update(Group(head, *lines, *notices))
        self.query_one("#scores", Static).update(scores_table(view, self.words, self.levels))
        log = self.query_one("#log", RichLog)
        log.clear()
        for ev in replayer.deal_events(step):
            if text := self.words.event(ev):
                log.write(colour_cards(text))

    def action_move(self, delta: int) -> None:
        """One step forward or back."""
        self.position = max(0, min(self.replayer.steps, self.position + delta))
        self._draw()

    def action_deal(self, delta: int) -> None:
        """To the start of the next or previous deal."""
        if delta > 0:
            self.position = self.replayer.next_deal(self.position)
        else:
            self.position = self.replayer.previous_deal(self.position)
        self._draw()

    def action_jump(self, where: int) -> None:
        """To the first (0) or last (-1) step."""
        self.position = self.replayer.steps if where < 0 else 0
        self._draw()

    def action_rules(self) -> None:
        """The rules of the recorded game, and the keys."""
        body = Markdown(rules_help(self.replayer.rules) + "\n" + REPLAY_KEYS_HELP)
        self.push_screen(TextScreen("Rules and keys", body, "help-screen"))
