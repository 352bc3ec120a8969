"""Rich renderables for the full-screen apps, built from a seat view and events only.

The table (trick, face-up piles, announcements and the staged tie-break, one-up card, shown
hands), the score table, a hint table and coloured log lines. Hearts and diamonds are red.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from chicago.cards import Card
from chicago.poker import Category
from chicago.tui.hints import Hint, category_columns, notes
from chicago.tui.words import Words, category_phrase, rank_phrase, symbol_card

__all__ = [
    "RED",
    "card_text",
    "cards_text",
    "colour_cards",
    "hint_table",
    "scores_table",
    "table_panel",
]

RED = "bold red"
"""The style of hearts and diamonds."""
BLACK = "bold"

_CARD_PATTERN = re.compile(r"(?<![\w])(10|[2-9JQKA])([♣♦♥♠])")


def card_text(card: str) -> Text:
    """One card as coloured text: ``10♥`` in red."""
    label = symbol_card(card)
    return Text(label, style=RED if Card(card).suit in (1, 2) else BLACK)


def cards_text(cards: Sequence[str]) -> Text:
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


def _exchange_counts(events: Sequence[dict[str, Any]], players: int) -> list[list[str]]:
    counts: list[list[str]] = [[] for _ in range(players)]
    for ev in events:
        if ev.get("type") != "exchange":
            continue
        if ev.get("locked") and not ev.get("discarded"):
            mark = "L"
        elif ev.get("one_up"):
            mark = "1↑"
        else:
            mark = str(ev.get("discarded", 0))
        counts[ev["seat"]].append(mark)
    return counts


def scores_table(
    view: dict[str, Any], words: Words, levels: Sequence[str] = (), title: str = "Scores"
) -> Table:
    """Seats with name, score, exchanges this deal and marks: dealer, to act, locked, Chicago.

    Under V-CHI-DECLARED / V-CHI-REQ3 (where in force) a mark says who has declared / made
    a Chicago in this game, and the caption says that it decides who may win.
    """
    chicago = words.chicago_marks(view)
    table = Table(
        title=title, box=box.SIMPLE_HEAD, pad_edge=False, expand=True,
        caption=chicago[2] if chicago else None, caption_justify="left",
    )
    table.add_column("player", no_wrap=True, min_width=8)
    table.add_column("pts", justify="right", no_wrap=True)
    table.add_column("exch.", no_wrap=True)
    table.add_column("", ratio=1)
    counts = _exchange_counts(view.get("events", []), view["players"])
    settlement = view.get("settlement")
    for seat in range(view["players"]):
        marks = []
        if seat == view["dealer"]:
            marks.append("dealer")
        if view["locked"][seat]:
            marks.append("locked")
        if view.get("chicago") == seat:
            marks.append("CHICAGO")
        if chicago and seat < len(chicago[1]) and chicago[1][seat]:
            marks.append(chicago[0])
        if view.get("over") and seat in view.get("winners", []):
            marks.append("WINNER")
        if settlement:
            amount = settlement[seat]
            marks.append(f"{amount:+g}")
        name = words.names[seat]
        if seat == words.me and name != "You":
            name += " (you)"
        if levels and seat < len(levels) and levels[seat]:
            marks.append(levels[seat])
        arrow = "▶ " if view.get("to_act") == seat else "  "
        style = "bold" if seat == words.me else ""
        table.add_row(
            Text(arrow + name, style=style), str(view["scores"][seat]),
            " ".join(counts[seat]), " ".join(marks),
        )
    return table


def _rounds(view: dict[str, Any], words: Words) -> list[Text]:
    """Announcements, the staged tie-break and the result of each scoring round this deal."""
    lines: list[Text] = []
    current: Text | None = None
    tiebreak: dict[int, list[str]] = {}
    for ev in view.get("events", []):
        kind = ev.get("type")
        if kind in ("announce", "pass"):
            if current is None:
                current = Text(f"Scoring round {ev['round']}: ", style="bold")
                tiebreak = {}
            else:
                current.append(" · ")
            said = category_phrase(ev["category"]) if kind == "announce" else "pass"
            current.append(f"{words.who(ev['seat'])} {said}",
                           style="" if kind == "announce" else "dim")
        elif kind == "reveal":
            shown = ev.get("suit") or rank_phrase(str(ev.get("rank", ""))).split()[-1]
            tiebreak.setdefault(ev["seat"], []).append(str(shown))
        elif kind == "round_result" and current is not None:
            lines.append(current)
            if tiebreak:
                stages = "; ".join(
                    f"{words.who(seat)} {', '.join(ranks)}" for seat, ranks in tiebreak.items()
                )
                lines.append(Text(f"   tie-break: {stages}"))
            winner = ev.get("winner")
            if winner is None:
                outcome = "nobody scores"
            else:
                wins = words.verb(winner, "wins", "win")
                outcome = f"{wins} with {category_phrase(ev.get('category'))}"
            lines.append(Text(f"   → {outcome}", style="green"))
            current = None
    if current is not None:
        lines.append(current)
        if tiebreak:
            stages = "; ".join(
                f"{words.who(seat)} {', '.join(ranks)}" for seat, ranks in tiebreak.items()
            )
            lines.append(Text(f"   tie-break: {stages}"))
    return lines


def table_panel(
    view: dict[str, Any], words: Words, hands: dict[int, list[str]] | None = None
) -> RenderableType:
    """What lies on the table for the seat of ``view`` (``hands``: face-up hands to add)."""
    parts: list[RenderableType] = []
    if hands:
        for seat, hand in sorted(hands.items()):
            line = Text(f"{words.who(seat)}: ", style="bold")
            line.append_text(cards_text(hand) if hand else Text("no cards", style="dim"))
            parts.append(line)
        parts.append(Text(""))
    if view.get("chicago") is not None:
        parts.append(Text(f"{words.who(view['chicago'])} declared CHICAGO!", style="bold magenta"))
    one_up = view.get("one_up")
    if one_up:
        line = Text(f"Face up for {words.whom(one_up['seat'])}: ", style="bold")
        line.append_text(card_text(one_up["card"]))
        parts.append(line)
    for seat, cards in sorted(view.get("shown", {}).items(), key=lambda item: int(item[0])):
        line = Text(f"{words.who(int(seat))} showed: ")
        line.append_text(cards_text(cards))
        parts.append(line)
    parts.extend(_rounds(view, words))
    if view["phase"] == "play" or view.get("tricks"):
        parts.append(Text(""))
        tricks = view.get("tricks", [])
        if tricks and not view.get("trick"):
            last = tricks[-1]
            line = Text(f"Trick {len(tricks)} (won by {words.whom(last['winner'])}): ", style="dim")
            for index, play in enumerate(last["cards"]):
                if index:
                    line.append("  ")
                line.append(f"{words.who(play['seat'])} ")
                line.append_text(card_text(play["card"]))
            parts.append(line)
        if view["phase"] == "play":
            line = Text(f"Trick {view['trick_number']} on the table: ", style="bold")
            trick = view.get("trick", [])
            if not trick:
                line.append("nothing yet", style="dim")
            for index, play in enumerate(trick):
                if index:
                    line.append("  ")
                line.append(f"{words.who(play['seat'])} ")
                line.append_text(card_text(play["card"]))
            parts.append(line)
        piles = view.get("played", [])
        if any(piles):
            grid = Table.grid(padding=(0, 1))
            grid.add_column(no_wrap=True)
            grid.add_column()
            for seat, pile in enumerate(piles):
                grid.add_row(Text(words.who(seat), style="dim"), cards_text(pile))
            parts.append(Text("Face up in front of each player:", style="dim"))
            parts.append(grid)
    if not parts:
        parts.append(Text("The table is empty.", style="dim"))
    return Group(*parts)


def hint_table(result: Hint, top: int = 10) -> RenderableType:
    """The best holds of a hand: kept cards (discards as ··), expected points, chances.

    A hand that cannot exchange gets its category and the reason instead; a locked six-card
    hand (V-LOCK-6) a table of its six discards with the hand each leaves.
    """
    if result.six:
        table = Table(
            title="Locked with six cards: the hand each discard leaves, best first",
            caption="You draw nothing: discard exactly one card.",
            box=box.SIMPLE_HEAD, pad_edge=False,
        )
        table.add_column("discard", no_wrap=True)
        table.add_column("keep", no_wrap=True)
        table.add_column("hand")
        table.add_column("points", justify="right", style="bold")
        for choice in result.six:
            table.add_row(
                card_text(choice.discard), cards_text(list(choice.keep)),
                category_phrase(choice.category), str(choice.points),
            )
        return table
    if not result.can_exchange:
        line = Text("No draw odds: ", style="bold")
        line.append(f"{result.reason}. ")
        line.append(
            f"The hand is {category_phrase(result.category)} "
            f"({result.points} point{'s' if result.points != 1 else ''})."
        )
        return line
    names = category_columns(result.rules)
    short = {
        "ROYAL_FLUSH": "RF", "STRAIGHT_FLUSH": "SF", "FOUR_OF_A_KIND": "4K",
        "FULL_HOUSE": "FH", "FLUSH": "Fl", "STRAIGHT": "St", "THREE_OF_A_KIND": "3K",
        "TWO_PAIR": "2P", "PAIR": "1P",
    }
    caption = "·· = discard; exp. = expected points after the draw; % chance of each hand."
    if result.dead:
        caption += " Known out of the stock: " + " ".join(symbol_card(c) for c in result.dead)
    for note in notes(result, symbol_card):
        caption += " " + note
    table = Table(
        title="Draw odds of your hand, best holds first", caption=caption,
        box=box.SIMPLE_HEAD, pad_edge=False,
    )
    table.add_column("keep", no_wrap=True)
    table.add_column("exp.", justify="right", style="bold")
    for name in names:
        table.add_column(short[name], justify="right", no_wrap=True)
    for hold in result.holds[:top]:
        kept = Text()
        for index, card in enumerate(result.hand):
            if index:
                kept.append(" ")
            if any(str(k) == card for k in hold.keep):
                kept.append_text(card_text(card))
            else:
                kept.append("··", style="dim")
        cells = []
        for name in names:
            p = hold.probabilities[name]
            cells.append("·" if p == 0 else "<.1" if p < 0.001 else f"{p * 100:.1f}")
        table.add_row(kept, f"{hold.expected_points:.2f}", *cells)
    return table


def category_name(name: str | None) -> str:
    """A category name in words, for labels: ``two pair``."""
    return Category[name].text if name else "nothing"
