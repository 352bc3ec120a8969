"""The leak test: every frame the server sends to a seat (and to a spectator) through whole
games is recorded — the first snapshot, updates (alone, or in the batches of a client that
asks for them), game over, rematch snapshots, replays and snapshots after reconnects, error
replies, chat, seats and presence frames — together with
the HTTP answers a player can get while the game runs, and none of it names a card that
seat may not know.

What a seat may know is computed here, independently of the server's and the engine's view
code (no ``Game.view``, ``public_state``, ``seat_state`` or ``Event.visible_to``): the engine
replays the finished game's record only to give the true state (whose hand holds which card
after every action), and :class:`Oracle` applies the rules to the actions:

- a seat knows the cards it holds and has held this deal (dealt, drawn, its own discards);
- played cards are public; so is the card turned face up by a one-up request (V-ONE-UP);
- a seat that discards a card of a combination it announced as highest in a scoring round
  shows its whole hand first (R-EX-4, ``show_on_break``): the combination is what the poker
  evaluator says it is in the true hand at the announcement; the hand shown is its true hand;
- a four of a kind that resets the scores (V-QUADS-RESET) shows those four cards;
- tie-break stages reveal ranks and suits, not cards; the final showdown shows played cards.

Knowledge starts again with each deal, but for the finished deals of a snapshot's view
(``history``, issue 30): each must hold exactly the cards played to that deal's tricks, in
order, by whom the actions say, and who declared Chicago, and is checked against that
alone. Every card named in a frame must be in what the seat
may know at that frame's sequence number (for an update that ends a deal, the events before
the new deal's ``deal`` event against the old deal, the rest against the new one; in an
error reply also the cards the seat itself sent in the refused message). Besides, every
state's own hand, discards, shown hands, face-up card and played cards must equal the
oracle's, private events must be addressed to the seat itself, and another seat's discard
must come without its cards. Table info, lobby lists and health must name no card; a
running game's record, text and replay must be 404.

The test catches a view that leaks one opponent card (the audit mutation that adds one to
the seat state's ``discarded``), which a test that trusts the engine's own view does not; so
it does a server that shows others' discards, and an engine that makes a private event
public. The oracle's rules are themselves checked against the engine's public ``show`` and
``one_up`` events in many random games, with dealt four of a kinds for the resets
(:func:`test_the_oracle_agrees_with_the_engines_public_shows`).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from server_support import UPDATES, WsPlayer, create_table, join
from starlette.testclient import TestClient

from chicago import Action, Game, Rules
from chicago.cards import Card
from chicago.engine.actions import ActionKind
from chicago.poker import Category, evaluate
from chicago.server import Settings
from chicago.server.storage import LogEntry, Store

pytestmark = pytest.mark.timeout(600)

RANKS, SUITS = "23456789TJQKA", "cdhs"

COMBINATION_SIZE = {
    Category.PAIR: 2, Category.TWO_PAIR: 4, Category.THREE_OF_A_KIND: 3,
    Category.STRAIGHT: 5, Category.FLUSH: 5, Category.FULL_HOUSE: 5,
    Category.FOUR_OF_A_KIND: 4, Category.STRAIGHT_FLUSH: 5, Category.ROYAL_FLUSH: 5,
}
"""R-EX-4: how many cards make the combination of each announced category."""


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value (strings split on spaces and commas; keys
    too)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            for word in item.replace(",", " ").replace("'", " ").replace('"', " ").split():
                if len(word) == 2 and word[0] in RANKS and word[1] in SUITS:
                    found.add(word)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _texts(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in sorted(cards)]


@dataclass
class Moment:
    """What one audience may know after some action of a game (or at its start)."""

    known: frozenset[str]
    """Cards it may know in the deal being played after the action."""
    before: frozenset[str]
    """Cards it may know in the deal the action belongs to, the action's effects included
    (differs from ``known`` only for an action that ended a deal)."""
    hand: list[str]
    discarded: list[str]
    shown: dict[str, list[str]]
    one_up: dict[str, Any] | None
    played: list[list[str]]
    hidden: frozenset[str]
    """Cards in the other seats' hands that the audience may not know."""
    hidden_before: frozenset[str]
    """The same in the deal the action belongs to (for an action that ended a deal: what the
    others still held, unshown, when it ended)."""
    finished: list[tuple[list[tuple[int, str]], int | None]]
    """Per finished deal of the game: the cards played to its tricks, in order, with their
    seats, and who declared Chicago in it (what a view's ``history`` holds)."""


