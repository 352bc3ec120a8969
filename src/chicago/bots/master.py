"""The ``master`` bot: the expert, with searches of every phase as options.

What ``master`` does by default (docs/BOTS.md tells it in plain words, with the
measurements that chose it): the expert's decisions — ``ev``'s exchanges before the last
and its announcements, the expert's search of the last exchange, its Chicago call and its
trick search — with three changes:

- **Less weight on the model of sensible opponents**: a deal the bot wins only against that
  model counts 0.3 of the last trick, not the expert's 0.6, at trick play and in the last
  exchange's search (``model``; measured better where the two differed).
- **Trick play without some strategy fusion**: with three or four cards in hand, a card
  counts as sure only where the bot can choose its next card without seeing the deal.
- **The score situation** (:mod:`chicago.bots.race`) values the four-of-a-kind choices.

Kept as options, off by default because measured decision by decision
(``benchmarks/bench_disagreements.py``) or game by game they chose worse than the expert,
or no better: every exchange searched by play-outs (``exchanges=1``, :mod:`chicago.bots.
rollout`: each sensible hold played to the end of the deal on the same worlds, overruling
the expert's hold when clearly better; also the one-up choices and the redeal), the
announcements by the chance to win the round with passing to hide a weak hand
(``announce=1``, ``hide``), a larger search of the last exchange (``last=N`` deals),
worlds from the learned model of the hands (``learned=1``, :mod:`chicago.bots.handmodel`)
and the Chicago call by the chance to win the game (``call=1``).

Options (``master:exchanges=1;worlds=32``; ``;`` or ``,`` between them): ``last`` (deals
of the last exchange's search; 0, the default: the expert's 60% of ``samples``),
``lastholds`` (holds of that search, 5; 0: ``ev``'s hold, unsearched), ``lastmodel`` (the
model's share in that search alone; by default ``model``'s),
``worlds`` (worlds per play-out search, default 24), ``holds`` (holds played out, default
6), ``proposals`` (uniform draws per opponent hand with ``learned=1``, default 6), ``temper``
(the power of the learned weights; 1, the default: the raw model; the model's calibrated
power is 0.4), ``hide``
(points, default 0.05), ``z`` (standard errors a play-out search must win by, 2),
``score=0|1``, ``learned=0|1`` (0), ``infer=0|1|2|3`` (3; 0: unweighed worlds; else trick
play on worlds resampled by how well they explain the opponents' plays,
:mod:`chicago.bots.playmodel`: 1 by the rules of thumb, with ``miss``, the weight of a play
they would not make, 0.3; 2 by the chance of each
play under the policy fitted to the experts' plays, :mod:`chicago.bots.playpolicy`; 3 by a
mixture of the rules of thumb (``eps``, their slip, 0.02), the fitted policy and a uniform
guess, each opponent's mixture learned from its plays in the game's earlier deals,
:mod:`chicago.bots.playerkinds`, ``prior`` the rules model's prior chance, 1/3; with
any, ``pool``, deals dealt per deal searched, 10, ``cap``, the most deals dealt per deal
searched when the pool grows, by ``samples`` at a time, until the effective number of worlds
reaches ``fit`` (0.5) times ``samples`` (0, the default: it does not grow), and ``soft``,
the power the worlds' weights are raised to before the resampling: 1, the default, the
weights as they are; below 1 a softer likelihood that keeps more distinct worlds, 0 every
world alike, and ``draws``, the most random draws the dealing of the pool takes once
``samples`` deals are dealt, 100,000, 0 no limit, a count that cuts only the rare
positions whose deals are hard to find, :data:`DEFAULT_DRAWS`), ``exploit`` (0, the
default; 1: at a trick decision without a Chicago declared, when every opponent is a
player of the rules of thumb with ``infer=3``'s chance at least ``trust``, 0.99, the card
of the best reply to those rules on the same worlds,
:meth:`MasterBot._play`), ``chain`` (0, the default; N: with ``infer=3``, where an
opponent who played this deal is a player of the rules of thumb by the game's earlier
deals, each world searched at trick play is first moved by N Metropolis–Hastings trades of
hidden cards that keep the law of the weighed worlds, :mod:`chicago.bots.worldchain`: many
distinct worlds that explain every play instead of copies of the few dealt), ``replies``
(0, the default: ``samples``; N: with ``exploit=1``, the best reply searched on N worlds
resampled from the same pool, distinct ones with ``chain``), ``rulescall``
(0, the default; 1: against a table of players of the rules of thumb, the
Chicago call valued by the share of worlds in which it is made against their defence by
the rules, at least ``rulesbar``, 0.9, and worth more than keeping the last trick, and the
bot's own declared Chicago played by the card that makes it against that defence in the
most worlds, :mod:`chicago.bots.rulesdefence`, :meth:`MasterBot._chicago`), ``exchanges``,
``announce``, ``call`` and ``fusion`` (1: ``master``'s own search in that phase; 0, 0, 0,
1 by default), and every option of the expert (``samples`` for the trick play and the
Chicago call, default 40, ``chicago``, ``model``, default 0.3 here, 0.6 the expert's,
``contested``);
``fusion=2`` groups the deals of the fusion correction more coarsely and takes every share
from a fused card; ``alphamu`` (0, the default; N: with three to N cards in hand, the
trick search's sure points by αμ, :mod:`chicago.bots.alphamu`: the bot's later cards
chosen once for every world that looks the same to it, ``amdepth`` of its decisions, 0 all;
it replaces the fusion correction there), ``exrule`` (0, the default; with ``infer=3``, for
each opponent seen in the game's earlier deals, its hand weighed by whether ``basic``'s
exchange rule could have left it after drawing what it drew last, counted by that
opponent's chance of the rules model, :mod:`chicago.bots.exchangerule`: 1 times the expert's
hand-made plausibility, 2 instead of it; ``exkept=1`` reads opponents holding a combination
protected through the exchanges too), ``annrule`` (0, the default; 1 with ``infer=3``: the
same weight, where the exchange rule explains the hand, for whether the hand before the
last exchange would have made the opponent's announcement or pass in the scoring round
before it, :mod:`chicago.bots.announcerule`), ``dealrule`` (0, the default; 1 with
``exrule=1`` or ``annrule=1``: every world of every search dealt from their law, by
rejection up to ``tries`` deals a world, 30, so they reach the last exchange, the Chicago
call and the first lead, before any card of the deal is there to read), ``infoset`` (0,
the default; 1 with ``infer=3``: against a table of rules players, the trick card by a
search of the weighed worlds in which the others play their rules cards and the bot
chooses each later card once for all the worlds it cannot tell apart,
:mod:`chicago.bots.infoset`), ``keepodds`` (0, the default; 1: every exchange values the
kept cards for the last trick by ``master``'s own chances, measured against ``basic``,
:data:`MASTER_CARD_CHANCE`, instead of ``ev``'s; 2: ``ev``'s but the ace's; neither chose
better exchanges, docs/BOTS.md), ``block`` (0, the default; X in 0..1: where an opponent
would reach the target with the last trick, a card after which no such opponent can make
sure of it earns X times the trick's points in that deal, :func:`finishing_seats`),
``lockmodel`` (unset, the default: ``model``'s share; X in 0..1: the model's share in the
trick search of a deal the bot began locked, R-EX-5, docs/BOTS.md "Converting a lead at
the lock"). A seed fixes every choice: no option reads the clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from chicago.bots.alphamu import alphamu_values
from chicago.bots.announcerule import KeptMemo, Word, opponent_word_fits, words_of
from chicago.bots.base import register_bot, require_whole, spec_options
from chicago.bots.basic import _discard_action, _find, common_decision
from chicago.bots.drawcount import DrawBudget
from chicago.bots.ev import (
    desperate,
    ev_decision,
    ev_holds,
    last_trick_chance,
    last_trick_weight,
)
from chicago.bots.exchangerule import RuleMemo, opponent_fits
from chicago.bots.expert import (
    DEFAULT_CHICAGO,
    DEFAULT_CONTESTED,
    DEFAULT_SAMPLES,
    ExpertBot,
    best_card,
    sure_outcomes,
)
from chicago.bots.handmodel import HandModel
from chicago.bots.heuristics import chicago_is_due, ev_play
from chicago.bots.infoset import infoset_values
from chicago.bots.model import model_moves, model_wins
from chicago.bots.plausibility import hand_weight
from chicago.bots.playerkinds import (
    DEFAULT_EPS,
    DEFAULT_PRIOR,
    DealLogs,
    KindScorer,
    Triple,
    history_kinds,
    kind_weights,
    priors,
)
from chicago.bots.playmodel import (
    DEFAULT_MISS,
    Play,
    effective_count,
    observed_plays,
    play_weight,
    policy_weights,
    resample,
)
from chicago.bots.playpolicy import PlayPolicy
from chicago.bots.race import Race, race_for
from chicago.bots.ranktilt import rank_tilt_weights, seat_log_factors
from chicago.bots.rollout import (
    Option,
    Plan,
    Utility,
    make_world,
    plan_of,
    quick_keep,
    value_options,
)
from chicago.bots.rulesdefence import rules_chicago_made, rules_chicago_moves
from chicago.bots.solver import (
    Position,
    can_win_last_trick,
    last_trick_moves,
    last_trick_values,
)
from chicago.bots.tiltdraw import TiltDrawer
from chicago.bots.worldchain import Factor, walk
from chicago.cards import Card, ids_of_mask, mask_of
from chicago.engine.actions import Action, ActionKind
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import Weight, sample_hands
from chicago.engine.viewtypes import SeatView
from chicago.poker import Category, rank
from chicago.rules import Rules

__all__ = ["MasterBot", "Phases", "parse_master_options", "tempered_weights"]

_K = ActionKind
DEFAULT_WORLDS = 24
DEFAULT_HOLDS = 6
DEFAULT_PROPOSALS = 6
DEFAULT_HIDE = 0.05
DEFAULT_Z = 2.0
DEFAULT_SCORE = True
DEFAULT_LAST_HOLDS = 5
"""Holds of the last exchange's search (the expert's); 0: ``ev``'s hold, unsearched."""
DEFAULT_LAST = 0
"""Deals of the last exchange's search; 0: the expert's (60% of ``samples``, 24). Searching
160 deals chose no better than 24 where the two differed (``bench_disagreements.py``, 90
differing decisions: -0.08 ± 0.16 points each), so the default stays the expert's."""
DEFAULT_MODEL_SHARE = 0.3
"""What a deal is worth (in last-trick points) where the bot wins the last trick only
against the model of sensible opponents, at trick play and in the last exchange's search:
0.3, half the expert's 0.6 (``model=0.6`` plays the expert's choices). Measured decision
by decision against the expert (``bench_disagreements.py``, pagat, 60 games with the bot in
every seat, 4 play-outs each): seed 2026, +0.18 ± 0.09 points per differing trick (527) and
+0.21 ± 0.09 per differing last exchange (490); seed 2027, +0.27 ± 0.09 (552) and +0.20 ±
0.09 (507). docs/BOTS.md has every figure (and the game-level match, which cannot tell
so small a gain from noise). Less again, 0.15, chose no better than 0.3 where the two
differed (two seeds, 562 tricks: +0.03 ± 0.075 points each; +0.019 ± 0.011 points per
deal in all)."""
DEFAULT_TEMPER = 1.0
"""The power of the learned weights: the raw model. The calibrated power (0.4, the best card
by card on held-out games) dealt worse tricks: −0.17 ± 0.09 points and −0.42 ± 0.18 points
of win chance per differing trick against the expert (``bench_disagreements.py``, 80
games), the raw weights +0.04 ± 0.09 and +0.44 ± 0.28 on the same games."""
DEFAULT_INFER = 3
"""Trick play on worlds weighed by how well they explain the opponents' plays, each
opponent's kind of play learned from its plays in the game's earlier deals (``infer=3``,
:mod:`chicago.bots.playerkinds`; the view's ``history`` carries those plays, so the choice
is a function of the view). ``infer=0`` is the trick play on unweighed worlds; ``infer=1``
(the rules of thumb) and ``infer=2`` (the fitted policy) are options. docs/BOTS.md, "What
kind of player each opponent is", has the measurements: with ``pool=10``, against three
``basic`` +5.5 ± 2.0 points of win share over ``infer=0`` (500 pagat games, set by set), and
against three ``expert`` +0.9 ± 2.1 (500 games, no measurable difference)."""
DEFAULT_INFER_POOL = 10
"""With ``infer``: worlds dealt per world searched at trick play (400 for the 40 searched),
resampled by how well they explain the opponents' plays. Against three ``basic`` the
resampled worlds of 120 dealt were a handful of distinct ones (an effective count of 5-6
after four plays); 400 dealt won +6.3 ± 2.5 points of win share over 120 (``pool=3``, the
earlier default, which ``infer=1`` and ``infer=2`` were measured with)."""
DEFAULT_INFER_CAP = 0
"""With ``infer``: the most worlds dealt per world searched when the pool grows (0: it does
not, ``pool`` times ``samples`` are dealt); see :meth:`MasterBot._positions`."""
DEFAULT_DRAWS = 100_000
"""With ``infer``: the most random draws (:class:`~chicago.bots.drawcount.CountingRandom`)
the dealing of the trick search's pool may take before it stops dealing, once it has dealt
``samples`` deals (0: no limit). A typical pool of 400 deals takes some 12,000 draws and
99% of them fewer than 70,000 (pagat, against three experts), so the budget does not bind
there; it cuts the rare positions whose deals are hard to find (protected combinations,
R-EX-4, or claims, R-ANN-1, that few deals fit), which took up to 2 million draws and 6 s of
CPU. A count, never a time: a seed fixes every choice. docs/BOTS.md, "Decision times"."""
DEFAULT_INFER_FIT = 0.5
"""With ``cap``: the effective number of worlds (:func:`~chicago.bots.playmodel.
effective_count`) the growing pool deals towards, as a share of ``samples``."""
DEFAULT_INFER_SOFT = 1.0
"""With ``infer=1`` or ``2``: the power of the worlds' weights before the resampling
(:func:`tempered_weights`); 1, the weights as the likelihood gives them. ``soft=0.5`` chose
no measurably better trick play than ``master`` (``bench_disagreements.py``, seed 2027, 106
games in every seat: +0.023 ± 0.018 points per deal; ``infer=2`` at 1: -0.030 ± 0.021),
docs/BOTS.md "A softer likelihood"."""
DEFAULT_EXPLOIT = False
"""Off: the trick search assumes the best defence from everyone. ``exploit=1`` plays the
best reply to opponents the view shows to be players of the rules of thumb
(:meth:`MasterBot._exploiting`, :meth:`MasterBot._play`)."""
DEFAULT_TRUST = 0.99
"""With ``exploit=1``: the least chance of the rules model (``infer=3``'s posterior from the
game's earlier deals) every opponent must have for the bot to play the best reply to it."""
DEFAULT_CHAIN = 0
"""Off: the worlds searched at trick play are the ones resampled from those dealt. With
``chain=N`` (and ``infer=3``, against a table where an opponent plays by the rules of
thumb) each is moved by ``N`` Metropolis–Hastings trades of hidden cards first
(:mod:`chicago.bots.worldchain`): many distinct worlds that explain every play, not copies
of a few."""
DEFAULT_REPLIES = 0
"""With ``exploit=1``: the worlds the best reply is searched on; 0, ``samples``'s (40).
``replies=N`` resamples ``N`` from the same dealt pool (with ``chain``, each moved by the
trades, so they are distinct); the trick search's tie-break keeps the first ``samples``.
Off by default: docs/BOTS.md, "The best reply on many distinct worlds"."""
_CHAIN_RULES = 0.5
"""With ``chain``: the least chance of the rules model (``infer=3``'s posterior) that one
opponent who played this deal must have for the trades to run."""
DEFAULT_EXRULE = 0
"""The opponents' hands weighed by ``basic``'s exchange rule off by default (``exrule=1``:
times the hand-made plausibility; 2: instead of it; docs/BOTS.md, "``basic``'s own
exchange rule as the dealing weight")."""
DEFAULT_EXKEPT = 0
"""With ``exrule``: opponents holding a protected combination (R-EX-4) left to the
hand-made weight by default (``exkept=1`` reads them too; docs/BOTS.md, "Where the
exchanges' evidence could take the card play")."""
DEFAULT_ANNRULE = 0
"""The opponents' hands weighed by ``basic``'s announcement rule off by default
(``annrule=1``; docs/BOTS.md, "``basic``'s announcements and passes as evidence")."""
DEFAULT_DEALRULE = 0
"""The rules of ``exrule``/``annrule`` read as a reweighing of the trick search's pool by
default; ``dealrule=1`` deals every world of every search from their law instead (each
dealt world kept with the chance its rule weight gives it, else dealt again, up to
``tries`` deals): so they also reach the last exchange, the Chicago call and the trick
decisions before any opponent's card of the deal, where no card play is there to read
(docs/BOTS.md, "The exchanges and the words before any card is played (``dealrule=1``)")."""
DEFAULT_TRIES = 30
"""With ``dealrule=1``: the most deals tried for one world (then the likeliest of them)."""
DEFAULT_KEEPODDS = 0
"""The kept cards' last-trick chances in the exchanges: ``ev``'s (0, the default),
``master``'s own, measured against three ``basic`` (1, :data:`MASTER_CARD_CHANCE`), or
``ev``'s with the ace's chance alone ``master``'s (2)."""
MASTER_CARD_CHANCE = {14: 0.48, 13: 0.14, 12: 0.08, 11: 0.04}
"""Chance that a card ``master`` holds when the trick play starts wins it the last trick,
by rank (``ev``'s table: 0.25, 0.12, 0.06, 0.03): fitted, as ``ev``'s model (one minus the
product of each card's miss), to ``master``'s 198 hands at the first lead against three
``basic`` (pagat, seed 2026; docs/BOTS.md, "The value of an ace kept for the last trick")."""
MASTER_OTHER_CHANCE = 0.02
"""The same for a card below the jack (``ev``: 0.015)."""
MASTER_DRAWN_CHANCE = 0.06
"""The same for a card still to be drawn (``ev``: 0.04, about four fifths of its average
card; the same share of ``master``'s)."""
_EXRULE_FLOOR = 0.02
"""With ``exrule``: the weight, as a share, of a hand ``basic``'s rule could not have left
(a slip, or a player that exchanges otherwise although it plays by the rules)."""
DEFAULT_RULES_CALL = False
"""Off: the Chicago call and a declared Chicago's play assume the best defence. ``rulescall=1``
values them against the defence of opponents the view shows to be players of the rules of
thumb (:meth:`MasterBot._chicago`, :meth:`MasterBot._play`). Off: in 80 pagat games
against three ``basic`` (seed 2026, set by set) it made 18 Chicagos of 31 declared against
``master``'s 4 of 7, +0.10 ± 0.10 wins per set of four games and −0.02 ± 0.08 points per
deal, no measurable gain (docs/BOTS.md)."""
DEFAULT_RULES_BAR = 0.9
"""With ``rulescall=1``: the least share of worlds in which the Chicago is made against the
rules defence for the bot to declare (besides the gain over keeping the last trick). The
share is optimistic (the bot sees each world and the worlds are not the real hands): at 436
calls against three ``basic`` (``benchmarks/bench_rules_call.py``, pagat, seed 2026) the calls
at a share of 0.9 or more made 12 of 15 Chicagos, those at 0.6-0.9 13 of 24 (docs/BOTS.md)."""
DEFAULT_RULES_CAP = 0
"""With ``rulescall=1``, in the bot's own declared Chicago: the most worlds dealt per world
searched while the weighed worlds are few (``cap`` for that play alone; 0: ``cap``)."""
DEFAULT_LEARNED = False
"""Deal by the expert's hand-made weights unless ``learned=1``: neither the learned model's
raw weights nor its tempered ones (power 0.4, fitted on held-out games) chose
measurably better than the hand-made weights where the two differed
(``bench_disagreements.py``, docs/BOTS.md "The learned model of the hands")."""
DEFAULT_BLOCK = 0.0
"""Off: the trick search values only the bot's own last trick (and the expert's shares).
``block=X`` (0..1): where an opponent would reach the target with the last trick, a card
after which no such opponent can make sure of it also earns ``X`` times the trick's points
in that deal (:meth:`MasterBot._add_scores`). Off: at ``block=0.5`` against three
``expert`` (pagat, seeds 2026 and 2027, 115 games) it changed 93 trick decisions and lost
−0.48 ± 0.25 points and −1.8 ± 1.2 points of win chance on each (docs/BOTS.md, "Where the
points against ``expert`` go, and blocking the player about to finish (``block``)")."""
DEFAULT_TILT = 0.0
"""The per-rank correction of the trick search's worlds off by default (``tilt=X``:
:mod:`chicago.bots.ranktilt`): it places the high cards far better, but at the decisions
(pagat, seed 2026) it gained +0.106 ± 0.058 points per deal against experts and nothing
against ``basic`` (docs/BOTS.md, "How good the worlds are, card by card")."""
DEFAULT_TILT_DEAL = 0
"""Off: with ``tilt`` the dealt pool is reweighed by the tilt. ``tiltdeal=N`` (needs
``tilt``) keeps the pool's weights untilted and moves each world resampled from it by ``N``
Metropolis–Hastings trades towards the tilted law instead (:meth:`MasterBot._walker`), so
the searched worlds are many distinct deals with even weights rather than copies of the
few the tilt favours. Off: the worlds are the best placed yet, but at the decisions (pagat,
seed 2026) it changed nothing measurable, −0.013 ± 0.061 points per deal against experts and
−0.023 ± 0.090 against ``basic``, at three times the CPU (docs/BOTS.md, "Dealing towards
the tilt")."""
DEFAULT_TILT_DRAW = 0
"""Off: with ``tilt`` the dealt pool is reweighed by the tilt. ``tiltdraw=1`` (needs
``tilt``) deals the trick search's pool from the tilted law itself
(:class:`~chicago.bots.tiltdraw.TiltDrawer`: exact for the opponents only sizes, voids and a
known card constrain; the others dealt by the engine's sampler and weighed by their tilt),
then weighs it by the hand-made plausibility and the play likelihood, not the tilt again
(:meth:`MasterBot._tilt_pool`). Off: at the decisions against experts (pagat, seed 2026, 89
games) it gained +0.056 ± 0.026 points per deal and no win chance (−0.02 ± 0.08 points),
against ``basic`` nothing (−0.022 ± 0.063), at 1.1 times ``master``'s median CPU, its tail
cut to a p90 of 1.3 times ``master``'s and a maximum below it (docs/BOTS.md, "Dealing from
the tilted law", "Cutting the tail", "More games against experts, and against ``basic``")."""
DEFAULT_TILT_CALL = 0
"""Off: the Chicago call deals its worlds as the expert does. ``tiltcall=1`` (needs
``tiltdraw``) deals them from the tilted law too, weighed by the plausibility and resampled
(:meth:`MasterBot._chicago_shares`)."""
DEFAULT_INFOSET = 0
"""The trick play against a table of rules players searched on information sets off by
default (``infoset=1``: :mod:`chicago.bots.infoset`)."""
DEFAULT_ALPHAMU = 0
"""αμ at trick play off by default (``alphamu=N``: with three to N cards in hand)."""
DEFAULT_AMDEPTH = 0
"""With ``alphamu``: every later decision of the bot searched without fusion."""
_REAL_PLAY = 0.85
"""How much of the sampled share of sure Chicagos real play keeps (samples are optimistic:
real players keep their high cards, and only sure deals are counted)."""
_CALL_FLOOR = 0.5
"""The least share of sure Chicagos the race model may declare with."""
_FUSED = -1
"""The sure value ``_sure_values`` gives a card whose sure points need a bot that sees the
deal (``fusion=2``): no share at all in that deal."""
_OPTIONS = {
    "worlds": (2, 1000), "holds": (1, 32), "proposals": (1, 64), "hide": (0, 100),
    "z": (0, 10), "score": (0, 1), "learned": (0, 1), "temper": (0, 4), "last": (0, 10000),
    "lastholds": (0, 32), "lastmodel": (0, 1), "infer": (0, 3), "miss": (0.01, 1),
    "pool": (1, 20), "cap": (0, 100), "draws": (0, 10**9), "fit": (0.01, 1), "soft": (0, 4),
    "eps": (0.001, 0.5),
    "prior": (0.001, 0.999), "exploit": (0, 1), "trust": (0.5, 1), "chain": (0, 1000),
    "replies": (0, 10000),
    "rulescall": (0, 1), "alphamu": (0, 5), "amdepth": (0, 5), "exrule": (0, 2),
    "annrule": (0, 1), "infoset": (0, 1), "exkept": (0, 1), "dealrule": (0, 1),
    "tries": (1, 1000), "keepodds": (0, 2), "block": (0, 1), "lockmodel": (0, 1),
    "tilt": (0, 4), "tiltdeal": (0, 1000), "tiltdraw": (0, 1), "tiltcall": (0, 1),
    "rulesbar": (0.01, 1), "rulescap": (0, 100),
    "exchanges": (0, 1), "announce": (0, 1), "call": (0, 1), "fusion": (0, 2),
    "samples": (1, 10000), "chicago": (0.01, 1), "model": (0, 1), "contested": (0, 1),
}
_WHOLE = ("worlds", "holds", "proposals", "score", "learned", "last", "lastholds", "pool",
          "cap", "draws", "exchanges", "announce", "call", "fusion", "samples", "exploit",
          "chain", "replies", "rulescall", "rulescap", "alphamu", "amdepth", "exrule",
          "annrule", "infoset", "exkept", "dealrule", "tries", "keepodds", "tiltdeal",
          "tiltdraw", "tiltcall")
