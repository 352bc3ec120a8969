"""Rich renderables for the full-screen apps, built from a seat view and events only.

The table (trick, face-up piles, announcements and the staged tie-break, one-up card, shown
hands), the score table, the score sheet of every deal, a hint table and coloured log lines.
Hearts and diamonds are red. Every word comes from the :class:`~chicago.tui.words.Words`
given, in its language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from chicago.cards import Card
from chicago.engine.events import Announce, Event, Exchange, Pass, Reveal, RoundResult
from chicago.engine.viewtypes import SeatView
from chicago.poker import Category
from chicago.tui.hint_words import advice_sentence, hint_notes
from chicago.tui.hints import Hint, category_columns
from chicago.tui.summary import DealScore
from chicago.tui.words import Words, symbol_card

__all__ = [
    "RED",
    "ScoresTable",
    "card_text",
    "cards_text",
    "colour_cards",
    "hint_table",
    "score_sheet",
    "scores_table",
    "table_panel",
]

RED = "bold red"
"""The style of hearts and diamonds."""
BLACK = "bold"

_CARD_PATTERN = re.compile(r"(?<![\w])(10|[2-9JQKA])([♣♦♥♠])")


def card_text(card: Card | str) -> Text:
    """One card (or its text) as coloured text: ``10♥`` in red."""
    label = symbol_card(str(card))
    return Text(label, style=RED if Card(card).suit in (1, 2) else BLACK)


def cards_text(cards: Sequence[Card | str]) -> Text:
    """Cards separated by spaces, coloured."""
    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(" ")
        text.append_text(card_text(card))
    return text


def colour_cards(line: str) -> Text:
    """A line of words with every ``10♥``-style card coloured by suit."""
    text = Text(line)
    for match in _CARD_PATTERN.finditer(line):
        style = RED if match.group(2) in "♥♦" else BLACK
        text.stylize(style, match.start(), match.end())
    return text


def _exchange_counts(events: Sequence[Event], players: int) -> list[list[str]]:
    counts: list[list[str]] = [[] for _ in range(players)]
    for ev in events:
        if not isinstance(ev, Exchange):
            continue
        if ev.locked and not ev.discarded:
            mark = "L"
        elif ev.one_up:
            mark = "1↑"
        else:
            mark = str(ev.discarded)
        counts[ev.seat].append(mark)
    return counts


@dataclass(frozen=True)
class _SeatRow:
    name: Text
    score: str
    exchanges: str
    marks: tuple[str, ...]


class ScoresTable:
    """The score table, laid out for the width it gets: a seat's marks (dealer, locked,
    Chicago, its bot level …) on its row when they fit, else on a line of their own under
    it. Nothing is cut or ends in "…" at any width."""

    def __init__(
        self, title: str, headers: tuple[str, str, str], rows: Sequence[_SeatRow],
        caption: str | None,
    ) -> None:
        self.title = title
        self.headers = headers
        self.rows = list(rows)
        self.caption = caption

    def _inline(self, expand: bool) -> Table:
        """A row per seat, its marks in the last column."""
        table = Table(
            title=self.title, box=box.SIMPLE_HEAD, pad_edge=False, expand=expand,
            caption=self.caption, caption_justify="left",
        )
        player, points, exchanges = self.headers
        table.add_column(player, no_wrap=True)
        table.add_column(points, justify="right", no_wrap=True)
        table.add_column(exchanges, no_wrap=True)
        table.add_column("", no_wrap=True, ratio=1)
        for row in self.rows:
            table.add_row(row.name, row.score, row.exchanges, " ".join(row.marks))
        return table

    def _stacked(self) -> RenderableType:
        """A narrow column: each seat's marks on an indented line of their own."""
        player, points, exchanges = self.headers
        name_width = max([len(player), *(row.name.cell_len for row in self.rows)])
        score_width = max([len(points), *(len(row.score) for row in self.rows)])
        exchange_width = max([len(exchanges), *(len(row.exchanges) for row in self.rows)])
        width = name_width + score_width + exchange_width + 4
        lines: list[RenderableType] = [
            Text(self.title, style="table.title", justify="center"),
            Text(""),
            Text(f"{player:<{name_width}}  {points:>{score_width}}  {exchanges}",
                 style="table.header"),
            Text("─" * width),
        ]
        for row in self.rows:
            line = row.name.copy()
            line.pad_right(name_width - row.name.cell_len)
            line.append(f"  {row.score:>{score_width}}  {row.exchanges}")
            lines.append(line)
            if row.marks:
                lines.append(Padding(Text(" ".join(row.marks), style="dim"), (0, 0, 0, 4)))
        if self.caption:
            lines.append(Text(self.caption, style="table.caption"))
        return Padding(Group(*lines), (0, 1))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        inline = self._inline(expand=False)
        natural = Measurement.get(console, options.update_width(10_000), inline).maximum
        yield self._inline(expand=True) if natural <= options.max_width else self._stacked()


