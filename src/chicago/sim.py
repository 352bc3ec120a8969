"""Fair bot matches: duplicate play, per-seat stocks, statistics and ratings (pure: no output).

:func:`run_match` plays games between bots given by their specs (``"expert"``, ``"basic"``,
``"cmd:python bot.py"`` …), one bot per seat, and sums up each bot's results.

Duplicate play
    Games come in *sets*, one game per rotation of the seats: in rotation ``r`` the bot
    listed ``i``-th sits at seat ``(i + r) % players``. Every game of a set uses the same
    seed, so the same first dealer and the same cards: each bot plays every seat on the same
    deals, which removes most of the seat and card luck from the comparison.

A stock ordered per seat
    With one shared stock, a player who discards one card more shifts every later player's
    draws by one card, so the duplicate games would drift apart at the first different
    discard. Instead the stock of every deal is cut into one *draw queue per seat*: the card
    after the deal goes to the queue of the dealer's left, the next to the next seat, and so
    on round the table. A player draws from the front of its own queue; only when that is
    empty does it take cards from the back of the longest other queue (so the others' next
    cards stay where they were); only when the whole stock is empty is the discard pile
    reshuffled (R-EX-2, from the game's seed). So a seat's draws depend only on its own
    discards unless the stock runs short. The deck of each deal comes from the match seed,
    the set and the deal number, so it is the same in every rotation however long the
    previous deals took. This is done by :class:`~chicago.engine.sources.DuplicateDecks`, the
    card source given to a plain :class:`~chicago.Game` (the engine deals and draws through
    it), so every rule, view and event is the engine's, and its record replays it.

Determinism
    Every random choice comes from seeds derived from the match seed, the set, the rotation
    and the seat, never from the clock or the process; sets are independent (every set has
    new bot objects, so an external program and its restart budget last one set), so
    splitting them over ``jobs`` worker processes gives the same results as one process.

A game that reaches ``deal_cap`` deals (bots that never finish) is stopped and counted as
won by its top scorers (``capped`` in its result).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from chicago.bots.base import Bot, make_bot
from chicago.engine.actions import Action
from chicago.engine.errors import IllegalAction
from chicago.engine.events import ChicagoCall, ChicagoResult, RoundResult, Showdown, Trick
from chicago.engine.game import Game
from chicago.engine.settlement import finish_places
from chicago.engine.sources import DuplicateDecks, deal_deck, mix_seed
from chicago.rules import Rules
from chicago.timing import merge_times, summarize_times

__all__ = [
    "COUNTERS",
    "LOST_CAUSES",
    "SEAT_COUNTERS",
    "BotSummary",
    "DuplicateDecks",
    "GameResult",
    "MatchResult",
    "check_match",
    "deal_deck",
    "derive_seed",
    "duplicate_game",
    "play_game",
    "run_match",
    "seat_counters",
    "split_specs",
    "summarize",
    "wilson_interval",
]

DEFAULT_DEAL_CAP = 400
"""Deals after which a game is stopped (its top scorers win)."""

SEAT_COUNTERS = (
    "deals",
    "points",
    "chicago_calls",
    "chicago_made",
    "announce_wins",
    "showdown_wins",
    "last_tricks",
)
"""The counters :func:`seat_counters` derives from a game's public events."""

COUNTERS = (*SEAT_COUNTERS, "decisions", "illegal")
"""The counters every game keeps per bot (more may be added by other code)."""

_derive = mix_seed
"""A 64-bit seed derived from integers (:func:`chicago.engine.sources.mix_seed`)."""


def derive_seed(*parts: int) -> int:
    """A 63-bit seed derived from integers, the same in every process and Python run (63
    bits: it fits a database's signed 64-bit column)."""
    return _derive(*parts) >> 1


def duplicate_game(rules: Rules, players: int, *, seed: int, deck_seed: int) -> Game:
    """A game whose decks come from ``deck_seed`` deal by deal and whose stock is drawn in
    per-seat queues (:class:`~chicago.engine.sources.DuplicateDecks`); in every other way
    the engine's game, and its record replays it."""
    return Game(rules, players, seed=seed, source=DuplicateDecks(deck_seed))


@dataclass
class GameResult:
    """One finished game, by bot index (the bot's place in the list of specs)."""

    set: int
    rotation: int
    seats: list[int]
    """``seats[seat]`` is the index of the bot that sat there."""
    winners: list[int]
    """Indices of the winning bots."""
    scores: list[int]
    """Final score of each bot."""
    deals: int
    capped: bool = False
    counters: list[dict[str, int]] = field(default_factory=list)
    """Per bot: a dict of counters (see :data:`COUNTERS`; extensible)."""
    digest: str = ""
    """A hash of every action of the game in order: equal digests, equal choices."""
    times: list[dict[str, list[float]]] = field(default_factory=list)
    """Per bot: the CPU seconds of each of its decisions, by phase (measured, so not in
    :meth:`to_dict`, which a seed fixes)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (without the decision times, which no seed fixes)."""
        return {
            "set": self.set,
            "rotation": self.rotation,
            "seats": self.seats,
            "winners": self.winners,
            "scores": self.scores,
            "deals": self.deals,
            "capped": self.capped,
            "counters": self.counters,
            "digest": self.digest,
        }


