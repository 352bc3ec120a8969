"""What a player types and clicks survives a table that keeps changing (in chromium).

- Text typed into the chat while the bots play, and a name typed in the waiting room while
  others join, keeps its focus, caret and letters through every re-render.
- A click sent just as a chat line raised the table's sequence number is accepted at once
  (a chat line changes nothing in the game, so the server does not count it as a change);
  a click on a table that really moved on is refused and the page says so.
- A question with one possible answer is answered for the player, who is told so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .driver import Player, api, record_frames, seated_page
from .serving import LiveServer

_SEQ = "window.chicago.table.conn.lastSeq"


def test_chat_typing_keeps_focus_caret_and_text_while_the_bots_play(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, _, _ = seated_page(context, live, ["open", "bot:random", "bot:random", "bot:random"],
                             bot_delay=0.25)
    player = Player(page, live, artifacts, "chat")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    assert player.state() == "turn"
    page.evaluate("""() => {
      window.renders = 0;
      const tb = window.chicago.table;
      const render = tb.render.bind(tb);
      tb.render = () => { window.renders += 1; render(); };
    }""")
    # (marked before the click: on a busy machine the three bots may all have played
    # before the chat box has the keyboard)
    before = page.evaluate("[window.chicago.table.conn.lastSeq, window.renders]")
    page.click("[data-action=keep]")  # the bots play now, one every 0.25 s
    page.click("#chat-input")
    page.keyboard.type("Hej ", delay=50)
    # Halfway through the words, wait (however long a busy machine takes) until the keep
    # and the bots' moves have come and the page has drawn itself again for them: the rest
    # is typed into a box that was re-rendered under the player's fingers.
    page.wait_for_function(
        "([seq, renders]) => window.chicago.table.conn.lastSeq >= seq + 3"
        " && window.renders >= renders + 3", arg=before)
    page.keyboard.type("alla", delay=50)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("X", delay=150)  # in the middle: the caret stayed where it was
    state = page.evaluate("""() => ({
      value: document.querySelector('#chat-input').value,
      focused: document.activeElement && document.activeElement.id,
      caret: document.activeElement.selectionStart,
    })""")
    assert state["value"] == "Hej aXlla"
    assert state["focused"] == "chat-input" and state["caret"] == 6
    player.shot("typing")
    page.keyboard.press("End")
    page.keyboard.type("!", delay=50)
    page.keyboard.press("Enter")
    page.locator(".log-list .chat", has_text="Hej aXlla!").wait_for()
    assert page.input_value("#chat-input") == ""
    assert page.evaluate("document.activeElement.id") == "chat-input"
    assert not errors, errors
    context.close()


def test_a_name_typed_in_the_waiting_room_survives_others_joining(
    browser: Any, live: LiveServer
) -> None:
    table = api(live, "POST", "api/tables", {"seats": ["open", "open", "open"], "bot_delay": 0})
    api(live, "POST", f"api/tables/{table['id']}/join", {"name": "Anna", "seat": 0})
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    page = context.new_page()
    page.goto(f"{live.url}#/table/{table['id']}")
    page.wait_for_selector("#join-name")
    page.click("#join-name")
    page.keyboard.type("Bsse", delay=30)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("o")
    # Someone else takes seat 3: the waiting room is drawn again from the seats message.
    seq = page.evaluate(_SEQ)
    api(live, "POST", f"api/tables/{table['id']}/join", {"name": "Cy", "seat": 2})
    page.wait_for_function("s => window.chicago.table.conn.lastSeq > s", arg=seq)
    page.locator(".seat-list li[data-seat='2']", has_text="Cy").wait_for()
    assert page.input_value("#join-name") == "Bosse"
    assert page.evaluate("[document.activeElement.id, document.activeElement.selectionStart]") \
        == ["join-name", 2]
    page.keyboard.press("End")
    page.keyboard.type(" B")
    page.click("[data-action=join]")
    page.wait_for_selector(".hand [data-card]")
    own = page.locator(".seat.mine .seat-name").text_content()
    assert own.replace("\xa0", " ") == "Bosse B (you)"
    context.close()


def test_a_click_sent_just_after_a_chat_line_is_accepted(
    browser: Any, live: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page, table_id, seat = seated_page(context, live, ["open", "bot:random"], bot_delay=0.5)
    frames = record_frames(page)
    page.reload()
    page.wait_for_selector(".hand [data-card]")
    player = Player(page, live)
    assert player.state() == "turn"
    seq = player.seq()
    # The chat line reaches the server first and raises its seq; the click still carries
    # the seq it was chosen at, which is still the game's latest state: it is accepted.
    page.evaluate("""() => {
      const tb = window.chicago.table;
      tb.conn.request('chat', { text: 'one moment' });
      tb.act('keep');
    }""")
    game = live.manager.tables[table_id].state
    page.wait_for_function(
        """() => { const tb = window.chicago.table;
          return !tb.pending && tb.view.to_act !== tb.you
            || document.querySelector('.notice.error:not([hidden])'); }""")
    assert page.locator(".notice.error:not([hidden])").count() == 0
    acts = [f["sent"] for f in frames if "sent" in f and f["sent"].get("type") == "act"]
    assert [a["action"] for a in acts] == ["keep"] and acts[0]["seq"] == seq
    assert [f for f in frames if f.get("type") == "error"] == []
    chat = [f for f in frames if f.get("type") == "chat"]
    assert chat and chat[0]["seq"] == seq + 1  # the chat line got there first
    assert game.game.exchange_counts[0][seat] == 0  # kept: the exchange round went on

    # A click on a table that really moved on stays refused, in words.
    assert player.state() == "turn"
    page.evaluate(
        "() => window.chicago.table.conn.send({type: 'act', action: 'keep', seq: 1, id: 'old'})")
    page.locator(".notice.error", has_text="The table moved on").wait_for()
    context.close()


def test_a_question_with_one_answer_is_answered_and_the_player_is_told(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    """In a scoring round a hand with no pair can only pass (R-ANN-1): the page passes after
    a moment and says so in the log and in a message."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page, _, _ = seated_page(context, live, ["open", "bot:random", "bot:random"],
                             rules={"max_deals": 8})
    player = Player(page, live, artifacts, "auto")
    for _ in range(200):
        what = player.state()
        if what == "summary":
            page.click("[data-action=continue]")
            continue
        assert what == "turn", "no scoring round with only a pass in eight deals"
        view = player.view()
        if view["phase"] == "announce" and view["legal_actions"] == ["pass"]:
            break
        if view["phase"] == "exchange" and len(view["hand"]) == 5:
            # keep a hand without a pair, throw everything else away (a fresh five cards)
            if view["hand_category"] == "HIGH_CARD" or view["round"] > 1:
                player.click_and_wait("[data-action=keep]")
            else:
                for card in page.locator(".hand button[data-card]").all():
                    card.click()
                player.click_and_wait("[data-action=exchange]")
            continue
        player.act()
    note = page.locator(".notice.info", has_text="Only one choice, so it was made for you: Pass.")
    note.wait_for()
    # (a busy machine may have reached a second such round by now: the first is enough)
    page.locator(".log-list li.auto", has_text="Only one choice, so it was made for you: Pass.")\
        .first.wait_for()
    player.shot("auto-pass")
    context.close()