def scores_table(
    view: SeatView, words: Words, levels: Sequence[str] = (), title: str | None = None
) -> ScoresTable:
    """Seats with name, score, exchanges this deal and marks: dealer, to act, locked, Chicago,
    the bot's level.

    Under V-CHI-DECLARED / V-CHI-REQ3 (where in force) a mark says who has declared / made
    a Chicago in this game, and the caption says that it decides who may win.
    """
    chicago = words.chicago_marks(view)
    counts = _exchange_counts(view.events, view.players)
    settlement = view.settlement
    rows = []
    for seat in range(view.players):
        marks = []
        if seat == view.dealer:
            marks.append(words.t("tui.mark.dealer"))
        if view.locked[seat]:
            marks.append(words.t("tui.mark.locked"))
        if view.chicago == seat:
            marks.append("CHICAGO")
        if chicago and seat < len(chicago[1]) and chicago[1][seat]:
            marks.append(chicago[0])
        if view.over and seat in view.winners:
            marks.append(words.t("tui.mark.winner"))
        if settlement:
            marks.append(f"{settlement[seat]:+g}")
        if levels and seat < len(levels) and levels[seat]:
            marks.append(words.level(levels[seat]))
        arrow = "▶ " if view.to_act == seat else "  "
        style = "bold" if seat == words.me else ""
        rows.append(_SeatRow(
            Text(arrow + words.name(seat), style=style), str(view.scores[seat]),
            " ".join(counts[seat]), tuple(marks),
        ))
    headers = (words.t("tui.col.player"), words.t("tui.col.points"), words.t("tui.col.exchanges"))
    return ScoresTable(
        title if title is not None else words.t("table.scores"), headers, rows,
        chicago[2] if chicago else None,
    )


def score_sheet(deals: Sequence[DealScore], players: int, words: Words) -> RenderableType:
    """Every finished deal's points and the running totals: a row per deal with its dealer,
    a column per seat ("+5  12": the deal's points, then the total after it)."""
    if not deals:
        return Text(words.t("score.none"), style="dim")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_footer=True)
    table.add_column(words.t("score.deal"), justify="right", footer=words.t("score.total"))
    table.add_column(words.t("table.dealer"), no_wrap=True, style="dim")
    final = deals[-1].scores
    for seat in range(players):
        table.add_column(
            words.name(seat), justify="right", no_wrap=True,
            footer=Text(str(final[seat]), style="bold"),
        )
    for deal in deals:
        cells: list[Text] = []
        for seat in range(players):
            points = deal.points[seat]
            shown = _signed(points) if points else "·"
            cell = Text(f"{shown:>3}", style="bold" if points else "dim")
            cell.append(f" {deal.scores[seat]:>3}", style="dim")
            cells.append(cell)
        table.add_row(Text(str(deal.deal)), words.who(deal.dealer), *cells)
    legend = Text(words.t("tui.sheet_legend"), style="dim")
    return Group(table, legend)


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def _rounds(view: SeatView, words: Words, compact: bool = False) -> list[Text]:
    """Announcements, the staged tie-break and the result of each scoring round this deal.

    ``compact`` (during trick play) gives one line per finished round: its result only.
    """
    lines: list[Text] = []
    current: Text | None = None
    tiebreak: dict[int, list[str]] = {}

    def close_round() -> None:
        if current is not None and not compact:
            lines.append(current)
        if tiebreak and not compact:
            stages = "; ".join(
                f"{words.who(seat)} {', '.join(ranks)}" for seat, ranks in tiebreak.items()
            )
            lines.append(Text(f"   {words.t('center.tiebreak').lower()}: {stages}"))

    for ev in view.events:
        if isinstance(ev, Announce | Pass):
            if current is None:
                current = Text(words.t("center.round", r=ev.round) + ": ", style="bold")
                tiebreak = {}
            else:
                current.append(" · ")
            announced = isinstance(ev, Announce)
            said = (
                words.category_a(ev.category) if isinstance(ev, Announce)
                else words.t("center.passed")
            )
            current.append(f"{words.who(ev.seat)} {said}", style="" if announced else "dim")
        elif isinstance(ev, Reveal):
            shown = words.suit(ev.suit) if ev.suit is not None else words.rank(ev.rank_text or "")
            tiebreak.setdefault(ev.seat, []).append(shown)
        elif isinstance(ev, RoundResult):
            close_round()
            winner = ev.winner
            if winner is None:
                outcome = words.t("tui.round_nobody")
            else:
                outcome = words.t(
                    "tui.round_won", cat=words.category_a(ev.category), **words.person(winner),
                )
            if compact:
                head = words.t("center.round", r=ev.round)
                lines.append(Text(f"{head} → {outcome}", style="dim"))
            else:
                lines.append(Text(f"   → {outcome}", style="green"))
            current, tiebreak = None, {}
    close_round()
    return lines


