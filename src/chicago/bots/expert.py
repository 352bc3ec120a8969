"""The ``expert`` bot: ``ev`` exchanges, then determinized search for tricks and the Chicago call.

It samples the hidden cards many times, consistently with everything public
(:mod:`chicago.engine.sampling`: exchange counts, announcements, revealed stages, shown hands,
voids) and weighted by how plausible each opponent's hand is after its latest exchange
(players keep pairs, draws and high cards: :func:`~chicago.bots.plausibility.hand_weight`), and
solves every sample twice: exactly with the perfect-information solver
(:mod:`chicago.bots.solver`, where the others all play against the bot), and against a model
of sensible opponents who play by rules of thumb from their own cards
(:mod:`chicago.bots.model`). A deal is worth 1 for the last trick when the bot is sure to win
it, ``model`` (0.6) when it wins it against the model only, else 0.

- A card: the one whose value (in last-trick points, deuce-aware) adds up highest over the
  samples; a card that leaves the last trick open (no opponent can make sure of it either)
  also earns a share ``contested`` of the points. With a Chicago declared, the card that
  keeps the declarer's guarantee (declarer) or makes sure to break it (defenders) most
  often; under V-DEUCE a declarer counts a Chicago it is sure to end with a 2 at its points
  (30 against 15), so it keeps the 2 for the last trick. Ties go to the rules of thumb of
  ``ev``.
- The last exchange: ``ev`` scores every way to keep cards; the best ``holds`` (5) of them
  are searched: on each sample the bot draws the missing cards and values the deal as
  above, and the hold with the best poker estimate plus last-trick value is kept.
- Chicago: declared when ``p × points − (1 − p) × loss`` beats the last trick it would give
  up and ``p`` is at least ``chicago`` (0.75), ``p`` being the share of samples in which the
  Chicago is sure to be made; at 0.4 when an opponent is about to win anyway.

Options in the spec: ``expert:samples=48`` (samples per decision, default 40),
``expert:budget=0.2`` (seconds; an upper cap on the search time per decision, off by
default: the sample count bounds the work, and the choices depend on the seed alone, on any
machine and under any load; with a cap they depend on the clock whenever it cuts a search
short, a bound on the wait bought with reproducibility),
``contested=0.4``, ``model=0.6`` (0 turns the model off), ``weighted=1`` (0: uniform
samples), ``chicago=0.75`` and ``holds=5`` (0: ``ev``'s last exchange).
``make_bot("expert")`` uses the defaults.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence

from chicago.bots.base import register_bot, require_whole, spec_options
from chicago.bots.basic import _discard_action, _find, common_decision
from chicago.bots.ev import desperate, ev_decision, ev_holds
from chicago.bots.heuristics import chicago_is_due, ev_play
from chicago.bots.model import model_moves, model_wins
from chicago.bots.plausibility import hand_weight
from chicago.bots.solver import (
    Position,
    can_make_chicago,
    can_win_last_trick,
    chicago_moves,
    chicago_values,
    last_trick_values,
)
from chicago.cards import Card
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import sample_hands
from chicago.engine.viewtypes import SeatView

__all__ = ["ExpertBot", "best_card", "parse_options", "sure_outcomes"]

_K = ActionKind
DEFAULT_SAMPLES = 40
DEFAULT_BUDGET: float | None = None
"""No time cap: the sample count alone bounds a decision, so a seed fixes every choice on
any machine under any load."""
DEFAULT_CONTESTED = 0.4
DEFAULT_MODEL = 0.6
DEFAULT_WEIGHTED = True
DEFAULT_CHICAGO = 0.75
DEFAULT_HOLDS = 5
_EXCHANGE_SHARE = 0.6
"""Samples of the last-exchange search, as a share of ``samples`` (each values every hold)."""
_OPTIONS = ("samples", "budget", "contested", "model", "weighted", "chicago", "holds")


def parse_options(spec: str) -> dict[str, float]:
    """The ``key=value`` options of a spec such as ``expert:samples=32,budget=0.2``.

    Options are separated by ``,`` or ``;`` (use ``;`` inside ``--bots``, which splits on
    commas).
    """
    options = spec_options(
        spec, _OPTIONS, "samples=N, budget=SECONDS, contested=X, model=X, weighted=0|1, "
        "chicago=P or holds=N",
    )
    for key, number in options.items():
        if number < 0 or (number == 0 and key in ("samples", "budget", "chicago")):
            raise ValueError(f"option {key} of {spec!r} must be positive")
    require_whole(options, ("samples", "weighted", "holds"), spec)
    return options


class ExpertBot:
    """``expert``: ``ev`` draws plus determinized exact search (see the module docstring)."""

    name = "expert"

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        budget: float | None = DEFAULT_BUDGET,
        contested: float = DEFAULT_CONTESTED,
        model: float = DEFAULT_MODEL,
        weighted: bool = DEFAULT_WEIGHTED,
        chicago: float = DEFAULT_CHICAGO,
        holds: int = DEFAULT_HOLDS,
    ) -> None:
        if (samples < 1 or (budget is not None and budget <= 0) or not 0 <= contested <= 1
                or not 0 <= model <= 1):
            raise ValueError("samples must be >= 1, budget > 0, contested and model in 0..1")
        if not 0 < chicago <= 1:
            raise ValueError("chicago must be in 0..1")
        self.samples = samples
        self.budget = budget
        self.contested = contested
        self.model = model
        self.exchange_model = model
        """The ``model`` share in the last exchange's search (``master``'s ``lastmodel``
        sets it apart from the trick play's)."""
        self.weighted = weighted
        self.chicago = chicago
        self.holds = holds
        self.exchange_samples = max(1, int(samples * _EXCHANGE_SHARE))
        """Deals of the last exchange's search (``master`` sets its own, ``last``)."""

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Search the trick play and the Chicago call; ``ev`` for everything else."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        k = knowledge(view)
        common = common_decision(k, legal_actions)
        if common is not None:
            return common
        if k.phase == "chicago":
            return self._chicago(k, legal_actions, rng)
        if k.phase == "play":
            return self._play(k, legal_actions, rng)
        if k.phase == "exchange" and self.holds and k.round >= k.exchanges_total:
            return self._last_exchange(k, legal_actions, rng)
        return ev_decision(k, legal_actions)

    # ------------------------------------------------------------------ searches
    def _sample(self, k: Knowledge, rng: random.Random) -> list[int]:
        """One deal of the hidden cards (weighted by the hand-made plausibility unless
        ``weighted`` is off); ``master`` deals by its learned model instead."""
        return sample_hands(k, rng, weight=hand_weight if self.weighted else None)

    def _positions(
        self, k: Knowledge, rng: random.Random, declarer: int | None
    ) -> Iterator[Position]:
        """Yield sampled positions until the sample count (or the time cap) is reached."""
        deadline = _deadline(self.budget)
        leader = k.leader
        played = tuple(card for _, card in k.trick)
        for index in range(self.samples):
            if index and _past(deadline):
                return
            hands = self._sample(k, rng)
            yield Position(tuple(hands), leader, played, declarer)

    def _chicago(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        call = _find(legal, _K.CHICAGO)
        no_call = _find(legal, _K.NO_CHICAGO)
        if call is None or no_call is None:
            return legal[0]
        p, q = self._chicago_shares(k, rng)
        return call if self._declare(k, p, q) else no_call

    def _chicago_shares(self, k: Knowledge, rng: random.Random) -> tuple[float, float]:
        """On sampled deals: the share in which a Chicago is sure against any defence, and
        the share in which the last trick is."""
        rules = k.rules
        leader = k.seat if rules.chicago_caller_leads else k.leader
        made = lasts = total = 0
        deadline = _deadline(self.budget)
        for index in range(self.samples):
            if index and _past(deadline):
                break
            chicago, last = sure_outcomes(k, self._sample(k, rng), leader)
            total += 1
            made += chicago
            lasts += last
        return made / total, lasts / total

    def _declare(self, k: Knowledge, p: float, q: float) -> bool:
        """Whether to declare with a share ``p`` of sure Chicagos and ``q`` of sure last
        tricks (module docstring)."""
        rules = k.rules
        loss = rules.chicago_points if rules.negative_scores else min(
            rules.chicago_points, k.scores[k.seat]
        )
        gain = p * rules.chicago_points - (1 - p) * (loss + rules.chicago_breaker_points / 3)
        keep = q * rules.last_trick_points
        if (desperate(k) and p >= 0.4) or chicago_is_due(k, p):
            return True
        # The samples deal the unseen cards evenly, while real players keep their high cards:
        # the share of sure makes is optimistic, so a clear margin is asked for.
        return p >= self.chicago and gain > keep + 0.5

    def _trick_chance(self, position: Position, seat: int) -> float:
        """The value (0 to 1) of a deal for ``seat``'s last trick: 1 when it is sure,
        ``exchange_model`` (the ``model`` share unless set apart) when the seat wins it
        against the model of sensible opponents, else 0."""
        if can_win_last_trick(position, seat):
            return 1.0
        if self.exchange_model and model_wins(position, seat):
            return self.exchange_model
        return 0.0

    def _holds(
        self, k: Knowledge, limit: int
    ) -> list[tuple[float, float, tuple[Card, ...]]]:
        """The holds the last exchange's search ranks, as :func:`~chicago.bots.ev.ev_holds`
        (``master:keepodds=1`` values their kept cards for the last trick otherwise)."""
        return ev_holds(k, max_discard=limit)

    def _last_exchange(
        self, k: Knowledge, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The last exchange: ``ev``'s best few holds, their last-trick value searched."""
        if len(k.hand) != 5:
            return ev_decision(k, legal)
        limit = max((len(a.cards) for a in legal if a.kind is _K.DISCARD), default=0)
        holds = self._holds(k, limit)
        order = sorted(range(len(holds)), key=lambda i: -(holds[i][0] + holds[i][1]))
        candidates = [holds[i] for i in order[: int(self.holds)]]
        if len(candidates) < 2:
            return ev_decision(k, legal)
        leader = k.leader
        seat = k.seat
        unseen = [int(c) for c in k.unseen]
        value = [0.0] * len(candidates)
        total = 0
        deadline = _deadline(self.budget)
        for index in range(self.exchange_samples):
            if index and _past(deadline):
                break
            hands = self._sample(k, rng)
            taken = 0
            for h in hands:
                taken |= h
            pool = [c for c in unseen if not taken >> c & 1]
            draws = rng.sample(pool, min(5, len(pool)))
            total += 1
            for i, (_, _, keep) in enumerate(candidates):
                need = 5 - len(keep)
                if need > len(draws):
                    continue
                mine = sum(1 << c for c in keep) | sum(1 << c for c in draws[:need])
                hands[seat] = mine
                value[i] += self._trick_chance(Position(tuple(hands), leader), seat)
        points = k.rules.last_trick_points
        best = max(
            range(len(candidates)),
            key=lambda i: (candidates[i][0] + points * value[i] / total, -i),
        )
        return _discard_action(legal, k.hand, candidates[best][2])

    def _play(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        cards = [a.card for a in legal if a.kind is _K.PLAY]
        if len(cards) == 1:
            return Action.play(cards[0])
        positions = list(self._positions(k, rng, k.declarer))
        scores = self._card_scores(k, cards, positions)
        return Action.play(best_card(scores, ev_play(k, cards)))

    def _card_scores(
        self, k: Knowledge, cards: Sequence[Card], positions: Sequence[Position]
    ) -> dict[Card, float]:
        """The trick search's score of each legal card (``cards``) over the sampled deals
        ``positions`` (module docstring)."""
        declarer = k.declarer
        scores: dict[Card, float] = dict.fromkeys(cards, 0.0)
        rules = k.rules
        # V-DEUCE: a Chicago whose last trick is won with a 2 scores more (30 for 15)
        deuce_chicago = rules.deuce_bonus and rules.deuce_chicago_points > rules.chicago_points
        if declarer == k.seat and deuce_chicago:
            for position in positions:
                values = chicago_values(position, declarer, points=rules.chicago_points,
                                        deuce_points=rules.deuce_chicago_points)
                for card, points in values.items():
                    scores[card] += points / max(1, rules.chicago_points)
        elif declarer is not None:
            for position in positions:
                for card, ok in chicago_moves(position, declarer).items():
                    scores[card] += 1.0 if ok else 0.0
        else:
            for position, values in zip(positions, self._sure_values(k, positions), strict=True):
                self._add_scores(k, position, values, scores)
        return scores

    def _sure_values(self, k: Knowledge, positions: Sequence[Position]) -> list[dict[Card, int]]:
        """Per sampled deal: the last-trick points each legal card keeps sure (deuce-aware)."""
        rules = k.rules
        deuce = 2 * rules.last_trick_points if rules.deuce_bonus else None
        return [
            last_trick_values(position, points=rules.last_trick_points, deuce_points=deuce)
            for position in positions
        ]

    def _add_scores(
        self, k: Knowledge, position: Position, values: dict[Card, int],
        scores: dict[Card, float], model: float | None = None,
    ) -> None:
        """Add one deal's value of each card: its sure points, else a share for winning
        against the model of sensible opponents (``model``'s share of the trick's points;
        None: :attr:`model`) and for leaving the last trick open."""
        points = k.rules.last_trick_points
        share = self.model if model is None else model
        modelled = model_moves(position) if share else {}
        for card, value in values.items():
            if value:
                scores[card] += value
                continue
            if modelled.get(card):
                scores[card] += share * points
            if self.contested:
                after = position.play(card)
                others = [s for s in range(k.players) if s != k.seat]
                if not any(can_win_last_trick(after, s) for s in others):
                    scores[card] += self.contested * points


def best_card(scores: dict[Card, float], fallback: Card) -> Card:
    """The card of highest score (within 1e-9); between equals ``fallback`` (the rules of
    thumb's card) if it is one of them, else the lowest rank, then the lowest suit."""
    best = max(scores.values())
    choices = [c for c in scores if scores[c] >= best - 1e-9]
    return fallback if fallback in choices else min(choices, key=lambda c: (c.rank, c.suit))


def _deadline(budget: float | None) -> float | None:
    """When a search given ``budget`` seconds must stop (None: no cap, no clock read)."""
    return None if budget is None else time.perf_counter() + budget


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _factory(spec: str) -> ExpertBot:
    options = parse_options(spec)
    return ExpertBot(
        samples=int(options.get("samples", DEFAULT_SAMPLES)),
        budget=options.get("budget", DEFAULT_BUDGET),
        contested=options.get("contested", DEFAULT_CONTESTED),
        model=options.get("model", DEFAULT_MODEL),
        weighted=bool(options.get("weighted", DEFAULT_WEIGHTED)),
        chicago=options.get("chicago", DEFAULT_CHICAGO),
        holds=int(options.get("holds", DEFAULT_HOLDS)),
    )


register_bot("expert", _factory)


def sure_outcomes(k: Knowledge, hands: Sequence[int], leader: int) -> tuple[bool, bool]:
    """In the world ``hands`` (every seat's hand as a mask): whether the seat's Chicago is
    sure against any defence, with ``leader`` leading the first trick, and whether its last
    trick is sure (a sure Chicago takes the last trick too)."""
    if can_make_chicago(Position(tuple(hands), leader), k.seat):
        return True, True
    return False, can_win_last_trick(Position(tuple(hands), k.leader), k.seat)
