"""Events, game states and questions in plain words, from one seat's point of view.

Everything here works on what a seat is shown only: typed events (those the seat may see),
the seat's typed view (:meth:`chicago.Game.view`) and actions. Nothing reads a game object, so
nothing can show a card the seat may not see. The words come from a language's catalogue
(:mod:`chicago.tui.lang`), the same as the browser app's: English unless another is asked.

>>> from chicago.engine.events import Exchange, Pass
>>> w = Words(["You", "Bo", "Cy"], me=0)
>>> w.event(Exchange(seat=1, round=1, discarded=2, drawn=2))
'Bo exchanges 2 cards.'
>>> w.event(Pass(seat=0, round=1))
'You pass.'
>>> Words(["Du", "Bo"], me=0, lang="sv").event(Pass(seat=1, round=1))
'Bo passar.'
>>> symbol_card("Th")
'10♥'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from chicago.cards import RANKS, SUIT_SYMBOLS, Card
from chicago.engine import Action, ActionKind, NotationError
from chicago.engine.events import (
    Announce,
    ChicagoCall,
    ChicagoResult,
    Deal,
    DealEnd,
    Dealt,
    Event,
    Exchange,
    Exchanged,
    GameEnd,
    OneUp,
    OneUpChoice,
    Pass,
    Play,
    QuadsChoice,
    QuadsClaim,
    QuadsObjection,
    QuadsReset,
    Redeal,
    Reshuffle,
    Reveal,
    RoundResult,
    Score,
    Show,
    Showdown,
    Trick,
)
from chicago.engine.viewtypes import PlayedCard, SeatView
from chicago.poker import Category
from chicago.rules import Rules
from chicago.tui.lang import Lang, get_lang

__all__ = [
    "CardFormat",
    "Words",
    "card_format_for",
    "chicago_requirement",
    "plain_card",
    "symbol_card",
]

CardFormat = Callable[[str], str]
"""Turns a card's text (``"Th"``) into what is shown (``"Th"`` or ``"10♥"``)."""


def plain_card(text: str) -> str:
    """The card in the text notation (``Th``): plain ASCII for pipes and screen readers."""
    return str(Card(text))


def card_format_for(stream: object) -> CardFormat:
    """The card notation for text written to ``stream``: the suit symbols (``10♥``) where
    its encoding can write them, the plain letters (``Th``) where it cannot (an ASCII
    terminal, a pipe in the C locale) or where it has none (an in-memory stream).

    >>> import io
    >>> card_format_for(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))("Th")
    '10♥'
    >>> card_format_for(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))("Th")
    'Th'
    """
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return plain_card
    try:
        "".join(SUIT_SYMBOLS).encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return plain_card
    return symbol_card


def symbol_card(text: str) -> str:
    """The card with a suit symbol and ``10`` for a ten: ``10♥``."""
    card = Card(text)
    rank = RANKS[card.rank_index]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card.suit]


def chicago_requirement(rules: Rules, players: int) -> str | None:
    """Which Chicago a player needs to win at this table, from its rules and size.

    ``"declared"`` under V-CHI-DECLARED, ``"made"`` under V-CHI-REQ3 where it is in force
    (three players, or any size with ``chicago_made_any_size``), else None.

    >>> made = Rules.preset("pagat", chicago_required="made")
    >>> chicago_requirement(made, 4) is None, chicago_requirement(made, 3)
    (True, 'made')
    """
    required = rules.chicago_required
    if required == "declared":
        return "declared"
    if required == "made" and (players == 3 or rules.chicago_made_any_size):
        return "made"
    return None


_OBJECTION = "a higher four of a kind objects to the reset"  # the reason of its show event
_ROUND_REASON = re.compile(r"^scoring round (\d+)$")

_BUTTONS = {
    ActionKind.PASS: "btn.pass", ActionKind.CHICAGO: "btn.chicago",
    ActionKind.NO_CHICAGO: "btn.no_chicago", ActionKind.REJECT: "btn.reject",
    ActionKind.REDEAL: "btn.redeal", ActionKind.RESET: "btn.reset",
    ActionKind.SCORE: "btn.score",
}
"""The button text of actions that need no card or category."""


def _signed(amount: float) -> str:
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    return f"+{amount}" if amount > 0 else str(amount)


