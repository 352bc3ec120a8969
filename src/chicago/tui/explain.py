"""Why an action is not allowed, in the player's words and language, from the seat's view.

The engine's reason (:class:`~chicago.IllegalAction`) is written for programs and logs
("seat 0 may discard or one up, not announce straight flush"). :func:`why_not` says the same
to a player: what cannot be done now, why, and what may be done instead ("You cannot
announce now: it is exchange 1 of 3, and you may exchange cards or ask for one up."). It
reads only the seat's view (its hand, the trick, the legal actions), so it can never name a
card the seat has not seen.

>>> from chicago import Game, Rules
>>> from chicago.tui.words import Words
>>> game = Game(Rules.preset("pagat"), players=3, seed=1)
>>> view = game.view(game.to_act)
>>> why_not(Action.parse("announce pair"), view, Words(["You", "Bo", "Cy"], me=view.seat))
'You cannot announce now: it is exchange 1 of 3, and you may exchange cards.'
"""

from __future__ import annotations

from chicago.cards import SUITS
from chicago.engine import Action, ActionKind, SeatView
from chicago.poker import Category
from chicago.tui.words import Words

__all__ = ["why_not"]

_DOING = {
    ActionKind.DISCARD: "tui.do.discard", ActionKind.ONE_UP: "tui.do.one_up",
    ActionKind.ACCEPT: "tui.do.accept", ActionKind.REJECT: "tui.do.reject",
    ActionKind.REDEAL: "tui.do.redeal", ActionKind.ANNOUNCE: "tui.do.announce",
    ActionKind.PASS: "tui.do.pass", ActionKind.CHICAGO: "tui.do.chicago",
    ActionKind.NO_CHICAGO: "tui.do.no_chicago", ActionKind.PLAY: "tui.do.play",
    ActionKind.RESET: "tui.do.reset", ActionKind.SCORE: "tui.do.score",
}
"""What each kind of action does, as a verb phrase ("announce", "play a card")."""

_ORDER = list(_DOING)


def _may(kinds: set[ActionKind], view: SeatView, words: Words) -> str:
    """The kinds of action the seat may take, joined: "exchange cards or ask for one up"."""
    doing = [
        words.t("tui.do.keep") if kind is ActionKind.DISCARD and view.phase == "redeal"
        else words.t(_DOING[kind])
        for kind in _ORDER if kind in kinds
    ]
    if len(doing) <= 1:
        return "".join(doing)
    return ", ".join(doing[:-1]) + words.t("tui.or") + doing[-1]


def _highest_announced(view: SeatView) -> Category | None:
    """The best category announced in the scoring round now, from the view."""
    said = [
        a.category for a in view.announcements
        if a.round == view.round and a.category is not None
    ]
    return max(said) if said else None


def why_not(action: Action, view: SeatView, words: Words) -> str:
    """Why ``action`` is not allowed now for the seat of ``view``, in one sentence or two."""
    legal = list(view.legal_actions)
    if view.over:
        return words.t("tui.err.over")
    if not legal:
        return words.t("err.not_your_turn")
    kinds = {a.kind for a in legal}
    may = _may(kinds, view, words)
    kind, phase = action.kind, view.phase
    hand = view.hand
    missing = [c for c in action.cards if c not in hand]
    if kind is ActionKind.ONE_UP and phase == "exchange":
        if not view.rules.one_up:
            return words.t("tui.err.no_one_up")
        if len(hand) == 6:
            return words.t("tui.err.six")
        if not missing:
            return words.t("tui.err.one_up")
    if kind is ActionKind.ANNOUNCE and phase == "announce":
        mine = view.hand_category
        wanted = action.category
        if mine is not None and wanted is not mine:
            return words.t(
                "tui.err.announce_exactly", mine=words.category_a(mine),
                wanted=words.category_a(wanted),
            )
        highest = _highest_announced(view)
        if highest is not None:
            return words.t("tui.err.announce_higher", cat=words.category_a(highest))
    if kind is ActionKind.REDEAL and phase == "redeal":
        return words.t("tui.err.redeal_low")
    if kind is ActionKind.RESET and phase == "quads":
        return words.t("tui.err.reset_quads")
    if kind is ActionKind.DISCARD and phase == "redeal" and action.cards:
        return words.t("tui.err.redeal_cards")
    if kind not in kinds:
        doing = (
            words.t("tui.do.keep") if kind is ActionKind.DISCARD and not action.cards
            else words.t(_DOING[kind])
        )
        return words.t("tui.err.not_now", doing=doing, phase=words.phase_words(view), may=may)
    if missing:
        return words.t("tui.err.not_held", cards=words.cards(missing))
    if kind is ActionKind.PLAY and view.trick:
        led = view.trick[0].card
        playable = [a.card for a in legal if a.kind is ActionKind.PLAY]
        return words.t(
            "tui.err.follow", suit=words.suit(SUITS[led.suit]), cards=words.cards(playable)
        )
    if kind is ActionKind.DISCARD:
        if len(hand) == 6:
            return words.t("tui.err.six")
        most = max((len(a.cards) for a in legal if a.kind is ActionKind.DISCARD), default=0)
        if len(action.cards) > most:
            return words.t("sel.too_many", max=most)
    return words.t("err.illegal_action") + " " + words.t("tui.err.you_may", may=may)
