"""Where ``master``'s card play loses to the oracle against three ``basic``: a diagnosis.

``master`` plays seat 0 of duplicate pagat games against three ``basic`` (the games of
``bench_ceiling.py``'s ``master`` setting). At each of its trick decisions with a choice
(no Chicago declared) the benchmark — which may read the game, no bot does — records:

* ``master``'s card, and the oracle's (``master``'s own valuation on the one TRUE world);
* for every legal card, ``win``: whether the bot can still take the last trick after it
  when the three ``basic`` seats play their rules card (exact: ``basic``'s trick play is
  ``model_card``, deterministic given the hands) and the bot plays on perfectly
  (:func:`~chicago.bots.model.model_moves` on the true position), and ``sure``: whether it
  can against any defence (the solver);
* about ``master``'s 40 searched worlds: how many distinct, the share of the opponents'
  cards put in the right hand, and in how many of them ``model_moves`` says ``master``'s
  card, the oracle's card, or a winning card wins;
* alternative valuations of the same 40 worlds (the model's share, the open-trick share,
  the best reply, the search on information sets): the card each would choose.

A deal is *lost at* the first decision where some card still wins against the real
``basic`` replies and ``master``'s does not (every later loss in that deal is forced). The
summary splits those decisions by trick, by lead / follow / discard, and by whether the
worlds or the valuation was wrong: the oracle's valuation on the true world picks a winning
card (the worlds were wrong) or not (the valuation itself misses it).

    python benchmarks/bench_oracle_gap.py --games 40 [--first-game 0] [--json out.jsonl]

``--options 'exrule=1;chain=20'`` runs ``master`` with those options. ``--oracle-keep last``
(an experiment, a deliberate leak) tells ``master``'s trick search, as a known card of each
opponent's hand, the cards it kept at its last exchange that it still holds; ``first``, the
cards it has held since the deal through every exchange: the most that reading the
exchanges could ever tell the worlds. ``--variants 'pool=20' 'samples=160'`` asks, at each
recorded decision, ``master`` with each set of options for its card too, from the same view
and a copy of the same random state (the game goes on with the recorded ``master``'s card),
and reports each variant's share of still-winning cards on the very decisions ``master``
took, paired with ``master``'s (standard errors clustered by deal), and its CPU.

Benchmark only: it reads ``game.hands``, which no bot ever sees.
"""

from __future__ import annotations

import argparse
import functools
import json
import operator
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from chicago import Rules
from chicago.bots.base import make_bot
from chicago.bots.expert import best_card
from chicago.bots.heuristics import ev_play
from chicago.bots.infoset import infoset_values
from chicago.bots.master import MasterBot, parse_master_options
from chicago.bots.model import model_moves
from chicago.bots.solver import Position, can_win_last_trick, last_trick_values
from chicago.cards import Card, mask_of
from chicago.engine.actions import Action
from chicago.engine.events import Exchanged
from chicago.engine.game import Game
from chicago.engine.knowledge import Knowledge
from chicago.engine.viewtypes import SeatView
from chicago.sim import play_game


