"""Events, game states and questions in plain words, from one seat's point of view.

Everything here works on JSON-able data only: event dicts (``Event.to_json()``), the seat
view of :meth:`chicago.Game.view` and action texts. Nothing reads a game object, so nothing
can show a card the seat may not see.

>>> w = Words(["You", "Bo", "Cy"], me=0)
>>> w.event({"type": "exchange", "seat": 1, "round": 1, "discarded": 2, "drawn": 2})
'Bo exchanges 2 cards.'
>>> w.event({"type": "pass", "seat": 0, "round": 1})
'You pass.'
>>> symbol_card("Th")
'10♥'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chicago.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card
from chicago.poker import Category

__all__ = [
    "CardFormat",
    "Words",
    "category_phrase",
    "chicago_requirement",
    "plain_card",
    "rank_phrase",
    "symbol_card",
]

CardFormat = Callable[[str], str]
"""Turns a card's text (``"Th"``) into what is shown (``"Th"`` or ``"10♥"``)."""


def plain_card(text: str) -> str:
    """The card in the text notation (``Th``): plain ASCII for pipes and screen readers."""
    return str(Card(text))


def symbol_card(text: str) -> str:
    """The card with a suit symbol and ``10`` for a ten: ``10♥``."""
    card = Card(text)
    rank = RANKS[card.rank_index]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card.suit]


_ARTICLE = {
    Category.HIGH_CARD: "no pair",
    Category.PAIR: "a pair",
    Category.TWO_PAIR: "two pair",
    Category.THREE_OF_A_KIND: "three of a kind",
    Category.STRAIGHT: "a straight",
    Category.FLUSH: "a flush",
    Category.FULL_HOUSE: "a full house",
    Category.FOUR_OF_A_KIND: "four of a kind",
    Category.STRAIGHT_FLUSH: "a straight flush",
    Category.ROYAL_FLUSH: "a royal flush",
}


def category_phrase(name: str | None) -> str:
    """``"PAIR"`` -> ``"a pair"``, ``"TWO_PAIR"`` -> ``"two pair"``."""
    if not name:
        return "nothing"
    return _ARTICLE[Category[name]]


def rank_phrase(letter: str) -> str:
    """A revealed rank in words: ``"9"`` -> ``"a nine"``, ``"A"`` -> ``"an ace"``."""
    index = RANKS.find(letter.upper())
    if index < 0:
        return letter
    name = RANK_NAMES[index]
    return ("an " if name[0] in "ae" else "a ") + name


def chicago_requirement(view: dict[str, Any]) -> str | None:
    """Which Chicago a player needs to win at this table, from a view's rules and size.

    ``"declared"`` under V-CHI-DECLARED, ``"made"`` under V-CHI-REQ3 where it is in force
    (three players, or any size with ``chicago_made_any_size``), else None.

    >>> chicago_requirement({"players": 4, "rules": {"chicago_required": "made"}}) is None
    True
    >>> chicago_requirement({"players": 3, "rules": {"chicago_required": "made"}})
    'made'
    """
    rules = view.get("rules") or {}
    required = rules.get("chicago_required", "none")
    if required == "declared":
        return "declared"
    if required == "made" and (view.get("players") == 3 or rules.get("chicago_made_any_size")):
        return "made"
    return None


_REQ3_RESET = "reached the target without a made Chicago (V-CHI-REQ3)"
_OBJECTION = "a higher four of a kind objects to the reset"  # the reason of its show event


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _points(points: int) -> str:
    return _plural(points, "point")


