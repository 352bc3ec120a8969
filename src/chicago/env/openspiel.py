"""Chicago as an OpenSpiel game, ``python_chicago`` (extra ``openspiel``).

Importing this module registers the game, so ``pyspiel.load_game("python_chicago")`` works::

    import pyspiel
    import chicago.env.openspiel  # registers python_chicago
    game = pyspiel.load_game("python_chicago", {"players": 4, "preset": "pagat"})

Parameters: ``players`` (2-6; 5 and 6 raise the rules' ``max_players``), ``preset`` (a
preset name), ``rules`` (rule options on top of the preset, ``"lock_at:42 one_up:true"``),
``variations`` (variation ids separated by spaces, ``"V-ONE-UP V-DEUCE"``) and
``max_deals`` (the house option that ends a game after that many deals; 0 keeps the rules'
own, which is no limit in every preset).

Chance is explicit (see :mod:`chicago.env.chance`): the first node chooses the first
dealer (outcomes 0 … players - 1), then every card a player receives is one chance node
whose outcomes are the card ids that could come, each equally likely. Player actions are
the 113 ids of :mod:`chicago.env.actions`. The returns are the settlement (R-END-2/3: money
at the rules' stake, zero-sum), given at the end of the game.

Information state: the string holds every event the player saw since the start of the game
(perfect recall); the tensor is the observation tensor plus, for every seat, whether it has
declared and made a Chicago in the game so far. Observation: :func:`~chicago.env.observation
.encode_view` of the player's view and :func:`~chicago.env.observation.view_text`. States
serialize (``pyspiel.serialize_game_and_state``) and pickle. ``resample_from_infostate``
deals the cards the player cannot see anew (:func:`chicago.env.determinize.resample`), so
OpenSpiel's ISMCTS bot can play.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from chicago.extras import require

try:  # the extra's packages; without them, say which extra installs them
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError:
    require("openspiel", "the OpenSpiel game python_chicago")  # MissingExtra naming them
    raise

from chicago.cards import DECK
from chicago.engine.events import ChicagoCall, ChicagoResult
from chicago.engine.viewtypes import SeatView
from chicago.env.actions import NUM_ACTIONS, action_to_index, index_to_action, legal_indices
from chicago.env.chance import ChanceTable
from chicago.env.determinize import resample
from chicago.env.observation import MAX_SEATS, OBSERVATION_SIZE, encode_view, view_text
from chicago.rules import Rules, RulesError, parse_option

__all__ = [
    "GAME_TYPE",
    "ChicagoBot",
    "ChicagoGame",
    "ChicagoObserver",
    "ChicagoState",
    "rules_of_params",
]

_DEFAULT_PARAMS: dict[str, Any] = {
    "players": 4,
    "preset": "pagat",
    "rules": "",
    "variations": "",
    "max_deals": 0,
}
_UNLIMITED_DEALS = 1000
"""Deals assumed for ``max_game_length`` when the rules set no limit (random play can
exceed it: OpenSpiel treats the length only as a bound for buffers)."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_chicago",
    long_name="Python Chicago (Swedish card game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)


def _words(text: str) -> list[str]:
    return text.replace(";", " ").replace("+", " ").split()


def rules_of_params(params: dict[str, Any]) -> tuple[Rules, int]:
    """The rules and player count of the game parameters (raises ``ValueError``).

    ``rules`` is ``"option:value option:value"`` (values are JSON scalars or plain words:
    ``"lock_at:42 one_up:true suit_order:hdsc"``); ``variations`` is variation ids separated
    by spaces (``"V-ONE-UP V-DEUCE"``). Commas and ``=`` cannot appear in an OpenSpiel game
    string, hence these forms. They are built by :meth:`Rules.build` (an option beats a
    variation; ``max_deals`` is one more option).
    """
    merged = {**_DEFAULT_PARAMS, **params}
    players = int(merged["players"])
    overrides: dict[str, Any] = {}
    for word in _words(str(merged["rules"])):
        try:
            name, value = parse_option(word, ":")
        except RulesError:
            raise ValueError(f"rules takes option:value words, not {word!r}") from None
        overrides[name] = value
    if int(merged["max_deals"]):
        overrides["max_deals"] = int(merged["max_deals"])
    rules = Rules.build(
        str(merged["preset"]), variations=_words(str(merged["variations"])), overrides=overrides
    )
    if rules.max_players < players <= MAX_SEATS:
        rules = rules.replace(max_players=players)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"these rules allow {rules.min_players}-{rules.max_players} players")
    return rules, players


