"""Languages, phone-sized screens, the keyboard and server errors in words (in chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .driver import Player, api, join_page, seated_page
from .serving import LiveServer


def test_swedish_switch_is_remembered_and_translates_the_table(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.goto(live.url)
    page.wait_for_selector("[data-action=quick-play]")
    assert page.locator("h1").first.inner_text() == "Play Chicago"
    assert page.get_attribute("html", "lang") == "en"
    page.click("[data-lang=sv]")
    assert page.locator("h1").first.inner_text() == "Spela Chicago"
    assert page.get_attribute("html", "lang") == "sv"
    assert page.get_attribute("[data-lang=sv]", "aria-pressed") == "true"
    assert page.locator("nav").inner_text().split() == [
        "Lobby", "Dina", "partier", "Spelade", "partier", "Turneringar", "Topplista", "Profil",
        "Öva", "Så", "spelar", "man"]
    page.reload()
    page.wait_for_selector("[data-action=quick-play]")
    assert page.locator("h1").first.inner_text() == "Spela Chicago"  # remembered
    assert page.evaluate("localStorage.getItem('chicago.lang')") == "sv"

    # Every English text has a Swedish one.
    missing = page.evaluate("""async () => {
      const { LANGS } = await import('./js/i18n.js');
      return Object.keys(LANGS.en).filter(k => !(k in LANGS.sv));
    }""")
    assert missing == []

    table_page, _, _ = seated_page(context, live, ["open", "bot:basic", "bot:basic"],
                                   rules={"max_deals": 1})
    player = Player(table_page, live, artifacts, "swedish")
    assert player.state() == "turn"
    prompt = table_page.locator("[data-testid=prompt]").inner_text()
    assert prompt.startswith("Din tur: Byte 1")
    assert table_page.locator("[data-action=keep]").inner_text() == "Behåll alla"
    labels = table_page.eval_on_selector_all(  # each card's spoken name, beside its face
        ".hand [data-card]", "els => els.map(e => e.querySelector('.visually-hidden').textContent)")
    suits = ("hjärter", "ruter", "spader", "klöver")
    assert all(label.split()[0] in suits for label in labels), labels
    player.shot("sv")
    table_page.click("[data-lang=en]")
    assert table_page.locator("[data-testid=prompt]").inner_text().startswith(
        "Your turn: Exchange 1")
    context.close()


def test_phone_sized_screen_fits_and_plays_by_tapping(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(live.url)
    page.wait_for_selector("[data-action=quick-play]")
    no_overflow = "document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(no_overflow)
    page.screenshot(path=str(artifacts / "phone-lobby.png"), full_page=True)
    table_page, _, _ = seated_page(context, live, ["open", "bot:basic", "bot:basic",
                                                   "bot:random"], rules={"max_deals": 1})
    page.close()
    player = Player(table_page, live, artifacts, "phone")
    assert player.state() == "turn"
    assert table_page.evaluate(no_overflow)
    boxes = table_page.eval_on_selector_all(
        ".hand [data-card]", "els => els.map(e => e.getBoundingClientRect().toJSON())")
    assert len(boxes) == 5
    assert all(b["left"] >= 0 and b["right"] <= 360 and b["width"] >= 44 for b in boxes)
    cards = table_page.locator(".hand button[data-card]")
    cards.nth(0).tap()
    cards.nth(4).tap()
    assert table_page.locator(".hand button[aria-pressed=true]").count() == 2
    exchange = table_page.locator("[data-action=exchange]")
    assert exchange.inner_text() == "Exchange 2 cards"
    box = exchange.bounding_box()
    assert box is not None and box["height"] >= 40
    player.shot("selected")
    exchange.tap()
    assert player.play_deal() == "over"
    assert table_page.evaluate(no_overflow)
    player.shot("over")
    context.close()


def test_nothing_is_wider_than_a_phone_without_the_mobile_viewport(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    """With is_mobile the phone widens its layout viewport to the content, so an overflow
    does not show in scrollWidth there; a plain 360 px window shows it."""
    for locale, lang in (("en-GB", "en"), ("sv-SE", "sv")):
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('chicago.lang', '{lang}')")
        page.goto(live.url)
        page.wait_for_selector("[data-action=quick-play]")
        page.select_option("#f-players", "6")  # the longest form: six seats, V-LARGE note
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > 360.5)
          .map((e) => e.tagName + '.' + e.className)""")
        assert wide == [], (lang, wide)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(artifacts / f"phone-lobby-{lang}.png"), full_page=True)
        # A six-seat table: one's own seat shows the whole name and "(du)".
        table_page, _, _ = seated_page(context, live, ["open"] + ["bot:random"] * 5,
                                       variations=["V-LARGE"], rules={"max_deals": 1}, name=None)
        own = table_page.locator(".seat.mine .seat-name")
        expected = {"en": "Player 1\xa0(you)", "sv": "Spelare 1\xa0(du)"}[lang]
        assert own.text_content() == expected
        assert table_page.evaluate("""() =>
          [...document.querySelectorAll('.seat-name, .seat-name *')]
            .every((e) => e.scrollWidth <= e.clientWidth + 1)"""), "a seat name is cut"
        assert table_page.evaluate("document.documentElement.scrollWidth") <= 360
        table_page.screenshot(path=str(artifacts / f"phone-six-{lang}.png"), full_page=True)
        context.close()