def _trick_grid(view: SeatView, words: Words) -> RenderableType:
    """Trick play: a row per seat with its card in this trick and its face-up pile."""
    trick = view.trick
    in_trick = {play.seat: play.card for play in trick}
    leader = trick[0].seat if trick else None
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, min_width=3)
    grid.add_column()
    piles = view.played
    for seat in range(view.players):
        played = in_trick.get(seat)
        card = card_text(played) if played is not None else Text("·", style="dim")
        if seat == leader:
            card.append(" " + words.t("tui.led"), style="dim")
        earlier = [c for c in (piles[seat] if seat < len(piles) else ()) if c != played]
        pile = cards_text(earlier)
        pile.stylize("dim")
        arrow = "▶ " if view.to_act == seat else "  "
        grid.add_row(
            Text(arrow + words.who(seat), style="bold" if seat == words.me else ""), card, pile,
        )
    return grid


def table_panel(
    view: SeatView, words: Words, hands: Mapping[int, Sequence[Card]] | None = None
) -> RenderableType:
    """What lies on the table for the seat of ``view`` (``hands``: face-up hands to add).

    In trick play the trick comes first (a row per seat: its card now and the cards it has
    played), then the last finished trick, then one line per scoring round; before it, the
    announcements of the scoring rounds in full.
    """
    parts: list[RenderableType] = []
    if hands:
        for seat, hand in sorted(hands.items()):
            line = Text(f"{words.who(seat)}: ", style="bold")
            line.append_text(
                cards_text(hand) if hand else Text(words.t("tui.no_cards"), style="dim")
            )
            parts.append(line)
        parts.append(Text(""))
    if view.chicago is not None:
        parts.append(Text(words.t("center.chicago", **words.person(view.chicago)),
                          style="bold magenta"))
    one_up = view.one_up
    if one_up is not None:
        line = Text(words.t("center.face_up", **words.person(one_up.seat)) + ": ", style="bold")
        line.append_text(card_text(one_up.card))
        parts.append(line)
    for seat, cards in sorted(view.shown.items()):
        line = Text(words.t("tui.showed_label", **words.person(seat)) + " ")
        line.append_text(cards_text(cards))
        parts.append(line)
    playing = view.phase == "play"
    if playing:
        head = Text(words.t("center.trick", n=view.trick_number), style="bold")
        if not view.trick:
            head.append(" · " + words.t("center.nothing"), style="dim")
        parts.append(head)
        parts.append(_trick_grid(view, words))
    tricks = view.tricks
    if tricks and (playing or view.phase == "over"):
        last = tricks[-1]
        winning = next((p.card for p in last.cards if p.seat == last.winner), None)
        if winning is not None:
            parts.append(colour_cards(words.t(
                "center.last_trick", card=words.card(str(winning)), **words.person(last.winner)
            )))
    parts.extend(_rounds(view, words, compact=playing))
    if not parts:
        parts.append(Text(words.t("tui.table_empty"), style="dim"))
    return Group(*parts)


def _kept_text(result: Hint, keep: Iterable[object]) -> Text:
    """The hand with the discards as ``··``: ``2♦ 2♠ ·· 10♣ 10♦``."""
    kept_cards = {str(k) for k in keep}
    kept = Text()
    for index, card in enumerate(result.hand):
        if index:
            kept.append(" ")
        if card in kept_cards:
            kept.append_text(card_text(card))
        else:
            kept.append("··", style="dim")
    return kept


def _chance(p: float, words: Words) -> str:
    return "·" if p == 0 else "<" + words.decimal(0.1)[1:] if p < 0.001 \
        else words.decimal(p * 100)