def _deal_length(rules: Rules, players: int) -> int:
    """An upper bound on the history length of one deal (chance nodes and decisions)."""
    n = players
    chance = 6 * n + 5 * n * rules.exchanges + n * rules.exchanges + 5 * n
    decisions = n + 2 * n * rules.exchanges + (rules.exchanges - 1) * (n + 1) + 3 * n + 1 + 5 * n
    return chance + decisions


def _utility_bound(rules: Rules, players: int) -> float:
    """A bound on one player's money (exact for presets that cap scores near the target)."""
    best = max(rules.points)
    per_deal = (
        rules.exchanges * best
        + max(
            rules.chicago_points,
            rules.deuce_chicago_points if rules.deuce_bonus else 0,
            2 * rules.last_trick_points,
        )
        + rules.chicago_breaker_points
    )
    top = rules.target + per_deal
    factor = 2.0 if rules.negative_scores else 1.0
    return float(rules.stake * factor * top * (players - 1))


class ChicagoGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: see the module docstring for the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        self.rules, self.players = rules_of_params(params)
        deals = self.rules.max_deals or _UNLIMITED_DEALS
        bound = _utility_bound(self.rules, self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(DECK),
            num_players=self.players,
            min_utility=-bound / (self.players - 1),
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=1 + deals * _deal_length(self.rules, self.players),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> ChicagoState:
        """The start of a game: the chance node that chooses the first dealer."""
        return ChicagoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ChicagoObserver:
        """The observer of information states (perfect recall) or observations."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return ChicagoObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class ChicagoState(pyspiel.State):  # type: ignore[misc]
    """A state: the engine game plus the chance step in progress (:class:`ChanceTable`)."""

    def __init__(self, game: ChicagoGame) -> None:
        super().__init__(game)
        self.table = ChanceTable(game.rules, game.players)
        self._strings: dict[tuple[str, int], str] = {}

    # -- the OpenSpiel API ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        table = self.table
        if table.chance_kind is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert table.game is not None
        if table.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert table.game.to_act is not None
        return table.game.to_act

    def _hand(self, player: int) -> list[int]:
        assert self.table.game is not None
        return sorted(self.table.game.hands[player])

    def _legal_actions(self, player: int) -> list[int]:
        game = self.table.game
        if game is None or player != game.to_act or self.table.chance_kind is not None:
            return []
        return legal_indices(game.legal_actions(), self._hand(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each possible dealer, or each card that could come, equally likely."""
        outcomes = self.table.candidates
        p = 1.0 / len(outcomes)
        return [(int(o), p) for o in outcomes]

    def _apply_action(self, action: int) -> None:
        self._strings = {}
        if self.table.chance_kind is not None:
            self.table.apply_chance(int(action))
            return
        game = self.table.game
        assert game is not None and game.to_act is not None
        self.table.apply(index_to_action(int(action), self._hand(game.to_act)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.table.dealer is None:
                return f"dealer {action}"
            return f"card {DECK[action]}"
        try:
            return str(index_to_action(int(action), self._hand(player)))
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        """True when the game is over."""
        game = self.table.game
        return game is not None and game.is_over and self.table.chance_kind is None

    def returns(self) -> list[float]:
        """The settlement at the end (money, zero-sum), zeros before."""
        game = self.table.game
        if game is None or not game.is_over:
            return [0.0] * self.table.players
        return [float(x) for x in game.settlement()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ChicagoState:
        """A state with the same information state for ``player_id``: every card it cannot
        see dealt anew (see :mod:`chicago.env.determinize`)."""
        if self.table.chance_kind is not None or self.table.game is None:
            raise ValueError("resample from a decision node, not a chance node")
        seed = int(probability_sampler() * 2**53)
        state: ChicagoState = self.clone()
        state.table.game = resample(self.table.game, int(player_id), random.Random(seed))
        state._strings = {}
        return state

    def __str__(self) -> str:
        table = self.table
        if table.game is None:
            return f"choosing the dealer; cards chosen {len(table.chosen)}"
        game = table.game
        text = view_text(game.view(None))
        hands = " | ".join(" ".join(str(c) for c in sorted(h)) for h in game.hands)
        pending = ""
        if table.chance_kind == "card":
            step = table.pending
            told = step[1] if step is not None else None
            pending = f"; pending {told} cards " + " ".join(map(str, table.chosen))
        return f"{text}; hands {hands}; stock {game.stock_count}{pending}"

    # -- chicago's own terms -----------------------------------------------------------------
    def view(self, seat: int | None) -> SeatView:
        """The engine's view of ``seat`` (None: a spectator) at this state."""
        if self.table.game is None:
            raise ValueError("the first dealer is not chosen yet")
        return self.table.game.view(seat)

    # -- strings for the observer ----------------------------------------------------------
    def information_state_text(self, player: int) -> str:
        """Everything ``player`` saw since the start of the game, in order (perfect recall)."""
        key = ("info", player)
        cached = self._strings.get(key)
        if cached is not None:
            return cached
        table = self.table
        parts = [f"p{player}"]
        if table.game is None:
            parts.append(f"dealing, {len(table.chosen)} chosen")
        else:
            game = table.game
            parts.extend(json.dumps(e.to_json(), separators=(",", ":"))
                         for e in game.events_for(player))
            # The hand now, although the events above imply it: a resampled world
            # (resample_from_infostate) keeps only public events for the other seats.
            parts.append("hand " + " ".join(str(c) for c in sorted(game.hands[player])))
            if table.chance_kind == "card":
                step = table.pending
                assert step is not None
                who, action = step
                told = str(action) if who == player else "acted"
                parts.append(f"pending seat {who} {told}, {len(table.chosen)} cards")
        text = "\n".join(parts)
        self._strings[key] = text
        return text

    def observation_text(self, player: int) -> str:
        """What ``player`` sees now (its view, as one line of text)."""
        key = ("obs", player)
        cached = self._strings.get(key)
        if cached is None:
            game = self.table.game
            cached = "dealing" if game is None else view_text(game.view(player))
            if self.table.chance_kind == "card":
                cached += f"; dealing {len(self.table.chosen)}"
            self._strings[key] = cached
        return cached


class ChicagoBot(pyspiel.Bot):  # type: ignore[misc]
    """A chicago bot (a :func:`~chicago.bots.make_bot` spec) playing as an OpenSpiel bot.

    It decides from its seat's view and legal actions only, like at any other table, so
    chicago's bots can be matched against OpenSpiel's (``evaluate_bots``, ISMCTS …).
    """

    def __init__(self, spec: str, player_id: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from chicago.bots import make_bot

        self.bot = make_bot(spec)
        self.player_id = player_id
        self.rng = random.Random(seed)

    def step(self, state: ChicagoState) -> int:
        """The action id the chicago bot chooses at ``state``."""
        game = state.table.game
        if game is None or state.current_player() != self.player_id:
            raise ValueError(f"it is not seat {self.player_id}'s decision")
        view = game.view(self.player_id)
        action = self.bot.decide(view, game.legal_actions(), self.rng)
        return action_to_index(action, view)

    def restart_at(self, state: ChicagoState) -> None:
        """Nothing to reset: the bot reads the view every time."""

    def inform_action(self, state: ChicagoState, player_id: int, action: int) -> None:
        """Nothing to track: the bot reads the view every time."""


class ChicagoObserver:
    """OpenSpiel's observer for ``python_chicago`` (information state or observation)."""

    def __init__(self, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        size = OBSERVATION_SIZE + (2 * MAX_SEATS if self.perfect_recall else 0)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor[:OBSERVATION_SIZE]}
        if self.perfect_recall:
            self.dict["chicago_history"] = self.tensor[OBSERVATION_SIZE:].reshape(2, MAX_SEATS)

    def set_from(self, state: ChicagoState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s information in ``state``."""
        game = state.table.game
        if game is None:
            self.tensor.fill(0.0)
            return
        view = game.view(None if self.public_only else player)
        if self.public_only:
            view = dataclasses.replace(view, seat=player)
        encode_view(view, self.dict["observation"])
        if self.perfect_recall:
            history = self.dict["chicago_history"]
            history.fill(0.0)
            n = game.players
            for event in game.events:
                if isinstance(event, ChicagoCall) and event.declared:
                    history[0, (event.seat - player) % n] = 1.0
                elif isinstance(event, ChicagoResult) and event.made:
                    history[1, (event.seat - player) % n] = 1.0

    def string_from(self, state: ChicagoState, player: int) -> str:
        """The information state string (perfect recall) or the observation string."""
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


pyspiel.register_game(GAME_TYPE, ChicagoGame)