@dataclass
class Coverage:
    """How often the rules that make cards public came up (so the test is not vacuous)."""

    shows: int = 0
    one_ups: int = 0
    quads: int = 0
    chicagos: int = 0
    showdowns: int = 0


class Oracle:
    """What ``seat`` (None: a spectator) may know after each action of one finished game."""

    def __init__(self, record: dict[str, Any], seat: int | None) -> None:
        self.seat = seat
        self.coverage = Coverage()
        self.actions = [Action.parse(text) for _, text in record["actions"]]
        game = Game.replay({**record, "actions": [], "result": None})
        self.rules = game.rules
        self.finished: list[tuple[list[tuple[int, str]], int | None]] = []
        self._new_deal(game)
        self.known: set[str] = set(self._own(game))
        self.moments = [self._moment(game, frozenset(self.known))]
        self.revealed: list[set[str]] = []
        """Per action: the cards a rule other than playing made public (shown hands, four
        of a kind resets, face-up one-up cards)."""
        for (actor, text), action in zip(record["actions"], self.actions, strict=True):
            before = game.copy()
            game.apply(text)
            public = self._effects(before, game, int(actor), action)
            self.revealed.append(public - {str(action.card)} if action.kind is ActionKind.PLAY
                                 else public)
            old = self.known | public
            if game.deal_number != before.deal_number or game.is_over:
                self.finished.append((list(self.plays), self.declarer))
            if game.deal_number != before.deal_number:
                held = self._others(before) - old
                self._new_deal(game)
                self.known = set(self._own(game))
                self.moments.append(self._moment(game, frozenset(old), frozenset(held)))
            else:
                self.known = old | set(self._own(game))
                self.moments.append(self._moment(game, frozenset(self.known)))

    # ------------------------------------------------------------------ the rules
    def _new_deal(self, game: Game) -> None:
        self.protected: dict[int, set[str]] = defaultdict(set)
        self.claims: list[tuple[int, Category | None]] = []
        self.quad_claims: list[int] = []
        self.shown: dict[str, list[str]] = {}
        self.one_up: dict[str, Any] | None = None
        self.played: list[list[str]] = [[] for _ in range(game.players)]
        self.discarded: list[str] = []
        self.plays: list[tuple[int, str]] = []  # (seat, card) in the order played
        self.declarer: int | None = None

    def _own(self, game: Game) -> list[str]:
        return [] if self.seat is None else _texts(game.hands[self.seat])

    def _effects(self, before: Game, after: Game, actor: int, action: Action) -> set[str]:
        """The cards ``action`` makes public, by the rules (and the seat's own discards)."""
        public: set[str] = set()
        phase = before.phase.value
        kind = action.kind
        rules = self.rules
        hand = before.hands[actor]
        if actor == self.seat:
            if kind in (ActionKind.DISCARD, ActionKind.ONE_UP):
                self.discarded.extend(str(c) for c in action.cards)
            elif kind is ActionKind.REDEAL:
                self.discarded.extend(str(c) for c in hand)
        if kind is ActionKind.PLAY:
            card = str(action.card)
            public.add(card)
            self.played[actor].append(card)
            self.plays.append((actor, card))
            if after.deal_number != before.deal_number or after.is_over:
                self.coverage.showdowns += 1
        elif phase == "exchange" and kind in (ActionKind.DISCARD, ActionKind.ONE_UP):
            thrown = {str(c) for c in action.cards}
            six = rules.lock_six and len(hand) == 6  # a locked seat's sixth card: no show
            if rules.show_on_break and not six and self.protected[actor] & thrown:
                self.protected[actor] -= thrown
                self.shown[str(actor)] = _texts(hand)
                public |= set(self.shown[str(actor)])
                self.coverage.shows += 1
            if kind is ActionKind.ONE_UP:
                face_up = after.one_up_card  # the true state: the card now face up
                assert face_up is not None and face_up[0] == actor
                public.add(str(face_up[1]))
                self.one_up = {"seat": actor, "card": str(face_up[1])}
                self.coverage.one_ups += 1
        elif phase == "one up":
            self.one_up = None
        elif phase == "announce":
            self.claims.append((actor, action.category))
            if after.phase.value != "announce":  # the scoring round is resolved
                made = [(s, c) for s, c in self.claims if c is not None]
                if made and rules.show_on_break:
                    top = max(c for _, c in made)
                    for s, c in made:
                        if c == top:
                            combination = evaluate(before.hands[s], rules).cards
                            self.protected[s] |= {
                                str(x) for x in combination[:COMBINATION_SIZE[top]]}
                self.claims = []
        elif phase == "quads choice" and kind is ActionKind.RESET:
            public |= _quads(hand)
            self.coverage.quads += 1
        elif phase == "quads":
            if kind is ActionKind.RESET:
                self.quad_claims.append(actor)
            if after.phase.value != "quads":
                if self.quad_claims:
                    winner = max(self.quad_claims,
                                 key=lambda s: evaluate(before.hands[s], rules))
                    public |= _quads(before.hands[winner])
                    self.coverage.quads += 1
                self.quad_claims = []
        elif phase == "chicago" and kind is ActionKind.CHICAGO:
            self.coverage.chicagos += 1
            self.declarer = actor
        return public

    def _others(self, game: Game) -> set[str]:
        """The cards the other seats hold (the true state)."""
        return {str(c) for s in range(game.players) if s != self.seat for c in game.hands[s]}

    def _moment(self, game: Game, before: frozenset[str],
                hidden_before: frozenset[str] | None = None) -> Moment:
        hidden = frozenset(self._others(game) - self.known)
        return Moment(
            known=frozenset(self.known), before=before, hand=self._own(game),
            discarded=sorted(self.discarded), shown=dict(self.shown),
            one_up=None if self.one_up is None else dict(self.one_up),
            played=[list(p) for p in self.played], hidden=hidden,
            hidden_before=hidden if hidden_before is None else hidden_before,
            finished=[(list(plays), declarer) for plays, declarer in self.finished],
        )


