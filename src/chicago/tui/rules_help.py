"""The rules of a rule set in words, for the help screen and ``help`` in the line mode.

:func:`rules_blocks` describes a :class:`~chicago.Rules` object in the player's language: a
summary of how a deal and the game go under exactly these options, the points table, the
variations that are on (in the browser app's words), and every option with its value and
what it does (:func:`option_description`: the documentation on the Rules class in English,
the catalogue's words in Swedish). :func:`rules_help` writes the blocks as Markdown for the
full screen, :func:`rules_text` as plain lines for the line mode.

>>> from chicago import Rules
>>> text = rules_help(Rules.preset("wikipedia"))
>>> "2 exchange rounds" in text and "one up" in text.lower()
True
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import itertools
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from chicago.poker import Category
from chicago.rules import PRESETS, VARIATIONS, Rules
from chicago.tui.lang import Lang, get_lang
from chicago.tui.words import Words

__all__ = [
    "Block",
    "option_description",
    "option_descriptions",
    "rules_blocks",
    "rules_help",
    "rules_text",
    "to_markdown",
    "to_plain",
    "variations_on",
]


@functools.cache
def option_descriptions() -> dict[str, str]:
    """Each rule option's documentation (the string under its field in the Rules class)."""
    try:
        source = textwrap.dedent(inspect.getsource(Rules))
    except (OSError, TypeError):
        return {}
    tree = ast.parse(source)
    out: dict[str, str] = {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for node, following in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            text = " ".join(following.value.value.split())
            text = re.sub(r":\w+:`([^`]*)`", r"\1", text).replace("``", "`")
            out[node.target.id] = text
    return out


def variations_on(rules: Rules) -> list[str]:
    """Ids of the variations whose options all hold in ``rules`` and not in plain ``pagat``."""
    base = PRESETS["pagat"]
    found = []
    for vid in VARIATIONS:
        try:
            with_it = rules.with_variations(vid)
        except ValueError:
            continue
        if with_it == rules and base.with_variations(vid) != base:
            found.append(vid)
    return found


@dataclass(frozen=True)
class Block:
    """One piece of a help text: a title, a heading, a paragraph or a list item.

    ``lead`` is a paragraph's bold first words ("Players."); in an item, text between
    backticks is code (an option's name).
    """

    kind: Literal["title", "heading", "para", "item"]
    text: str
    lead: str = ""


def to_markdown(blocks: Sequence[Block]) -> str:
    """The blocks as Markdown, for the full screen's help window."""
    out: list[str] = []
    for block in blocks:
        if block.kind == "title":
            out.extend([f"# {block.text}", ""])
        elif block.kind == "heading":
            if out and out[-1] != "":
                out.append("")
            out.extend([f"## {block.text}", ""])
        elif block.kind == "para":
            lead = f"**{block.lead}** " if block.lead else ""
            out.extend([lead + block.text, ""])
        else:
            out.append(f"- {block.text}")
    out.append("")
    return "\n".join(out)


def to_plain(blocks: Sequence[Block]) -> list[str]:
    """The blocks as plain lines for the line mode: no Markdown marks, headings underlined."""
    out: list[str] = []
    for block in blocks:
        if block.kind in ("title", "heading"):
            if out and out[-1] != "":
                out.append("")
            rule = "=" if block.kind == "title" else "-"
            out.extend([block.text, rule * len(block.text), ""])
        elif block.kind == "para":
            out.extend([f"{block.lead} {block.text}".strip(), ""])
        else:
            out.append("- " + block.text.replace("`", ""))
    while out and out[-1] == "":
        out.pop()
    return out


def _points_line(rules: Rules, words: Words) -> str:
    parts = []
    for category in Category:
        if category is Category.HIGH_CARD:
            continue
        if category is Category.ROYAL_FLUSH and not rules.royal_separate:
            continue
        parts.append(f"{words.category(category.name).lower()} {rules.points_for(category)}")
    return ", ".join(parts)


def _summary(rules: Rules, words: Words) -> list[Block]:
    t = words.t
    s = rules.scoring_rounds

    def para(name: str, text: str) -> Block:
        return Block("para", text, t(f"tui.rules.{name}"))

    blocks = [
        para("players", t("tui.rules.players_text", min=rules.min_players,
                          max=rules.max_players)),
        para("deal", t("tui.rules.deal_text", n=rules.exchanges, max=min(5, rules.max_discard))
             + " " + (t("tui.rules.deal_rounds", n=s) if s else t("tui.rules.deal_no_rounds"))),
        para("rounds", t("tui.rules.rounds_text") + " "
             + t("tui.rules.ties_staged" if rules.tie_mode == "staged" else "tui.rules.ties_none")
             + (" " + t("tui.rules.ties_suit", order=rules.suit_order)
                if rules.suit_order else "")),
        para("points", _points_line(rules, words) + "."),
    ]
    if rules.show_on_break:
        blocks.append(para("show", t("tui.rules.show_text")))
    if rules.lock_at is not None:
        text = t("tui.rules.lock_text", n=rules.lock_at)
        if rules.lock_six:
            text += " " + t("tui.rules.lock_six")
        blocks.append(para("lock", text))
    if rules.one_up:
        blocks.append(para("one_up", t("tui.rules.one_up_text")))
    if rules.redeal_low != "off":
        below = rules.redeal_low == "below-ten"
        limit = t("tui.rules.below_ten" if below else "tui.rules.ten_or_lower")
        blocks.append(para("redeal", t("tui.rules.redeal_text", limit=limit)))
    if rules.quads_reset:
        text = t("tui.rules.quads_text")
        if rules.quads_end_deal:
            text += " " + t("tui.rules.quads_end")
        blocks.append(para("quads", text))
    if rules.chicago_enabled:
        minimum = (
            t("tui.rules.chicago_min", n=rules.chicago_min_score)
            if rules.chicago_min_score is not None else t("tui.rules.chicago_any")
        )
        leader = t("tui.rules.declarer_leads" if rules.chicago_caller_leads
                   else "tui.rules.left_leads")
        text = t("tui.rules.chicago_text", minimum=minimum, leader=leader,
                 n=rules.chicago_points)
        if rules.deuce_bonus:
            text += " " + t("tui.rules.chicago_deuce", n=rules.deuce_chicago_points)
        if rules.chicago_breaker_points:
            text += " " + t("tui.rules.chicago_breaker", n=rules.chicago_breaker_points)
        blocks.append(para("chicago", text))
    else:
        blocks.append(para("chicago", t("tui.rules.no_chicago")))
    trick = t("tui.rules.tricks_text", n=rules.last_trick_points)
    if rules.deuce_bonus:
        trick += " " + t("tui.rules.tricks_deuce", n=2 * rules.last_trick_points)
    blocks.append(para("tricks", trick + t("tui.rules.tricks_end")))
    blocks.append(para("showdown", t("tui.rules.showdown_text")))
    end = t("tui.rules.end_text", n=rules.target)
    if rules.chicago_required == "made":
        key = "tui.rules.end_made_any" if rules.chicago_made_any_size else "tui.rules.end_made_3"
        end += " " + t(key)
    elif rules.chicago_required == "declared":
        end += " " + t("tui.rules.end_declared")
    if rules.win_again:
        end += " " + t("tui.rules.end_again")
    instant = None
    if rules.straight_flush_wins:
        instant = "tui.rules.sf_or_royal" if rules.royal_separate else "tui.rules.sf"
    elif rules.royal_wins:
        instant = "tui.rules.royal"
    if instant:
        key = (
            "tui.rules.instant_raised" if rules.instant_win_score == "target"
            else "tui.rules.instant_kept"
        )
        end += " " + t(key, hand=t(instant), n=rules.target)
    if rules.max_deals is not None:
        end += " " + t("tui.rules.end_deals", n=rules.max_deals)
    blocks.append(para("end", end))
    pays = t("tui.rules.pays_text", stake=f"{rules.stake:g}")
    pays += " " + t("tui.rules.pays_negative" if rules.negative_scores else "tui.rules.pays_zero")
    blocks.append(para("pays", pays))
    return blocks


def rules_blocks(rules: Rules, lang: Lang | str | None = None) -> list[Block]:
    """The rules of ``rules`` in blocks: summary, variations on, and every option."""
    words = Words([], lang=lang)
    t = words.t
    changes = rules.differences()
    title = t("tui.rules.title", name=rules.preset_name)
    if changes:
        title += " " + t("tui.rules.with_changes")
    blocks = [Block("title", title)]
    if changes:
        changed = ", ".join(f"{k}={v}" for k, v in sorted(changes.items()))
        blocks.append(Block("para", t("tui.rules.changed", changes=changed)))
    blocks.extend(_summary(rules, words))
    on = variations_on(rules)
    if on:
        blocks.append(Block("heading", t("tui.rules.variations")))
        for vid in on:
            key = f"var.{vid}"
            text = t(key) if words.lang.has(key) else VARIATIONS[vid].description
            blocks.append(Block("item", f"{vid}: {text}"))
    blocks.append(Block("heading", t("tui.rules.options")))
    blocks.append(Block("para", t("tui.rules.options_note")))
    for f in dataclasses.fields(rules):
        if f.name == "points":
            value = _points_line(rules, words)
        else:
            value = repr(getattr(rules, f.name))
        description = option_description(f.name, words.lang)
        blocks.append(
            Block("item", f"`{f.name}` = {value}" + (f" — {description}" if description else ""))
        )
    return blocks


def option_description(name: str, lang: Lang | str | None = None) -> str:
    """What the rule option ``name`` does, in ``lang``: the catalogue's ``tui.opt.NAME``
    where the language has one of its own (Swedish), else the documentation under the field
    in the Rules class (English); ``""`` for an unknown name."""
    language = get_lang(lang)
    key = f"tui.opt.{name}"
    if key in language.entries:
        return language.t(key)
    return option_descriptions().get(name, "")


def rules_help(rules: Rules, lang: Lang | str | None = None) -> str:
    """The rules of ``rules`` as Markdown: summary, variations on, and every option."""
    return to_markdown(rules_blocks(rules, lang))


def rules_text(rules: Rules, lang: Lang | str | None = None) -> list[str]:
    """The rules of ``rules`` as plain lines (``help`` in the line mode): no Markdown."""
    return to_plain(rules_blocks(rules, lang))