def split_specs(text: str) -> list[str]:
    """The bot specs of ``--bots``: split on commas, blanks trimmed (a spec may hold a colon
    and options, ``cmd:python bot.py``)."""
    specs = [part.strip() for part in text.split(",")]
    if not specs or any(not s for s in specs):
        raise ValueError(f"--bots needs bot specs separated by commas, not {text!r}")
    return specs




def seat_counters(game: Game) -> list[dict[str, int]]:
    """Per seat, what it did in the game so far (from the deal summaries and the public
    events): deals played, points gained, Chicagos declared (``chicago_calls``) and made,
    scoring rounds and final showdowns won with points, last tricks won (R-TRICK-5)."""
    counters = [dict.fromkeys(SEAT_COUNTERS, 0) for _ in range(game.players)]
    for deal in game.deal_history:
        for seat, points in enumerate(deal.points):
            counters[seat]["points"] += points
            counters[seat]["deals"] += 1
    for event in game.events:
        match event:
            case ChicagoCall(seat=seat, declared=True):
                counters[seat]["chicago_calls"] += 1
            case ChicagoResult(seat=seat, made=True):
                counters[seat]["chicago_made"] += 1
            case RoundResult(winner=int(winner), points=points) if points:
                counters[winner]["announce_wins"] += 1
            case Showdown(winner=int(winner), points=points) if points:
                counters[winner]["showdown_wins"] += 1
            case Trick(trick=5, winner=winner):
                counters[winner]["last_tricks"] += 1
    return counters


def _collect(game: Game, seats: list[int], counters: list[dict[str, int]]) -> None:
    """Add the game's events to the bots' counters."""
    for seat, seat_counts in enumerate(seat_counters(game)):
        for key, value in seat_counts.items():
            counters[seats[seat]][key] += value


LOST_CAUSES = ("crash", "timeout", "illegal")
"""Why an external bot lost a turn to its fallback (``ExternalBot.failures``)."""


def _failures(bot: Bot) -> dict[str, int]:
    """Turns an external bot lost so far, by cause (crash, timeout, illegal answer); all 0
    for other bots."""
    failures = getattr(bot, "failures", None)
    if not isinstance(failures, dict):
        return dict.fromkeys(LOST_CAUSES, 0)
    return {cause: int(failures.get(cause, 0)) for cause in LOST_CAUSES}


def play_game(
    bots: Sequence[Bot],
    rules: Rules,
    *,
    seed: int,
    set_index: int = 0,
    rotation: int = 0,
    deal_cap: int = DEFAULT_DEAL_CAP,
    observer: Callable[[Game, int], None] | None = None,
) -> GameResult:
    """One duplicate game: bot ``i`` sits at seat ``(i + rotation) % n``.

    ``observer(game, seat)``, if given, is called before every decision with the game and
    the seat to act (it must not change the game): how :mod:`chicago.training` sees
    the whole table of self-play games to learn from.
    """
    n = len(bots)
    game_seed = _derive(seed, set_index, 1)
    deck_seed = _derive(seed, set_index, 2)
    game = duplicate_game(rules, n, seed=game_seed, deck_seed=deck_seed)
    seats = [(seat - rotation) % n for seat in range(n)]
    rngs = [random.Random(_derive(seed, set_index, 3, i)) for i in range(n)]
    counters = [dict.fromkeys(COUNTERS, 0) for _ in range(n)]
    times: list[dict[str, list[float]]] = [{} for _ in range(n)]
    digest = hashlib.sha256()
    failures_before = [_failures(bot) for bot in bots]
    capped = False
    while not game.is_over:
        if game.deal_number > deal_cap:
            capped = True
            break
        seat = game.to_act
        assert seat is not None
        index = seats[seat]
        if observer is not None:
            observer(game, seat)
        legal = game.legal_actions()
        view = game.view(seat)
        start = time.process_time()
        action: Action | str = bots[index].decide(view, legal, rngs[index])
        spent = time.process_time() - start
        times[index].setdefault(str(view.phase), []).append(spent)
        counters[index]["decisions"] += 1
        try:
            game.apply(action)
        except IllegalAction:
            counters[index]["illegal"] += 1
            action = legal[0]
            game.apply(action)
        digest.update(f"{seat}:{action};".encode())
    _collect(game, seats, counters)
    for seat in range(n):
        index = seats[seat]
        game_over = getattr(bots[index], "game_over", None)
        if game_over is not None:
            game_over(game.view(seat))
        now = _failures(bots[index])
        lost = {c: now[c] - failures_before[index][c] for c in LOST_CAUSES}
        if any(lost.values()):
            counters[index]["bot_failures"] = sum(lost.values())
            for cause, count in lost.items():
                counters[index][f"lost_{cause}"] = count
    scores = [0] * n
    for seat in range(n):
        scores[seats[seat]] = game.scores[seat]
    if capped:
        best = max(game.scores)
        winners = [seats[s] for s in range(n) if game.scores[s] == best]
    else:
        winners = [seats[s] for s in game.winners]
    return GameResult(
        set=set_index,
        rotation=rotation,
        seats=seats,
        winners=sorted(winners),
        scores=scores,
        deals=game.deal_number,
        capped=capped,
        counters=counters,
        digest=digest.hexdigest()[:16],
        times=times,
    )