class Recorder(MasterBot):
    """``master`` (defaults) that keeps the worlds and scores of its last trick search."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.last: tuple[Knowledge, list[Card], list[Position], dict[Card, float]] | None = None
        self.true_keep: dict[int, int] = {}
        """``--oracle-keep`` only (a leak, for the experiment): per opponent, the cards it
        kept at its last exchange that it still holds, set before each decision."""
        self.variants: list[tuple[str, MasterBot]] = []
        """``--variants``: other ``master`` options asked the same decisions."""
        self.probe = False
        """Set by the observer before a decision to record: ask the variants too."""
        self.probed: dict[str, str] = {}
        self.probe_ms: dict[str, float] = {}

    def decide(self, view: SeatView, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """``master``'s decision; before it, with ``probe`` set, each variant's from the
        same view and a copy of the same random state."""
        if not self.probe:
            return super().decide(view, legal_actions, rng)
        self.probe = False
        state = rng.getstate()
        for name, variant in self.variants:
            copy = random.Random()
            copy.setstate(state)
            start = time.process_time()
            action = variant.decide(view, legal_actions, copy)
            self.probe_ms[name] = 1000 * (time.process_time() - start)
            self.probed[name] = str(action.card)
        start = time.process_time()
        chosen = super().decide(view, legal_actions, rng)
        self.probe_ms["master"] = 1000 * (time.process_time() - start)
        return chosen

    def _play(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        saved = {seat: opp.known for seat, opp in k.opponents.items()}
        try:
            for seat, mask in self.true_keep.items():
                if seat in k.opponents:
                    k.opponents[seat].known |= mask
            return super()._play(k, legal, rng)
        finally:
            for seat, known in saved.items():
                k.opponents[seat].known = known

    def _card_scores(self, k: Knowledge, cards: Sequence[Card],
                     positions: Sequence[Position]) -> dict[Card, float]:
        scores = super()._card_scores(k, cards, positions)
        if len(positions) > 1:
            self.last = (k, list(cards), list(positions), scores)
        return scores


def _placed(k: Knowledge, world: Sequence[int], truth: Sequence[int]) -> tuple[int, int]:
    right = total = 0
    for seat in k.opponents:
        right += bin(world[seat] & truth[seat]).count("1")
        total += bin(truth[seat]).count("1")
    return right, total


def alt_cards(bot: MasterBot, k: Knowledge, cards: list[Card],
              positions: Sequence[Position]) -> dict[str, str]:
    """The card of each alternative valuation of the same worlds."""
    out: dict[str, str] = {}
    points = k.rules.last_trick_points
    sure_rows = [last_trick_values(p, points=points) for p in positions]
    model_rows = [model_moves(p) for p in positions]
    fallback = ev_play(k, cards)
    others = [s for s in range(k.players) if s != k.seat]
    open_rows = [{card: not any(can_win_last_trick(p.play(card), s) for s in others)
                  for card in cards} for p in positions]
    for name, model_share, sure_w, open_w in (
            ("m03c", 0.3, 1.0, 0.4), ("m03", 0.3, 1.0, 0.0), ("m06c", 0.6, 1.0, 0.4),
            ("m10c", 1.0, 1.0, 0.4), ("m10", 1.0, 1.0, 0.0), ("reply", 1.0, 0.0, 0.0),
            ("m00", 0.0, 1.0, 0.0), ("m00c", 0.0, 1.0, 0.4)):
        scores = dict.fromkeys(cards, 0.0)
        for sure, modelled, opened in zip(sure_rows, model_rows, open_rows, strict=True):
            for card in cards:
                if sure[card] and sure_w:
                    scores[card] += sure[card]
                    continue
                if modelled.get(card):
                    scores[card] += model_share * points
                if open_w and opened[card]:
                    scores[card] += open_w * points
        out[name] = str(best_card(scores, fallback))
    played = [int(c) for _, c in k.trick]
    values = infoset_values([p.hands for p in positions], k.seat, k.leader, played)
    best = max(values.values())
    tied = [c for c in cards if values[int(c)] >= best - 1e-9]
    master_scores = MasterBot._card_scores(bot, k, cards, positions)
    out["infoset"] = str(tied[0] if len(tied) == 1 else best_card(
        {c: master_scores[c] for c in tied}, fallback))
    return out


def true_keep(game: Game, me: int, which: str) -> dict[int, int]:
    """Per opponent of ``me`` that exchanged this deal: the cards it still holds that it
    kept at its last exchange (``which`` "last"), or that it has held since the deal, kept
    through every exchange ("first"); read from the private exchange events, the
    benchmark's leak."""
    drawn: dict[int, list[int]] = defaultdict(list)
    for event in game.deal_events:
        if isinstance(event, Exchanged):
            drawn[event.seat].append(mask_of(event.drawn))
    out = {}
    for seat, draws in drawn.items():
        if seat != me:
            gone = draws[-1] if which == "last" else functools.reduce(operator.or_, draws, 0)
            out[seat] = mask_of(game.hands[seat]) & ~gone
    return out


def run(games: Sequence[tuple[int, int]], rules: Rules, seed: int,
        out: list[dict[str, Any]], oracle_keep: str = "",
        options: dict[str, Any] | None = None,
        variants: Sequence[tuple[str, dict[str, Any]]] = (), alts: bool = True,
        json_path: str | None = None) -> None:
    for set_index, rotation in games:
        bot = Recorder(**(options or {}))
        bot.variants = [(name, MasterBot(**opts)) for name, opts in variants]
        bots = [bot] + [make_bot("basic") for _ in range(3)]
        state: dict[str, Any] = {"game": None}

        def observe(game: Game, seat: int, bot: Recorder = bot,
                    state: dict[str, Any] = state, set_index: int = set_index,
                    rotation: int = rotation) -> None:
            # the decision before this one was the bot's: finish its record
            pending = state.pop("pending", None)
            if pending is not None:
                _finish(pending, bot, out, alts)
            state["game"] = game
            bot.true_keep = {}
            if seat != rotation or str(game.phase) != "play":
                return
            if oracle_keep:
                bot.true_keep = true_keep(game, seat, oracle_keep)
            if game.declarer is not None:
                return
            legal = [a.card for a in game.legal_actions() if a.card is not None]
            if len(legal) < 2:
                return
            truth = [mask_of(hand) for hand in game.hands]
            state["pending"] = {"truth": truth, "deal": game.deal_number,
                                "set": set_index, "rot": rotation}
            bot.last = None
            bot.probe = bool(bot.variants)
            bot.probed = {}
            bot.probe_ms = {}

        play_game(bots, rules, seed=seed, set_index=set_index, rotation=rotation,
                  observer=observe)
        pending = state.pop("pending", None)
        if pending is not None:
            _finish(pending, bot, out, alts)
        if json_path:  # after every game, so a run stopped early keeps its whole games
            write_json(json_path, out)
        sys.stderr.write(f"game {set_index}/{rotation}: {len(out)} decisions\n")