class Words:
    """Sentences about the game for the player at seat ``me`` (``None``: an onlooker).

    ``names`` are the display names by seat; the player's own seat is called "You".
    ``card`` formats cards (:func:`plain_card` or :func:`symbol_card`).
    """

    def __init__(
        self, names: Sequence[str], me: int | None = None, card: CardFormat = plain_card
    ) -> None:
        self.names = list(names)
        self.me = me
        self.card = card

    # ------------------------------------------------------------------ pieces
    def who(self, seat: int | None) -> str:
        """The seat's name, or "You" for the player."""
        if seat is None:
            return "nobody"
        return "You" if seat == self.me else self.names[seat]

    def whom(self, seat: int | None) -> str:
        """The seat's name inside a sentence (after "for", "by" …): "you" for the player."""
        if seat is None:
            return "nobody"
        return "you" if seat == self.me else self.names[seat]

    def whose(self, seat: int) -> str:
        """Possessive: "your" / "Bo's"."""
        return "your" if seat == self.me else f"{self.names[seat]}'s"

    def verb(self, seat: int, third: str, second: str | None = None) -> str:
        """``who + verb`` with agreement: "Bo plays" / "You play"."""
        if seat == self.me:
            return f"You {second if second is not None else third[:-1]}"
        return f"{self.names[seat]} {third}"

    def cards(self, cards: Sequence[str]) -> str:
        """Cards separated by spaces, in this formatter."""
        return " ".join(self.card(c) for c in cards)

    def scores(self, scores: Sequence[int]) -> str:
        """``You 5, Bo 3, Cy 0``."""
        return ", ".join(f"{self.who(s)} {score}" for s, score in enumerate(scores))

    def money(self, amounts: Sequence[float]) -> str:
        """Settlement amounts: ``You +12, Bo -8``."""
        return ", ".join(f"{self.who(s)} {_signed(a)}" for s, a in enumerate(amounts))

    # ------------------------------------------------------------------ events
    def event(self, ev: dict[str, Any]) -> str | None:
        """One event in words; ``None`` for events that need no words."""
        kind = ev.get("type")
        method = getattr(self, f"_ev_{kind}", None)
        if method is None:
            return None
        text: str | None = method(ev)
        return text

    def _ev_deal(self, ev: dict[str, Any]) -> str:
        text = (
            f"Deal {ev['deal']}: {self.who(ev['dealer'])} "
            f"{'deal' if ev['dealer'] == self.me else 'deals'}. "
            f"Scores: {self.scores(ev['scores'])}."
        )
        locked = [s for s, flag in enumerate(ev.get("locked", [])) if flag]
        if locked:
            names = ", ".join(self.who(s) for s in locked)
            text += f" Locked, no exchanges this deal: {names}."
        return text

    def _ev_dealt(self, ev: dict[str, Any]) -> str:
        return f"{self.verb(ev['seat'], 'is dealt', 'are dealt')} {self.cards(ev['cards'])}."

    def _ev_redeal(self, ev: dict[str, Any]) -> str:
        seat = ev["seat"]
        if ev.get("redealt"):
            draws = "draw" if seat == self.me else "draws"
            return f"{self.verb(seat, 'throws', 'throw')} in a low hand and {draws} five new cards."
        return f"{self.verb(seat, 'keeps', 'keep')} the dealt hand."

    def _ev_exchange(self, ev: dict[str, Any]) -> str:
        seat = ev["seat"]
        count = ev.get("discarded", 0)
        if ev.get("locked"):
            if count:
                return f"{self.verb(seat, 'is', 'are')} locked with six cards and discards one."
            return f"{self.verb(seat, 'is', 'are')} locked and cannot exchange."
        if ev.get("one_up"):
            return (
                f"{self.verb(seat, 'discards', 'discard')} one card and "
                f"{'ask' if seat == self.me else 'asks'} for the new one face up."
            )
        if not count:
            return f"{self.verb(seat, 'keeps', 'keep')} all five cards."
        return f"{self.verb(seat, 'exchanges', 'exchange')} {_plural(count, 'card')}."

    def _ev_exchanged(self, ev: dict[str, Any]) -> str:
        seat = ev["seat"]
        discarded, drawn = ev.get("discarded", []), ev.get("drawn", [])
        parts = []
        if discarded:
            parts.append(f"discarded {self.cards(discarded)}")
        if drawn:
            parts.append(f"drew {self.cards(drawn)}")
        if not parts:
            return f"{self.who(seat)}: no change."
        return f"({self.who(seat)} {' and '.join(parts)}.)"

    def _ev_reshuffle(self, ev: dict[str, Any]) -> str:
        return (
            f"The stock ran out: {_plural(ev['count'], 'discarded card')} are shuffled into "
            "a new stock."
        )

    def _ev_show(self, ev: dict[str, Any]) -> str:
        reason = ev.get("reason", "")
        if reason == _OBJECTION:
            return (
                f"{self.verb(ev['seat'], 'shows', 'show')} a higher four of a kind against "
                f"the reset: {self.cards(ev['cards'])}."
            )
        return (
            f"{self.verb(ev['seat'], 'shows', 'show')} {self.cards(ev['cards'])}"
            + (f" ({reason})." if reason else ".")
        )

    def _ev_one_up(self, ev: dict[str, Any]) -> str:
        return f"Face up for {self.whom(ev['seat'])}: {self.card(ev['card'])}."

    def _ev_one_up_choice(self, ev: dict[str, Any]) -> str:
        seat = ev["seat"]
        card = self.card(ev["card"])
        if ev.get("accepted"):
            return f"{self.verb(seat, 'takes', 'take')} {card}."
        return (
            f"{self.verb(seat, 'rejects', 'reject')} {card} and "
            f"{'draw' if seat == self.me else 'draws'} the next card face down."
        )

    def _ev_pass(self, ev: dict[str, Any]) -> str:
        return f"{self.verb(ev['seat'], 'passes', 'pass')}."

    def _ev_announce(self, ev: dict[str, Any]) -> str:
        announces = self.verb(ev["seat"], "announces", "announce")
        return f"{announces} {category_phrase(ev['category'])}."

    def _ev_reveal(self, ev: dict[str, Any]) -> str:
        seat = ev["seat"]
        if "suit" in ev:
            suit = SUIT_NAMES[SUITS.index(ev["suit"])]
            shown = f"the suit {suit}"
        else:
            shown = rank_phrase(str(ev["rank"]))
        return f"Tie-break stage {ev['stage']}: {self.verb(seat, 'shows', 'show')} {shown}."

    def _ev_round_result(self, ev: dict[str, Any]) -> str:
        head = f"Scoring round {ev['round']}:"
        winner = ev.get("winner")
        if winner is None:
            if ev.get("category") is None:
                return f"{head} everyone passed, nobody scores."
            return f"{head} equal hands of {category_phrase(ev['category'])}, nobody scores."
        if ev.get("reason", "").startswith("four of a kind"):
            return (
                f"{head} {self.verb(winner, 'wins', 'win')} with four of a kind and "
                f"{'choose' if winner == self.me else 'chooses'}: reset the others or score."
            )
        return (
            f"{head} {self.verb(winner, 'wins', 'win')} with "
            f"{category_phrase(ev['category'])}."
        )

    def _ev_quads_choice(self, ev: dict[str, Any]) -> str:
        # a choice only: a higher four of a kind may still object (quads_objection)
        if ev.get("reset"):
            return (
                f"{self.verb(ev['seat'], 'chooses', 'choose')} to reset every other score "
                "to zero."
            )
        return f"{self.verb(ev['seat'], 'takes', 'take')} the points for four of a kind."

    def _ev_quads_claim(self, ev: dict[str, Any]) -> str:
        if ev.get("reset"):
            return f"{self.verb(ev['seat'], 'claims', 'claim')} a reset with four of a kind."
        return f"{self.verb(ev['seat'], 'passes', 'pass')} (no reset)."

    def _ev_quads_objection(self, ev: dict[str, Any]) -> str:
        # V-QUADS-RESET: the holder of a higher four of a kind (just shown) voids the reset
        return (
            f"{self.verb(ev['seat'], 'objects', 'object')}: only the highest four of a kind "
            f"may reset, so {self.whose(ev['against'])} reset does not count."
        )

    def _ev_quads_reset(self, ev: dict[str, Any]) -> str:
        return f"Four of a kind: {self.whose(ev['seat'])} reset ends the deal."

    def _ev_chicago(self, ev: dict[str, Any]) -> str:
        if ev.get("declared"):
            return f"{self.verb(ev['seat'], 'declares', 'declare')} CHICAGO: all five tricks!"
        return f"{self.verb(ev['seat'], 'does', 'do')} not declare Chicago."

    def _ev_play(self, ev: dict[str, Any]) -> str:
        return f"{self.verb(ev['seat'], 'plays', 'play')} {self.card(ev['card'])}."

    def _ev_trick(self, ev: dict[str, Any]) -> str:
        return (
            f"{self.verb(ev['winner'], 'wins', 'win')} trick {ev['trick']} "
            f"with {self.card(ev['card'])}."
        )

    def _ev_chicago_result(self, ev: dict[str, Any]) -> str:
        seat = ev["seat"]
        if ev.get("made"):
            return f"{self.verb(seat, 'makes', 'make')} the Chicago!"
        return f"The Chicago fails: {self.who(ev.get('broken_by'))} took a trick."

    def _ev_score(self, ev: dict[str, Any]) -> str:
        seat, points = ev["seat"], ev["points"]
        reason = ev.get("reason", "")
        if reason == _REQ3_RESET:
            goes = "go" if seat == self.me else "goes"
            return (
                f"{self.verb(seat, 'reaches', 'reach')} the target without a made Chicago "
                f"and {goes} back to 0 from {-points} (V-CHI-REQ3)."
            )
        if points >= 0:
            head = f"{self.verb(seat, 'scores', 'score')} {_points(points)}"
        else:
            head = f"{self.verb(seat, 'loses', 'lose')} {_points(-points)}"
        return f"{head} ({reason}), total {ev['total']}."

    def _ev_showdown(self, ev: dict[str, Any]) -> str:
        hands = ev.get("hands", {})
        shown = "; ".join(
            f"{self.who(int(s))} {self.cards(cards)}" for s, cards in sorted(
                hands.items(), key=lambda item: int(item[0])
            )
        )
        winner = ev.get("winner")
        if winner is None:
            result = f"equal best hands ({category_phrase(ev.get('category'))}), nobody scores"
        else:
            result = (
                f"{self.verb(winner, 'wins', 'win')} with {category_phrase(ev.get('category'))}"
            )
        return f"Final showdown: {shown}. {result[0].upper()}{result[1:]}."

    def _ev_deal_end(self, ev: dict[str, Any]) -> str:
        gained = ", ".join(
            f"{self.who(s)} {_signed(p)}" for s, p in enumerate(ev["points"])
        )
        return f"Deal {ev['deal']} is over. Points: {gained}. Scores: {self.scores(ev['scores'])}."

    def _ev_game_end(self, ev: dict[str, Any]) -> str:
        winners = ev.get("winners", [])
        names = " and ".join(self.who(s) for s in winners) or "nobody"
        verb = "win" if len(winners) != 1 or winners[0] == self.me else "wins"
        text = f"The game is over: {names} {verb}. Final scores: {self.scores(ev['scores'])}."
        settlement = ev.get("settlement")
        if settlement:
            text += f" Settlement: {self.money(settlement)}."
        return text

    # ------------------------------------------------------------------ state
    def phase_line(self, view: dict[str, Any]) -> str:
        """Deal, dealer and where the deal is, in one line."""
        rules = view["rules"]
        phase = view["phase"]
        head = f"Deal {view['deal']}, dealer {self.whom(view['dealer'])}"
        if phase == "over":
            return f"{head}. The game is over."
        if phase == "exchange":
            where = f"exchange round {view['round']} of {rules['exchanges']}"
        elif phase == "announce":
            where = f"scoring round {view['round']} of {rules['exchanges'] - 1}"
        elif phase == "play":
            where = f"trick {view['trick_number']} of 5"
        elif phase == "one up":
            where = "one up"
        elif phase == "redeal":
            where = "redeal of low hands"
        elif phase == "chicago":
            where = "the Chicago call"
        elif phase in ("quads", "quads choice"):
            where = "four of a kind"
        else:
            where = phase
        return f"{head}: {where}. Stock {view['stock']} cards."

    def hand_line(self, view: dict[str, Any], numbered: bool = True) -> str:
        """The seat's hand, numbered, with its category."""
        hand = view["hand"]
        if numbered:
            cards = " ".join(f"{i}:{self.card(c)}" for i, c in enumerate(hand, start=1))
        else:
            cards = self.cards(hand)
        category = view.get("hand_category")
        suffix = f" ({category_phrase(category)})" if category else ""
        return f"Your hand: {cards}{suffix}." if hand else "Your hand is empty."

    def table_lines(self, view: dict[str, Any]) -> list[str]:
        """What lies on the table: the trick, face-up piles, shown hands, a face-up card."""
        lines: list[str] = []
        if view.get("chicago") is not None:
            lines.append(f"{self.who(view['chicago'])} declared Chicago.")
        one_up = view.get("one_up")
        if one_up:
            lines.append(f"Face up for {self.whom(one_up['seat'])}: {self.card(one_up['card'])}.")
        for seat, cards in sorted(view.get("shown", {}).items(), key=lambda i: int(i[0])):
            lines.append(f"{self.who(int(seat))} showed {self.cards(cards)}.")
        if view["phase"] == "play":
            trick = view.get("trick", [])
            if trick:
                played = ", ".join(
                    f"{self.who(p['seat'])} {self.card(p['card'])}" for p in trick
                )
                lines.append(f"On the table (trick {view['trick_number']}): {played}.")
            else:
                lines.append(f"Trick {view['trick_number']}: nothing played yet.")
        piles = [
            f"{self.who(s)} {self.cards(pile)}" for s, pile in enumerate(view.get("played", []))
            if pile
        ]
        if piles and view["phase"] == "play":
            lines.append("Face up: " + "; ".join(piles) + ".")
        return lines

    def chicago_marks(self, view: dict[str, Any]) -> tuple[str, list[bool], str] | None:
        """Under V-CHI-DECLARED / V-CHI-REQ3: the mark for the score table, who has it (from
        the view's public ``chicago_declared`` / ``chicago_made``) and what it means."""
        need = chicago_requirement(view)
        if need == "declared":
            flags = [bool(f) for f in view.get("chicago_declared") or []]
            return "declared", flags, (
                "declared = has declared a Chicago in this game: only such a player can win "
                "(V-CHI-DECLARED)."
            )
        if need == "made":
            flags = [bool(f) for f in view.get("chicago_made") or []]
            return "made", flags, (
                "made = has made a Chicago in this game: only such a player can win, and "
                "reaching the target without one resets the score to 0 (V-CHI-REQ3)."
            )
        return None

    def chicago_line(self, view: dict[str, Any]) -> str | None:
        """Who has declared (V-CHI-DECLARED) or made (V-CHI-REQ3) a Chicago in this game,
        and why it matters, in one line; None when no such rule is in force."""
        need = chicago_requirement(view)
        if need is None:
            return None
        flags = view.get("chicago_declared" if need == "declared" else "chicago_made") or []
        named = [self.who(s) for s, flag in enumerate(flags) if flag]
        names = (
            ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1
            else named[0] if named else "nobody yet"
        )
        if need == "declared":
            return (
                f"Chicago declared in this game: {names}. Only a player who has declared one "
                "can win (V-CHI-DECLARED)."
            )
        return (
            f"Chicago made in this game: {names}. Only a player who has made one can win; "
            "reaching the target without one resets the score to 0 (V-CHI-REQ3)."
        )

    def state_lines(self, view: dict[str, Any]) -> list[str]:
        """The seat's whole situation before a question, in a few lines."""
        lines = [self.phase_line(view), f"Scores: {self.scores(view['scores'])}."]
        chicago = self.chicago_line(view)
        if chicago:
            lines.append(chicago)
        lines.extend(self.table_lines(view))
        lines.append(self.hand_line(view))
        return lines

    # ------------------------------------------------------------------ questions
    def question(self, view: dict[str, Any]) -> str:
        """What the seat is asked now, in one line (it is the seat's turn)."""
        phase = view["phase"]
        legal = view.get("legal_actions", [])
        if phase == "exchange":
            if len(view.get("hand", [])) == 6:
                return "You hold six cards (locked): discard exactly one, by number or card."
            most = max((len(a.split()) - 1 for a in legal if a.startswith("discard")), default=0)
            hand = view.get("hand", [])
            example = " ".join(hand[:3:2]) if len(hand) >= 3 else "Qh 3c"
            text = (
                f"Exchange round {view['round']}: discard which cards? Card numbers (1 3) or "
                f"cards ({example}); 0 keeps all"
            )
            if most < 5:
                text += f"; at most {most} cards"
            if any(a.startswith("one up") for a in legal):
                text += "; 'one up N' asks for the new card face up"
            return text + "."
        if phase == "announce":
            return f"Scoring round {view['round']}: announce your hand or pass?"
        if phase == "chicago":
            return "Declare Chicago, a promise to win all five tricks?"
        if phase == "one up":
            card = view["one_up"]["card"] if view.get("one_up") else "the card"
            return f"Take the face-up {self.card(card)} or reject it for the next card?"
        if phase == "redeal":
            return "Throw in your low hand and draw five new cards, or keep it?"
        if phase == "quads choice":
            return "Your four of a kind wins: reset every other score to zero, or score it?"
        if phase == "quads":
            return "Reset every other score with your four of a kind, or pass?"
        if phase == "play":
            return f"Trick {view['trick_number']}: play which card?"
        return "Your turn."

    def menu(self, legal: Sequence[str]) -> str:
        """The numbered choices: ``1) pass, 2) announce pair``."""
        return ", ".join(
            f"{number}) {self.choice_label(text)}" for number, text in enumerate(legal, start=1)
        )

    # ------------------------------------------------------------------ actions
    def action(self, seat: int, text: str) -> str:
        """An action in words: ``play Ah`` -> "You play A♥."."""
        words = text.split()
        if not words:
            return ""
        head = words[0]
        if head == "play":
            return f"{self.verb(seat, 'plays', 'play')} {self.card(words[1])}."
        if head == "discard":
            return f"{self.verb(seat, 'discards', 'discard')} {self.cards(words[1:])}."
        if text == "keep":
            return f"{self.verb(seat, 'keeps', 'keep')} the cards."
        if head == "one":
            return f"{self.verb(seat, 'asks', 'ask')} for one up with {self.card(words[-1])}."
        if head == "announce":
            category = Category.parse(" ".join(words[1:]))
            return f"{self.verb(seat, 'announces', 'announce')} {category_phrase(category.name)}."
        if text == "no chicago":
            return f"{self.verb(seat, 'does', 'do')} not declare Chicago."
        if text == "chicago":
            return f"{self.verb(seat, 'declares', 'declare')} Chicago."
        third = {"pass": "passes", "accept": "accepts", "reject": "rejects",
                 "redeal": "redeals", "reset": "resets", "score": "scores"}.get(head, head + "s")
        return f"{self.verb(seat, third, head)}."

    def choice_label(self, text: str) -> str:
        """A legal action as a menu choice: ``announce two pair``, ``play A♥``."""
        words = text.split()
        if (words and words[0] in ("play", "discard")) or text.startswith("one up"):
            keep = words[:2] if text.startswith("one up") else words[:1]
            return " ".join(keep + [self.card(c) for c in words[len(keep):]])
        return text


def _signed(amount: float) -> str:
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    return f"+{amount}" if amount > 0 else str(amount)
