"""The full-screen replay: ``chicago replay`` in a Textual app, one action per step.

Keys: ``→``/``l``/``space`` next step, ``←``/``h``/``backspace`` previous step, ``n``/``p``
next/previous deal, ``Home``/``End`` (``g``/``G``) first/last step, ``?`` the keys and the
rules, ``q`` quit.

What is shown comes from :class:`~chicago.tui.replayer.Replayer`: every card face up for a
finished game, or only what one seat saw. The replay's title (rules, players, seed, whose
view) wraps above the table, so it is whole at any width; the words are in ``lang``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group
from rich.markdown import Markdown
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, RichLog, Static

from chicago.tui.lang import Lang
from chicago.tui.notice import say
from chicago.tui.render import colour_cards, scores_table, table_panel
from chicago.tui.replayer import Replayer
from chicago.tui.rules_help import rules_help
from chicago.tui.screens import SizeNotice, TextScreen, keys_markdown
from chicago.tui.words import Words, symbol_card

if TYPE_CHECKING:
    from chicago.review import DecisionReview

__all__ = ["REPLAY_KEYS", "ReplayApp"]

REPLAY_KEYS = (
    ("→ / ←", "tui.key.rp_step"), ("n / p", "tui.key.rp_deal"),
    ("Home / End", "tui.key.rp_ends"), ("?", "tui.key.help"), ("q", "tui.key.rp_quit"),
)
"""The replay's keys and what they do (catalogue keys), for the help window."""


class ReplayApp(App[None]):
    """Step through ``replayer``'s game, starting at step ``start``, in ``lang``."""

    TITLE = "Chicago"
    AUTO_FOCUS = None
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #title { height: auto; color: $text-muted; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #right { width: 42%; min-width: 32; border-left: solid $panel-lighten-1; }
    #status { height: auto; text-style: bold; }
    #table { height: 1fr; overflow-y: auto; }
    #step-box { height: auto; max-height: 40%; min-height: 3;
                border-top: solid $panel-lighten-1; }
    #step { height: auto; }
    #scores { height: auto; }
    #log { height: 1fr; }
    #keys { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "move(1)", "Next", show=False),
        Binding("left,h,backspace", "move(-1)", "Back", show=False),
        Binding("n,pagedown", "deal(1)", "Next deal", show=False),
        Binding("p,pageup", "deal(-1)", "Previous deal", show=False),
        Binding("home,g", "jump(0)", "Start", show=False),
        Binding("end,G", "jump(-1)", "End", show=False),
        Binding("question_mark,f1", "rules", "Rules", show=False),
        Binding("q", "quit", "Quit", show=False),
    ]

    def action_help_quit(self) -> None:
        """Ctrl+C: say, in the replay's language, how to quit (not Textual's English)."""
        self.notify(self.words.t("tui.quit.replay"), title=self.words.t("tui.quit.title"))

    def __init__(
        self, replayer: Replayer, *, start: int = 0,
        reviews: Mapping[int, DecisionReview] | None = None,
        lang: Lang | str | None = None,
    ) -> None:
        super().__init__()
        self.replayer = replayer
        self.reviews = dict(reviews or {})
        """Step → the review of the decision made there (``chicago replay --review``)."""
        self.position = max(0, min(start, replayer.steps))
        self.words = Words(replayer.names, me=replayer.you, card=symbol_card, lang=lang)
        self.levels = [replayer.tags.get(f"Bot{s}", "") for s in range(replayer.players)]

    def compose(self) -> ComposeResult:
        """The title; the table and the step on the left; scores and the deal's log on the
        right; the keys at the bottom."""
        yield Header()
        yield Static(self.replayer.title(self.words), id="title")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="status")
                yield Static(id="table")
                with VerticalScroll(id="step-box", can_focus=False):
                    # a step that ends a deal says much: it scrolls (its lines are in the
                    # log too), never pushing the hands off the table
                    yield Static(id="step")
            with Vertical(id="right"):
                yield Static(id="scores")
                yield RichLog(id="log", wrap=True, min_width=20)
        yield Static(self.words.t("tui.rp.keys_line"), id="keys")
        yield SizeNotice(self.words, "chicago replay --plain")

    def on_resize(self, event: events.Resize) -> None:
        """Below 80×24 a message covers the screen."""
        self.query_one(SizeNotice).fit(event.size.width, event.size.height)

    def on_mount(self) -> None:
        """Show the first step."""
        self.sub_title = self.words.t("replay.title")
        # the hands shown face up, a line each, and the trick's head always have room
        self.query_one("#table", Static).styles.min_height = self.replayer.players + 2
        self._draw()

    def _draw(self) -> None:
        replayer, step, words = self.replayer, self.position, self.words
        view = replayer.view_at(step)
        hands = replayer.hands_at(step)
        self.query_one("#status", Static).update(
            words.t("tui.rp.status", i=step, n=replayer.steps, where=words.phase_line(view))
        )
        self.query_one("#table", Static).update(table_panel(view, words, hands))
        actor = replayer.actor_of(step)
        lines = [colour_cards(text) for ev in replayer.events_of(step)
                 if (text := words.event(ev))]
        head = Text(
            words.t("tui.rp.start") if actor is None
            else words.t("tui.rp.step", i=step, **words.person(actor)),
            style="bold",
        )
        notices = [Text(say(n, words), style="bold red") for n in replayer.warnings]
        if step in self.reviews:
            from chicago.tui.review_words import GRADE_COLOUR, decision_note

            decision = self.reviews[step]
            notices.insert(0, Text(decision_note(decision, words),
                                   style=GRADE_COLOUR[decision.grade]))
        if step == 0:
            notices += [Text(say(n, words), style="yellow") for n in replayer.notices]
        self.query_one("#step", Static).update(Group(head, *lines, *notices))
        self.query_one("#scores", Static).update(scores_table(view, words, self.levels))
        log = self.query_one("#log", RichLog)
        log.clear()
        for ev in replayer.deal_events(step):
            if text := words.event(ev):
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
        """The keys, then the rules of the recorded game."""
        words = self.words
        text = keys_markdown(REPLAY_KEYS, words) + "\n" + rules_help(
            self.replayer.rules, words.lang
        )
        self.push_screen(TextScreen(
            words.t("tui.rp.help_title"), Markdown(text), "help-screen",
            footer=words.t("tui.window_keys"),
        ))
