"""Playing through the browser app like a person: waiting for one's turn, clicking choices.

:class:`Player` drives one page (one browser context = one person). At each of its turns it
checks two things before clicking: the page shows no opponent's hidden card (compared with
the server's true game), and in trick play exactly the legal cards can be clicked (R-TRICK-2).
Every wait is on a condition in the page, never a fixed sleep.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chicago.engine.viewjson import view_json

from .serving import WAIT_MS, LiveServer

_STATE_JS = """() => {
  const p = document.querySelector('.table-page');
  if (!p) return false;
  if (document.querySelector('[data-dialog=game-over]')) return 'over';
  const next = document.querySelector('.deal-summary [data-action=continue]:not([disabled])');
  if (next) return 'summary';
  const tb = window.chicago && window.chicago.table;
  if (p.dataset.myTurn === '1' && tb && !tb.pending) return 'turn';
  return false;
}"""

_CARD_RE = re.compile(r"^[2-9TJQKA][cdhs]$")
RANK_TEXT = {"T": "10"}
SUIT_TEXT = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_text(code: str) -> str:
    """The short text form the app writes in sentences: ``10♥``."""
    return RANK_TEXT.get(code[0], code[0]) + SUIT_TEXT[code[1]]


def hidden_from(live: LiveServer, table_id: str, seat: int) -> set[str]:
    """Cards in other seats' hands right now that ``seat`` has no way to know.

    Known are: cards shown or played in public, a face-up one-up card, and every card the
    seat itself held or discarded this deal (an opponent may draw them after a reshuffle).
    Read only while the table waits for ``seat`` (nothing moves then).
    """
    game = live.manager.tables[table_id].state.game
    hidden = {str(c) for s in range(game.players) if s != seat for c in game.hands[s]}
    known: set[str] = set()
    for event in view_json(game.view(seat))["events"]:
        for key in ("cards", "discarded", "drawn"):
            value = event.get(key)
            if isinstance(value, list):
                known.update(value)
        if isinstance(event.get("card"), str):
            known.add(event["card"])
        for cards in (event.get("hands") or {}).values():
            known.update(cards)
    for cards in game.shown.values():
        known.update(str(c) for c in cards)
    return hidden - known


def page_cards(page: Any) -> dict[str, Any]:
    """Every card the page shows outside the log of earlier deals: data-card values, the
    board's text, this deal's log lines and the client's copy of its view (without its
    ``history``, whose tricks are earlier deals' cards, dealt anew since; the engine's
    property tests check that it holds only cards played to their tricks)."""
    return page.evaluate(_PAGE_CARDS_JS)


_PAGE_CARDS_JS = """() => {
  const all = (selector) => [...document.querySelectorAll(selector)];
  const tb = window.chicago && window.chicago.table;
  const deal = tb && tb.view ? String(tb.view.deal) : null;
  return {
    cards: all('[data-card]').map(e => e.dataset.card),
    labels: all('[aria-label]').map(e => e.getAttribute('aria-label')),
    // a banner of an earlier deal (still up for its least time) names that deal's cards
    boardText: all('.board, .dialog').map(e => e.innerText).join('\\n').split('\\n')
      .filter(line => !all('.moment[data-deal]').some(m => m.dataset.deal !== deal
        && m.innerText.split('\\n').includes(line))).join('\\n'),
    log: all('.log-list li').filter(li => li.dataset.deal === deal).map(li => li.innerText)
      .join('\\n'),
    // the finished deals' tricks (issue 30) name cards of earlier deals, dealt anew since
    view: tb && tb.view ? JSON.stringify({ ...tb.view, history: null }) : '',
  };
}"""


def assert_no_leak(page: Any, live: LiveServer, table_id: str, seat: int) -> int:
    """The page of ``seat`` shows none of the opponents' hidden cards; returns how many."""
    hidden = hidden_from(live, table_id, seat)
    shown = page_cards(page)
    on_page = set(shown["cards"])
    for card in hidden:
        assert card not in on_page, f"seat {seat}'s page shows {card}, hidden in another hand"
        assert card_text(card) not in shown["boardText"], f"board text names hidden {card}"
        assert card_text(card) not in shown["log"], f"this deal's log names hidden {card}"
        assert f'"{card}"' not in shown["view"], f"the client's view holds hidden {card}"
    return len(hidden)