def hint_pages(result: Hint, words: Words, width: int | None, top: int = 10) -> list[list[str]]:
    """The category columns of the odds table by page, for a table ``width`` columns wide
    (None: all on one page). The kept cards, the worth and the expected points are on every
    page, whole; the categories follow by priority (the greatest chance among the holds
    shown first, shown in their usual order on a page), as many as fit, the rest on the
    next pages (the odds window turns them with → and ←)."""
    names = category_columns(result.rules)
    if width is None or not result.can_exchange or result.six:
        return [names]
    holds = result.holds[:top]
    keep = max([len(_kept_text(result, h.keep).plain) for h in holds] + [len(words.t("hint.keep"))])
    gap = _HINT_GAP
    fixed = keep + max(len(words.t("hint.worth")), 5) + max(len(words.t("tui.hint.exp")), 5) \
        + 2 * gap

    def column(name: str) -> int:
        cells = [_chance(h.probabilities[name], words) for h in holds]
        return max([len(_abbreviation(name, words)), *map(len, cells)]) + gap

    ranked = sorted(names, key=lambda n: -max((h.probabilities[n] for h in holds), default=0))
    pages: list[list[str]] = []
    for name in ranked:
        if pages and fixed + sum(column(n) for n in pages[-1]) + column(name) <= width:
            pages[-1].append(name)
        else:
            pages.append([name])
    return [[n for n in names if n in page] for page in pages]


_HINT_GAP = 3
"""Columns between two columns of the odds table: a space of padding each side and the
box's divider (a space in ``box.SIMPLE_HEAD``)."""


def _abbreviation(name: str, words: Words) -> str:
    """A category's column head: ``2P`` / ``2P``, ``FH`` / ``Kåk``."""
    return words.t(f"tui.hint.abbr.{name}")


def hint_table(result: Hint, top: int = 10, words: Words | None = None, *,
               columns: Sequence[str] | None = None, page: tuple[int, int] = (1, 1)
               ) -> RenderableType:
    """The best holds of a hand: kept cards (discards as ··), expected points, chances.

    A hand that cannot exchange gets its category and the reason instead; a locked six-card
    hand (V-LOCK-6) a table of its six discards with the hand each leaves. The column
    letters are explained under the table, in the language of ``words``. ``columns``: the
    categories shown (a page of :func:`hint_pages`), ``page`` its number and how many there
    are (the caption then says how to see the others).
    """
    words = words or Words([])
    if result.six:
        table = Table(
            title=words.t("tui.hint.six_title"), caption=words.t("tui.hint.six_caption"),
            box=box.SIMPLE_HEAD, pad_edge=False,
        )
        table.add_column(words.t("tui.hint.discard"), no_wrap=True)
        table.add_column(words.t("hint.keep"), no_wrap=True)
        table.add_column(words.t("tui.hint.hand"))
        table.add_column(words.t("tui.col.points"), justify="right", style="bold")
        for choice in result.six:
            table.add_row(
                card_text(choice.discard), cards_text(list(choice.keep)),
                words.category_a(choice.category), str(choice.points),
            )
        return table
    if not result.can_exchange:
        return Text(words.t(
            "tui.hint.no_draw", reason=words.t("tui.hint.why_locked"),
            cat=words.category_a(result.category), points=words.points(result.points),
        ))
    names = list(columns) if columns is not None else category_columns(result.rules)
    legend = ", ".join(f"{_abbreviation(name, words)} {words.category(name).lower()}"
                       for name in names)
    caption = words.t("tui.hint.caption", legend=legend)
    if page[1] > 1:
        caption += " " + words.t("tui.hint.more_columns", page=page[0], pages=page[1])
    if result.dead:
        caption += " " + words.t(
            "hint.dead", cards=" ".join(symbol_card(c) for c in result.dead)
        ) + "."
    for note in hint_notes(result, words):
        caption += " " + note
    caption += " " + words.t("hint.worth") + ": " + words.t("hint.worth_help")
    title = words.t("tui.hint.title")
    if result.advice:  # the advice in words first (issue 16)
        title = advice_sentence(result.advice[0], words) + "\n" + title
    # the title and the caption are lines of their own, wrapped to the width: inside the
    # table they would widen it and squeeze the numbers
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(words.t("hint.keep"), no_wrap=True)
    table.add_column(words.t("hint.worth"), justify="right", style="bold", no_wrap=True)
    table.add_column(words.t("tui.hint.exp"), justify="right", no_wrap=True)
    worth = {a.hold.keep: a.value for a in result.advice}
    for name in names:
        table.add_column(_abbreviation(name, words), justify="right", no_wrap=True)
    for hold in result.holds[:top]:
        kept = _kept_text(result, hold.keep)
        cells = [_chance(hold.probabilities[name], words) for name in names]
        value = words.decimal(worth[hold.keep], 2) if hold.keep in worth else ""
        table.add_row(kept, value, words.decimal(hold.expected_points, 2), *cells)
    return Group(Text(title, style="italic"), table, Text(caption, style="dim"))


def category_name(name: str | None) -> str:
    """A category name in words, for labels: ``two pair``."""
    return Category[name].text if name else "nothing"