def write_json(path: str, records: Sequence[dict[str, Any]]) -> None:
    """The records, one JSON object a line."""
    with open(path, "w") as handle:
        for r in records:
            handle.write(json.dumps(r) + "\n")


def _finish(pending: dict[str, Any], bot: Recorder, out: list[dict[str, Any]],
            alts: bool = True) -> None:
    if bot.last is None:
        return
    k, cards, positions, scores = bot.last
    bot.last = None
    truth = pending["truth"]
    true_pos = Position(tuple(truth), k.leader, tuple(c for _, c in k.trick), None)
    win = {str(c): bool(v) for c, v in model_moves(true_pos).items()}
    sure = {str(c): v > 0 for c, v in last_trick_values(
        true_pos, points=k.rules.last_trick_points).items()}
    m_card = str(best_card(scores, ev_play(k, cards)))
    o_scores = MasterBot._card_scores(bot, k, cards, [true_pos])
    o_card = str(best_card(o_scores, ev_play(k, cards)))
    right = total = 0
    distinct = len({p.hands for p in positions})
    winners = [c for c in cards if win[str(c)]]
    for p in positions:
        r, t = _placed(k, p.hands, truth)
        right += r
        total += t
    table = [c for _, c in k.trick]
    hand = list(k.hand)
    if not table:
        kind = "lead"
    elif any(c.suit == table[0].suit for c in hand):
        kind = "follow"
    else:
        kind = "discard"
    rec = {
        "set": pending["set"], "rot": pending["rot"], "deal": pending["deal"],
        "trick": 6 - len(hand), "kind": kind, "cards": [str(c) for c in cards],
        "master": m_card, "oracle": o_card, "win": win, "sure": sure,
        "distinct": distinct, "placed": right / max(1, total),
        "alts": alt_cards(bot, k, cards, positions) if alts else {},
        "world_wins": {str(c): sum(bool(model_moves(p)[c]) for p in positions)
                       for c in cards},
        "n_worlds": len(positions), "winners": [str(c) for c in winners],
        "scores": {str(c): round(s, 2) for c, s in scores.items()},
        "trick_table": [str(c) for c in table],
    }
    if bot.probed:
        rec["variants"] = dict(bot.probed)
        rec["ms"] = {name: round(ms, 2) for name, ms in bot.probe_ms.items()}
    out.append(rec)