class Player:
    """One person at a table in one page."""

    def __init__(self, page: Any, live: LiveServer, shots: Path | None = None,
                 name: str = "player") -> None:
        self.page = page
        self.live = live
        self.shots = shots
        self.name = name
        self.turns = 0
        self.leak_checks = 0
        self.must_follow_checks = 0
        self.disabled_seen = 0
        self.phases: set[str] = set()

    @property
    def table_id(self) -> str:
        match = re.search(r"#/(?:table|watch)/([^/?]+)", self.page.url)
        assert match, self.page.url
        return match.group(1)

    @property
    def seat(self) -> int:
        return int(self.page.get_attribute(".table-page", "data-you"))

    def shot(self, label: str) -> None:
        if self.shots is not None:
            self.page.screenshot(path=str(self.shots / f"{self.name}-{label}.png"), full_page=True)

    def state(self, timeout: int = WAIT_MS) -> str:
        """Wait until this player must do something: 'turn', 'summary' or 'over'."""
        handle = self.page.wait_for_function(_STATE_JS, timeout=timeout)
        return str(handle.json_value())

    def view(self) -> dict[str, Any]:
        result: dict[str, Any] = self.page.evaluate("window.chicago.table.view")
        return result

    def seq(self) -> int:
        return int(self.page.evaluate("window.chicago.table.conn.lastSeq ?? -1"))

    def check_must_follow(self) -> None:
        """R-TRICK-2: exactly the legal cards can be clicked, the others are disabled."""
        view = self.view()
        legal = {a[5:] for a in view["legal_actions"] if a.startswith("play ")}
        buttons = self.page.eval_on_selector_all(
            ".hand button[data-card]", "els => els.map(e => [e.dataset.card, e.disabled])")
        enabled = {card for card, disabled in buttons if not disabled}
        assert enabled == legal, (enabled, legal)
        assert {card for card, _ in buttons} == set(view["hand"])
        trick = view["trick"]
        if trick:
            led = trick[0]["card"][1]
            if any(c[1] == led for c in view["hand"]):
                assert all(c[1] == led for c in enabled), "must follow the suit led"
        self.disabled_seen += len(buttons) - len(enabled)
        self.must_follow_checks += 1

    def click_and_wait(self, selector: str) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        before = self.seq()
        self.page.locator(selector).first.click()
        try:
            self.page.wait_for_function(
                """(before) => {
              const tb = window.chicago && window.chicago.table;
              const note = document.querySelector('.notice.error:not([hidden])');
              if (note) return 'error: ' + note.innerText;
              return tb && !tb.pending && tb.conn.lastSeq > before;
            }""", arg=before, timeout=WAIT_MS)
        except PlaywrightTimeout as timeout:
            raise AssertionError(
                f"{self.name}: no answer to a click on {selector} in {WAIT_MS} ms after "
                f"seq {before}\n{page_side([self])}\n{server_side([self])}") from timeout
        error = self.page.evaluate(
            "document.querySelector('.notice.error:not([hidden])')?.innerText || ''")
        assert not error, f"the server refused a click: {error}"

    def act(self) -> str:
        """Make one decision by clicking, the way a careful beginner would."""
        page = self.page
        phase = page.get_attribute(".table-page", "data-phase")
        self.phases.add(phase)
        self.turns += 1
        assert_no_leak(page, self.live, self.table_id, self.seat)
        self.leak_checks += 1
        # The view and the sequence number it belongs to, read in one go: the page may answer
        # a one-answer question by itself at any moment, and the update that follows must
        # count as the answer even when it arrives before the wait below starts.
        view, before = page.evaluate(
            "[window.chicago.table.view, window.chicago.table.conn.lastSeq ?? -1]")
        legal = view["legal_actions"]
        if len(legal) == 1 and phase not in ("exchange", "play"):
            # The page answers a question with one possible answer by itself (docs/RULES.md).
            self.page.wait_for_function(
                "b => window.chicago.table.conn.lastSeq > b", arg=before, timeout=WAIT_MS)
            return phase
        if phase == "exchange":
            if view["round"] == 1 and len(view["hand"]) == 5:
                cards = page.locator(".hand button[data-card]")
                cards.nth(0).click()
                cards.nth(1).click()
                assert page.locator(".hand button[aria-pressed=true]").count() == 2
                self.click_and_wait("[data-action=exchange]")
            elif len(view["hand"]) == 6:
                page.locator(".hand button[data-card]").first.click()
                self.click_and_wait("[data-action=exchange]")
            else:
                self.click_and_wait("[data-action=keep]")
        elif phase == "play":
            self.check_must_follow()
            self.click_and_wait(".hand button[data-card]:not([disabled])")
        elif phase == "chicago":
            self.click_and_wait("[data-action=no-chicago]")
        elif phase == "one up":
            self.click_and_wait("[data-action=accept]")
        elif phase == "redeal":
            self.click_and_wait("[data-action=keep]")
        else:
            for selector in ("[data-action=announce]", "[data-action=score]",
                             "[data-action=pass]"):
                if page.locator(selector).count():
                    self.click_and_wait(selector)
                    break
        return phase

    def play_deal(self, stop_when: Any = None) -> str:
        """Play until the deal ends ('summary' or 'over'); ``stop_when(player)`` may stop early."""
        while True:
            what = self.state()
            if what in ("summary", "over"):
                return what
            if stop_when is not None and stop_when(self):
                return "stopped"
            self.act()