def _quads(hand: Sequence[Card]) -> set[str]:
    """The four cards of the rank held four times."""
    ranks = [c.rank for c in hand]
    quad = next(r for r in ranks if ranks.count(r) == 4)
    return {str(c) for c in hand if c.rank == quad}


# ---------------------------------------------------------------------- checking frames
def _positions(entries: list[LogEntry]) -> dict[int, tuple[int, int]]:
    """seq -> (game number, actions of that game stored up to this seq)."""
    out: dict[int, tuple[int, int]] = {}
    game, count = 0, 0
    for e in entries:
        if e.kind == "game":
            game, count = int(e.data["number"]), 0
        elif e.kind == "act":
            count += 1
        out[e.seq] = (game, count)
    return out


def _allowed(part: Any, allowed: frozenset[str], hidden: frozenset[str], what: str,
             echoed: frozenset[str] | set[str] = frozenset()) -> None:
    """Every card ``part`` names is ``allowed`` (or ``echoed``: named by the audience itself
    in the message this answers), and none is ``hidden``."""
    named = cards_in(part) - echoed
    leaked = named & hidden
    assert not leaked, f"{what} names hidden cards {sorted(leaked)}"
    assert named <= allowed, f"{what} names cards it may not know: {sorted(named - allowed)}"


def _check_state(state: dict[str, Any], seat: int | None, moment: Moment, what: str) -> None:
    """The card-bearing fields of a state or view equal the oracle's."""
    assert sorted(state["hand"]) == sorted(moment.hand), what
    assert sorted(state["discarded"]) == moment.discarded, what
    assert state["shown"] == moment.shown, what
    assert state["one_up"] == moment.one_up, what
    assert state["played"] == moment.played, what
    if seat is None:
        assert state["legal_actions"] == [], what