def summarize(records: Sequence[dict[str, Any]]) -> str:
    lines = []
    by_deal: dict[tuple[int, int, int], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_deal[(r["set"], r["rot"], r["deal"])].append(r)
    lost_at: Counter[tuple[Any, ...]] = Counter()
    cause: Counter[str] = Counter()
    decisions: Counter[tuple[Any, ...]] = Counter()
    alt_right: Counter[str] = Counter()
    alt_total = 0
    winnable = 0
    paired: dict[str, list[list[int]]] = defaultdict(list)
    """Per variant, per deal: the variant's winner less master's, decision by decision."""
    saves: Counter[str] = Counter()
    breaks: Counter[str] = Counter()
    for rows in by_deal.values():
        for r in rows:
            decisions[(r["trick"], r["kind"])] += 1
        first = rows[0]
        if any(first["win"].values()):
            winnable += 1
        deal_diffs: dict[str, list[int]] = defaultdict(list)
        for r in rows:
            if not any(r["win"].values()):
                break
            alt_total += 1
            for name, card in r.get("variants", {}).items():
                diff = int(r["win"][card]) - int(r["win"][r["master"]])
                deal_diffs[name].append(diff)
                saves[name] += diff > 0
                breaks[name] += diff < 0
            for name, card in {**r["alts"], "master": r["master"], "oracle": r["oracle"]}.items():
                alt_right[name] += r["win"][card]
            if not r["win"][r["master"]]:
                lost_at[(r["trick"], r["kind"])] += 1
                oracle_ok = r["win"][r["oracle"]]
                share = r["world_wins"][r["master"]] / r["n_worlds"]
                right_share = max(r["world_wins"][c] for c in r["winners"]) / r["n_worlds"]
                cause[("worlds" if oracle_ok else "valuation")
                      + (" (worlds: mine wins in >=half)" if share >= 0.5 else "")
                      + (" (a winner wins in >=half)" if right_share >= 0.5 else "")] += 1
                break
        for name, diffs in deal_diffs.items():
            paired[name].append(diffs)
    lines.append(f"deals with trick decisions: {len(by_deal)}; winnable vs real basic "
                 f"replies at the first decision: {winnable}; lost by a decision: "
                 f"{sum(lost_at.values())}")
    lines.append("lost at (trick, kind): decisions there / deals lost there")
    for key in sorted(decisions):
        lines.append(f"   {key}: {decisions[key]:5d} / {lost_at[key]:4d}")
    lines.append("cause: " + ", ".join(f"{k}: {v}" for k, v in cause.most_common()))
    lines.append(f"decisions while the deal is still winnable: {alt_total}; picks a winner:")
    for name, n in alt_right.most_common():
        lines.append(f"   {name:8s} {n:5d} ({n / max(1, alt_total):.1%})")
    if paired:
        lines.append("variants asked the same decisions (while winnable): winner share "
                     "less master's, SE clustered by deal; saves / breaks")
    for name, deals in paired.items():
        mean, error, count = clustered(deals)
        lines.append(f"   {name:24s} {count:5d} decisions: {100 * mean:+.2f} ± "
                     f"{100 * error:.2f} points; saves {saves[name]}, breaks {breaks[name]}")
    timed: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for name, ms in r.get("ms", {}).items():
            timed[name].append(ms)
    for name, times in timed.items():
        times.sort()
        lines.append(f"   CPU {name:20s} median {times[len(times) // 2]:.1f} ms, p99 "
                     f"{times[min(len(times) - 1, int(0.99 * len(times)))]:.1f} ms "
                     f"({len(times)} decisions)")
    return "\n".join(lines)


def clustered(deals: Sequence[Sequence[int]]) -> tuple[float, float, int]:
    """The mean of the per-decision values and its standard error, clustered by deal (the
    decisions of one deal are not independent), and the number of decisions."""
    count = sum(len(d) for d in deals)
    if not count:
        return 0.0, 0.0, 0
    mean = sum(sum(d) for d in deals) / count
    groups = len(deals)
    spread = sum((sum(d) - len(d) * mean) ** 2 for d in deals)
    error = (spread * groups / max(1, groups - 1)) ** 0.5 / count
    return mean, error, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--json", default=None)
    parser.add_argument("--from-json", default=None)
    parser.add_argument("--oracle-keep", choices=("last", "first"), default="",
                        help="a leak, for the experiment: master's trick search knows each "
                        "opponent's cards kept at its last exchange (last), or held since "
                        "the deal through every exchange (first)")
    parser.add_argument("--options", default="",
                        help="master's options of the same name as its keywords, "
                        "e.g. 'exrule=1;annrule=1;chain=20'")
    parser.add_argument("--no-alts", action="store_true",
                        help="skip the alternative valuations (cheaper)")
    parser.add_argument("--variants", nargs="*", default=[],
                        help="other master options asked the same decisions, e.g. "
                        "'pool=20' 'samples=160'")
    args = parser.parse_args()
    variants = [(spec, {name: int(value) if float(value).is_integer() else float(value)
                        for name, value in parse_master_options("master:" + spec).items()})
                for spec in args.variants]
    options = {name: int(value) if float(value).is_integer() else float(value)
               for name, value in parse_master_options("master:" + args.options).items()}
    if args.from_json:
        with open(args.from_json) as handle:
            records = [json.loads(line) for line in handle]
        print(summarize(records))
        return 0
    games = [(g // 4, g % 4) for g in range(args.first_game, args.first_game + args.games)]
    records: list[dict[str, Any]] = []
    try:
        run(games, Rules.preset(args.preset), args.seed, records, args.oracle_keep,
            options, variants, not args.no_alts, args.json)
    finally:
        if args.json:
            write_json(args.json, records)
        print(summarize(records))
    return 0


if __name__ == "__main__":
    random.seed(0)
    sys.exit(main())