def _play_sets(
    specs: Sequence[str], rules_data: dict[str, Any], seed: int, sets: Sequence[int],
    deal_cap: int,
) -> list[GameResult]:
    """Every rotation of the given sets, in order (runs in a worker process).

    Each set gets bots of its own, made from the specs and closed after the set's last
    rotation: a bot's life (an external program, its restarts, anything it remembers) is one
    set everywhere, so how sets are shared among processes (``jobs``, a cluster's chunks)
    cannot change a result.
    """
    rules = Rules.from_dict(rules_data)
    results = []
    for set_index in sets:
        bots = [make_bot(spec) for spec in specs]
        try:
            for rotation in range(len(specs)):
                results.append(
                    play_game(bots, rules, seed=seed, set_index=set_index, rotation=rotation,
                              deal_cap=deal_cap)
                )
        finally:
            for bot in bots:
                close = getattr(bot, "close", None)
                if close is not None:
                    close()
    return results


def wilson_interval(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[
    float, float
]:
    """The Wilson score interval (95% by default) of a proportion."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotSummary:
    """One bot's results over a match."""

    bot: str
    games: int
    wins: float
    """Games won; a game won by k tied bots counts 1/k for each."""
    win_rate: float
    ci95: tuple[float, float]
    points_per_deal: float
    chicago_calls: int
    chicago_made: int
    announce_wins: int
    showdown_wins: int
    last_tricks: int
    rating: float
    """OpenSkill (Plackett-Luce) mean rating after the whole match, games in order."""
    rating_sigma: float
    counters: dict[str, int] = field(default_factory=dict)
    decision_times: dict[str, dict[str, float]] = field(default_factory=dict)
    """Per phase: decisions, median, 99th percentile and maximum CPU milliseconds
    (:func:`chicago.timing.summarize_times`); measured, so not fixed by the seed."""

    @property
    def lost_turns(self) -> dict[str, int]:
        """Turns the bot lost to its fallback, by cause (all 0 but for external bots)."""
        return {cause: self.counters.get(f"lost_{cause}", 0) for cause in LOST_CAUSES}

    def to_dict(self, *, times: bool = True) -> dict[str, Any]:
        """JSON-able form (the ``--json`` entry of ``chicago simulate``); ``times`` False
        leaves out the decision times (all else a seed fixes)."""
        out = {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "points_per_deal": self.points_per_deal,
            "chicago_calls": self.chicago_calls,
            "chicago_made": self.chicago_made,
            "chicago_rate": (self.chicago_made / self.chicago_calls
                             if self.chicago_calls else None),
            "announce_wins": self.announce_wins,
            "showdown_wins": self.showdown_wins,
            "last_tricks": self.last_tricks,
            "rating": self.rating,
            "rating_sigma": self.rating_sigma,
            "lost_turns": self.lost_turns,
            "counters": dict(self.counters),
        }
        if times:
            out["decision_times"] = self.decision_times
        return out


@dataclass
class MatchResult:
    """A whole match: every game's result and each bot's summary."""

    specs: list[str]
    games: list[GameResult]
    bots: list[BotSummary]

    @property
    def digest(self) -> str:
        """A hash of every choice of every game, in order: a seed fixes it for any
        ``jobs`` (or cluster)."""
        whole = hashlib.sha256()
        for game in self.games:
            whole.update(game.digest.encode())
        return whole.hexdigest()[:16]

    def to_dict(self, *, times: bool = True) -> dict[str, Any]:
        """``{"games": N, "digest": …, "bots": [...]}`` as ``chicago simulate --json``
        prints it; ``times`` False leaves out the decision times (all else a seed fixes)."""
        return {
            "games": len(self.games),
            "capped": sum(1 for g in self.games if g.capped),
            "digest": self.digest,
            "bots": [b.to_dict(times=times) for b in self.bots],
        }


def summarize(specs: Sequence[str], games: Sequence[GameResult]) -> list[BotSummary]:
    """Each bot's totals, win interval and OpenSkill rating over ``games`` (in order)."""
    from openskill.models import PlackettLuce


    n = len(specs)
    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(n)]
    totals = [dict.fromkeys(COUNTERS, 0) for _ in range(n)]
    wins = [0.0] * n
    for result in games:
        for i in range(n):
            for key, value in result.counters[i].items():
                totals[i][key] = totals[i].get(key, 0) + value
        for w in result.winners:
            wins[w] += 1 / len(result.winners)
        # Rank: winners first, then by final score.
        ranks = [float(p) for p in finish_places(result.winners, result.scores)]
        rated = model.rate([[r] for r in ratings], ranks=ranks)
        ratings = [team[0] for team in rated]
    count = len(games)
    summaries = []
    for i, spec in enumerate(specs):
        t = totals[i]
        summaries.append(
            BotSummary(
                bot=spec,
                games=count,
                wins=wins[i],
                win_rate=wins[i] / count if count else 0.0,
                ci95=wilson_interval(wins[i], count),
                points_per_deal=t["points"] / t["deals"] if t["deals"] else 0.0,
                chicago_calls=t["chicago_calls"],
                chicago_made=t["chicago_made"],
                announce_wins=t["announce_wins"],
                showdown_wins=t["showdown_wins"],
                last_tricks=t["last_tricks"],
                rating=float(ratings[i].mu),
                rating_sigma=float(ratings[i].sigma),
                counters=t,
                decision_times=summarize_times(
                    merge_times(g.times[i] for g in games if g.times)
                ),
            )
        )
    return summaries