def _check_history(history: Any, moment: Moment, what: str) -> None:
    """A view's finished deals hold exactly the cards played to their tricks (with their
    seats, in order) and their Chicago declarers, as the oracle has them from the actions."""
    told = [([(p["seat"], p["card"]) for trick in deal["tricks"] for p in trick["cards"]],
             deal["chicago"]) for deal in history]
    assert told == moment.finished, what


@dataclass
class Watched:
    """Everything one audience received, and the cards it sent in messages (by id)."""

    seat: int | None
    texts: list[str] = field(default_factory=list)
    sent: dict[str, set[str]] = field(default_factory=dict)


def _check_frames(watched: Watched, positions: dict[int, tuple[int, int]],
                  oracles: dict[int, Oracle], secrets_: list[str]) -> int:
    """Check every frame one audience received; returns how many hidden cards there were to
    leak, summed over the frames."""
    seat = watched.seat
    protected = 0
    for text in watched.texts:
        assert "seed" not in text, text[:200]
        assert not any(secret in text for secret in secrets_), "a seat token was sent"
        frame = json.loads(text)
        if frame["type"] == "batch":  # each of its updates as if sent alone
            protected += sum(_check_frames(
                Watched(seat, [json.dumps(update)], watched.sent), positions, oracles, [])
                for update in frame["updates"])
            continue
        kind = frame["type"]
        number, k = positions[frame["seq"]]
        moment = oracles[number].moments[k]
        what = f"seat {seat}: {kind} seq {frame['seq']}"
        protected += len(moment.hidden)
        if kind == "update":
            events = frame["events"]
            assert all(e.get("to") in (None, seat) for e in events), what
            cut = next((i for i, e in enumerate(events) if e["type"] == "deal"), len(events))
            _allowed([frame["action"], events[:cut]], moment.before, moment.hidden_before,
                     what)
            _allowed(events[cut:], moment.known, moment.hidden, what)
            action = oracles[number].actions[k - 1]
            if frame["seat"] != seat and action.cards and action.kind in (
                    ActionKind.DISCARD, ActionKind.ONE_UP):
                assert frame["action"] is None, what  # another seat's discard: no cards
            if frame["state"] is not None:
                _allowed(frame["state"], moment.known, moment.hidden, what)
                _check_state(frame["state"], seat, moment, what)
        elif kind == "snapshot":
            view = dict(frame["view"])
            _check_history(view.pop("history"), moment, what)
            _allowed({**frame, "view": view}, moment.known, moment.hidden, what)
            _check_state(view, seat, moment, what)
        elif kind == "error":
            mine = watched.sent.get(str(frame.get("id")), set())
            _allowed(frame, moment.known, moment.hidden, what, echoed=mine)
        elif kind == "game_over":
            _allowed(frame, moment.before, moment.hidden_before, what)
        else:  # seats, chat, presence, pong, resumed
            _allowed(frame, moment.known, moment.hidden, what)
    return protected


# ---------------------------------------------------------------------- playing
@dataclass(frozen=True)
class Case:
    """One table to play: rules, seats, length and how many games (rematches)."""

    preset: str
    variations: tuple[str, ...]
    seats: tuple[str, ...]
    deals: int
    games: int
    seed: int
    expects: tuple[str, ...] = ()
    """:class:`Coverage` counters that must come up in this case (with this seed)."""

    @property
    def id(self) -> str:
        return f"{self.preset}{''.join('+' + v for v in self.variations)}-{len(self.seats)}"