_IN_VIEW = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return "no element";
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const inside = r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  if (inside && hit && (hit === el || el.contains(hit))) return "";
  const what = hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join(".")}` : "nothing";
  return `box ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},`
    + `${Math.round(r.bottom)} in ${window.innerWidth}x${window.innerHeight} scrolled to `
    + `${Math.round(window.scrollY)}; a click at its centre hits ${what}`;
}"""


_PROGRESS_JS = """() => {
  const tb = window.chicago && window.chicago.table;
  const p = document.querySelector('.table-page');
  return [tb && tb.conn ? tb.conn.lastSeq : null, p ? p.dataset.myTurn || '' : '',
          tb ? !!tb.pending : false, tb ? !!tb.rest : false,
          !!document.querySelector('[data-dialog=game-over], .deal-summary')];
}"""


def progress_marks(players: list[Any]) -> list[Any]:
    """What each page shows now (its last frame, whose turn, a summary), for
    :func:`wait_for_progress`: taken *before* looking whether anyone may act, so that a
    change in between is not missed."""
    return [p.page.evaluate(_PROGRESS_JS) for p in players]


def wait_for_progress(players: list[Any], before: list[Any]) -> None:
    """Wait until any of the players' pages has changed since ``before``
    (:func:`progress_marks`): a new frame, a turn, a summary or the game's end, the event a
    loop over several seats waits for when nobody may act. As any wait of the suite, it
    gives up after WAIT_MS without a change (never a fixed pause, and no bound on the number
    of waits, which a slow machine would exhaust)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        for player, seen in zip(players, before, strict=True):
            if player.page.evaluate(_PROGRESS_JS) != seen:
                return
        assert time.monotonic() < deadline, (
            f"no page changed in {WAIT_MS} ms: {before}\n{page_side(players)}\n"
            f"{server_side(players)}")
        # Playwright's sync API waits on one page at a time and these are pages of several
        # browser contexts: no single event covers them, so each is looked at again after a
        # short pause that only spares the cores (the deadline above is the bound)
        players[0].page.wait_for_timeout(20)


_PAGE_SIDE_JS = """() => {
  const tb = window.chicago && window.chicago.table;
  if (!tb) return 'no table page';
  const v = tb.view || {};
  const p = document.querySelector('.table-page');
  return JSON.stringify({seq: tb.conn ? tb.conn.lastSeq : null,
    socket: tb.conn && tb.conn.ws ? tb.conn.ws.readyState : null, pending: !!tb.pending,
    rest: !!tb.rest, stepping: !!tb.stepping, held: (tb.held || []).map((m) => m.type),
    pause: tb.pause, paused: p ? p.dataset.paused : null, myTurn: p ? p.dataset.myTurn : null,
    deal: v.deal, phase: v.phase, to_act: v.to_act, over: v.over,
    summary: !!document.querySelector('.deal-summary'),
    gameOver: !!document.querySelector('[data-dialog=game-over]')});
}"""


def page_side(players: list[Any]) -> str:
    """What each player's page holds (its last seq, socket, what it holds back, the pause,
    the view's turn), for a wait's failure message beside :func:`server_side`."""
    return "\n".join(f"{p.name} page: {p.page.evaluate(_PAGE_SIDE_JS)}" for p in players)


def server_side(players: list[Any]) -> str:
    """What the server holds for the players' tables, for a wait's failure message: each
    table's last entry, its game (deal, phase, who is to act, over), the pause and whom it
    waits for, the seats (kind, away), the turn clock and whether a bot's turn is scheduled
    on the loop. Read from the test's thread without the table's lock: a picture good enough
    to tell a stalled table from a slow page, never used to decide anything."""
    lines = []
    for player in players:
        try:
            table_id = player.table_id
        except AssertionError:
            lines.append(f"{player.name}: not at a table ({player.page.url})")
            continue
        held = player.live.manager.tables.get(table_id)
        if held is None:
            lines.append(f"{player.name}: table {table_id} is not held by the server")
            continue
        state = held.state
        game = state.game
        seats = [(s.kind, s.away) for s in state.seats]
        what = ("no game" if game is None else
                f"deal {game.deal_number} {game.phase.value} to_act {game.to_act} "
                f"over {game.is_over}")
        pause = None if state.pause is None else (state.pause.deal, sorted(state.pause.waiting))
        lines.append(f"{player.name}: table {table_id} seq {state.seq} sent {held.sent} "
                     f"{what}; pause {pause}; seats {seats}; clock {held.deadline}; "
                     f"timer {'set' if held.timer is not None else 'none'}; "
                     f"connections {len(held.conns)}")
    return "\n".join(lines)


def in_view_and_on_top(page: Any, selector: str) -> None:
    """The element is inside the viewport and is what a click at its centre hits: at once
    or as soon as the page settles (a card flying past or a banner fading is not a layout
    fault; a layout that hides the element stays so until the wait gives up). The failure
    says where it was and what covered it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"(s) => ({_IN_VIEW})(s) === ''", arg=selector,
                               timeout=WAIT_MS)
    problem = page.evaluate(_IN_VIEW, selector)
    assert not problem, f"{selector} is not in view: {problem}"


def record_frames(page: Any) -> list[dict[str, Any]]:
    """Collect every frame of the page's table sockets (parsed, sent ones as ``{"sent":
    …}``), for assertions; not the site socket's (``/ws/site``, "Your games"), whose
    ``turns`` frames come in their own time and would fall between a table's frames."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        if ws.url.endswith("/ws/site"):
            return
        def received(payload: Any) -> None:
            with contextlib.suppress(TypeError, ValueError):
                frames.append(json.loads(payload))

        def sent(payload: Any) -> None:
            with contextlib.suppress(TypeError, ValueError):
                frames.append({"sent": json.loads(payload)})

        ws.on("framereceived", received)
        ws.on("framesent", sent)

    page.on("websocket", on_socket)
    return frames


def unbatched(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames with each ``batch`` (the app asks for them: docs/PROTOCOL.md) replaced by
    its updates, in order."""
    flat: list[dict[str, Any]] = []
    for frame in frames:
        if frame.get("type") == "batch":
            flat.extend(frame["updates"])
        else:
            flat.append(frame)
    return flat


def is_card(text: str) -> bool:
    return bool(_CARD_RE.match(text))


def api(live: LiveServer, method: str, path: str, body: Any = None, *,
        profile: str | None = None) -> Any:
    """Call the server's HTTP API (JSON in, JSON out), as the profile whose secret is
    ``profile`` when one is given."""
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if profile is not None:
        headers["X-Chicago-Profile"] = profile
    request = urllib.request.Request(live.url + path.lstrip("/"), data=data, method=method,
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    return json.loads(text) if text.startswith(("{", "[")) else text


def watch(live: LiveServer, table_id: str, reached: Callable[[dict[str, Any]], bool],
          what: str) -> dict[str, Any]:
    """Wait at each frame a spectator's socket is sent (its snapshot first) until
    ``reached(frame)``, and give back that frame: the table's own news, not its state looked
    at every so often. Fails after :data:`WAIT_MS` without a frame."""
    from websockets.sync.client import connect

    url = live.url.replace("http://", "ws://", 1) + f"ws/{table_id}"
    with connect(url, open_timeout=WAIT_MS / 1000) as ws:
        ws.send(json.dumps({"type": "hello"}))
        while True:
            try:
                frame: dict[str, Any] = json.loads(ws.recv(WAIT_MS / 1000))
            except TimeoutError:
                raise AssertionError(f"no frame in {WAIT_MS} ms while waiting for {what}") from None
            if reached(frame):
                return frame


def game_over(live: LiveServer, table_id: str) -> None:
    """Wait until the table's game has ended: a spectator's socket is told so (its
    ``game_over`` frame, or a snapshot of a table already finished)."""
    watch(live, table_id, lambda frame: frame["type"] == "game_over" or (
        frame["type"] == "snapshot" and frame["table"]["status"] == "finished"),
        "the game to end")


def to_act(frame: dict[str, Any]) -> int | None:
    """The seat to act after a spectator's ``snapshot`` or live ``update`` frame (None for
    other frames, and when nobody is)."""
    state = frame.get("view") if frame["type"] == "snapshot" else frame.get("state")
    return state.get("to_act") if frame["type"] in ("snapshot", "update") and state else None


def seated_page(context: Any, live: LiveServer, seats: list[str], *, name: str | None = "Anna",
                before: Any = None, **options: Any) -> tuple[Any, str, int]:
    """Create a table through the API, join its first open seat, open it in a new page of
    ``context`` (the token put in the page's storage as the app keeps it). ``before(page)``
    runs before the page loads (to record its frames, say). A deal's summary waits for the
    people's Continue up to the longest pause (120 s, not the 15 s default), so that a slow
    machine reading it is not overtaken by the pause's end; tests of that end set
    ``deal_pause`` themselves."""
    body = {"seats": seats, "bot_delay": 0.0, "deal_pause": 120, **options}
    table = api(live, "POST", "api/tables", body)
    page, seat = join_page(context, live, table["id"], name=name, before=before)
    page.wait_for_selector(".hand [data-card]")
    return page, table["id"], seat


def join_page(context: Any, live: LiveServer, table_id: str, *, name: str | None = None,
              before: Any = None) -> tuple[Any, int]:
    """Join the first open seat of a table and open it in a new page of ``context``."""
    joined = api(live, "POST", f"api/tables/{table_id}/join", {"name": name})
    saved = {table_id: {"token": joined["token"], "seat": joined["seat"], "name": "",
                        "joined": 1}}
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('chicago.seats', {json.dumps(json.dumps(saved))});")
    if before is not None:
        before(page)
    page.goto(f"{live.url}#/table/{table_id}")
    page.wait_for_selector(".table-page")
    return page, int(joined["seat"])


HIDDEN_AND_RECORDED = """
Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
window.__notes = [];
const Real = window.Notification;
class Recorded extends Real {
  constructor(title, options) {
    super(title, options);
    window.__notes.push({ title, body: options && options.body });
  }
}
Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
Recorded.requestPermission = (...a) => Real.requestPermission(...a);
window.Notification = Recorded;
"""
"""A tab that is hidden, and every notification it makes recorded for the test (in
``window.__notes``): an init script."""