"""The options that count something or choose a setting: whole numbers only."""


@dataclass(frozen=True)
class Phases:
    """Which of ``master``'s own searches it uses; a phase switched off is decided as the
    expert decides it (the options ``exchanges``, ``announce``, ``call`` and ``fusion``,
    for measuring what each search is worth)."""

    exchanges: bool = False
    """Exchanges, one up and the redeal by play-outs (off, the default: ``ev``'s odds, the
    expert's last-exchange search, the rules of thumb; where the
    play-outs overruled the expert they chose worse on average, ``bench_disagreements.py``
    in docs/BOTS.md)."""
    announce: bool = False
    """Announcements and passes by the chance to win the round (off, the default: ``ev``'s
    estimate; valued by the race model the search lost to it, valued in points it chose
    as well as it on two seeds, no better: ``bench_disagreements.py`` in docs/BOTS.md)."""
    call: bool = False
    """The Chicago call by the chance to win the game (off, the default: the expert's fixed
    bar; the race's call declared more Chicagos and failed more of them than the expert's in
    the matches of docs/BOTS.md)."""
    fusion: int = 1
    """Trick play corrected for strategy fusion: 0 off (the expert's determinized search),
    1 the deals grouped by the others' exact replies, 2 by what those replies mean to the
    bot's cards (:func:`_fusion_free`'s ``coarse``), and a card that is sure in a deal only
    for a bot that sees it worth nothing there (with 1, the shares for beating the model of
    sensible opponents and leaving the trick open make such a deal worth as much as a sure
    one, so the correction never changes a card)."""