CASES = [
    # show on break (pagat), one-up face-up cards, low redeals; a rematch
    Case("pagat", ("V-ONE-UP", "V-REDEAL-LOW"), ("open", "open", "bot:basic", "bot:random"),
         3, 2, 21, ("shows", "one_ups", "showdowns")),
    # one-up, lock six, Chicago at any score and a final showdown after it
    Case("wikipedia-42", (), ("open", "open", "bot:random"), 3, 1, 22,
         ("one_ups", "chicagos")),
    # two seats: Chicago at any score, four-of-a-kind resets, suits break exact ties
    Case("pagat", ("V-NEG", "V-QUADS-RESET", "V-TIE-SUIT"), ("open", "open"), 4, 2, 23,
         ("shows", "chicagos")),
    # five and six seats
    Case("pagat", ("V-LARGE", "V-ONE-UP"),
         ("open", "open", "bot:basic", "bot:random", "bot:random"), 2, 1, 24, ("shows",)),
    Case("denexa", ("V-LARGE",), ("open", "bot:random", "open", "bot:random", "bot:basic",
                                  "bot:random"), 2, 1, 25, ("shows",)),
]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The players here chat at the test's speed, far faster than people: no chat bounds
    (tests/server/test_hostile.py tests those)."""
    return dataclasses.replace(settings, chat_per_minute=60_000.0, chat_burst=10_000,
                               chat_per_game=10_000)


@pytest.fixture
def store(client: TestClient) -> Iterator[Store]:
    yield client.app.state.store  # type: ignore[attr-defined]


class Probe:
    """The HTTP answers collected while the game runs (checked afterwards)."""

    def __init__(self, client: TestClient, table: str) -> None:
        self.client = client
        self.table = table
        self.bodies: list[tuple[int, str, Any]] = []  # (seq seen, path, JSON)

    def run(self, seq: int, game: int) -> None:
        client, table = self.client, self.table
        for path in (f"/api/tables/{table}", "/api/tables", "/api/games", "/api/info",
                     "/api/health"):
            response = client.get(path)
            assert response.status_code == 200, (path, response.text)
            self.bodies.append((seq, path, response.json()))
        for number in (game, game + 1):  # the running game, and the next one
            for path in (f"/api/games/{table}/{number}", f"/api/games/{table}/{number}/text",
                         f"/api/web/replay/{table}/{number}",
                         f"/api/web/replay/{table}/{number}?view=0",
                         f"/api/web/record/{table}/{number}"):
                response = client.get(path)
                assert response.status_code == 404, (path, response.text[:200])
                assert cards_in(response.json()) == set(), path


def _misbehave(player: WsPlayer, watched: Watched, rng: random.Random, live: Game,
               tag: str) -> None:
    """Send one refused message naming cards: a card of an opponent's true hand, or one of
    the seat's own at the wrong moment; read the error reply."""
    seat = player.you
    assert seat is not None
    others = [str(c) for s in range(live.players) if s != seat for c in live.hands[s]]
    own = [str(c) for c in live.hands[seat]]
    candidates = [f"{verb} {card}" for card in others for verb in ("discard", "play")]
    candidates += [f"{verb} {card}" for card in own for verb in ("one up", "play", "discard")]
    candidates += [f"discard {card} {card}" for card in own]
    refused = [t for t in candidates if not _legal(live, t)]
    text = rng.choice(refused)
    watched.sent[tag] = cards_in(text)
    player.send(type="act", action=text, id=tag)
    player.until(lambda f: f["type"] == "error" and f.get("id") == tag, errors_ok=True)


