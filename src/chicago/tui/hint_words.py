"""The hint (draw odds, :func:`chicago.tui.hints.hint`) in words, in the player's language.

:mod:`chicago.tui.hints` computes; this module only words what it found: the plain lines
of the line mode, the notes on the assumptions, and why a hand gets no odds.

>>> from chicago.cards import parse_cards
>>> from chicago.engine.views import hand_view
>>> from chicago.tui.hints import hint
>>> from chicago.tui.words import Words
>>> result = hint(hand_view(parse_cards("2c 7d 7h Ks As")))
>>> hint_lines(result)[0]  # the advice first: the ace may take the last trick
'Keep 7d 7h As: 2.4 points expected, 26% two pair or better.'
>>> hint_lines(result)[2].startswith("1. keep 7d 7h As (throw away 2): expected ")
True
>>> hint_lines(result, words=Words([], lang="sv"))[2].startswith("1. behåll 7d 7h As (släng 2)")
True
"""

from __future__ import annotations

from chicago.advice import Advice, improvement
from chicago.tui.hints import Hint, category_columns
from chicago.tui.words import Words

__all__ = ["advice_sentence", "hand_summary", "hint_lines", "hint_notes", "no_odds",
           "six_lines", "why_no_draw"]

_REASONS = {
    "you are locked with six cards: discard exactly one, and draw none": "tui.hint.why_six",
    "you are locked and cannot exchange this deal": "tui.hint.why_locked",
    "the exchanges of this deal are over": "tui.hint.why_over",
}
"""The reasons :func:`~chicago.tui.hints.hint` gives for no odds, by their words' key."""


def _words(words: Words | None) -> Words:
    return words if words is not None else Words([])


def why_no_draw(result: Hint, words: Words | None = None) -> str:
    """Why the hand gets no draw odds, in the language of ``words``."""
    words = _words(words)
    key = _REASONS.get(result.reason)
    return words.t(key) if key else result.reason


def no_odds(hand_size: int, words: Words | None = None) -> str:
    """The answer to the hint key for a hand that is not five cards (none dealt yet)."""
    words = _words(words)
    return words.t("tui.hint.no_odds", n=hand_size)


def hint_notes(result: Hint, words: Words | None = None) -> list[str]:
    """The assumptions of the odds that matter for this hand, in words."""
    words = _words(words)
    lines = []
    if result.short_stock is not None:
        lines.append(words.t("tui.hint.short_stock", n=result.short_stock))
    if result.returned:
        lines.append(words.t("tui.hint.returned", cards=words.cards(list(result.returned))))
    return lines


def hand_summary(result: Hint, words: Words | None = None) -> str:
    """The hand now in words: ``Your hand 7d 7h 2c Ks As is a pair (1 point).``"""
    words = _words(words)
    cards = words.cards(list(result.hand))
    if result.category is None:
        return words.t("tui.hint.hand_only", cards=cards)
    return words.t(
        "tui.hint.hand_is", cards=cards, cat=words.category_a(result.category),
        points=words.points(result.points),
    )


def six_lines(result: Hint, words: Words | None = None) -> list[str]:
    """The discards of a locked six-card hand, best resulting hand first."""
    words = _words(words)
    return [
        words.t(
            "tui.hint.six_line", i=number, card=words.card(choice.discard),
            keep=words.cards(list(choice.keep)), cat=words.category_a(choice.category),
            points=words.points(choice.points),
        )
        for number, choice in enumerate(result.six, start=1)
    ]


def advice_sentence(advice: Advice, words: Words | None = None) -> str:
    """The advice in one sentence, in the browser app's words (issue 16): ``Keep A♠ Q♦: 1.5
    points expected, 48 % a pair or better.``"""
    words = _words(words)
    points = words.decimal(advice.value, 1)
    if not advice.discard:
        return words.t("hint.sentence_all", points=points)
    found = improvement(advice)
    better = "" if found is None else words.t(
        "hint.better", pct=words.decimal(found[1] * 100, 0) + "%",
        cat=words.category_a(found[0]))
    if not advice.keep:
        return words.t("hint.sentence_none", points=points, better=better)
    keep = words.cards([str(c) for c in advice.keep])
    return words.t("hint.sentence", keep=keep, points=points, better=better)


def hint_lines(result: Hint, top: int = 8, words: Words | None = None) -> list[str]:
    """The best ``top`` holds as plain text lines (for the line mode and screen readers)."""
    words = _words(words)
    hand = words.cards(list(result.hand))
    if result.six:
        return [
            words.t("tui.hint.six_head", reason=why_no_draw(result, words), cards=hand),
            *six_lines(result, words),
        ]
    if not result.can_exchange:
        return [
            words.t("tui.hint.no_draw_line", reason=why_no_draw(result, words))
            + " " + hand_summary(result, words)
        ]
    head = words.t("tui.hint.odds_for", cards=hand)
    if result.dead:
        head += " (" + words.t("hint.dead", cards=words.cards(list(result.dead))) + ")"
    lines = [head + ". " + words.t("tui.hint.best_first")]
    if result.advice:  # the advice first, in a sentence (issue 16)
        lines.insert(0, advice_sentence(result.advice[0], words))
    worth = {a.hold.keep: a.value for a in result.advice}
    for number, hold in enumerate(result.holds[:top], start=1):
        keep = words.cards([str(c) for c in hold.keep]) or words.t("hint.nothing")
        chances = [
            f"{words.category(name).lower()} {words.decimal(hold.probabilities[name] * 100)}%"
            for name in category_columns(result.rules)
            if hold.probabilities[name] >= 0.0005
        ]
        line = words.t(
            "tui.hint.hold", i=number, keep=keep, n=len(hold.discard),
            exp=words.decimal(hold.expected_points, 2),
            chances=", ".join(chances) or words.t("tui.hint.no_pair_likely"),
        )
        if hold.keep in worth:
            line += f" · {words.t('hint.worth')} {words.decimal(worth[hold.keep], 2)}"
        lines.append(line)
    lines.extend(hint_notes(result, words))
    return lines