def parse_master_options(spec: str) -> dict[str, float]:
    """The ``key=value`` options of a spec such as ``master:worlds=32;holds=4``; ValueError
    naming the problem for anything else."""
    options = spec_options(spec, tuple(_OPTIONS), ", ".join(f"{name}=N" for name in _OPTIONS))
    for key, number in options.items():
        low, high = _OPTIONS[key]
        if not low <= number <= high:
            raise ValueError(f"option {key} of {spec!r} must be in {low:g}..{high:g}")
    require_whole(options, _WHOLE, spec)
    return options


class MasterBot(ExpertBot):
    """``master``: the expert, with searches of every phase as options (module
    docstring)."""

    name = "master"

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        holds: int = DEFAULT_HOLDS,
        proposals: int = DEFAULT_PROPOSALS,
        hide: float = DEFAULT_HIDE,
        z: float = DEFAULT_Z,
        score: bool = DEFAULT_SCORE,
        learned: bool = DEFAULT_LEARNED,
        temper: float = DEFAULT_TEMPER,
        last: int = DEFAULT_LAST,
        last_holds: int = DEFAULT_LAST_HOLDS,
        last_model: float | None = None,
        phases: Phases | None = None,
        samples: int = DEFAULT_SAMPLES,
        chicago: float = DEFAULT_CHICAGO,
        model: float = DEFAULT_MODEL_SHARE,
        contested: float = DEFAULT_CONTESTED,
        hand_model: HandModel | None = None,
        infer: int = DEFAULT_INFER,
        miss: float = DEFAULT_MISS,
        pool: int = DEFAULT_INFER_POOL,
        cap: int = DEFAULT_INFER_CAP,
        fit: float = DEFAULT_INFER_FIT,
        soft: float = DEFAULT_INFER_SOFT,
        eps: float = DEFAULT_EPS,
        prior: float = DEFAULT_PRIOR,
        exploit: bool = DEFAULT_EXPLOIT,
        trust: float = DEFAULT_TRUST,
        chain: int = DEFAULT_CHAIN,
        replies: int = DEFAULT_REPLIES,
        rulescall: bool = DEFAULT_RULES_CALL,
        rulesbar: float = DEFAULT_RULES_BAR,
        rulescap: int = DEFAULT_RULES_CAP,
        alphamu: int = DEFAULT_ALPHAMU,
        amdepth: int = DEFAULT_AMDEPTH,
        exrule: int = DEFAULT_EXRULE,
        annrule: int = DEFAULT_ANNRULE,
        infoset: int = DEFAULT_INFOSET,
        exkept: int = DEFAULT_EXKEPT,
        dealrule: int = DEFAULT_DEALRULE,
        tries: int = DEFAULT_TRIES,
        keepodds: int = DEFAULT_KEEPODDS,
        block: float = DEFAULT_BLOCK,
        draws: int = DEFAULT_DRAWS,
        lock_model: float | None = None,
        tilt: float = DEFAULT_TILT,
        tiltdeal: int = DEFAULT_TILT_DEAL,
        tiltdraw: int = DEFAULT_TILT_DRAW,
        tiltcall: int = DEFAULT_TILT_CALL,
    ) -> None:
        super().__init__(samples=samples, contested=contested, model=model, chicago=chicago,
                         holds=last_holds)
        if worlds < 2 or holds < 1 or proposals < 1 or hide < 0 or z < 0:
            raise ValueError("worlds must be >= 2, holds and proposals >= 1, hide and z >= 0")
        self.worlds = worlds
        self.z = z
        self.score = score
        self.learned = learned
        if temper < 0:
            raise ValueError("temper must be >= 0")
        self.temper = temper
        """The power of the learned model's weights with ``learned=1``."""
        self.phases = phases if phases is not None else Phases()
        self.search_holds = holds
        self.proposals = proposals
        self.hide = hide
        if last < 0:
            raise ValueError("last must be >= 0")
        if last:
            self.exchange_samples = last
        if last_model is not None and not 0 <= last_model <= 1:
            raise ValueError("last_model must be in 0..1")
        if last_model is not None:
            self.exchange_model = last_model
        self.hand_model = hand_model if hand_model is not None else HandModel.load()
        if not 0 < miss <= 1 or pool < 1 or infer not in (0, 1, 2, 3):
            raise ValueError("miss must be in 0..1 (not 0), pool >= 1 and infer 0, 1, 2 or 3")
        self.infer = int(infer)
        """Trick play on worlds resampled by the opponents' plays: 0 not, 1 by the rules of
        thumb, 2 by the fitted policy, 3 by each opponent's mixture of models learned from
        the game's earlier deals."""
        self.play_policy = PlayPolicy.load() if self.infer in (2, 3) else None
        if not 0.001 <= eps <= 0.5:
            raise ValueError("eps must be in 0.001..0.5")
        if not 0.001 <= prior <= 0.999:
            raise ValueError("prior must be in 0.001..0.999")
        self.eps = eps
        """With ``infer=3``: the rules model's slip (chance of another card than theirs)."""
        self.prior: Triple = priors(prior)
        """With ``infer=3``: the prior chance of the rules, fitted and uniform models."""
        self._kinds: dict[int, Triple] = {}
        """With ``infer=3``, at a trick decision: each opponent's chance of every model,
        from the finished deals of the view's history (set anew at every decision)."""
        self._deal_logs: DealLogs = {}
        """With ``infer=3``: the finished deals' log-likelihoods worked out so far, a memo
        only (a bot without it decides the same)."""
        self.miss = miss
        self.pool = pool
        if cap != int(cap) or not (cap == 0 or pool <= cap <= 100):
            raise ValueError("cap must be 0 or a whole number from pool to 100")
        if not 0.01 <= fit <= 1:
            raise ValueError("fit must be in 0.01..1")
        self.cap = int(cap)
        """With ``infer``: the most worlds dealt per world searched (0: ``pool`` always)."""
        self.fit = fit
        """With ``cap``: the effective worlds dealt towards, as a share of ``samples``."""
        if draws != int(draws) or draws < 0:
            raise ValueError("draws must be a whole number >= 0")
        self.draws = int(draws)
        """With ``infer``: the most random draws the dealing of the trick search's pool
        takes once ``samples`` deals are dealt (0: no limit; :meth:`_pool`)."""
        self.pool_dealt = 0
        """With ``infer``: the deals of the last trick search's pool (for tests and
        benchmarks)."""
        if not 0 <= soft <= 4:
            raise ValueError("soft must be in 0..4")
        self.soft = soft
        """The power of the worlds' weights with ``infer`` (:func:`tempered_weights`)."""
        if exploit and self.infer != 3:
            raise ValueError("exploit needs infer=3 (each opponent's kind of play)")
        if not 0.5 <= trust <= 1:
            raise ValueError("trust must be in 0.5..1")
        self.exploit = bool(exploit)
        """Trick play by the best reply to opponents of the rules of thumb (``exploit=1``)."""
        self.trust = trust
        """With ``exploit`` or ``rulescall``: the least chance of the rules model every
        opponent must have."""
        if chain != int(chain) or not 0 <= chain <= 1000:
            raise ValueError("chain must be a whole number in 0..1000")
        if chain and self.infer != 3:
            raise ValueError("chain needs infer=3 (each opponent's kind of play)")
        self.chain = int(chain)
        """Metropolis–Hastings trades per world searched at trick play (``chain``; 0 off)."""
        if replies != int(replies) or not 0 <= replies <= 10000:
            raise ValueError("replies must be a whole number in 0..10000")
        if replies and not exploit:
            raise ValueError("replies needs exploit=1 (the best reply's worlds)")
        self.replies = int(replies)
        """With ``exploit``: the worlds the best reply is searched on (0: ``samples``)."""
        if rulescall and self.infer != 3:
            raise ValueError("rulescall needs infer=3 (each opponent's kind of play)")
        if not 0.01 <= rulesbar <= 1:
            raise ValueError("rulesbar must be in 0.01..1")
        self.rulescall = bool(rulescall)
        """The Chicago call and a declared Chicago's play against the rules defence
        (``rulescall=1``) where every opponent is a rules player."""
        self.rulesbar = rulesbar
        """With ``rulescall``: the least share of worlds made against the rules defence."""
        if rulescap != int(rulescap) or not (rulescap == 0 or pool <= rulescap <= 100):
            raise ValueError("rulescap must be 0 or a whole number from pool to 100")
        self.rulescap = int(rulescap)
        """With ``rulescall``: ``cap`` in the bot's own declared Chicago (0: ``cap``)."""
        if alphamu != int(alphamu) or not 0 <= alphamu <= 5:
            raise ValueError("alphamu must be a whole number in 0..5")
        if amdepth != int(amdepth) or not 0 <= amdepth <= 5:
            raise ValueError("amdepth must be a whole number in 0..5")
        self.alphamu = int(alphamu)
        """With at most this many cards in hand (and at least three), the sure points of the
        trick search by αμ (:mod:`chicago.bots.alphamu`) instead of per world; 0 off."""
        self.amdepth = int(amdepth)
        """With ``alphamu``: the bot's decisions αμ searches without fusion (0: all)."""
        if exrule not in (0, 1, 2):
            raise ValueError("exrule must be 0, 1 or 2")
        if exrule and self.infer != 3:
            raise ValueError("exrule needs infer=3 (each opponent's kind of play)")
        self.exrule = int(exrule)
        """Opponents' hands weighed by ``basic``'s exchange rule at trick play (0 off; 1
        times the hand-made plausibility, 2 instead of it)."""
        if annrule not in (0, 1):
            raise ValueError("annrule must be 0 or 1")
        if annrule and self.infer != 3:
            raise ValueError("annrule needs infer=3 (each opponent's kind of play)")
        self.annrule = int(annrule)
        """Opponents' hands weighed by ``basic``'s announcement rule at trick play (0 off)."""
        if exkept not in (0, 1):
            raise ValueError("exkept must be 0 or 1")
        if exkept and not exrule:
            raise ValueError("exkept needs exrule=1 or 2 (basic's exchange rule)")
        self.exkept = int(exkept)
        """With ``exrule``: the rule also reads opponents holding a protected combination
        (R-EX-4; 0 leaves their hand-made weight alone)."""
        if infoset not in (0, 1):
            raise ValueError("infoset must be 0 or 1")
        if infoset and self.infer != 3:
            raise ValueError("infoset needs infer=3 (each opponent's kind of play)")
        self.infoset = int(infoset)
        """Trick play against a table of rules players by the search on information sets
        (:func:`~chicago.bots.infoset.infoset_values`; 0 off)."""
        if dealrule not in (0, 1):
            raise ValueError("dealrule must be 0 or 1")
        if dealrule and not (exrule == 1 or (annrule and not exrule)):
            raise ValueError("dealrule needs exrule=1 or annrule=1 (exrule=2 is not a share)")
        if tries < 1:
            raise ValueError("tries must be >= 1")
        self.dealrule = int(dealrule)
        """Every world of every search dealt from the law of ``exrule``/``annrule`` (0: the
        trick search's pool reweighed by them, and nothing before the first card)."""
        self.tries = int(tries)
        """With ``dealrule``: the most deals tried for one world."""
        if keepodds not in (0, 1, 2):
            raise ValueError("keepodds must be 0, 1 or 2")
        self.keepodds = int(keepodds)
        """The exchanges value the kept cards for the last trick by ``master``'s own
        chances (:data:`MASTER_CARD_CHANCE`; 0: ``ev``'s; 2: ``ev``'s but an ace's)."""
        if not 0 <= block <= 1:
            raise ValueError("block must be in 0..1")
        self.block = block
        """The share of the last trick's points a card earns in a deal where it leaves no
        opponent about to finish sure of the last trick (0 off; :meth:`_add_scores`)."""
        if lock_model is not None and not 0 <= lock_model <= 1:
            raise ValueError("lock_model must be in 0..1")
        self.lock_model = lock_model
        """The model's share in the trick search of a deal the bot began locked (R-EX-5;
        None: ``model``'s): there the bot's hand is the one dealt and the last trick is
        most of what it can still score (:meth:`_add_scores`)."""
        if not 0 <= tilt <= 4:
            raise ValueError("tilt must be in 0..4")
        if tilt and self.infer != 3:
            raise ValueError("tilt needs infer=3 (each opponent's kind of play)")
        self.tilt = tilt
        """The power of the per-rank correction of the trick search's worlds
        (:mod:`chicago.bots.ranktilt`; 0 off): with it the pool is dealt and weighed at
        every trick decision without a Chicago declared, plays seen or not."""
        if tiltdeal != int(tiltdeal) or not 0 <= tiltdeal <= 1000:
            raise ValueError("tiltdeal must be a whole number in 0..1000")
        if tiltdeal and not tilt:
            raise ValueError("tiltdeal needs tilt > 0 (the law it deals towards)")
        self.tiltdeal = int(tiltdeal)
        """With ``tilt``: the trades by which each searched world is moved towards the
        tilted law (0: the pool reweighed by the tilt instead; :meth:`_walker`)."""
        if tiltdraw not in (0, 1) or tiltcall not in (0, 1):
            raise ValueError("tiltdraw and tiltcall must be 0 or 1")
        if tiltdraw and not tilt:
            raise ValueError("tiltdraw needs tilt > 0 (the law it deals from)")
        if tiltdraw and (tiltdeal or learned or dealrule or exrule or annrule):
            raise ValueError("tiltdraw deals the pool itself: not with tiltdeal, learned, "
                             "dealrule, exrule or annrule")
        if tiltcall and not tiltdraw:
            raise ValueError("tiltcall needs tiltdraw=1")
        self.tiltdraw = int(tiltdraw)
        """With ``tilt``: the trick search's pool dealt from the tilted law
        (:meth:`_tilt_pool`; 0: the pool reweighed by the tilt)."""
        self.tiltcall = int(tiltcall)
        """With ``tiltdraw``: the Chicago call's worlds dealt from the tilted law too."""
        self._words: dict[int, Word] = {}
        """With ``annrule``: each opponent's word before its last exchange, this decision."""
        self._kept_memo: KeptMemo = {}
        """With ``annrule``: the earlier hands of hands already rebuilt, a memo only."""
        self._rule_memo: RuleMemo = {}
        """With ``exrule``: hands already tested against the rule, a memo only."""
        self._weigh: Weight | None = None
        self.note: float | None = None
        """What the last search measured, for benchmarks (``bench_disagreements.py``): an
        exchange search's margin of its best option over the base choice in standard errors
        (None when the base was best), an announcement's mean gain of announcing less
        ``hide``, in points; with ``block``, at a trick decision where it applies, the
        number of opponents about to finish; None after other decisions."""

    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Search the decision of this view (every phase)."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        self.note = None
        self._kinds = {}
        self._words = {}
        if len(legal_actions) == 1:
            return legal_actions[0]
        k = knowledge(view)
        if self.play_policy is not None and self.infer == 3 and (
                k.phase == "play" or (k.phase == "chicago" and self.rulescall)
                or (self.dealrule and k.phase in ("chicago", "exchange", "one up"))):
            self._kinds = history_kinds(view.history, k.seat, self.play_policy, self.eps,
                                        k.players, self.prior, self._deal_logs)
            if self.annrule:
                self._words = words_of(view, k)
        elif self.play_policy is not None and self.tiltcall and k.phase == "chicago":
            self._kinds = history_kinds(view.history, k.seat, self.play_policy, self.eps,
                                        k.players, self.prior, self._deal_logs)
        self._weigh = self.hand_model.scorer(k, self.temper) if self.learned else None
        phase = k.phase
        if phase in ("exchange", "one up", "redeal") and not self.phases.exchanges:
            return self._expert_exchange(k, legal_actions, rng)
        if phase == "exchange" and len(k.hand) == 5 and not k.locked[k.seat]:
            return self._exchange(k, legal_actions, rng)
        if phase == "one up" and k.one_up is not None and k.one_up[0] == k.seat:
            return self._one_up(k, legal_actions, rng)
        if phase == "redeal" and _find(legal_actions, _K.REDEAL) is not None:
            return self._redeal(k, legal_actions, rng)
        if phase in ("quads choice", "quads"):
            choice = self._quads(k, legal_actions)
            if choice is not None:
                return choice
        common = common_decision(k, legal_actions)
        if common is not None:
            return common
        if phase == "announce":
            if not self.phases.announce:
                return ev_decision(k, legal_actions, rng)
            return self._announce(k, legal_actions, rng)
        if phase == "chicago":
            return self._chicago(k, legal_actions, rng)
        if phase == "play":
            return self._play(k, legal_actions, rng)
        return ev_decision(k, legal_actions, rng)

    # ------------------------------------------------------------------ worlds
    def _sample(self, k: Knowledge, rng: random.Random) -> list[int]:
        """One deal of the hidden cards, each opponent's hand resampled by the learned model
        (``learned=0``: weighted by the expert's hand-made rules instead); with
        ``dealrule``, from the law of ``exrule``/``annrule`` too (:meth:`_rule_sample`)."""
        if self.dealrule and self._kinds:
            return self._rule_sample(k, rng)
        return self._plain_sample(k, rng)

    def _plain_sample(self, k: Knowledge, rng: random.Random) -> list[int]:
        """One deal of the hidden cards by the hand-made weights or the learned model."""
        if not self.learned:
            return super()._sample(k, rng)
        return sample_hands(k, rng, weight=self._weigh, proposals=self.proposals)

    def _rule_sample(self, k: Knowledge, rng: random.Random) -> list[int]:
        """With ``dealrule``: one deal by rejection, each dealt by :meth:`_plain_sample`
        and kept with the chance :meth:`_rule_factor` gives it (a factor of 1 is kept
        without a draw), up to ``tries`` deals; if none is kept, the first with the
        largest factor. So the worlds come from the plain law times the rule's factor,
        each a deal of its own (no copies, as a reweighed pool gives)."""
        best: list[int] | None = None
        best_factor = -1.0
        for _ in range(self.tries):
            hands = self._plain_sample(k, rng)
            factor = self._rule_factor(k, hands)
            if factor >= 1.0 or rng.random() < factor:
                return hands
            if factor > best_factor:
                best, best_factor = hands, factor
        assert best is not None
        return best

    def _rule_factor(self, k: Knowledge, hands: Sequence[int]) -> float:
        """With ``dealrule``: the product over the opponents seen in earlier deals of
        ``r`` × (1 if the rules explain its hand — held in ``hands`` and played — else
        :data:`_EXRULE_FLOOR`) + 1 − ``r``, ``r`` its chance of the rules model
        (:meth:`_rule_fit`); at most 1."""
        factor = 1.0
        for seat, kinds in self._kinds.items():
            opp = k.opponents.get(seat)
            if opp is None:
                continue
            cards = [*(int(c) for c in opp.played), *ids_of_mask(hands[seat])]
            fits = self._rule_fit(k, seat, cards)
            if fits is False:
                rules = kinds[0]
                factor *= rules * _EXRULE_FLOOR + 1.0 - rules
        return factor

    def _positions(
        self, k: Knowledge, rng: random.Random, declarer: int | None, cap: int | None = None,
        count: int | None = None,
    ) -> Iterator[Position]:
        """The trick search's deals; with ``infer`` (and no Chicago declared, where the
        models of :mod:`chicago.bots.playmodel` do not describe the play), ``pool`` times as
        many deals, of which ``samples`` are kept, drawn in proportion to how well each
        explains the cards the opponents played (``infer=1``: :func:`~chicago.bots.
        playmodel.play_weight`; 2: :func:`~chicago.bots.playmodel.policy_weights`; 3:
        :func:`~chicago.bots.playerkinds.kind_weights`), each weight raised to the power
        ``soft`` first (:func:`tempered_weights`). With ``cap``, the pool grows by
        ``samples`` deals at a time while the effective number of worlds
        (:func:`~chicago.bots.playmodel.effective_count`) is below ``fit`` times ``samples``,
        up to ``cap`` times ``samples`` deals: a count, never a time, so a seed fixes it.
        ``cap`` given here overrides the option for this search (``rulescap``); ``count``,
        the worlds yielded, overrides ``samples`` there (``replies``: the pool dealt and the
        effective count aimed at stay ``samples``'s)."""
        cap = self.cap if cap is None else cap
        plays = observed_plays(k) if self.infer and declarer is None else []
        tilted = bool(self.tilt) and self.infer == 3 and declarer is None
        if (not plays and not tilted) or (self.pool <= 1 and not cap):
            if count is None:
                yield from super()._positions(k, rng, declarer)
                return
            table = tuple(card for _, card in k.trick)
            for _ in range(count):
                yield Position(tuple(self._sample(k, rng)), k.leader, table, declarer)
            return
        dealt, weights = self._pool(k, rng, plays, cap)
        leader = k.leader
        table = tuple(card for _, card in k.trick)
        factor, steps = self._walker(k, plays)
        for index in resample(weights, self.samples if count is None else count, rng):
            hands = dealt[index]
            if factor is not None:
                hands = walk(k, hands, steps, factor, rng)
            yield Position(tuple(hands), leader, table, declarer)

    def _pool(
        self, k: Knowledge, rng: random.Random, plays: Sequence[Play], cap: int,
    ) -> tuple[list[list[int]], list[float]]:
        """The dealt pool of the trick search with ``infer`` and its weights
        (:meth:`_play_weights`): ``pool`` times ``samples`` deals, grown with ``cap`` by
        ``samples`` at a time while the effective number of worlds is below ``fit`` times
        ``samples``, up to ``cap`` times ``samples`` (:meth:`_positions`). With ``draws``,
        the dealing stops early once ``samples`` deals are dealt and the deals have taken
        ``draws`` random draws or more (with ``cap``, ``draws`` times ``cap`` / ``pool``:
        the same budget per deal; :class:`~chicago.bots.drawcount.CountingRandom`, which
        leaves ``rng`` where dealing from it would have): the same deals as without the
        budget up to there, fewer after. ``note`` then says how many were dealt."""
        if self.tiltdraw:
            drawn, drawn_weights = self._tilt_pool(k, rng, self.samples * self.pool)
            plays_weights = self._play_weights(k, drawn, plays)
            self.pool_dealt = len(drawn)
            return drawn, [w * p for w, p in zip(drawn_weights, plays_weights, strict=True)]
        dealt: list[list[int]] = []
        with DrawBudget(rng, self.draws * max(self.pool, cap) // self.pool) as budget:

            def deal(count: int) -> list[list[int]]:
                out: list[list[int]] = []
                while len(out) < count and budget.allows(len(dealt) + len(out), self.samples):
                    out.append(self._sample(k, budget.source))
                return out

            dealt = deal(self.samples * self.pool)
            weights = self._play_weights(k, dealt, plays)
            if cap:
                limit = self.samples * cap
                wanted = self.fit * self.samples
                while (not budget.cut and len(dealt) < limit
                       and effective_count(weights) < wanted):
                    more = deal(min(self.samples, limit - len(dealt)))
                    dealt += more
                    weights += self._play_weights(k, more, plays)
        self._note_cut(budget, len(dealt))
        self.pool_dealt = len(dealt)
        return dealt, weights

    def _note_cut(self, budget: DrawBudget, dealt: int) -> None:
        """Where the budget of draws cut a pool short, ``note`` says how many worlds were
        dealt (the first such pool of a decision)."""
        if budget.cut and self.note is None:
            self.note = float(dealt)

    def _tilt_pool(
        self, k: Knowledge, rng: random.Random, count: int,
    ) -> tuple[list[list[int]], list[float]]:
        """With ``tiltdraw``: ``count`` worlds dealt from the tilted law
        (:class:`~chicago.bots.tiltdraw.TiltDrawer`, each opponent's factor
        ``exp(soft × tilt × Σ L[rank])`` by its chance of the rules model) and each one's
        importance weight (the drawer's, for the constrained opponents' tilt) times the
        hand-made plausibility of each opponent's hand the engine's sampler would weigh (no
        claim that holds, no shown hand), as :meth:`_plain_sample` deals by it. The play
        likelihood is :meth:`_play_weights`'s, applied by :meth:`_pool`. With ``draws``,
        the dealing stops early once ``samples`` worlds are dealt and the deals have taken
        ``draws`` random draws or more, as :meth:`_pool`'s does (``note`` says how many)."""
        seats = sorted(k.opponents)
        logs = {seat: seat_log_factors(self._kinds.get(seat, self.prior)[0],
                                       self.soft * self.tilt) for seat in seats}
        drawer = TiltDrawer(k, logs)
        weighed = [] if not self.weighted else [
            opp for opp in (k.opponents[seat] for seat in seats)
            if not (opp.claim is not None and opp.holding + len(opp.played) == 5)
            and not (opp.shown and opp.kept_from_shown is not None)]
        dealt: list[list[int]] = []
        weights: list[float] = []
        with DrawBudget(rng, self.draws) as budget:
            while len(dealt) < count and budget.allows(len(dealt), self.samples):
                hands, weight = drawer.deal(budget.source)
                for opp in weighed:
                    weight *= hand_weight(k, opp, [*map(int, opp.played),
                                                   *ids_of_mask(hands[opp.seat])])
                dealt.append(hands)
                weights.append(weight)
        self._note_cut(budget, len(dealt))
        if not any(w > 0 for w in weights):
            weights = [1.0] * len(weights)
        return dealt, weights

    def _chicago_shares(self, k: Knowledge, rng: random.Random) -> tuple[float, float]:
        """The expert's shares of sure Chicagos and sure last tricks; with ``tiltcall``
        on ``samples`` worlds resampled from ``pool`` times as many dealt from the tilted
        law (:meth:`_tilt_pool`, no plays to read yet)."""
        if not self.tiltcall:
            return super()._chicago_shares(k, rng)
        dealt, weights = self._tilt_pool(k, rng, self.samples * self.pool)
        leader = k.seat if k.rules.chicago_caller_leads else k.leader
        made = lasts = 0
        for index in resample(weights, self.samples, rng):
            chicago, last = sure_outcomes(k, dealt[index], leader)
            made += chicago
            lasts += last
        return made / self.samples, lasts / self.samples

    def _walker(self, k: Knowledge, plays: Sequence[Play]) -> tuple[Factor | None, int]:
        """The factor and the number of trades by which each world resampled from the pool
        is moved before it is searched (None: searched as dealt). With ``tiltdeal``: the
        chain's factor (:meth:`_chain_factor`, every table) times each opponent's tilt,
        ``exp(tilt × Σ L[rank])`` over the cards it holds
        (:func:`~chicago.bots.ranktilt.seat_log_factors`), under the same power ``soft``,
        and ``tiltdeal`` trades: the pool is weighed without the tilt (:meth:`_play_weights`)
        and the trades carry each world towards the tilted law, the pool's law times the
        tilt. Else ``chain``'s factor and trades."""
        if not self.tiltdeal:
            return self._chain_factor(k, plays), self.chain
        base = self._chain_factor(k, plays, always=True)
        assert base is not None
        seats = sorted(k.opponents)
        logs = {seat: seat_log_factors(self._kinds.get(seat, self.prior)[0], self.tilt)
                for seat in seats}
        soft = self.soft
        memo: dict[tuple[int, int], float] = {}

        def factor(seat: int, held: int) -> float:
            value = memo.get((seat, held))
            if value is None:
                table = logs[seat]
                value = math.exp(soft * sum(table[card] for card in ids_of_mask(held)))
                value *= base(seat, held)
                memo[(seat, held)] = value
            return value

        return factor, self.tiltdeal

    def _chain_factor(
        self, k: Knowledge, plays: Sequence[Play], always: bool = False,
    ) -> Factor | None:
        """With ``chain``, where at least one opponent who played this deal is a player of
        the rules of thumb by the game's earlier deals (``infer=3``'s chance of that model
        at least :data:`_CHAIN_RULES`): each opponent's factor of a world's weight for the
        Metropolis–Hastings trades of :func:`~chicago.bots.worldchain.walk` — its mixture
        likelihood (:class:`~chicago.bots.playerkinds.KindScorer`) times the expert's
        plausibility of its hand after its last exchange, raised to ``soft``. None: the
        resampled worlds are searched as dealt. ``always``: the factor at every table, the
        chain on or off (``tiltdeal``'s, :meth:`_walker`)."""
        if (not self.chain and not always) or self.play_policy is None or self.infer != 3:
            return None
        scorer = KindScorer(plays, self._kinds, self.play_policy, self.eps, k.players,
                            self.prior)
        if not always and not any(self._kinds.get(seat, self.prior)[0] >= _CHAIN_RULES
                                  for seat in scorer.seats):
            return None
        played = {seat: [int(c) for c in opp.played] for seat, opp in k.opponents.items()}
        weighted = self.weighted and not self.learned
        soft = self.soft
        exrule = self.exrule or self.annrule

        def factor(seat: int, held: int) -> float:
            value = scorer.factor(seat, held)
            if (weighted or exrule) and value > 0:
                cards = [*played[seat], *ids_of_mask(held)]
                plain = hand_weight(k, k.opponents[seat], cards) if weighted else 1.0
                value *= self._rule_weight(k, seat, cards, plain) if exrule else plain
            return value if soft == 1 else value ** soft

        return factor

    def _rule_weight(self, k: Knowledge, seat: int, cards: Sequence[int], plain: float) -> float:
        """With ``exrule``: the weight of ``cards`` (held and played) as ``seat``'s hand
        after its last exchange, in place of ``plain`` (the hand-made plausibility, or 1
        unweighted): with ``r`` its chance of the rules model by the game's earlier deals,
        ``r`` × (1 if ``basic``'s exchange rule could have left the hand, else
        :data:`_EXRULE_FLOOR`) + (1 - ``r``), times ``plain`` (``exrule=1``), or ``r`` ×
        that + (1 - ``r``) × ``plain`` (``exrule=2``). ``plain`` for an opponent not seen
        in an earlier deal or a hand the rule says nothing of
        (:func:`~chicago.bots.exchangerule.opponent_fits`). With ``annrule``, a hand the
        exchange rule explains (or does not read) also needs an earlier hand that would have
        said the opponent's word before its last exchange
        (:func:`~chicago.bots.announcerule.opponent_word_fits`), else it weighs as one the
        rule could not have left; alone, ``annrule`` weighs as ``exrule=1`` does, by the
        word only."""
        kinds = self._kinds.get(seat)
        if kinds is None:
            return plain
        fits = self._rule_fit(k, seat, cards)
        if fits is None:
            return plain
        rules = kinds[0]
        rule = 1.0 if fits else _EXRULE_FLOOR
        if self.exrule != 2:
            return plain * (rules * rule + 1.0 - rules)
        return rules * rule + (1.0 - rules) * plain

    def _rule_fit(self, k: Knowledge, seat: int, cards: Sequence[int]) -> bool | None:
        """Whether ``cards`` (held and played) can be ``seat``'s hand after its latest
        exchange by ``basic``'s exchange rule (``exrule``) and, where that explains it or
        says nothing, its word before that exchange (``annrule``); None where neither
        reads the hand."""
        opp = k.opponents[seat]
        fits = (opponent_fits(k, opp, cards, self._rule_memo, kept=bool(self.exkept))
                if self.exrule else None)
        if self.annrule and fits is not False:
            said = opponent_word_fits(k, opp, cards, self._words.get(seat), self._kept_memo)
            if said is not None:
                fits = said
        return fits

    def _rule_weights(
        self, k: Knowledge, dealt: Sequence[list[int]], weights: Sequence[float],
    ) -> list[float]:
        """``weights`` of the ``dealt`` worlds times, per opponent seen in an earlier deal,
        its :meth:`_rule_weight` over the weight the worlds were dealt by (the hand-made
        plausibility when ``weighted``, else 1): the worlds reweighed as if dealt by the
        rule's weight."""
        seats = [seat for seat in sorted(k.opponents) if seat in self._kinds]
        if not seats:
            return list(weights)
        weighted = self.weighted and not self.learned
        played = {seat: [int(c) for c in k.opponents[seat].played] for seat in seats}
        out: list[float] = []
        for hands, weight in zip(dealt, weights, strict=True):
            for seat in seats:
                if weight <= 0:
                    break
                cards = [*played[seat], *ids_of_mask(hands[seat])]
                plain = hand_weight(k, k.opponents[seat], cards) if weighted else 1.0
                if plain > 0:
                    weight *= self._rule_weight(k, seat, cards, plain) / plain
            out.append(weight)
        return out

    def _play_weights(
        self, k: Knowledge, dealt: Sequence[list[int]], plays: Sequence[Play],
    ) -> list[float]:
        """How well each dealt world explains the opponents' ``plays`` (``infer``'s model),
        raised to the power ``soft``."""
        if self.play_policy is not None and self.infer == 3:
            weights = kind_weights(dealt, plays, self._kinds, self.play_policy, self.eps,
                                   k.players, self.prior)
            if (self.exrule or self.annrule) and not self.dealrule:
                weights = self._rule_weights(k, dealt, weights)
            if self.tilt and not self.tiltdeal and not self.tiltdraw:
                seats = sorted(k.opponents)
                rules = {seat: self._kinds.get(seat, self.prior)[0] for seat in seats}
                weights = [w * t for w, t in zip(
                    weights, rank_tilt_weights(dealt, seats, rules, self.tilt), strict=True)]
        elif self.play_policy is not None:
            weights = policy_weights(dealt, plays, self.play_policy, k.players)
        else:
            weights = [play_weight(hands, plays, self.miss) for hands in dealt]
        return tempered_weights(weights, self.soft)

    def _worlds(
        self, k: Knowledge, plan: Plan, options: Sequence[Option], rng: random.Random,
        count: int, exclude: int = 0,
    ) -> list[list[tuple[float, float]]]:
        """The options' (value, last-trick points) on each of ``count`` worlds (cards of
        ``exclude`` are in no draw queue: a face-up card on the table)."""
        unseen = mask_of(k.unseen) & ~exclude
        utility = self._utility(k)
        out = []
        for _ in range(count):
            hands = self._sample(k, rng)
            taken = 0
            for hand in hands:
                taken |= hand
            if taken & exclude:  # the sampler does not know the face-up card is on the table
                free = ids_of_mask(unseen & ~taken)
                for seat, hand in enumerate(hands):
                    if hand & exclude and free:
                        swap = free.pop(rng.randrange(len(free)))
                        hands[seat] = (hand & ~exclude) | 1 << swap
                        taken = (taken & ~exclude) | 1 << swap
            world = make_world(hands, ids_of_mask(unseen & ~taken), k.players, rng)
            out.append(value_options(plan, world, options, utility))
        return out

    def _better(
        self, k: Knowledge, plan: Plan, options: Sequence[Option],
        base: Callable[[list[list[tuple[float, float]]]], int], rng: random.Random,
        exclude: int = 0,
    ) -> int:
        """The option that plays out best, if it beats the rule-of-thumb choice ``base(rows)``
        clearly: by ``z`` standard errors of the paired difference over the worlds (more
        worlds, up to ``4 × worlds``, while it is close); else the rule of thumb. The search
        overrules a sound estimate only when it is sure, so the noise of a few dozen worlds
        does not pick a hold at random."""
        rows = self._worlds(k, plan, options, rng, self.worlds, exclude)
        while True:
            choice = base(rows)
            best, margin, error = _best_against(rows, choice)
            self.note = None if best == choice else margin / error if error else math.inf
            if best == choice or margin > self.z * error:
                return best
            if len(rows) >= 4 * self.worlds or margin < 0.5 * self.z * error:
                return choice
            rows += self._worlds(k, plan, options, rng, self.worlds, exclude)

    # ------------------------------------------------------------------ the score situation
    def _race(self, k: Knowledge) -> Race | None:
        """The race model of these rules (:mod:`chicago.bots.race`), or None where it does
        not describe the game: ``score=0``, a deal limit, a Chicago required to win
        (V-CHI-REQ3, V-CHI-DECLARED), V-WIN-AGAIN, instant wins."""
        rules = k.rules
        if (not self.score or rules.max_deals is not None or rules.win_again
                or rules.chicago_required != "none" or rules.straight_flush_wins
                or rules.royal_wins):
            return None
        return race_for(rules.target, rules.lock_at)

    def _utility(self, k: Knowledge) -> Utility | None:
        """What a deal's points are worth: the chance to win the game from the scores they
        lead to (None: points, the bot's less the others' average)."""
        race = self._race(k)
        if race is None:
            return None
        scores = list(k.scores)
        seat = k.seat

        def utility(points: list[float]) -> float:
            return race.win_chance([s + p for s, p in zip(scores, points, strict=True)], seat)

        return utility

    def _declare(self, k: Knowledge, p: float, q: float) -> bool:
        """Declare Chicago when it raises the chance to win the game: a made Chicago
        (``p`` of the deals, a little less in real play) against a failed one, compared
        with keeping the last trick (``q``); the expert's rule where the race model does not
        apply, and every rule that makes a Chicago due."""
        race = self._race(k)
        if race is None or not self.phases.call or chicago_is_due(k, p):
            return super()._declare(k, p, q)
        rules = k.rules
        seat = k.seat
        loss = rules.chicago_points if rules.negative_scores else min(
            rules.chicago_points, k.scores[seat])

        def chance(points: int) -> float:
            scores = list(k.scores)
            scores[seat] += points
            return race.win_chance(scores, seat)

        made = p * _REAL_PLAY
        call = made * chance(rules.chicago_points) + (1 - made) * chance(-loss)
        keep = q * chance(rules.last_trick_points) + (1 - q) * chance(0)
        return p >= _CALL_FLOOR and call > keep

    def _quads(self, k: Knowledge, legal: Sequence[Action]) -> Action | None:
        """V-QUADS-RESET / V-QUADS-ONE / V-QUADS-52: the choice that leaves the best chance to
        win the game (None: the rule of thumb)."""
        race = self._race(k)
        choices = [a for a in legal if a.kind in (_K.RESET, _K.SCORE)]
        if race is None or len(choices) < 2:
            return None
        rules = k.rules
        seat = k.seat

        def after(action: Action) -> float:
            scores = list(k.scores)
            if action.kind is _K.SCORE:
                if rules.quads_to_target:
                    scores[seat] = max(scores[seat], rules.target)
                else:
                    scores[seat] += rules.points_for(Category.FOUR_OF_A_KIND)
            else:
                for other in range(k.players):
                    if other != seat and action.target in (None, other):
                        scores[other] = 0
            return race.win_chance(scores, seat)

        return max(choices, key=after)

    # ------------------------------------------------------------------ trick play
    def _exploiting(self, k: Knowledge) -> bool:
        """Whether to play the best reply to the rules of thumb (``exploit=1``): no Chicago
        declared (the rules of thumb do not describe a defence against one) and every
        opponent — all of them play to the end of the deal — a rules player with a chance of
        at least ``trust`` by the game's earlier deals (``infer=3``'s posterior, read from
        the view's history). A table with one opponent below it keeps the trick search."""
        if not self.exploit or k.declarer is not None:
            return False
        return self._rules_table(k)

    def _rules_table(self, k: Knowledge) -> bool:
        """Whether every opponent is a player of the rules of thumb with a chance of at
        least ``trust`` by the game's earlier deals (``infer=3``'s posterior, read from the
        view's history at this decision)."""
        others = [seat for seat in range(k.players) if seat != k.seat]
        return all(seat in self._kinds and self._kinds[seat][0] >= self.trust
                   for seat in others)

    def _play(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        """The trick search's card; with ``exploit=1`` against a table of rules players
        (:meth:`_exploiting`), the best reply to their rules of thumb: on the same weighed
        worlds the search would use, a card is worth the last trick's points in every world
        where, after it, the bot wins the last trick with its best cards while each opponent
        plays its rules card from its hand there (:func:`~chicago.bots.model.model_moves`,
        ``basic``'s card in every position checked), or more where the solver makes sure of
        a deuce's bonus (V-DEUCE); the highest total wins, and between equals the card the
        trick search scores highest on those worlds."""
        cards = [a.card for a in legal if a.kind is _K.PLAY]
        if (len(cards) >= 2 and self.rulescall and k.declarer == k.seat
                and self._rules_table(k)):
            return self._rules_chicago_play(k, cards, rng)
        if (len(cards) >= 2 and self.infoset and k.declarer is None
                and not k.rules.deuce_bonus and self._rules_table(k)):
            return self._infoset_play(k, cards, rng)
        if len(cards) < 2 or not self._exploiting(k):
            return super()._play(k, legal, rng)
        positions = list(self._positions(k, rng, None, count=self.replies) if self.replies
                         else self._positions(k, rng, None))
        totals = dict.fromkeys(cards, 0.0)
        seen: dict[tuple[int, ...], dict[Card, int]] = {}
        for position in positions:
            values = seen.get(position.hands)
            if values is None:
                values = seen[position.hands] = self._reply_values(k, position)
            for card, value in values.items():
                totals[card] += value
        best = max(totals.values())
        tied = [card for card in cards if totals[card] >= best - 1e-9]
        if len(tied) == 1:
            return Action.play(tied[0])
        scores = self._card_scores(k, cards, positions[: self.samples])
        return Action.play(best_card({c: scores[c] for c in tied}, ev_play(k, cards)))

    def _infoset_play(self, k: Knowledge, cards: Sequence[Card], rng: random.Random) -> Action:
        """The card against a table of rules players with ``infoset=1`` (no Chicago
        declared, no V-DEUCE): on the worlds the trick search would weigh (the same draws),
        each card's last-trick points when the others play their rules cards and the bot
        chooses each later card once for all the worlds it cannot tell apart
        (:func:`~chicago.bots.infoset.infoset_values`); the highest total wins, and between
        equals the card the trick search scores highest on those worlds."""
        positions = list(self._positions(k, rng, None))
        played = [int(card) for _, card in k.trick]
        values = infoset_values([p.hands for p in positions], k.seat, k.leader, played,
                                points=k.rules.last_trick_points)
        totals = {card: values[int(card)] for card in cards}
        best = max(totals.values())
        tied = [card for card in cards if totals[card] >= best - 1e-9]
        if len(tied) == 1:
            return Action.play(tied[0])
        scores = self._card_scores(k, cards, positions)
        return Action.play(best_card({c: scores[c] for c in tied}, ev_play(k, cards)))

    def _rules_chicago_play(
        self, k: Knowledge, cards: Sequence[Card], rng: random.Random
    ) -> Action:
        """The declarer's card in its own Chicago against a table of rules players
        (``rulescall=1``): on the worlds the trick search would weigh by the opponents'
        plays this deal (they defend a Chicago by the same rules, so the rules model
        describes their plays here too), the card after which the Chicago is made against
        their rules defence (:func:`~chicago.bots.rulesdefence.rules_chicago_moves`) in the
        most worlds; between equals the card the expert's Chicago search scores highest
        (sure against any defence, :func:`~chicago.bots.solver.chicago_moves`)."""
        seat = k.seat
        worlds = (self._positions(k, rng, None, cap=self.rulescap) if self.rulescap
                  else self._positions(k, rng, None))
        positions = [Position(p.hands, p.leader, p.played, seat) for p in worlds]
        totals = dict.fromkeys(cards, 0)
        seen: dict[tuple[int, ...], dict[Card, bool]] = {}
        for position in positions:
            moves = seen.get(position.hands)
            if moves is None:
                moves = seen[position.hands] = rules_chicago_moves(position, seat)
            for card, made in moves.items():
                totals[card] += made
        best = max(totals.values())
        tied = [card for card in cards if totals[card] == best]
        if len(tied) == 1:
            return Action.play(tied[0])
        scores = self._card_scores(k, cards, positions)
        return Action.play(best_card({c: scores[c] for c in tied}, ev_play(k, cards)))

    # ------------------------------------------------------------------ the Chicago call
    def _chicago(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        """The expert's call (or the race's with ``call=1``); with ``rulescall=1`` against a
        table of rules players (:meth:`_rules_table`), the call valued against their
        defence (:meth:`_rules_shares`, :meth:`_rules_declare`)."""
        call = _find(legal, _K.CHICAGO)
        no_call = _find(legal, _K.NO_CHICAGO)
        if (call is None or no_call is None or not self.rulescall
                or not self._rules_table(k)):
            return super()._chicago(k, legal, rng)
        p, q = self._rules_shares(k, rng)
        self.note = p
        return call if self._rules_declare(k, p, q) else no_call

    def _rules_shares(self, k: Knowledge, rng: random.Random) -> tuple[float, float]:
        """On ``samples`` dealt worlds (the expert's call's): the share in which the
        Chicago is made against the rules defence (:func:`~chicago.bots.rulesdefence.
        rules_chicago_made`, the bot playing its best in each world), and the share in which
        the bot wins the last trick without a Chicago against the rules model
        (:func:`~chicago.bots.model.model_wins`)."""
        seat = k.seat
        leader = seat if k.rules.chicago_caller_leads else k.leader
        made = lasts = 0
        for _ in range(self.samples):
            hands = tuple(self._sample(k, rng))
            if rules_chicago_made(Position(hands, leader, (), seat), seat):
                made += 1
            if model_wins(Position(hands, k.leader), seat):
                lasts += 1
        return made / self.samples, lasts / self.samples

    def _rules_declare(self, k: Knowledge, p: float, q: float) -> bool:
        """Declare with a share ``p`` of Chicagos made against the rules defence and ``q``
        of last tricks won against the rules model: when ``p`` reaches ``rulesbar`` and the
        Chicago's worth (made: its points; failed: the loss and a third of the breaker's
        points) beats the last trick's by half a point, the expert's margin; also where a
        Chicago is due or the bot is desperate, as the expert."""
        rules = k.rules
        loss = rules.chicago_points if rules.negative_scores else min(
            rules.chicago_points, k.scores[k.seat])
        gain = p * rules.chicago_points - (1 - p) * (loss + rules.chicago_breaker_points / 3)
        keep = q * rules.last_trick_points
        if (desperate(k) and p >= 0.4) or chicago_is_due(k, p):
            return True
        return p >= self.rulesbar and gain > keep + 0.5

    def _reply_values(self, k: Knowledge, position: Position) -> dict[Card, int]:
        """Per legal card in one world: the last trick's points the bot ends with after it
        against opponents of the rules of thumb (:func:`~chicago.bots.model.model_moves`),
        under V-DEUCE the solver's sure points where they are more (a deuce's)."""
        rules = k.rules
        points = rules.last_trick_points
        values = {card: points if wins else 0 for card, wins in model_moves(position).items()}
        if rules.deuce_bonus:
            sure = last_trick_values(position, points=points, deuce_points=2 * points)
            values = {card: max(value, sure[card]) for card, value in values.items()}
        return values

    def _sure_values(self, k: Knowledge, positions: Sequence[Position]) -> list[dict[Card, int]]:
        """The expert's sure last-trick points per deal and card, less strategy fusion: with
        three or four cards left, a card counts as sure in a deal only if the bot still wins
        there when it must choose its next card without seeing the deal — one card for all the
        deals in which the others played the same cards (their replies chosen, deal by deal,
        to stop it where they can)."""
        values = super()._sure_values(k, positions)
        if positions and 3 <= len(k.hand) <= self.alphamu:
            return self._alphamu_values(k, positions, values)
        if len(k.hand) not in (3, 4) or not positions or not self.phases.fusion:
            return values
        coarse = self.phases.fusion >= 2
        sure = _fusion_free(k.seat, positions, list(values[0]), coarse=coarse)
        # fusion=2: a card sure only for a bot that sees the deal is worth nothing there
        # (_FUSED), not the shares for beating the model and leaving the trick open, which
        # give a deal back as much as a sure card's (0.6 + 0.4) and undo the correction
        lost = _FUSED if coarse else 0
        return [
            {card: value if sure[i][card] or not value else lost for card, value in row.items()}
            for i, row in enumerate(values)
        ]

    def _alphamu_values(
        self, k: Knowledge, positions: Sequence[Position], values: list[dict[Card, int]],
    ) -> list[dict[Card, int]]:
        """``alphamu``: per deal and card, the sure points that the bot keeps when its later
        cards are chosen once for all the deals that look the same to it
        (:func:`~chicago.bots.alphamu.alphamu_values`, ``amdepth`` of its decisions); a card
        that loses its sure points in a deal keeps there the shares for beating the model
        and leaving the trick open (with ``fusion=2``, nothing, as that correction's)."""
        rules = k.rules
        deuce = 2 * rules.last_trick_points if rules.deuce_bonus else None
        free = alphamu_values(positions, k.seat, points=rules.last_trick_points,
                              deuce_points=deuce, depth=self.amdepth)
        lost = _FUSED if self.phases.fusion >= 2 else 0
        return [
            {card: free[i][card] if free[i][card] or not value else lost
             for card, value in row.items()}
            for i, row in enumerate(values)
        ]

    def _add_scores(
        self, k: Knowledge, position: Position, values: dict[Card, int],
        scores: dict[Card, float], model: float | None = None,
    ) -> None:
        """The expert's value of each card in one deal; a card whose sure points the fusion
        correction took away (``fusion=2``) adds nothing. With ``block``, a card the bot is
        not sure to win the last trick with earns ``block`` times the trick's points where,
        after it, no opponent about to finish (:func:`finishing_seats`) can make sure of the
        last trick: letting such a player take it usually ends the game for it."""
        sure = {c: v for c, v in values.items() if v != _FUSED}
        # a deal the bot began locked: the model's share of its own (lockmodel=X); passed,
        # not set on the bot, so a decision never changes the bot that makes it
        if model is None and self.lock_model is not None and k.locked[k.seat]:
            model = self.lock_model
        super()._add_scores(k, position, sure, scores, model=model)
        if not self.block:
            return
        threats = finishing_seats(k)
        if not threats:
            return
        self.note = float(len(threats))
        share = self.block * k.rules.last_trick_points
        for card, value in values.items():
            if value > 0:
                continue
            after = position.play(card)
            if not any(can_win_last_trick(after, s) for s in threats):
                scores[card] += share

    # ------------------------------------------------------------------ exchanges
    def _expert_exchange(
        self, k: Knowledge, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The expert's exchange (``exchanges=0``): ``ev``'s estimates, the last exchange's
        holds searched for the last trick, the rules of thumb for one up and the redeal."""
        common = common_decision(k, legal)
        if common is not None:
            return common
        if k.phase == "exchange" and self.holds and k.round >= k.exchanges_total:
            return self._last_exchange(k, legal, rng)
        if k.phase == "exchange" and self.keepodds and len(k.hand) == 5:
            limit = max((len(a.cards) for a in legal if a.kind is _K.DISCARD), default=0)
            best: tuple[float, tuple[Card, ...]] | None = None
            for hand, trick, keep in self._holds(k, limit):
                if best is None or hand + trick > best[0] + 1e-9:
                    best = (hand + trick, keep)
            if best is not None:
                return _discard_action(legal, k.hand, best[1])
        return ev_decision(k, legal)

    def _holds(
        self, k: Knowledge, limit: int
    ) -> list[tuple[float, float, tuple[Card, ...]]]:
        """``ev``'s holds (:func:`~chicago.bots.ev.ev_holds`); with ``keepodds=1`` each
        hold's last-trick value by ``master``'s own chances (:func:`master_trick_chance`),
        its poker estimate unchanged."""
        holds = ev_holds(k, max_discard=limit)
        if not self.keepodds:
            return holds
        weight = last_trick_weight(k)
        ace_only = self.keepodds == 2
        return [(hand, weight * master_trick_chance(keep, len(k.hand) - len(keep), ace_only),
                 keep) for hand, _, keep in holds]

    def _exchange(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        """Play out the best holds (``ev``'s estimates, the rules of thumb's) on the same
        worlds; keep the expert's choice unless another hold is clearly better."""
        limit = max((len(a.cards) for a in legal if a.kind is _K.DISCARD), default=0)
        holds = ev_holds(k, max_discard=limit)
        ranked = sorted(range(len(holds)), key=lambda i: -(holds[i][0] + holds[i][1]))
        chosen = [holds[i] for i in ranked[: self.search_holds]]
        last = k.round >= k.exchanges_total
        thumb = quick_keep([int(c) for c in k.hand], k.rules.wheel_straight, last=last)
        thumb_keep = tuple(c for c in k.hand if thumb >> c & 1)
        if 5 - len(thumb_keep) <= limit and all(set(h[2]) != set(thumb_keep) for h in chosen):
            chosen += [h for h in holds if set(h[2]) == set(thumb_keep)]
        keeps = [h[2] for h in chosen]
        if len(keeps) == 1:
            return self._discard(k, legal, keeps[0])
        plan = plan_of(k, model=self.model)
        options = [Option(kept=mask_of(keep), draw=5 - len(keep)) for keep in keeps]
        searched = min(len(chosen), int(self.holds)) if last else 0

        def expert(rows: list[list[tuple[float, float]]]) -> int:
            """The expert's hold: ``ev``'s best, or in the last exchange the best of its
            ``holds`` by ``ev``'s hand value plus the last trick played out."""
            if not searched:
                return 0
            tricks = [sum(row[i][1] for row in rows) / len(rows) for i in range(searched)]
            return max(range(searched), key=lambda i: (chosen[i][0] + tricks[i], -i))

        best = self._better(k, plan, options, expert, rng)
        return self._discard(k, legal, keeps[best])

    def _discard(
        self, k: Knowledge, legal: Sequence[Action], keep: Sequence[Card]
    ) -> Action:
        """The discard of every card not in ``keep``; one card is asked for face up when the
        rules allow (V-ONE-UP: seeing it first, the bot may refuse it)."""
        thrown = [c for c in k.hand if c not in keep]
        if len(thrown) == 1:
            for action in legal:
                if action.kind is _K.ONE_UP and action.cards == (thrown[0],):
                    return action
        return _discard_action(legal, k.hand, keep)

    def _one_up(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        """V-ONE-UP: take the face-up card or the next one, whichever plays out better (the
        rule of thumb's choice unless the search is sure)."""
        accept = _find(legal, _K.ACCEPT)
        reject = _find(legal, _K.REJECT)
        if accept is None or reject is None or k.one_up is None:
            return legal[0]
        card = int(k.one_up[1])
        held = k.hand_mask
        plan = plan_of(k, model=self.model)
        options = [Option(kept=held, draw=0, extra=1 << card), Option(kept=held, draw=1)]
        thumb = 0 if common_decision(k, legal) == accept else 1
        best = self._better(k, plan, options, lambda rows: thumb, rng, exclude=1 << card)
        return accept if best == 0 else reject

    def _redeal(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        """V-REDEAL-LOW: keep the hand or draw five new cards, whichever plays out better
        (the rule of thumb's choice unless the search is sure)."""
        redeal = _find(legal, _K.REDEAL)
        keep = next((a for a in legal if a.kind is not _K.REDEAL), None)
        if redeal is None or keep is None or len(k.hand) != 5:
            return legal[0]
        plan = plan_of(k, next_round=1, model=self.model)
        options = [Option(kept=k.hand_mask, draw=0), Option(kept=0, draw=5)]
        thumb = 1 if common_decision(k, legal) == redeal else 0
        best = self._better(k, plan, options, lambda rows: thumb, rng)
        return redeal if best == 1 else keep

    # ------------------------------------------------------------------ announcements
    def _announce(self, k: Knowledge, legal: Sequence[Action], rng: random.Random) -> Action:
        """Announce or pass, whichever the deals say is worth more: announcing wins the
        round's points where the hand is the best of those that may still announce, passing
        leaves the round to the best of the others. Valued in points (the bot's less the
        others' average), not by the race model: the scores right after a scoring round are
        not where the deal ends (the later round, the last trick and the showdown still move
        them, and the lock reads the score at the start of the next deal, R-EX-5), and the
        race's chance there dips just above the lock (46 in pagat: 0.41 against 0.61 at 45),
        so valued by it the search passed made hands to stay below the lock — three of a
        kind, straights, a full house — and lost 3 to 12 points each (docs/BOTS.md).
        Announcing must beat passing by ``hide`` points while exchanges remain (what it
        tells the others)."""
        announce = _find(legal, _K.ANNOUNCE)
        passing = _find(legal, _K.PASS)
        if announce is None or passing is None or len(k.hand) != 5:
            return announce or passing or legal[0]
        utility = points_utility_of(k)
        hide = self.hide if k.exchanges_left > 0 else 0.0
        gain = 0.0
        rounds = self._round_results(k, rng)
        for said, unsaid in rounds:
            gain += utility(said) - utility(unsaid)
        self.note = gain / len(rounds) - hide
        return announce if gain / len(rounds) > hide else passing

    def _round_results(
        self, k: Knowledge, rng: random.Random
    ) -> list[tuple[list[float], list[float]]]:
        """On ``worlds`` deals: the points of this scoring round by seat if the bot announces
        and if it passes. Those who announced before it hold what they said; those still to
        speak announce what they hold when the rules let them (R-ANN-1); the best hand scores
        (exactly equal best hands nothing, R-ANN-3)."""
        rules = k.rules
        wheel = rules.wheel_straight
        mine = rank([int(c) for c in k.hand], wheel)
        after = k.to_speak_after()
        said = [seat for seat, opp in k.opponents.items()
                if opp.announcements.get(k.round) is not None]
        floor = max((int(k.opponents[s].announcements[k.round] or 0) for s in said), default=0)
        out = []
        for _ in range(self.worlds):
            hands = self._sample(k, rng)
            values = {}
            for seat in (*said, *after):
                if hands[seat].bit_count() == 5:
                    values[seat] = rank(ids_of_mask(hands[seat]), wheel)
            out.append((
                _round_points(rules, k.players, {**_speaking(values, after, max(
                    floor, mine >> 20)), k.seat: mine}),
                _round_points(rules, k.players, _speaking(values, after, floor)),
            ))
        return out

def finishing_seats(k: Knowledge) -> tuple[int, ...]:
    """The opponents whom the last trick's points would take to the target (none under a
    deal limit, where the target does not end the game)."""
    rules = k.rules
    if rules.max_deals is not None:
        return ()
    return tuple(s for s in range(k.players) if s != k.seat
                 and k.scores[s] + rules.last_trick_points >= rules.target)


def master_trick_chance(kept: Sequence[Card], drawn: int, ace_only: bool = False) -> float:
    """The chance that ``master`` wins the last trick with ``kept`` and ``drawn`` cards
    still to come, as :func:`chicago.bots.ev.last_trick_chance` reckons it, by ``master``'s
    own chances per card (:data:`MASTER_CARD_CHANCE`) instead of ``ev``'s; ``ace_only``:
    ``ev``'s chances but an ace's (``keepodds=2``)."""
    if ace_only:
        aces = sum(1 for card in kept if card.rank == 14)
        rest = [card for card in kept if card.rank != 14]
        miss = (1 - last_trick_chance(rest, drawn)) * (1 - MASTER_CARD_CHANCE[14]) ** aces
        return 1 - miss
    miss = 1.0
    for card in kept:
        miss *= 1 - MASTER_CARD_CHANCE.get(card.rank, MASTER_OTHER_CHANCE)
    miss *= (1 - MASTER_DRAWN_CHANCE) ** drawn
    return 1 - miss


def points_utility_of(k: Knowledge) -> Utility:
    """The bot's points less the average of the others' (where the race model does not
    apply)."""
    seat, share = k.seat, 1.0 / max(1, k.players - 1)

    def utility(points: list[float]) -> float:
        return points[seat] - share * (sum(points) - points[seat])

    return utility


def _speaking(values: dict[int, int], after: Sequence[int], floor: int) -> dict[int, int]:
    """The hands that take part in the round: those announced before, and those of the
    players still to speak whose category reaches ``floor`` (the others may only pass)."""
    return {s: v for s, v in values.items() if s not in after or v >> 20 >= floor}


def _round_points(rules: Rules, players: int, hands: dict[int, int]) -> list[float]:
    """Points by seat of a scoring round between ``hands`` (seat -> poker value)."""
    points = [0.0] * players
    if not hands:
        return points
    best = max(hands.values())
    if rules.tie_mode == "category":
        ties = sum(1 for v in hands.values() if v >> 20 == best >> 20)
    else:
        ties = sum(1 for v in hands.values() if v == best)
    if ties == 1:
        winner = next(s for s, v in hands.items() if v == best)
        category = best >> 20
        points[winner] = float(rules.points[category if category < 9 or rules.royal_separate
                                            else 8])
    return points


def tempered_weights(weights: Sequence[float], power: float) -> list[float]:
    """``weights`` raised to ``power`` (``soft``): 1 leaves them as they are, a power below
    1 flattens them (a product of many chances then keeps more distinct worlds after the
    resampling), 0 makes every world with a weight alike. A world of weight 0 (one the
    likelihood rules out) stays at 0 whatever the power."""
    if power == 1:
        return list(weights)
    return [w ** power if w > 0 else 0.0 for w in weights]


def _fusion_free(me: int, positions: Sequence[Position], cards: Sequence[Card],
                 coarse: bool = False) -> list[dict[Card, bool]]:
    """Per deal and card of ``me`` (the seat to act): whether ``me`` wins the last trick for
    sure after playing it when its next choice must be one card for every deal that looks the
    same to it. In each deal the others reply, until ``me`` plays again, with their lowest
    card that stops it (their lowest card if none can); the deals are grouped by those
    replies, and in each group the next card that is sure in the most deals is taken.

    ``coarse``: deals whose replies differ only in what does not matter to the bot's own
    cards share a group — a reply counts by its suit and by how many of the bot's cards of
    that suit it outranks (with a few dozen deals the exact replies almost never repeat, so
    exact groups are single deals and correct nothing)."""
    sure: list[dict[Card, bool]] = [{} for _ in positions]
    for card in cards:
        groups: dict[tuple[Card, ...], list[tuple[int, dict[Card, bool] | bool]]] = {}
        for index, position in enumerate(positions):
            after = position.play(card)
            seen: list[Card] = []
            while not after.is_over and after.to_act != me:
                moves = last_trick_moves(after, me)
                stopping = [c for c, ok in moves.items() if not ok]
                reply = min(stopping) if stopping else min(moves)
                seen.append(_coarse(reply, after.hands[me]) if coarse else reply)
                after = after.play(reply)
            result: dict[Card, bool] | bool = (
                after.leader == me if after.is_over else last_trick_moves(after)
            )
            groups.setdefault(tuple(seen), []).append((index, result))
        for members in groups.values():
            nexts = [r for _, r in members if isinstance(r, dict)]
            choice = None
            if nexts:
                options = sorted(nexts[0])
                choice = max(options, key=lambda c: (sum(1 for r in nexts if r.get(c)), -c))
            for index, result in members:
                if isinstance(result, bool):
                    sure[index][card] = result
                else:
                    sure[index][card] = choice is not None and bool(result.get(choice))
    return sure


def _coarse(card: Card, hand: int) -> Card:
    """``card`` as the bot (holding ``hand``) tells it apart: a stand-in of the same suit
    that outranks exactly as many of the bot's cards of that suit."""
    suit = card & 3
    below = sum(1 for mine in ids_of_mask(hand) if mine & 3 == suit and mine < card)
    return Card(below * 4 + suit)


def _best_against(rows: list[list[tuple[float, float]]], base: int) -> tuple[int, float, float]:
    """The option with the best mean value over ``rows`` (worlds), its mean margin over
    option ``base`` and the standard error of that margin (paired by world)."""
    count = len(rows)
    means = [sum(row[i][0] for row in rows) / count for i in range(len(rows[0]))]
    best = max(range(len(means)), key=lambda i: (means[i], i == base, -i))
    if best == base or count < 2:
        return best, means[best] - means[base], 0.0
    diffs = [row[best][0] - row[base][0] for row in rows]
    mean = sum(diffs) / count
    variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return best, mean, math.sqrt(variance / count)


def _factory(spec: str) -> MasterBot:
    options = parse_master_options(spec)
    if options.get("infer", 0) % 1:
        raise ValueError(f"option infer of {spec!r} must be 0, 1, 2 or 3")
    return MasterBot(
        worlds=int(options.get("worlds", DEFAULT_WORLDS)),
        holds=int(options.get("holds", DEFAULT_HOLDS)),
        proposals=int(options.get("proposals", DEFAULT_PROPOSALS)),
        hide=options.get("hide", DEFAULT_HIDE),
        z=options.get("z", DEFAULT_Z),
        score=bool(options.get("score", DEFAULT_SCORE)),
        learned=bool(options.get("learned", DEFAULT_LEARNED)),
        temper=options.get("temper", DEFAULT_TEMPER),
        last=int(options.get("last", DEFAULT_LAST)),
        last_holds=int(options.get("lastholds", DEFAULT_LAST_HOLDS)),
        last_model=options.get("lastmodel"),
        phases=Phases(
            exchanges=bool(options.get("exchanges", Phases.exchanges)),
            announce=bool(options.get("announce", Phases.announce)),
            call=bool(options.get("call", Phases.call)),
            fusion=int(options.get("fusion", Phases.fusion)),
        ),
        samples=int(options.get("samples", DEFAULT_SAMPLES)),
        chicago=options.get("chicago", DEFAULT_CHICAGO),
        model=options.get("model", DEFAULT_MODEL_SHARE),
        contested=options.get("contested", DEFAULT_CONTESTED),
        infer=int(options.get("infer", DEFAULT_INFER)),
        miss=options.get("miss", DEFAULT_MISS),
        pool=int(options.get("pool", DEFAULT_INFER_POOL)),
        cap=int(options.get("cap", DEFAULT_INFER_CAP)),
        fit=options.get("fit", DEFAULT_INFER_FIT),
        soft=options.get("soft", DEFAULT_INFER_SOFT),
        eps=options.get("eps", DEFAULT_EPS),
        prior=options.get("prior", DEFAULT_PRIOR),
        exploit=bool(options.get("exploit", DEFAULT_EXPLOIT)),
        trust=options.get("trust", DEFAULT_TRUST),
        chain=int(options.get("chain", DEFAULT_CHAIN)),
        replies=int(options.get("replies", DEFAULT_REPLIES)),
        rulescall=bool(options.get("rulescall", DEFAULT_RULES_CALL)),
        rulesbar=options.get("rulesbar", DEFAULT_RULES_BAR),
        rulescap=int(options.get("rulescap", DEFAULT_RULES_CAP)),
        alphamu=int(options.get("alphamu", DEFAULT_ALPHAMU)),
        amdepth=int(options.get("amdepth", DEFAULT_AMDEPTH)),
        exrule=int(options.get("exrule", DEFAULT_EXRULE)),
        annrule=int(options.get("annrule", DEFAULT_ANNRULE)),
        infoset=int(options.get("infoset", DEFAULT_INFOSET)),
        exkept=int(options.get("exkept", DEFAULT_EXKEPT)),
        dealrule=int(options.get("dealrule", DEFAULT_DEALRULE)),
        tries=int(options.get("tries", DEFAULT_TRIES)),
        keepodds=int(options.get("keepodds", DEFAULT_KEEPODDS)),
        block=options.get("block", DEFAULT_BLOCK),
        draws=int(options.get("draws", DEFAULT_DRAWS)),
        lock_model=options.get("lockmodel"),
        tilt=options.get("tilt", DEFAULT_TILT),
        tiltdeal=int(options.get("tiltdeal", DEFAULT_TILT_DEAL)),
        tiltdraw=int(options.get("tiltdraw", DEFAULT_TILT_DRAW)),
        tiltcall=int(options.get("tiltcall", DEFAULT_TILT_CALL)),
    )


register_bot("master", _factory)