class Words:
    """Sentences about the game for the player at seat ``me`` (``None``: an onlooker).

    ``names`` are the display names by seat; the player's own seat is called "You" ("Du").
    ``card`` formats cards (:func:`plain_card` or :func:`symbol_card`); ``lang`` is the
    language (a :class:`~chicago.tui.lang.Lang` or its code; English by default).
    """

    def __init__(
        self,
        names: Sequence[str],
        me: int | None = None,
        card: CardFormat = plain_card,
        lang: Lang | str | None = None,
    ) -> None:
        self.names = list(names)
        self.me = me
        self.card = card
        self.lang = get_lang(lang)

    def t(self, key: str, /, **params: Any) -> str:
        """The catalogue text of ``key`` in this language."""
        return self.lang.t(key, **params)

    # ------------------------------------------------------------------ pieces
    def who(self, seat: int | None) -> str:
        """The seat as a label or at the start of a sentence: its name, or "You"/"Du"."""
        if seat is None:
            return _cap(self.t("nobody"))
        return self.t("you_cap") if seat == self.me else self.names[seat]

    def subject(self, seat: int | None) -> str:
        """The seat as the subject inside a sentence: its name, or "you"/"du"."""
        if seat is None:
            return self.t("nobody")
        return self.t("you") if seat == self.me else self.names[seat]

    def whom(self, seat: int | None) -> str:
        """The seat as an object ("for you", "för dig"): its name, or "you"/"dig"."""
        if seat is None:
            return self.t("nobody")
        return self.t("you_obj") if seat == self.me else self.names[seat]

    def name(self, seat: int) -> str:
        """The seat's name on the score table; the player's own marked as such.

        The default name of the player ("You") is shown in the language ("Du").
        """
        name = self.names[seat]
        if seat != self.me:
            return name
        if name in ("You", "Du"):
            return self.t("you_cap")
        return self.t("tui.name_you", name=name)

    def person(self, seat: int | None) -> dict[str, Any]:
        """The parameters of a sentence about ``seat``: who, Who, whom and you."""
        return {
            "who": self.subject(seat), "Who": self.who(seat), "whom": self.whom(seat),
            "you": seat is not None and seat == self.me,
        }

    def listing(self, seats: Sequence[int], start: bool = False) -> str:
        """Several seats as one subject: "you and Bo" ("You and Bo" at a sentence start)."""
        if not seats:
            nobody = self.t("nobody")
            return _cap(nobody) if start else nobody
        return self.t("and").join(
            self.who(s) if index == 0 and start else self.subject(s)
            for index, s in enumerate(seats)
        )

    def cards(self, cards: Iterable[Card | str]) -> str:
        """Cards (or their texts) separated by spaces, in this formatter."""
        return " ".join(self.card(str(c)) for c in cards)

    def category(self, category: Category | str | None) -> str:
        """A category (or its name) as a label: "Two pair", "Par" (``None``: "Nothing")."""
        name = category.name if isinstance(category, Category) else category
        return self.t(f"cat.{name}") if name else self.t("cat.none")

    def category_a(self, category: Category | str | None) -> str:
        """A category (or its name) inside a sentence: "a pair", "ett par"."""
        name = category.name if isinstance(category, Category) else category
        return self.t(f"cata.{name}") if name else self.t("cata.none")

    def rank(self, letter: str) -> str:
        """A rank in words: "nine", "nia"."""
        return self.t(f"rank.{letter.upper()}")

    def suit(self, letter: str) -> str:
        """A suit in words: "hearts", "hjärter"."""
        return self.t(f"suit.{letter.lower()}")

    def level(self, spec: str) -> str:
        """A bot's level in words ("basic", "enkel"); other specs as they are."""
        key = f"level.{spec}"
        return self.t(key) if self.lang.has(key) else spec

    def reason(self, text: str | None) -> str:
        """An engine reason (English, in score and show events) in this language."""
        if not text:
            return ""
        found = _ROUND_REASON.match(text)
        if found:
            return self.t("reason.scoring_round", r=found.group(1))
        key = f"reason.{text}"
        return self.t(key) if self.lang.has(key) else text

    def decimal(self, value: float, digits: int = 1) -> str:
        """A number with ``digits`` decimals in the language's style: ``0.66`` / ``0,66``."""
        text = f"{value:.{digits}f}"
        return text.replace(".", ",") if self.lang.code == "sv" else text

    def points(self, points: int) -> str:
        """``5 points``, ``1 poäng``."""
        return self.t("table.points", n=points)

    def scores(self, scores: Sequence[int]) -> str:
        """``You 5, Bo 3, Cy 0``."""
        return ", ".join(f"{self.who(s)} {score}" for s, score in enumerate(scores))

    def gains(self, points: Sequence[int]) -> str:
        """Points of one deal: ``You +5, Bo 0``."""
        return ", ".join(f"{self.who(s)} {_signed(p)}" for s, p in enumerate(points))

    def money(self, amounts: Sequence[float]) -> str:
        """Settlement amounts: ``You +12, Bo -8``."""
        return ", ".join(f"{self.who(s)} {_signed(a)}" for s, a in enumerate(amounts))

    def verb(self, seat: int, third: str, second: str | None = None) -> str:
        """``who + verb`` with English agreement: "Bo plays" / "You play"."""
        if seat == self.me:
            return f"{self.who(seat)} {second if second is not None else third[:-1]}"
        return f"{self.names[seat]} {third}"

    # ------------------------------------------------------------------ events
    def event(self, ev: Event) -> str | None:
        """One event in words; ``None`` for events that need no words."""
        method: Callable[[Any], str | None] | None = getattr(self, f"_ev_{ev.type}", None)
        return None if method is None else method(ev)

    def _ev_deal(self, ev: Deal) -> str:
        text = self.t("ev.deal", deal=ev.deal, **self.person(ev.dealer))
        locked = [s for s, flag in enumerate(ev.locked) if flag]
        if locked:
            names = ", ".join(self.who(s) for s in locked)
            text += " " + self.t("ev.deal_locked", names=names, n=len(locked))
        return text

    def _ev_dealt(self, ev: Dealt) -> str:
        return self.t("ev.dealt", cards=self.cards(ev.cards), **self.person(ev.seat))

    def _ev_redeal(self, ev: Redeal) -> str:
        key = "ev.redeal_yes" if ev.redealt else "ev.redeal_no"
        return self.t(key, **self.person(ev.seat))

    def _ev_exchange(self, ev: Exchange) -> str:
        person = self.person(ev.seat)
        count = ev.discarded
        if ev.locked:
            return self.t("ev.exchange_locked_six" if count else "ev.exchange_locked", **person)
        if ev.one_up:
            return self.t("ev.exchange_one_up", **person)
        if not count:
            return self.t("ev.exchange_keep", **person)
        return self.t("ev.exchange", n=count, **person)

    def _ev_exchanged(self, ev: Exchanged) -> str | None:
        person = self.person(ev.seat)
        out = self.cards(ev.discarded)
        got = self.cards(ev.drawn)
        if not out and not got:
            return None
        if not got:
            return self.t("ev.exchanged_out", out=out, **person)
        if not out:
            return self.t("ev.exchanged_in", got=got, **person)
        return self.t("ev.exchanged", out=out, got=got, **person)

    def _ev_reshuffle(self, ev: Reshuffle) -> str:
        return self.t("ev.reshuffle", n=ev.size)

    def _ev_show(self, ev: Show) -> str:
        person = self.person(ev.seat)
        cards = self.cards(ev.cards)
        if ev.reason == _OBJECTION:
            return self.t("ev.show_objection", cards=cards, **person)
        why = self.reason(ev.reason)
        if why:
            return self.t("ev.show_why", cards=cards, reason=why, **person)
        return self.t("ev.show", cards=cards, **person)

    def _ev_one_up(self, ev: OneUp) -> str:
        return self.t("ev.one_up", card=self.card(str(ev.card)), **self.person(ev.seat))

    def _ev_one_up_choice(self, ev: OneUpChoice) -> str:
        key = "ev.one_up_accept" if ev.accepted else "ev.one_up_reject"
        return self.t(key, card=self.card(str(ev.card)), **self.person(ev.seat))

    def _ev_pass(self, ev: Pass) -> str:
        return self.t("ev.pass", **self.person(ev.seat))

    def _ev_announce(self, ev: Announce) -> str:
        return self.t("ev.announce", cat=self.category_a(ev.category), **self.person(ev.seat))

    def _ev_reveal(self, ev: Reveal) -> str:
        if ev.suit is not None:
            shown = self.t("ev.reveal_suit", suit=self.suit(ev.suit))
        else:
            shown = self.rank(ev.rank_text or "")
        return self.t("ev.reveal", stage=ev.stage, shown=shown, **self.person(ev.seat))

    def _ev_round_result(self, ev: RoundResult) -> str:
        winner = ev.winner
        r = ev.round
        if winner is None:
            if ev.category is None:
                return self.t("ev.round_nobody", r=r)
            return self.t("ev.round_tie", r=r, cat=self.category_a(ev.category))
        person = self.person(winner)
        if ev.reason.startswith("four of a kind"):
            return self.t("ev.round_quads", r=r, **person)
        return self.t(
            "ev.round_win", r=r, cat=self.category_a(ev.category), points=ev.points, **person,
        )

    def _ev_quads_choice(self, ev: QuadsChoice) -> str:
        # a choice only: a higher four of a kind may still object (quads_objection)
        if ev.reset and ev.target is not None:  # V-QUADS-ONE
            return self.t("ev.quads_reset_one_choice",
                          **{**self.person(ev.seat), "whom": self.whom(ev.target)})
        key = "ev.quads_reset_choice" if ev.reset else "ev.quads_score_choice"
        return self.t(key, **self.person(ev.seat))

    def _ev_quads_claim(self, ev: QuadsClaim) -> str:
        if ev.reset and ev.target is not None:  # V-QUADS-ONE
            return self.t("ev.quads_claim_one",
                          **{**self.person(ev.seat), "whom": self.whom(ev.target)})
        key = "ev.quads_claim" if ev.reset else "ev.quads_no_claim"
        return self.t(key, **self.person(ev.seat))

    def _ev_quads_objection(self, ev: QuadsObjection) -> str:
        # V-QUADS-RESET: the holder of a higher four of a kind (just shown) voids the reset
        against = ev.against
        return self.t(
            "ev.quads_objection", against=self.subject(against),
            youAgainst=against == self.me, **self.person(ev.seat),
        )

    def _ev_quads_reset(self, ev: QuadsReset) -> str:
        return self.t("ev.quads_reset", **self.person(ev.seat))

    def _ev_chicago(self, ev: ChicagoCall) -> str:
        key = "ev.chicago_yes" if ev.declared else "ev.chicago_no"
        return self.t(key, **self.person(ev.seat))

    def _ev_play(self, ev: Play) -> str:
        return self.t("ev.play", card=self.card(str(ev.card)), **self.person(ev.seat))

    def _ev_trick(self, ev: Trick) -> str:
        return self.t(
            "ev.trick", trick=ev.trick, card=self.card(str(ev.card)), **self.person(ev.winner),
        )

    def _ev_chicago_result(self, ev: ChicagoResult) -> str:
        person = self.person(ev.seat)
        if ev.made:
            return self.t("ev.chicago_made", **person)
        return self.t("ev.chicago_failed", breaker=self.subject(ev.broken_by), **person)

    def _ev_score(self, ev: Score) -> str:
        points = ev.points
        key = "ev.score" if points >= 0 else "ev.score_lose"
        return self.t(
            key, points=abs(points), reason=self.reason(ev.reason), total=ev.total,
            **self.person(ev.seat),
        )

    def _ev_showdown(self, ev: Showdown) -> str:
        hands = "; ".join(f"{self.who(s)} {self.cards(cards)}" for s, cards in enumerate(ev.hands))
        winner = ev.winner
        cat = self.category_a(ev.category)
        if winner is None:
            return self.t("ev.showdown_tie", hands=hands, cat=cat)
        return self.t("ev.showdown", hands=hands, cat=cat, points=ev.points, **self.person(winner))

    def _ev_deal_end(self, ev: DealEnd) -> str:
        text = self.t("ev.deal_end", deal=ev.deal, scores=self.scores(ev.scores))
        return text + " " + self.t("tui.deal_points", points=self.gains(ev.points))

    def _ev_game_end(self, ev: GameEnd) -> str:
        winners = ev.winners
        text = self.t(
            "ev.game_end", names=self.listing(winners),
            plural=len(winners) != 1 or winners[0] == self.me,
            scores=self.scores(ev.scores),
        )
        if ev.settlement:
            text += " " + self.t("tui.settlement_line", money=self.money(ev.settlement))
        return text

    # ------------------------------------------------------------------ state
    def phase_words(self, view: SeatView) -> str:
        """Where the deal is, in a few words: "exchange 1 of 3", "trick 2 of 5"."""
        exchanges = view.rules.exchanges
        phase = view.phase
        if phase == "exchange":
            return self.t("phase.exchange", r=view.round, n=exchanges)
        if phase == "announce":
            return self.t("phase.announce", r=view.round, n=exchanges - 1)
        if phase == "play":
            return self.t("phase.play", r=view.trick_number)
        keys = {
            "one up": "phase.one_up", "redeal": "phase.redeal", "chicago": "phase.chicago",
            "quads": "phase.quads", "quads choice": "phase.quads", "over": "phase.over",
        }
        return self.t(keys[phase]) if phase in keys else phase.value

    def deal_line(self, deal: int, dealer: int) -> str:
        """"Deal 3 · dealer Bo" / "Giv 3 · Bo ger"."""
        return self.t("phase.line", deal=deal, dealer=self.subject(dealer), you=dealer == self.me)

    def phase_line(self, view: SeatView) -> str:
        """Deal, dealer, where the deal is and the stock, in one line."""
        head = self.deal_line(view.deal, view.dealer)
        if view.phase == "over":
            return f"{head} · {self.phase_words(view)}."
        stock = self.t("tui.stock", n=view.stock)
        return f"{head} · {self.phase_words(view)} · {stock}."

    def hand_line(self, view: SeatView, numbered: bool = True) -> str:
        """The seat's hand, numbered, with its category."""
        hand = view.hand
        if not hand:
            return self.t("tui.hand_empty")
        if numbered:
            cards = " ".join(f"{i}:{self.card(str(c))}" for i, c in enumerate(hand, start=1))
        else:
            cards = self.cards(hand)
        if view.hand_category is not None:
            return self.t("tui.hand_line_cat", cards=cards, cat=self.category_a(view.hand_category))
        return self.t("tui.hand_line", cards=cards)

    def plays(self, plays: Iterable[PlayedCard | Play]) -> str:
        """The cards of a trick: "Bo 9♥, You K♥"."""
        return ", ".join(f"{self.who(p.seat)} {self.card(str(p.card))}" for p in plays)

    def table_lines(self, view: SeatView) -> list[str]:
        """What lies on the table: the trick, face-up piles, shown hands, a face-up card."""
        lines: list[str] = []
        if view.chicago is not None:
            lines.append(self.t("center.chicago", **self.person(view.chicago)))
        one_up = view.one_up
        if one_up is not None:
            lines.append(
                self.t("ev.one_up", card=self.card(str(one_up.card)), **self.person(one_up.seat))
            )
        for seat, cards in sorted(view.shown.items()):
            lines.append(self.t("tui.showed", cards=self.cards(cards), **self.person(seat)))
        if view.phase == "play":
            number = view.trick_number
            if view.trick:
                lines.append(self.t("tui.on_table", n=number, plays=self.plays(view.trick)))
            else:
                lines.append(
                    self.t("center.trick", n=number) + ": " + self.t("center.nothing")
                )
        piles = [f"{self.who(s)} {self.cards(pile)}" for s, pile in enumerate(view.played) if pile]
        if piles and view.phase == "play":
            lines.append(self.t("tui.played_line", piles="; ".join(piles)))
        return lines

    def chicago_marks(self, view: SeatView) -> tuple[str, list[bool], str] | None:
        """Under V-CHI-DECLARED / V-CHI-REQ3: the mark for the score table, who has it (from
        the view's public ``chicago_declared`` / ``chicago_made``) and what it means."""
        need = chicago_requirement(view.rules, view.players)
        if need is None:
            return None
        flags = view.chicago_declared if need == "declared" else view.chicago_made
        return self.t(f"tui.mark.{need}"), list(flags), self.t(f"tui.mark.{need}_caption")

    def chicago_line(self, view: SeatView) -> str | None:
        """Who has declared (V-CHI-DECLARED) or made (V-CHI-REQ3) a Chicago in this game,
        and why it matters, in one line; None when no such rule is in force."""
        need = chicago_requirement(view.rules, view.players)
        if need is None:
            return None
        flags = view.chicago_declared if need == "declared" else view.chicago_made
        named = [s for s, flag in enumerate(flags) if flag]
        names = self.listing(named, start=True) if named else self.t("tui.nobody_yet")
        return self.t(f"tui.chicago_{need}_line", names=names)

    def state_lines(self, view: SeatView) -> list[str]:
        """The seat's whole situation before a question, in a few lines."""
        lines = [
            self.phase_line(view),
            self.t("tui.scores_line", scores=self.scores(view.scores)),
        ]
        chicago = self.chicago_line(view)
        if chicago:
            lines.append(chicago)
        lines.extend(self.table_lines(view))
        lines.append(self.hand_line(view))
        return lines

    # ------------------------------------------------------------------ questions
    def question(self, view: SeatView) -> str:
        """What the seat is asked now, in one line (it is the seat's turn), for typing."""
        phase = view.phase
        legal = view.legal_actions
        if phase == "exchange":
            if len(view.hand) == 6:
                return self.t("tui.q.exchange_six")
            most = max((len(a.cards) for a in legal if a.kind is ActionKind.DISCARD), default=0)
            hand = [str(c) for c in view.hand]
            example = " ".join(hand[:3:2]) if len(hand) >= 3 else "Qh 3c"
            text = self.t("tui.q.exchange", r=view.round, example=example)
            if most < 5:
                text += "; " + self.t("tui.q.at_most", n=most)
            if any(a.kind is ActionKind.ONE_UP for a in legal):
                text += "; " + self.t("tui.q.one_up")
            return text + "."
        if phase == "announce":
            return self.t("q.announce", r=view.round)
        if phase == "chicago":
            return self.t("q.chicago")
        if phase == "one up":
            card = self.card(str(view.one_up.card)) if view.one_up is not None else ""
            return self.t("q.one_up", card=card)
        if phase == "redeal":
            return self.t("q.redeal")
        # V-QUADS-ONE: "reset 2"
        one = any(a.kind is ActionKind.RESET and a.target is not None for a in legal)
        if phase == "quads choice":
            return self.t("q.quads_choice_one" if one else "q.quads_choice")
        if phase == "quads":
            return self.t("q.quads_one" if one else "q.quads")
        if phase == "play":
            return self.t("tui.q.play", r=view.trick_number)
        return self.t("table.your_turn") + "."

    def menu(self, legal: Sequence[Action | str], view: SeatView | None = None) -> str:
        """The numbered choices: ``1) Pass, 2) Announce a pair`` (``view``: for one up)."""
        return ", ".join(
            f"{number}) {self.choice_label(text, view)}"
            for number, text in enumerate(legal, start=1)
        )

    # ------------------------------------------------------------------ actions
    def choice_label(self, text: Action | str, view: SeatView | None = None) -> str:
        """A legal action (or its text) as a choice or button: "Announce two pair", "Play A♥",
        "Pass".

        ``view`` gives the face-up card for "Take 7♣" (one up).
        """
        try:
            action = Action.parse(text)
        except NotationError:
            return str(text)
        kind = action.kind
        if kind is ActionKind.PLAY:
            return self.t("tui.btn.play", card=self.card(str(action.card)))
        if kind is ActionKind.ANNOUNCE:
            name = action.category.name if action.category is not None else None
            return self.t("btn.announce", cat=self.category_a(name))
        if kind is ActionKind.ONE_UP:
            return self.t("tui.btn.one_up", card=self.card(str(action.card)))
        if kind is ActionKind.DISCARD:
            if not action.cards:
                redeal = view is not None and view.phase == "redeal"
                return self.t("btn.keep_hand" if redeal else "btn.keep")
            return self.t("tui.btn.discard", cards=self.cards([str(c) for c in action.cards]))
        if kind is ActionKind.ACCEPT:
            one_up = view.one_up if view is not None else None
            if one_up is not None:
                return self.t("btn.accept", card=self.card(str(one_up.card)))
            return self.t("tui.btn.accept")
        if kind is ActionKind.RESET and action.target is not None:  # V-QUADS-ONE
            return self.t("btn.reset_seat", whom=self.whom(action.target))
        key = _BUTTONS.get(kind)
        return self.t(key) if key else str(text)

    def action(self, seat: int, text: str) -> str:
        """An action in words: ``play Ah`` -> "You play A♥."."""
        try:
            action = Action.parse(text)
        except NotationError:
            return text
        person = self.person(seat)
        kind = action.kind
        if kind is ActionKind.PLAY:
            return self.t("ev.play", card=self.card(str(action.card)), **person)
        if kind is ActionKind.DISCARD:
            if not action.cards:
                return self.t("ev.exchange_keep", **person)
            cards = [str(c) for c in action.cards]
            return self.t("act.discard", cards=self.cards(cards), n=len(cards), **person)
        if kind is ActionKind.ONE_UP:
            return self.t("act.one_up", card=self.card(str(action.card)), **person)
        if kind is ActionKind.ANNOUNCE:
            name = action.category.name if action.category is not None else None
            return self.t("ev.announce", cat=self.category_a(name), **person)
        if kind is ActionKind.PASS:
            return self.t("ev.pass", **person)
        if kind is ActionKind.CHICAGO:
            return self.t("ev.chicago_yes", **person)
        if kind is ActionKind.NO_CHICAGO:
            return self.t("ev.chicago_no", **person)
        return self.t("tui.act.chose", choice=self.choice_label(text), **person)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
