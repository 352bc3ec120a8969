"""The terminal at 80x24 in both languages (issue 29), with Textual's pilot.

- The odds window (``h``) shows every hold's five cards and every number whole at 80
  columns: the kept cards, the worth and the expected points always, the chances of the
  categories by priority (the greatest first), the others one key away (→ and ←).
- ``chicago replay`` keeps the face-up hands on the table at a step that ends a deal (its
  many lines scroll below them instead of pushing them off the screen).
- Below 80x24 a message says so, in the app's language, instead of a cut table.
- Ctrl+C says how to quit in the app's language (not Textual's "Do you want to quit?
  Press ctrl+q").
- The line mode's reminder lists the choices in the words it reads in that language
  (``passa, säg par``, not ``pass, announce pair``), each of which it accepts.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from chicago import Game, Rules
from chicago.tui.app import PlayApp
from chicago.tui.hints import category_columns
from chicago.tui.inputs import expected_answer, parse_answer, typed_answer
from chicago.tui.replay_app import ReplayApp
from chicago.tui.replayer import Replayer
from chicago.tui.session import PlaySession
from chicago.tui.words import Words, symbol_card
from test_play_support import screen_text

LANGS = ["en", "sv"]


def _session(tmp_path: Path, seed: int = 3) -> PlaySession:
    return PlaySession.new(Rules.preset("pagat"), players=4, bot_specs=["basic"], seed=seed,
                           save_path=tmp_path / "game.json")


def _odds_pages(tmp_path: Path, lang: str, size: tuple[int, int]) -> tuple[list[str], Words]:
    """The odds window's text on each of its pages (→ turns them)."""
    session = _session(tmp_path)
    words = Words(session.names, me=session.human, lang=lang)
    pages: list[str] = []

    async def main() -> None:
        app = PlayApp(session, delay=0, lang=lang)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            pages.append(screen_text(app))
            for _ in range(4):
                await pilot.press("right")
                await pilot.pause()
                text = screen_text(app)
                if text == pages[-1]:
                    break
                pages.append(text)

    asyncio.run(main())
    return pages, words


@pytest.mark.parametrize("lang", LANGS)
def test_the_odds_window_is_whole_at_80x24(tmp_path: Path, lang: str) -> None:
    pages, words = _odds_pages(tmp_path, lang, (80, 24))
    assert len(pages) >= 2  # not every category fits beside the cards at 80 columns
    hand = "2♦ 2♠ 5♠ 10♣ 10♦"
    for text in pages:
        assert "…" not in text
        assert hand in text  # the whole hand kept, five cards
        assert "2♦ 2♠ ·· 10♣ 10♦" in text and "·· ·· ·· 10♣ 10♦" in text  # holds told apart
        head = next(line for line in text.splitlines() if words.t("hint.keep") + " " in line
                    and words.t("hint.worth") in line)
        assert words.t("tui.hint.exp") in head
    rules = Rules.preset("pagat")
    shown = set()
    for text in pages:
        head = next(line for line in text.splitlines() if words.t("hint.worth") in line)
        shown |= {name for name in category_columns(rules)
                  if f" {words.t(f'tui.hint.abbr.{name}')} " in head + " "}
    assert shown == set(category_columns(rules))
    first_head = next(line for line in pages[0].splitlines() if words.t("hint.worth") in line)
    assert f" {words.t('tui.hint.abbr.TWO_PAIR')} " in first_head  # the likeliest come first
    assert words.t("tui.window_pages") in pages[0]  # the window's border says how


def test_the_odds_window_shows_every_column_at_once_when_wide(tmp_path: Path) -> None:
    pages, _ = _odds_pages(tmp_path, "en", (140, 40))
    assert len(pages) == 1 and "…" not in pages[0]


def _replayer() -> Replayer:
    game = Game(Rules.preset("pagat", max_deals=3), players=4, seed=12)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return Replayer(game.record(), tags={"Name0": "You", "Name1": "Astrid", "Name2": "Bosse",
                                         "Name3": "Cissi", "Human": "0"})


@pytest.mark.parametrize("lang", LANGS)
def test_a_replay_keeps_the_hands_on_screen_at_a_deals_end(lang: str) -> None:
    """Step 80 ends deal 2 and deals deal 3: its lines used to push three hands away."""
    replayer = _replayer()
    hands = replayer.hands_at(80)
    words = Words(replayer.names, me=replayer.you, card=symbol_card, lang=lang)
    assert len(hands) == 4

    async def main() -> None:
        app = ReplayApp(replayer, start=80, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            for seat, hand in hands.items():
                line = next((row for row in text.splitlines()
                             if f" {words.who(seat)}: " in row), "")
                assert all(words.card(c) in line for c in hand), (seat, hand, text)

    asyncio.run(main())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [(79, 24), (80, 23), (60, 15)])