def _legal(game: Game, text: str) -> bool:
    """Would the engine accept ``text`` now (False for a text that is no action)?"""
    try:
        return game.is_legal(text)
    except ValueError:  # not an action at all
        return False


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_no_hidden_card_reaches_a_seat(client: TestClient, store: Store, case: Case) -> None:
    info = create_table(client, list(case.seats), preset=case.preset,
                        variations=list(case.variations), rules={"max_deals": case.deals})
    table = info["id"]
    humans = [i for i, s in enumerate(case.seats) if s == "open"]
    tokens = {seat: join(client, table, seat, f"P{seat}") for seat in humans}
    manager = client.app.state.manager  # type: ignore[attr-defined]
    watched = {seat: Watched(seat) for seat in humans}
    watched_spectator = Watched(None)
    rng = random.Random(case.seed)
    # the first person and, in every other case, the spectator take batches
    batched = {humans[0], None} if case.seed % 2 else {humans[0]}
    conns = {seat: WsPlayer(client, table, tokens[seat], batch=seat in batched)
             for seat in humans}
    spectator = WsPlayer(client, table, batch=None in batched)
    probe = Probe(client, table)
    create_table(client, ["open", "open"], name="waiting")  # so the lobby list has a table
    count = 0

    def reconnect(seat: int) -> None:
        player = conns[seat]
        player.sync(spectator.seq)
        watched[seat].texts.extend(player.texts)
        last = player.seq if rng.random() < 0.7 else None
        player.close()
        conns[seat] = WsPlayer(client, table, tokens[seat], last_seq=last, view=player.view,
                               batch=player.batch)

    for number in range(1, case.games + 1):
        while not spectator.over:
            seat = spectator.state["to_act"]
            if seat is None:
                break
            count += 1
            if seat in conns:
                player = conns[seat]
                player.sync(spectator.seq)
                if count % 10 == 1:  # a person is to act, so the game is running right now
                    probe.run(spectator.seq, number)
                if rng.random() < 0.15:
                    live = client.portal.call(  # type: ignore[union-attr]
                        lambda: manager.tables[table].state.current.copy())
                    _misbehave(player, watched[seat], rng, live, f"bad{count}")
                player.send(type="act", action=rng.choice(player.state["legal_actions"]),
                            seq=player.seq)
            spectator.until(lambda f: f["type"] in UPDATES)
            roll = rng.random()
            if roll < 0.06:
                reconnect(rng.choice(humans))
            elif roll < 0.09:
                talker = conns[rng.choice(humans)]
                talker.send(type="chat", text=rng.choice(["good luck", "hmm", "nice one"]))
                spectator.until(lambda f: f["type"] == "chat")
        if not any(f["type"] == "game_over" and f["seq"] == spectator.seq
                   for f in spectator.frames):
            spectator.until(lambda f: f["type"] == "game_over")
        if number < case.games:  # every person agrees to play again (issue 26)
            for seat in humans:
                conns[seat].sync(spectator.seq)
                conns[seat].send(type="rematch")
            spectator.until(lambda f: f["type"] == "snapshot" and f["reason"] == "rematch")
    for seat, player in conns.items():
        player.sync(spectator.seq)
        player.send(type="view")  # one more snapshot, of the finished game
        player.until(lambda f: f["type"] == "snapshot")
        watched[seat].texts.extend(player.texts)
    watched_spectator.texts.extend(spectator.texts)

    entries = store.entries_after(table, 0)
    positions = _positions(entries)
    records = {n: client.get(f"/api/games/{table}/{n}").json()["record"]
               for n in range(1, case.games + 1)}
    secrets_ = list(tokens.values())
    coverage = Coverage()
    for audience in [*watched.values(), watched_spectator]:
        oracles = {n: Oracle(records[n], audience.seat) for n in records}
        protected = _check_frames(audience, positions, oracles, secrets_)
        assert protected > 500  # hidden cards were there to leak, and none did
        if audience.seat is None:
            for oracle in oracles.values():
                for name in ("shows", "one_ups", "quads", "chicagos", "showdowns"):
                    setattr(coverage, name, getattr(coverage, name) + getattr(
                        oracle.coverage, name))
    for seq, path, body in probe.bodies:  # anyone may ask these: public knowledge only
        number, k = positions[seq]
        moment = Oracle(records[number], None).moments[k]
        _allowed(body, moment.known, moment.hidden, f"GET {path} at seq {seq}")
    frames = [json.loads(t) for w in [*watched.values(), watched_spectator] for t in w.texts]
    kinds = {f["type"] for f in frames}
    assert "batch" in kinds and "update" in kinds  # both kinds of client were checked
    assert {"snapshot", "update", "game_over", "error", "resumed"} <= kinds, kinds
    assert any(f["type"] == "snapshot" and f["reason"] == "hello" for f in frames)
    assert probe.bodies, "the HTTP endpoints were asked"
    for name in case.expects:  # the rules that make cards public came up, and held
        assert getattr(coverage, name) > 0, (name, coverage)