def test_keyboard_only_exchange_announce_and_play(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page, _, _ = seated_page(context, live, ["open", "bot:random", "bot:random"],
                             rules={"max_deals": 1})
    player = Player(page, live, artifacts, "keys")
    keyboard = page.keyboard
    page.evaluate("document.activeElement && document.activeElement.blur()")
    keyboard.press("?")
    page.wait_for_selector("[data-dialog=keys] dl.keys")
    keyboard.press("Escape")
    page.wait_for_selector("[data-dialog=keys]", state="detached")
    used: set[str] = set()
    while player.state() == "turn":
        view = player.view()
        before = player.seq()
        phase = view["phase"]
        page.evaluate("document.activeElement && document.activeElement.blur()")
        if phase == "exchange":
            keyboard.press("1")
            keyboard.press("3")
            assert page.locator(".hand button[aria-pressed=true]").count() == 2
            keyboard.press("Escape")
            assert page.locator(".hand button[aria-pressed=true]").count() == 0
            keyboard.press("2")
            keyboard.press("Enter")
        elif phase == "play":
            hand = sorted(view["hand"], key=lambda c: ("23456789TJQKA".index(c[0]),
                                                       "cdhs".index(c[1])))
            legal = {a[5:] for a in view["legal_actions"] if a.startswith("play ")}
            index = next(i for i, c in enumerate(hand) if c in legal)
            # Arrow keys move between the playable cards; Enter on the focused card plays it.
            keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused in legal
            keyboard.press(str(index + 1))
        elif phase == "chicago":
            keyboard.press("n")
        elif phase == "announce":
            keyboard.press("a" if any(a.startswith("announce") for a in view["legal_actions"])
                           else "p")
        else:
            page.locator(".actions button:not([disabled])").first.press("Enter")
        used.add(phase)
        player.turns += 1
        page.wait_for_function("b => window.chicago.table.conn.lastSeq > b", arg=before)
    assert {"exchange", "announce"} <= used
    context.close()


def test_server_errors_are_shown_in_words(browser: Any, live: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page, _, _ = seated_page(context, live, ["open", "bot:random"], rules={"max_deals": 1})
    player = Player(page, live)
    assert player.state() == "turn"
    # An action the engine refuses: the reason is shown, the table is unchanged.
    page.evaluate("window.chicago.table.conn.act('announce royal flush')")
    note = page.locator(".notice.error")
    note.wait_for()
    text = note.inner_text()
    assert text.startswith("That move is not allowed.") and "The server says:" in text
    assert player.state() == "turn"
    # The same in Swedish.
    page.click("[data-lang=sv]")
    page.evaluate("window.chicago.table.conn.act('play 2c')")
    sv_note = page.locator(".notice.error", has_text="Det draget är inte tillåtet.")
    sv_note.wait_for()
    assert sv_note.inner_text().split("\n")[0] == "Det draget är inte tillåtet."  # no English
    # A code the app has no words for: the Swedish fallback, the server's words labelled.
    page.evaluate("""() => import('./js/notice.js').then((n) => n.showError('brand_new_code',
      'something new'))""")
    page.locator(".notice.error", has_text="Det gick inte. Serverns meddelande (på engelska): "
                 "something new").wait_for()
    page.click("[data-lang=en]")
    # A lobby error: joining a table that does not exist.
    page.goto(f"{live.url}#/table/no-such-table")
    page.locator("[role=alert]", has_text="There is no such table.").wait_for()
    context.close()


def test_one_up_card_and_the_chicago_call(browser: Any, live: LiveServer, artifacts: Path) -> None:
    """V-ONE-UP: one card exchanged face up, then taken; R-CHI-1: declaring Chicago."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page, _, _ = seated_page(context, live, ["open", "bot:random"], preset="wikipedia",
                                rules={"max_deals": 1})
    player = Player(page, live, artifacts, "one-up")
    assert player.state() == "turn"
    one_up = page.locator("[data-action=one-up]")
    assert one_up.is_disabled()  # needs exactly one selected card
    first = page.locator(".hand button[data-card]").first
    thrown = first.get_attribute("data-card")
    first.click()
    assert one_up.is_enabled()
    player.click_and_wait("[data-action=one-up]")
    assert player.state() == "turn"
    face_up = page.locator(".one-up [data-card]").get_attribute("data-card")
    assert page.locator(".one-up .label").inner_text() == "Face up for you"
    # The card thrown for the face-up one counts among the discards while the answer waits.
    pile = int(page.get_attribute(".stock", "data-pile"))
    assert pile == player.view()["discard_pile"] and f"Discards: {pile}" in page.locator(
        ".stock").inner_text()
    assert page.locator("[data-action=accept]").inner_text().startswith("Take ")
    player.shot("face-up")
    player.click_and_wait("[data-action=accept]")
    hand = player.view()["hand"]
    assert face_up in hand and thrown not in hand
    # Play on. At the Chicago call (wikipedia: any score may declare) say Chicago; if the bot
    # declared first (it is asked first when it sits left of the dealer), its call shows.
    declared = None
    while player.state() == "turn":
        view = player.view()
        if view["phase"] == "chicago":
            player.click_and_wait("[data-action=chicago]")
            declared = "You"
        elif view["chicago"] is not None and declared is None:
            declared = "Bot 2"
        if declared and view["phase"] != "chicago":
            banner = page.locator(".chicago-banner").inner_text()
            assert banner == f"{declared} declared Chicago!"
            player.shot("chicago")
            break
        if view["phase"] != "chicago":
            player.act()
    assert declared is not None, "the Chicago call was never made"
    assert player.play_deal() == "over"
    text = page.locator("[data-dialog=game-over]").inner_text()
    assert "the Chicago" in text or "The Chicago failed" in text
    context.close()


def test_a_notice_goes_with_the_page_it_belongs_to(browser: Any, live: LiveServer) -> None:
    """A table's short message ("Link copied", "Only one choice, so it was made for you")
    does not float over the next page: leaving the table hides it at once, not after its
    four seconds."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        table = api(live, "POST", "api/tables", {"seats": ["open", "open"]})
        page, _ = join_page(context, live, table["id"], name="Anna")
        page.wait_for_selector("[data-action=copy-invite]")
        # All in the page, within milliseconds: the notice shows, then the page changes.
        shown, hidden_after = page.evaluate("""async () => {
          const note = document.getElementById("notice");
          document.querySelector("[data-action=copy-invite]").click();
          for (let i = 0; i < 200 && note.hidden; i++) await new Promise(r => setTimeout(r, 5));
          const shown = !note.hidden;
          const changed = new Promise(
            r => window.addEventListener("hashchange", r, { once: true }));
          location.hash = "#/games";
          await changed;
          return [shown, note.hidden];
        }""")
        assert shown
        assert hidden_after
    finally:
        context.close()