def test_below_80x24_a_message_says_so(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    session = _session(tmp_path)
    words = Words(session.names, lang=lang)
    expected = words.t("tui.too_small", w=size[0], h=size[1], min_w=80, min_h=24,
                       plain="chicago play --plain --resume")

    async def main() -> None:
        app = PlayApp(session, delay=0, lang=lang)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            assert expected.split(":")[0] in text
            assert "80×24" in text
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert expected.split(":")[0] not in " ".join(screen_text(app).split())

    asyncio.run(main())


@pytest.mark.parametrize("lang", LANGS)
def test_ctrl_c_says_how_to_quit_in_the_apps_language(tmp_path: Path, lang: str) -> None:
    session = _session(tmp_path)
    words = Words(session.names, lang=lang)

    async def main() -> None:
        for app, message in ((PlayApp(session, delay=0, lang=lang), "tui.quit.play"),
                             (ReplayApp(_replayer(), lang=lang), "tui.quit.replay")):
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.press("ctrl+c")
                await pilot.pause()
                said = [(n.title, n.message) for n in app._notifications]
                assert said == [(words.t("tui.quit.title"), words.t(message))]
                assert "ctrl+q" not in str(said)
                assert app.is_running  # Ctrl+C itself quits nothing

    asyncio.run(main())


def _announce_view() -> Any:
    """A seat's view in a scoring round where it may pass or announce a pair."""
    for seed in range(500):
        game = Game(Rules.preset("pagat"), players=4, seed=seed)
        while game.to_act is not None and game.view(game.to_act).phase == "exchange":
            game.apply("keep")
        seat = game.to_act
        if seat is None:
            continue
        view = game.view(seat)
        if view.phase == "announce" and [str(a) for a in view.legal_actions] == [
                "pass", "announce pair"]:
            return view
    raise AssertionError("no such deal in 500 seeds")


def test_the_line_modes_reminder_names_the_choices_in_swedish() -> None:
    view = _announce_view()
    swedish = Words([], lang="sv")
    reminder = expected_answer(view, menu=True, words=swedish)
    assert reminder == swedish.t("tui.in.expect_menu", n=2, choices="passa, säg par")
    assert "announce" not in reminder and "pass," not in reminder
    assert expected_answer(view, menu=True) == Words([]).t(
        "tui.in.expect_menu", n=2, choices="pass, announce pair")
    for typed, action in (("passa", "pass"), ("säg par", "announce pair")):
        assert str(parse_answer(typed, view, menu=False)) == action


@pytest.mark.parametrize("action", [
    "pass", "announce pair", "announce two pair", "announce three of a kind",
    "announce straight", "announce flush", "announce full house", "announce four of a kind",
    "announce straight flush", "announce royal flush", "chicago", "no chicago", "accept",
    "reject", "redeal", "reset", "reset 2", "score", "play Ah",
])
def test_every_swedish_typed_answer_is_read_back(action: str) -> None:
    """What the reminder offers in Swedish, typed, reads as the action it stands for (the
    Swedish words are turned into the action's text before the action is parsed)."""
    from chicago.tui.inputs import _english

    assert _english(typed_answer(action, Words([], lang="sv"))) == action


@pytest.mark.parametrize("lang", LANGS)
def test_the_deal_end_does_not_repeat_its_question_on_a_wrong_key(
    tmp_path: Path, lang: str
) -> None:
    """At the end of a deal the prompt asks for Enter once; a wrong key (a card's number,
    a letter, the odds) says that nothing can be done now, not the question a second time."""
    from test_tui_screens import play_until_deal_end

    session = _session(tmp_path)
    words = Words(session.names, lang=lang)

    async def main() -> None:
        app = PlayApp(session, delay=0, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await play_until_deal_end(app, pilot, {})
            assert app.paused_summary is not None
            for key in ("3", "p", "h"):
                await pilot.press(key)
                await pilot.pause()
                prompt = " ".join(screen_text(app).split())
                assert prompt.count(words.t("tui.fs.press_enter")) == 1, (key, prompt)
                assert words.t("tui.fs.not_now_deal_over") in prompt, key

    asyncio.run(main())


@pytest.mark.parametrize(("encoding", "symbols"), [("utf-8", True), ("ascii", False)])
def test_the_plain_mode_writes_cards_as_the_screen_does_where_it_can(
    tmp_path: Path, encoding: str, symbols: bool
) -> None:
    """One notation where a person reads: the suit symbols (as the full screen and the
    review), the plain letters of the notation only where the output cannot show them."""
    import io
    import re

    from chicago.tui.plain import play_plain

    session = PlaySession.new(Rules.preset("pagat", max_deals=1), players=3,
                              bot_specs=["random"], seed=4, save_path=None)
    raw = io.BytesIO()
    # (other marks, as the "·" between parts of a line, are not the point here: replaced)
    out = io.TextIOWrapper(raw, encoding=encoding, errors="replace", write_through=True)
    assert play_plain(session, io.StringIO("0\n" * 200), out) == 0
    text = raw.getvalue().decode(encoding)
    # what to type is shown as typed: the example cards of the exchange question
    typed = re.sub(r"\((?:[2-9TJQKA][cdhs] ?)+\)", "", text)
    letters = re.findall(r"(?<![\w'])[2-9TJQKA][cdhs](?![\w'])", typed)
    if symbols:
        assert re.search(r"(10|[2-9JQKA])[♥♦♣♠]", text) and letters == [], letters[:5]
    else:
        assert not re.search("[♥♦♣♠]", text) and letters


@pytest.mark.parametrize(("lang", "names"), [("en", ["You", "Bot 2", "Bot 3", "Bot 4"]),
                                             ("sv", ["You", "Dator 2", "Dator 3", "Dator 4"])])
def test_the_bots_have_the_browsers_names(lang: str, names: list[str]) -> None:
    session = PlaySession.new(Rules.preset("pagat"), players=4, bot_specs=["basic"], seed=1,
                              lang=lang)
    assert session.names == names
    assert [session.tags[f"Name{s}"] for s in range(4)] == names