def _dealt_quads(players: int, dealer: int, rng: random.Random) -> list[str]:
    """A deck whose deal gives the seat after ``dealer`` four aces."""
    aces = ["Ac", "Ad", "Ah", "As"]
    rest = [f"{r}{s}" for r in RANKS[:-1] for s in SUITS]
    rng.shuffle(rest)
    deck: list[str] = []
    for position in range(52):
        if position % players == 0 and position < 4 * players:
            deck.append(aces[position // players])
        else:
            deck.append(rest.pop())
    return deck


def test_the_oracle_agrees_with_the_engines_public_shows() -> None:
    """The oracle's rules for cards made public besides plays (hands shown on breaking an
    announced combination, four of a kind resets, one-up face-up cards) name exactly the
    cards of the engine's public ``show`` and ``one_up`` events, action by action, in random
    games of the variations that have them — with four aces dealt to one seat in half of them,
    so that the resets (too rare for the server games above) come up too."""
    rng = random.Random(7)
    total = Coverage()
    variants = [("pagat", ("V-QUADS-RESET", "V-ONE-UP")), ("denexa", ("V-QUADS-RESET",)),
                ("wikipedia-42", ("V-QUADS-RESET",)), ("pagat", ("V-LARGE", "V-NEG"))]
    for index in range(160):
        preset, variations = variants[index % len(variants)]
        rules = Rules.preset(preset).with_variations(*variations).replace(max_deals=2)
        players = rng.randint(2, rules.max_players)
        dealer = rng.randrange(players)
        decks = [_dealt_quads(players, dealer, rng)] if index % 2 else None
        game = Game(rules, players, seed=index, decks=decks, dealer=dealer)
        holder = (dealer + 1) % players
        while not game.is_over:
            legal = [str(a) for a in game.legal_actions()]
            if game.to_act == holder and game.deal_number == 1 and decks:
                for wish in ("keep", "announce four of a kind", "reset"):
                    if wish in legal and rng.random() < 0.9:
                        legal = [wish]
            game.apply(rng.choice(legal))
        record = game.record()
        oracle = Oracle(record, None)
        replayed = Game.replay({**record, "actions": [], "result": None})
        for k, (_, text) in enumerate(record["actions"]):
            start = len(replayed.events)
            replayed.apply(text)
            shown: set[str] = set()
            for event in replayed.events[start:]:
                if event.audience is None and event.type == "show":
                    shown |= set(event.data["cards"])
                elif event.audience is None and event.type == "one_up":
                    shown.add(event.data["card"])
            assert oracle.revealed[k] == shown, (index, k, text)
        for name in ("shows", "one_ups", "quads", "chicagos", "showdowns"):
            setattr(total, name, getattr(total, name) + getattr(oracle.coverage, name))
    assert total.shows and total.one_ups and total.quads, total