def check_match(specs: Sequence[str], games: int,
                rules: Rules | None) -> tuple[list[str], Rules]:
    """The bots and rules of a match, checked: as many bots as the rules seat, at least one
    game, every spec known (each bot is made once). ``rules`` defaults to pagat. Raises
    ValueError naming the problem."""
    checked = list(specs)
    rules = rules if rules is not None else Rules.preset("pagat")
    n = len(checked)
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(
            f"{n} bots given, but these rules allow {rules.min_players}-{rules.max_players} "
            "players"
        )
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    for spec in checked:
        make_bot(spec)  # fail early on an unknown spec
    return checked, rules


def run_match(
    specs: Sequence[str],
    games: int,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    jobs: int = 1,
    deal_cap: int = DEFAULT_DEAL_CAP,
    progress: Callable[[int], None] | None = None,
    finished: Callable[[Sequence[GameResult]], None] | None = None,
    first_set: int = 0,
) -> MatchResult:
    """Play ``games`` duplicate games (rounded up to whole sets of one game per rotation).

    ``specs`` gives one bot per seat (2 to 6, as the rules allow); ``jobs`` worker processes
    share the sets; the results are the same for any ``jobs``. ``progress(k)`` is called as
    k more games finish, and ``finished(games)`` with their results (in the order the
    batches finish: a running tally, not the final order). The sets are numbered from
    ``first_set``: a match of sets 10.. continues one of sets 0..9 on the same seed, the two
    together the same games as one longer match.
    """
    specs, rules = check_match(specs, games, rules)
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if first_set < 0:
        raise ValueError(f"first_set must be at least 0, not {first_set}")
    sets = math.ceil(games / len(specs))
    rules_data = rules.to_dict()
    results: list[GameResult] = []
    if jobs == 1 or sets == 1:
        for set_index in range(first_set, first_set + sets):
            batch = _play_sets(specs, rules_data, seed, [set_index], deal_cap)
            results.extend(batch)
            if progress is not None:
                progress(len(batch))
            if finished is not None:
                finished(batch)
    else:
        chunk = max(1, min(8, sets // (jobs * 4) or 1))
        end = first_set + sets
        chunks = [list(range(i, min(end, i + chunk))) for i in range(first_set, end, chunk)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {
                pool.submit(_play_sets, specs, rules_data, seed, c, deal_cap): index
                for index, c in enumerate(chunks)
            }
            batches: dict[int, list[GameResult]] = {}
            for future in as_completed(futures):
                batch = future.result()
                batches[futures[future]] = batch
                if progress is not None:
                    progress(len(batch))
                if finished is not None:
                    finished(batch)
            for index in range(len(chunks)):
                results.extend(batches[index])
    return MatchResult(specs=specs, games=results, bots=summarize(specs, results))
