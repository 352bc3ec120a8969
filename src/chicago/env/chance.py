"""The engine with every unseen card chosen from outside: explicit chance for OpenSpiel.

OpenSpiel models randomness as *chance nodes*: the game stops, chance picks one outcome, the
game goes on. In Chicago the random things are the first dealer and each card a player
receives (dealt, drawn in an exchange, turned up for one up, drawn for a redeal). Each
card is the uniform choice among the cards that could come next: the stock, or the
reshuffled discard pile when the stock is empty (R-EX-2).

The rules stay in the engine alone. :class:`ChanceCards` is the card source
(:mod:`chicago.engine.sources`, through which every card a player receives passes) that
answers from a list of chosen cards; when the list is empty it raises :class:`NeedCard`
naming the cards that could come. :class:`ChanceTable` drives it: it
keeps the game as it was before the action that needs cards, and replays that action (on a
copy) with one more chosen card each time, until the action goes through. So an action that
deals a new deal becomes one player decision followed by 20 chance nodes (four players).

>>> from chicago import Rules
>>> table = ChanceTable(Rules.preset("pagat"), players=4)
>>> table.chance_kind, table.candidates
('dealer', (0, 1, 2, 3))
>>> table.apply_chance(2)
>>> table.chance_kind, len(table.candidates)
('card', 52)
>>> for _ in range(20):
...     table.apply_chance(table.candidates[0])
>>> table.chance_kind is None, table.game.dealer, " ".join(map(str, table.game.view(3).hand))
(True, 2, '2c 3c 4c 5c 6c')
"""

from __future__ import annotations

from chicago.cards import DECK, Card
from chicago.engine.actions import Action
from chicago.engine.game import Game
from chicago.engine.sources import CardSource, RecordFields
from chicago.rules import Rules

__all__ = ["ChanceCards", "ChanceTable", "NeedCard", "chance_game"]


class NeedCard(Exception):
    """The engine needs one more card; ``candidates`` are the cards it may be (ascending)."""

    def __init__(self, candidates: tuple[Card, ...]) -> None:
        super().__init__(f"a card is needed (one of {len(candidates)})")
        self.candidates = candidates


class ChanceCards(CardSource):
    """The card source that takes every card a player receives from ``chosen``.

    ``chosen`` cards are used in the order the engine asks for them; when they run out the
    engine's :meth:`take` raises :class:`NeedCard` (and the game is left half-changed: use
    :class:`ChanceTable`). A copy has no chosen cards pending.
    """

    __slots__ = ("chosen",)

    def __init__(self, chosen: list[Card] | None = None) -> None:
        super().__init__()
        self.chosen: list[Card] = list(chosen or ())

    def take(self, stock: list[Card], seat: int) -> Card:
        """The next chosen card (it must be in ``stock``), or :class:`NeedCard`."""
        if not self.chosen:
            raise NeedCard(tuple(sorted(stock)))
        card = self.chosen.pop(0)
        try:
            stock.remove(card)
        except ValueError:
            raise ValueError(f"{card} cannot be drawn now: it is not in the stock") from None
        return card

    def record_fields(self) -> RecordFields | None:
        """None: a record cannot say which cards chance chose."""
        return None

    def copy(self) -> ChanceCards:
        """An independent copy, with no chosen cards pending."""
        return ChanceCards()


def chance_game(
    rules: Rules, players: int, *, dealer: int, cards: list[Card] | None = None
) -> Game:
    """A :class:`~chicago.Game` that takes every card a player receives from ``cards``
    (:class:`ChanceCards`), ``dealer`` dealing first."""
    return Game(rules, players, seed=0, dealer=dealer, source=ChanceCards(cards))


def _chosen(game: Game) -> ChanceCards:
    source = game.source
    assert isinstance(source, ChanceCards), "a chance table's games take chosen cards"
    return source


class ChanceTable:
    """A whole game of Chicago in which chance is a player: decisions and chance outcomes.

    ``chance_kind`` is ``"dealer"`` (first node: the first dealer, outcomes are seats),
    ``"card"`` (outcomes are card ids among ``candidates``, each equally likely) or None
    (a player decides: ``game.to_act``, or the game is over).
    """

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.game: Game | None = None
        self.dealer: int | None = None
        self.candidates: tuple[int, ...] = tuple(range(players))
        self._base: Game | None = None
        self._pending: Action | None = None
        self._chosen_cards: list[Card] = []

    @property
    def chosen(self) -> tuple[Card, ...]:
        """The cards chosen so far for the step in progress."""
        return tuple(self._chosen_cards)

    @property
    def pending(self) -> tuple[int, Action] | None:
        """The decision whose cards are being chosen (seat, action); None while the first
        deal is dealt or when no card is needed."""
        if self._base is None or self._pending is None:
            return None
        assert self._base.to_act is not None
        return self._base.to_act, self._pending

    @property
    def chance_kind(self) -> str | None:
        """What the current chance node chooses, or None when it is not a chance node."""
        if self.dealer is None:
            return "dealer"
        return "card" if self.candidates else None

    def apply_chance(self, outcome: int) -> None:
        """Apply a chance outcome (a seat for the dealer node, else a card id)."""
        if outcome not in self.candidates:
            raise ValueError(f"{outcome} is not a possible chance outcome here")
        if self.dealer is None:
            self.dealer = int(outcome)
        else:
            self._chosen_cards.append(DECK[outcome])
        self._run()

    def apply(self, action: Action | str) -> None:
        """Apply the decision of the seat to act (raises IllegalAction, changing nothing)."""
        if self.game is None or self.chance_kind is not None:
            raise ValueError("chance must act first")
        self._base = self.game
        self._pending = Action.parse(action)
        self._chosen_cards = []
        try:
            self._run()
        except Exception:
            self._base = self._pending = None
            raise

    def _run(self) -> None:
        """Replay the pending step with the cards chosen so far; stop at the next need."""
        try:
            if self._base is None:
                assert self.dealer is not None
                game = chance_game(
                    self.rules, self.players, dealer=self.dealer, cards=self._chosen_cards)
            else:
                assert self._pending is not None
                game = self._base.copy()
                _chosen(game).chosen = list(self._chosen_cards)
                game.apply(self._pending)
        except NeedCard as need:
            self.candidates = tuple(int(c) for c in need.candidates)
            return
        assert not _chosen(game).chosen, "every chosen card is used"
        self.game = game
        self._base = self._pending = None
        self._chosen_cards = []
        self.candidates = ()

    def copy(self) -> ChanceTable:
        """An independent copy."""
        other = ChanceTable.__new__(ChanceTable)
        other.__dict__.update(self.__dict__)
        other.game = self.game.copy() if self.game is not None else None
        other._chosen_cards = list(self._chosen_cards)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> ChanceTable:
        # OpenSpiel clones a Python state by deep-copying its attributes: use the engine's
        # fast copy instead of walking every event.
        return self.copy()
