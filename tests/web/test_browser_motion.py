"""Issue 16 in the browser: cards that move, sounds, the key moments on a banner.

A whole deal is played by clicking with motion on and again with the system's reduced
motion. With motion on, animations run (the Web Animations API: ``document.getAnimations()``
sampled on every frame) when a card is played, for the deal, the gathering of a trick; with
reduced motion none ever runs. Through every frame of the deal a MutationObserver collects
each card face that enters the page, with the sequence number the page was at: each must be
a card the seat had seen by then (its own cards, cards played, shown or face up), so no
hidden card face is in the DOM at any frame, in flight either. The scoring-round banner
names the winner and the category; the sound and motion switches are remembered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chicago.server.core.state import TableState

from .driver import WAIT_MS, Player, seated_page
from .serving import LiveServer

# Every card face inserted into the page (with the page's seq then), every banner, and on
# every animation frame what document.getAnimations() holds.
_WATCH = """
window.__faces = []; window.__moments = []; window.__anims = {frames: 0, max: 0, cards: []};
new MutationObserver((records) => {
  const tb = window.chicago && window.chicago.table;
  const seq = tb && tb.conn ? tb.conn.lastSeq : null;
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const e of [n, ...n.querySelectorAll('[data-card]')]) {
      if (e.dataset && e.dataset.card) window.__faces.push([e.dataset.card, seq]);
    }
    for (const m of [n, ...n.querySelectorAll('.moment')]) {
      if (m.classList && m.classList.contains('moment')) {
        window.__moments.push([m.dataset.kind, m.textContent]);
      }
    }
  }
}).observe(document, {childList: true, subtree: true});
const tick = () => {
  const all = document.getAnimations();
  window.__anims.frames += 1;
  window.__anims.max = Math.max(window.__anims.max, all.length);
  for (const a of all) {
    const el = a.effect && a.effect.target;
    const face = el && (el.dataset && el.dataset.card ? el
      : el.querySelector && el.querySelector('[data-card]'));
    if (face && window.__anims.cards.length < 5000) window.__anims.cards.push(face.dataset.card);
  }
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""


def _cards_of(event: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for key in ("cards", "discarded", "drawn"):
        if isinstance(event.get(key), list):
            out.update(event[key])
    if isinstance(event.get("card"), str):
        out.add(event["card"])
    for cards in (event.get("hands") or {}).values():
        out.update(cards)
    return out


def known_by_seq(table: TableState, seat: int) -> list[tuple[int, set[str]]]:
    """After each stored entry of the current game (by seq), every card ``seat`` has seen:
    from the events it was sent (its own cards, plays, shown hands, face-up cards)."""
    game = table.current
    acts = [e for e in table.entries if e.kind == "act"]
    first = table.spans[acts[0].seq][0] if acts else len(game.events)
    known: set[str] = set()
    out = []
    for entry in table.entries:
        if entry.kind == "game":
            events = game.events[:first]
        elif entry.kind == "act":
            start, end = table.spans[entry.seq]
            events = game.events[start:end]
        else:
            events = []
        for event in events:
            if event.visible_to(seat):
                known |= _cards_of(event.to_json())
        out.append((entry.seq, set(known)))
    return out


def assert_no_unseen_face(page: Any, table: TableState, seat: int) -> int:
    """Every face that ever entered the page was a card the seat had seen at that seq."""
    faces = page.evaluate("window.__faces")
    known = known_by_seq(table, seat)
    for card, seq in faces:
        assert seq is not None, f"{card} drawn before the page had any state"
        seen = next((k for s, k in reversed(known) if s <= seq), set())
        assert card in seen, f"the face of {card} entered the page at seq {seq}, unseen"
    return len(faces)


_HOLD_NEXT_ANIMATION = """() => {
  const running = window.chicago.motion.running;
  const add = running.add;
  window.__held = null;
  running.add = function (anim) {
    running.add = add;
    anim.pause();
    window.__held = anim;
    return add.call(this, anim);
  };
}"""
"""Pause the next animation the page starts and keep it as ``window.__held``."""


def _play_whole_deal(browser: Any, live: LiveServer, artifacts: Path, name: str,
                     **context: Any) -> tuple[Player, Any, str, int]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, **context)
    page, table_id, seat = seated_page(
        ctx, live, ["open", "bot:basic", "bot:basic", "bot:basic"], bot_delay=0.25,
        rules={"max_deals": 2}, before=lambda p: p.add_init_script(_WATCH))
    player = Player(page, live, artifacts, name)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    assert player.play_deal() == "summary"
    assert errors == []
    return player, page, table_id, seat


def test_a_whole_deal_with_motion_cards_move_and_no_hidden_face_at_any_frame(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    player, page, table_id, seat = _play_whole_deal(browser, live, artifacts, "motion")
    table = live.manager.tables[table_id].state
    # what moved: the deal, the cards played, the tricks gathered, the showdown turned over
    kinds = {entry["kind"] for entry in page.evaluate("window.chicago.motion.log")}
    assert {"deal", "play", "gather", "showdown"} <= kinds, kinds
    assert all(150 <= e["ms"] <= 400 for e in page.evaluate("window.chicago.motion.log"))
    anims = page.evaluate("window.__anims")
    assert anims["max"] > 0 and anims["frames"] > 50
    played = {e.to_json()["card"] for e in table.current.events if e.type == "play"}
    assert set(anims["cards"]) & played, "no played card was seen moving"
    assert assert_no_unseen_face(page, table, seat) > 50

    # an animation runs when the player plays a card: sampled on the next frames
    player.page.click("[data-action=continue]")  # the next deal starts (only person here)
    while player.state() == "turn" and page.get_attribute(".table-page", "data-phase") != "play":
        player.act()
    assert page.get_attribute(".table-page", "data-phase") == "play"
    card = page.locator(".hand button[data-card]:not([disabled])").first.get_attribute("data-card")
    page.evaluate("window.__anims.cards = []")
    # The first animation the play starts is held in flight (paused: it cannot end by itself),
    # so that what follows waits for events, never for an animation's duration.
    page.evaluate(_HOLD_NEXT_ANIMATION)
    player.click_and_wait(f".hand button[data-card='{card}']")
    page.wait_for_function("c => window.__anims.cards.includes(c)", arg=card, timeout=WAIT_MS)
    player.shot("card-moving")
    # a new state finishes a running animation at once (the cards in flight go with it): the
    # held one, by this render or by a state that came first
    finished = page.evaluate("""() => {
      const motion = window.chicago.motion;
      const held = window.__held;
      const before = held && motion.running.has(held) ? motion.running.size : 0;
      window.chicago.table.render();
      return [held ? held.playState : null, before, motion.running.size,
              document.querySelectorAll('.flying').length];
    }""")
    assert finished[0] == "finished" and finished[2:] == [0, 0], finished

    # the scoring-round banner names the winner and what won
    names = {s: f"Bot {s + 1}" if info.kind == "bot" else info.name
             for s, info in enumerate(table.seats)}
    names[seat] = "You"
    results = [e.to_json() for e in table.current.events if e.type == "round_result"]
    banners = [text for kind, text in page.evaluate("window.__moments") if kind == "round"]
    won = [r for r in results if r["winner"] is not None and r["points"]]
    for result in won:
        who = names[result["winner"]]
        assert any(f"Scoring round {result['round']}: {who} win" in text for text in banners), (
            who, banners)
    assert len(banners) >= len(results) - 1  # the last may still be to come
    page.context.close()


def test_a_whole_deal_with_reduced_motion_moves_nothing(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    _, page, table_id, seat = _play_whole_deal(
        browser, live, artifacts, "still", reduced_motion="reduce")
    assert page.evaluate("window.chicago.motion.log") == []
    anims = page.evaluate("window.__anims")
    assert anims["max"] == 0 and anims["frames"] > 50  # not one animation on any frame
    assert assert_no_unseen_face(page, live.manager.tables[table_id].state, seat) > 50
    # the switch says why it is off, and cannot turn motion on against the system
    switch = page.locator("[data-action=motion]")
    assert switch.get_attribute("aria-pressed") == "false" and switch.is_disabled()
    assert "reduced motion" in (switch.get_attribute("title") or "")
    page.context.close()


def test_the_sound_and_motion_switches_are_remembered(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page, _, _ = seated_page(context, live, ["open", "bot:random"], bot_delay=0.2)
    player = Player(page, live, artifacts, "switches")
    sound = page.locator("[data-action=sound]")
    motion = page.locator("[data-action=motion]")
    assert sound.get_attribute("aria-pressed") == "true"
    assert motion.get_attribute("aria-pressed") == "true"
    # the first click unlocks audio; cues sound while the switch is on
    player.state()
    page.evaluate("window.chicago.sound.log.length = 0")
    while page.get_attribute(".table-page", "data-phase") != "play":
        player.act()
        player.state()
    player.click_and_wait(".hand button[data-card]:not([disabled])")
    page.wait_for_function("() => window.chicago.sound.log.some(c => c.cue === 'card')")
    assert page.evaluate("window.chicago.sound.log.some(c => c.cue === 'card' && c.played)")
    sound.click()
    motion.click()
    page.reload()
    page.wait_for_selector(".hand [data-card]")
    assert page.get_attribute("[data-action=sound]", "aria-pressed") == "false"
    assert page.get_attribute("[data-action=motion]", "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('chicago.option.sound')") == "false"
    page.evaluate("window.chicago.sound.log.length = 0")
    page.mouse.click(5, 5)  # a touch: audio could start now, but the switch is off
    while player.state() == "turn" and page.get_attribute(".table-page", "data-phase") != "play":
        player.act()
    if player.state() == "turn":
        player.click_and_wait(".hand button[data-card]:not([disabled])")
        page.wait_for_function("() => window.chicago.sound.log.length > 0")
        assert not page.evaluate("window.chicago.sound.log.some(c => c.played)")
        assert page.evaluate("window.chicago.motion.log") == []
    context.close()
