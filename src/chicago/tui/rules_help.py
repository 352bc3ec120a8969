"""The rules of a rule set in words, for the help screen and ``help`` in the line mode.

:func:`rules_help` writes Markdown from a :class:`~chicago.Rules` object: a summary of how a
deal and the game go under exactly these options, the points table, the variations that are
on, and every option with its value and the description documented on the Rules class.

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

from chicago.poker import Category
from chicago.rules import PRESETS, VARIATIONS, Rules

__all__ = ["option_descriptions", "rules_help", "variations_on"]


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


def _points_line(rules: Rules) -> str:
    parts = []
    for category in Category:
        if category is Category.HIGH_CARD:
            continue
        if category is Category.ROYAL_FLUSH and not rules.royal_separate:
            continue
        parts.append(f"{category.text} {rules.points_for(category)}")
    return ", ".join(parts)


def _summary(rules: Rules) -> list[str]:
    s = rules.scoring_rounds
    lines = [
        f"**Players.** {rules.min_players} to {rules.max_players}, one pack of 52 cards. "
        "Everything goes clockwise from the dealer's left; the deal passes on after each hand.",
        f"**A deal.** Five cards each, then {rules.exchanges} exchange rounds: in turn each "
        f"player discards 0 to {min(5, rules.max_discard)} cards and draws as many. "
        + (
            f"After each exchange round but the last comes a scoring round ({s} in all)."
            if s else "There is no scoring round during the exchanges."
        ),
        "**Scoring rounds.** In turn each player passes or announces exactly what the hand "
        "is, at least as high as the best announced so far. The best hand scores its points. "
        + (
            "Two or more with the same best category reveal their ranks stage by stage "
            "(combination first, then the odd cards) until one is ahead; exactly equal "
            "hands score nothing."
            if rules.tie_mode == "staged"
            else "If two or more announce the same best category nobody scores."
        )
        + (
            f" Exactly equal hands go to the better suit of the top card ({rules.suit_order})."
            if rules.suit_order else ""
        ),
        f"**Points.** {_points_line(rules)}.",
    ]
    if rules.show_on_break:
        lines.append(
            "**Show on break.** A player whose announced combination was highest and who "
            "then discards a card of it must first show the whole hand to everyone."
        )
    if rules.lock_at is not None:
        text = (
            f"**Lock.** A player with {rules.lock_at} points or more at the start of a deal "
            "may not exchange in that deal."
        )
        if rules.lock_six:
            text += " Such a player is dealt six cards and discards one in the first exchange."
        lines.append(text)
    if rules.one_up:
        lines.append(
            "**One up.** Exchanging exactly one card, a player may ask for the new card face "
            "up, then take it or reject it for the next card face down."
        )
    if rules.redeal_low != "off":
        limit = "below ten" if rules.redeal_low == "below-ten" else "ten or lower"
        lines.append(
            f"**Redeal.** Before the first exchange a player whose five cards are all {limit} "
            "may throw them in and draw five new ones."
        )
    if rules.quads_reset:
        text = (
            "**Four of a kind** that wins a scoring round (or is claimed after the last "
            "exchange) may reset every other player's score to zero, ending the deal. Only "
            "the highest four of a kind at the table may: if a higher one is held, its "
            "holder objects and shows those four cards, and the reset does not count (in a "
            "scoring round the winner scores the four of a kind instead; after the last "
            "exchange the deal goes on)."
        )
        if rules.quads_end_deal:
            text += " Scoring the points for four of a kind also ends the deal."
        lines.append(text)
    if rules.chicago_enabled:
        minimum = (
            f"with at least {rules.chicago_min_score} points"
            if rules.chicago_min_score is not None else "at any score"
        )
        leader = "the declarer leads" if rules.chicago_caller_leads else "the dealer's left leads"
        text = (
            f"**Chicago.** After the last exchange a player {minimum} may declare Chicago, "
            f"a promise to win all five tricks ({leader}). Made: {rules.chicago_points} points "
            f"instead of the last trick. Failed: minus {rules.chicago_points}, and the deal "
            "ends at the trick that breaks it."
        )
        if rules.deuce_bonus:
            text += (
                f" A made Chicago whose last trick is won with a two scores "
                f"{rules.deuce_chicago_points}."
            )
        if rules.chicago_breaker_points:
            text += f" Whoever breaks it scores {rules.chicago_breaker_points}."
        lines.append(text)
    else:
        lines.append("**Chicago.** There is no Chicago call under these rules.")
    trick = (
        f"**Tricks.** Five tricks, no trumps; follow suit if you can; the highest card of "
        f"the suit led wins. Only the last trick scores: {rules.last_trick_points} points"
    )
    if rules.deuce_bonus:
        trick += f" ({2 * rules.last_trick_points} if won with a two)"
    lines.append(trick + ". Played cards stay face up in front of each player.")
    lines.append(
        "**Showdown.** After the last trick the best hand scores its points once more "
        "(exactly equal best hands score nothing)."
    )
    end = (
        f"**End.** The game ends after a deal in which someone reaches {rules.target}; the "
        "most points win."
    )
    if rules.chicago_required == "made":
        made = (
            "only a player who has made a Chicago can win; reaching the target without one "
            "resets the score to zero."
        )
        if rules.chicago_made_any_size:
            end += f" At any table size {made}"
        else:
            end += f" In a three-player game {made} At other table sizes this does not apply."
    elif rules.chicago_required == "declared":
        end += " Only a player who has declared a Chicago can win."
    if rules.win_again:
        end += " A player at the target must then win a last trick in a later deal."
    instant = None
    if rules.straight_flush_wins:
        instant = "straight flush (or royal flush)" if rules.royal_separate else "straight flush"
    elif rules.royal_wins:
        instant = "royal flush"
    if instant:
        end += f" A {instant} that scores wins the game at once"
        if rules.instant_win_score == "target":
            end += f", and the winner's score is raised to {rules.target} if lower."
        else:
            end += (
                ", and the winner keeps the score they have (not raised to the target): the "
                "others pay only what they are below it."
            )
    if rules.max_deals is not None:
        end += f" The game also ends after {rules.max_deals} deals."
    lines.append(end)
    pays = (
        f"**Settlement.** Every other player pays {rules.stake:g} per point of difference "
        "to the winner's score; tied winners share."
    )
    if rules.negative_scores:
        pays += " Scores may go below zero, and a negative score pays double."
    else:
        pays += " Scores never go below zero."
    lines.append(pays)
    return lines


def rules_help(rules: Rules) -> str:
    """The rules of ``rules`` as Markdown: summary, variations on, and every option."""
    changes = rules.differences()
    title = f"# Rules: {rules.preset_name}"
    if changes:
        title += " with changes"
    parts = [title, ""]
    if changes:
        parts.append(
            "Changed options: " + ", ".join(f"{k}={v}" for k, v in sorted(changes.items())) + "."
        )
        parts.append("")
    for paragraph in _summary(rules):
        parts.extend([paragraph, ""])
    on = variations_on(rules)
    if on:
        parts.append("## Variations in play")
        parts.append("")
        parts.extend(f"- {vid}: {VARIATIONS[vid].description}" for vid in on)
        parts.append("")
    parts.append("## Every option")
    parts.append("")
    descriptions = option_descriptions()
    for f in dataclasses.fields(rules):
        if f.name == "points":
            value = _points_line(rules)
        else:
            value = repr(getattr(rules, f.name))
        description = descriptions.get(f.name, "")
        parts.append(f"- `{f.name}` = {value}" + (f" — {description}" if description else ""))
    parts.append("")
    return "\n".join(parts)
