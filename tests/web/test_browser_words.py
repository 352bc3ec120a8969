"""The app's words and the logic behind what it shows, run in chromium on the real modules.

- The two language files have the same keys, every key is used by the app, every key the
  app asks for exists, and every error code the server can send has a text in both.
- "You" has its subject and object forms ("du"/"dig"); a person who gave no name (the
  server's `null`) and bots (by their seat's kind) are named in the page's language, and a
  finished game's seats tell a bot from a person who called themselves "basic".
- (The hint's known-out cards come with the view, ``known_out``, from the engine's seat
  knowledge: tests/test_engine_views.py checks them against the engine's true stock.)
- A hand shown before breaking a combination (R-EX-4) is drawn as a labelled row while the
  seat's backs follow the hand it holds now, on real engine views.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from chicago import Game, Rules
from chicago.engine.viewjson import view_json
from chicago.tui.lang import catalogue
from chicago.web import STATIC_DIR

JS = STATIC_DIR / "js"

# Keys looked up with a computed name: the family, the template that builds it, the members.
FAMILIES = {
    "err.": "`err.${",
    "conn.": "`conn.${",
    "level.": "`level.${",
    "cat.": "`cat.${",
    "cata.": "`cata.${",
    "rank.": "`rank.${",
    "suit.": "`suit.${",
    "preset.": "`preset.${",
    "var.": "`var.${",
    "speed.": "`speed.${",
    "reason.": "`reason.${",
    "grade.": "`grade.${",
    "review.phase.": "`review.phase.${",
    "why.": "`why.${",
    "practice.q.": "`practice.q.${",
    "levelnote.": "`levelnote.${",
    "presetname.": "`presetname.${",
    "guide.": "`guide.${",  # the guided game's explanations, one per part of a deal
    "help.body.": 'items("help.body")',
    "keys.list.": 'items("keys.list", ".key")',
    "tour.how_text.": 'items("tour.how_text")',
}
TERMINAL_ONLY = "tui."
"""The terminal's own keys in the shared catalogue (tests/test_lang_catalogue.py checks
the terminal's use of them)."""


def _lang_keys(page: Any) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = page.evaluate("""async () => {
      const { LANGS } = await import('./js/i18n.js');
      return { en: Object.keys(LANGS.en), sv: Object.keys(LANGS.sv) };
    }""")
    return keys


def _app_sources() -> str:
    files = [p for p in JS.rglob("*.js") if p.parent.name != "lang"]
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def server_error_codes() -> set[str]:
    """Every error code the server sends: the protocol's list, which
    tests/server/test_error_codes.py checks against every code the server's source sends."""
    from chicago.server.protocol import ERROR_CODES

    return set(ERROR_CODES)


def test_both_languages_have_the_same_keys_and_every_key_is_used(page: Any) -> None:
    keys = _lang_keys(page)
    en, sv = set(keys["en"]), set(keys["sv"])
    assert en - sv == set(), "English keys without Swedish"
    assert {k for k in sv - en if not k.startswith("tui.opt.")} == set(), \
        "Swedish keys without English"

    source = _app_sources()
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    in_html = set(re.findall(r'data-i18n="([^"]+)"', html))
    unused = []
    for key in sorted(en):
        if key.startswith(TERMINAL_ONLY):
            continue
        family = next((f for f in FAMILIES if key.startswith(f)), None)
        if family is not None:
            assert FAMILIES[family] in source, f"{family}* keys need {FAMILIES[family]}"
            continue
        literal = any(f"{q}{key}{q}" in source for q in ('"', "'", "`"))
        if not literal and key not in in_html:
            unused.append(key)
    assert unused == [], f"keys no page uses: {unused}"

    # Every key the app asks for by name exists (t("…") and data-i18n).
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("//", "*", "/*")))
    asked = set(re.findall(r'\bt\(\s*"([^"]+)"', code)) | in_html
    assert sorted(asked - en) == []

    # The computed families hold exactly what can be asked for.
    from chicago.bots import BOT_LEVELS, bot_levels
    from chicago.poker import Category
    from chicago.rules import PRESETS, VARIATIONS

    bot_levels()  # loads every installed level into BOT_LEVELS

    def family(prefix: str) -> set[str]:
        return {k[len(prefix):] for k in en if k.startswith(prefix)}

    assert family("cat.") == family("cata.") == {c.name for c in Category} | {"none"}
    from chicago.review.reasons import KEYS as REASONS

    assert family("why.") == {*REASONS, *(f"{k}.best" for k in REASONS), "equal", "score"}
    from chicago.review.summary import PHASE_ORDER

    assert family("practice.q.") == {p.replace(" ", "_") for p in PHASE_ORDER}
    assert family("rank.") == set("23456789TJQKA") and family("suit.") == set("cdhs")
    assert family("preset.") == set(PRESETS) and family("var.") == set(VARIATIONS)
    assert family("level.") == set(BOT_LEVELS) == family("levelnote.")
    assert family("presetname.") == set(PRESETS)
    assert family("conn.") == {"open", "connecting", "reconnecting", "closed", "signed_out",
                                 "claimed"}
    assert family("speed.") == {"slow", "normal", "fast", "instant"}
    from chicago.review import Grade
    from chicago.review.summary import PHASE_ORDER

    assert family("grade.") == {g.value for g in Grade}  # the review's grades and phases
    assert family("review.phase.") == {p.replace(" ", "_") for p in PHASE_ORDER}
    engine = (STATIC_DIR.parent.parent / "engine" / "game.py").read_text(encoding="utf-8")
    for reason in family("reason.") - {"scoring_round"}:
        assert f'"{reason}"' in engine, f"reason.{reason}: the engine has no such reason"


def test_every_server_error_code_has_words_in_both_languages(page: Any) -> None:
    keys = _lang_keys(page)
    codes = server_error_codes()
    assert {"bad_json", "bad_message", "hello_required", "not_found", "method_not_allowed",
            "http_error", "stale", "rate_limited", "not_your_turn", "too_large"} <= codes
    for lang in ("en", "sv"):
        have = {k[4:] for k in keys[lang] if k.startswith("err.")}
        assert codes - have == set(), (lang, sorted(codes - have))
        # ... and no text for a code nobody sends (the app's own: title, server, network)
        assert have - codes == {"title", "server", "network"}, (lang, sorted(have - codes))


_WORDS_JS = """async (lang) => {
  const i18n = await import('./js/i18n.js');
  const w = await import('./js/words.js');
  i18n.setLang(lang);
  const names = new w.Names(w.seatNames([
    { seat: 0, kind: 'human', name: null },
    { seat: 1, kind: 'bot', level: 'basic', name: 'basic' },
    { seat: 2, kind: 'human', name: 'Bo' }, { seat: 3, kind: 'human', name: 'Player 9' }]), 0);
  const ev = (e) => w.describe(e, names);
  const out = {
    plain: [0, 1, 2, 3].map((s) => names.plain(s)),
    faceUp: i18n.t('center.face_up', { whom: names.whom(0) }),
    oneUp: ev({ type: 'one_up', seat: 0, card: 'Ah' }),
    line: i18n.t('phase.line', { deal: 1, dealer: names.who(0), you: true }),
    lineBo: i18n.t('phase.line', { deal: 2, dealer: names.who(2), you: false }),
    pass: ev({ type: 'pass', seat: 0, round: 1 }),
    passBo: ev({ type: 'pass', seat: 2, round: 1 }),
    locked: ev({ type: 'deal', deal: 3, dealer: 2, locked: [true, false, true, false] }),
    roundWin: ev({ type: 'round_result', round: 1, winner: 0, category: 'PAIR', points: 1,
                   reason: 'best hand' }),
    winner: names.list([0, 2], true),
    wait: i18n.t('q.wait', { whom: names.whom(1) }),
    games: w.gameNames({ names: ['Player 1', 'basic', 'random', 'basic'], seats: [
      { seat: 0, kind: 'human', level: null, name: null },
      { seat: 1, kind: 'bot', level: 'basic', name: 'basic' },
      { seat: 2, kind: 'bot', level: 'random', name: 'random' },
      { seat: 3, kind: 'human', level: null, name: 'basic' }] }),
    typed: w.seatNames([{ seat: 0, kind: 'human', name: 'Player 1' },
                        { seat: 1, kind: 'open', name: null }]),
    step: w.stepText({ seat: 1, deal: 1, action: 'announce pair',
      events: [{ type: 'announce', seat: 1, round: 1, category: 'PAIR' }] }, names),
    stepPlay: w.stepText({ seat: 2, deal: 1, action: 'play As',
      events: [{ type: 'play', seat: 2, card: 'As', trick: 1 }] }, names),
    stepHidden: w.stepText({ seat: 2, deal: 1, action: null,
      events: [{ type: 'exchange', seat: 2, round: 1, discarded: 2, drawn: 2 }] }, names),
    stepDiscard: w.stepText({ seat: 0, deal: 1, action: 'discard 2h Tc', events: [] }, names),
  };
  i18n.setLang('en');
  return out;
}"""


def test_you_has_subject_and_object_forms_and_default_names_are_translated(page: Any) -> None:
    en = page.evaluate(_WORDS_JS, "en")
    assert en["plain"] == ["Player 1", "Bot 2", "Bo", "Player 9"]  # "Player 9" at seat 4 is a name
    assert en["faceUp"] == "Face up for you"
    assert en["oneUp"] == "Face up for you: A♥."
    assert en["line"] == "Deal 1 · you deal" and en["lineBo"] == "Deal 2 · dealer Bo"
    assert en["pass"] == "You pass." and en["passBo"] == "Bo passes."
    assert en["locked"] == "Deal 3: Bo deals. Locked, no exchanges this deal: you, Bo."
    assert en["roundWin"] == "Scoring round 1: you win with a pair."
    assert en["winner"] == "You and Bo" and en["wait"] == "Waiting for Bot 2."
    assert en["games"] == ["Player 1", "Bot 2 (Bosse)", "Bot 3 (Rut)", "basic"]
    assert en["typed"] == ["Player 1", "Seat 2"]
    assert en["step"] == "Bot 2 announces a pair." and en["stepPlay"] == "Bo plays A♠."
    assert en["stepHidden"] == "Bo exchanges 2 cards."
    assert en["stepDiscard"] == "You throw away 2♥ 10♣."

    sv = page.evaluate(_WORDS_JS, "sv")
    assert sv["plain"] == ["Spelare 1", "Dator 2", "Bo", "Player 9"]
    assert sv["faceUp"] == "Öppet kort för dig"
    assert sv["oneUp"] == "Öppet kort för dig: A♥."
    assert sv["line"] == "Giv 1 · du ger" and sv["lineBo"] == "Giv 2 · Bo ger"
    assert sv["pass"] == "Du passar." and sv["passBo"] == "Bo passar."
    assert sv["locked"] == "Giv 3: Bo ger. Låsta (köpstopp), inga byten i den här given: du, Bo."
    assert sv["roundWin"] == "Poängrunda 1: du vinner med ett par."
    assert sv["winner"] == "Du och Bo" and sv["wait"] == "Väntar på Dator 2."
    assert sv["games"] == ["Spelare 1", "Dator 2 (Bosse)", "Dator 3 (Rut)", "basic"]
    assert sv["typed"] == ["Player 1", "Plats 2"]  # a name someone typed stays as typed
    assert sv["step"] == "Dator 2 säger ett par." and sv["stepPlay"] == "Bo spelar A♠."
    assert sv["stepHidden"] == "Bo byter 2 kort."
    assert sv["stepDiscard"] == "Du slänger 2♥ 10♣."


def test_swedish_words_a_club_player_uses() -> None:
    """The Swedish catalogue says "säga" (not "anmäla"), "öppet kort"/"neka" (not "uppvänt"/
    "vägra"), "givare", "förväntade poäng", and has no English server words in errors."""
    swedish = catalogue("sv")
    for wrong in ("nmäl", "ppvänt", "ägra", "Väntade poäng", "Inte gjort"):
        assert not [key for key, text in swedish.items() if wrong in text], wrong
    assert "Ger" not in swedish.values()
    for key, right in (("btn.announce", "Säg {cat}"), ("ev.announce", "{Who} säger {cat}."),
                       ("table.dealer", "Givare"), ("hint.expected", "Förväntade poäng"),
                       ("btn.reject", "Neka"), ("btn.one_up", "Öppet kort"),
                       ("err.title", "Det gick inte.")):
        assert swedish[key] == right, key


# ------------------------------------------------------------------ shown hands
def _show_game() -> tuple[Game, int, list[str], list[tuple[str, dict[str, Any], int]]]:
    """A seeded random game in which a seat shows its hand before breaking a combination;
    the views of another seat at each later decision (phase, view, the shower's hand size)."""
    for seed in range(500):
        game = Game(Rules.preset("pagat", max_deals=1), players=4, seed=seed)
        rng = random.Random(seed)
        shower = None
        shown: list[str] = []
        snaps: list[tuple[str, dict[str, Any], int]] = []
        while not game.is_over:
            if shower is not None and game.to_act != shower:
                viewer = (shower + 1) % 4
                view = view_json(game.view(viewer))
                snaps.append((view["phase"], view, len(game.hands[shower])))
            game.apply(rng.choice(game.legal_actions()))
            for ev in view_json(game.view(None))["events"]:
                if (shower is None and ev["type"] == "show"
                        and ev["reason"] == "breaks a combination announced as highest"):
                    shower, shown = ev["seat"], ev["cards"]
        if shower is not None and any(p == "play" for p, _, _ in snaps):
            return game, shower, shown, snaps
    raise AssertionError("no game with a shown hand")


def test_a_shown_hand_is_a_labelled_row_and_the_backs_follow_the_hand(page: Any) -> None:
    _, shower, _, snaps = _show_game()
    exchanges = [s for s in snaps if s[0] == "exchange"]
    picked = exchanges[:1] + [s for s in snaps if s[0] == "play"][-2:]
    for phase, view, held in picked:
        viewer = view["seat"]
        panel = page.evaluate("""async ([view, seat, lang]) => {
          const i18n = await import('./js/i18n.js');
          const w = await import('./js/words.js');
          const b = await import('./js/board.js');
          i18n.setLang(lang);
          const names = new w.Names(['A', 'B', 'C', 'D'], view.seat);
          const ctx = { names, me: view.seat, seats: null, events: view.events };
          const el = b.seatPanel(view, seat, ctx);
          const out = {
            backs: el.querySelectorAll('.backs .card').length,
            shown: [...el.querySelectorAll('.shown [data-card]')].map((e) => e.dataset.card),
            label: el.querySelector('.shown .label')?.textContent,
            cards: [...el.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
          };
          i18n.setLang('en');
          return out;
        }""", [view, shower, "en"])
        assert panel["backs"] == held, (phase, panel["backs"], held)
        now_shown = view["shown"][str(shower)]  # the latest show (a seat may show twice)
        assert panel["shown"] == now_shown and panel["label"] == "Shown before exchanging"
        played = set(view["played"][shower])
        assert set(panel["cards"]) <= set(now_shown) | played  # nothing this seat has not seen
        assert viewer != shower
    sv = page.evaluate("""async () => {
      const i18n = await import('./js/i18n.js');
      i18n.setLang('sv');
      const text = i18n.t('table.shown_break');
      i18n.setLang('en');
      return text;
    }""")
    assert sv == "Visade före bytet"


def test_the_page_holds_no_card_of_a_seat_that_the_view_does_not_hold(page: Any) -> None:
    """The shown-hand row draws only ``state.shown`` (public) and the pile: a spectator's
    rendering of a whole seat view holds no card that is not in that view."""
    game, shower, _, snaps = _show_game()
    _, view, _ = snaps[-1]
    public = view_json(game.view(None))
    rendered = page.evaluate("""async (view) => {
      const w = await import('./js/words.js');
      const b = await import('./js/board.js');
      const names = new w.Names(['A', 'B', 'C', 'D'], null);
      const ctx = { names, me: null, seats: null, events: view.events };
      return [0, 1, 2, 3].flatMap((s) =>
        [...b.seatPanel(view, s, ctx).querySelectorAll('[data-card]')].map((e) => e.dataset.card));
    }""", public)
    assert set(rendered) <= set(re.findall(r'"([2-9TJQKA][cdhs])"', json.dumps(public)))
    assert view["seat"] != shower


_DESCRIBE_JS = """async ([events, me, lang]) => {
  const i18n = await import('./js/i18n.js');
  const w = await import('./js/words.js');
  i18n.setLang(lang);
  const names = new w.Names(['Ann', 'Bo', 'Cy'], me);
  const out = events.map((e) => [e.type, w.describe(e, names)]);
  i18n.setLang('en');
  return out;
}"""


@pytest.mark.parametrize("where", ["scoring round", "last exchange"])
def test_a_voided_quads_reset_in_words_V_QUADS_RESET(page: Any, where: str) -> None:
    """V-QUADS-RESET: only the highest four of a kind may reset. Seat 0 (four nines) resets,
    seat 1 (four kings) shows them and objects: each seat reads it in its own words, in
    English and Swedish, on a real engine game; the nines are named to nobody but seat 0."""
    from test_play_support import quads_objection_game

    g = quads_objection_game(where)
    english = {
        0: "Bo objects: only the highest four of a kind may reset, so your reset does not count.",
        1: "You object: only the highest four of a kind may reset, so Ann's reset does not count.",
        2: "Bo objects: only the highest four of a kind may reset, so Ann's reset does not count.",
    }
    swedish = {
        0: "Bo protesterar: bara det högsta fyrtalet får nollställa, så din nollställning "
           "gäller inte.",
        1: "Du protesterar: bara det högsta fyrtalet får nollställa, så nollställningen från "
           "Ann gäller inte.",
        2: "Bo protesterar: bara det högsta fyrtalet får nollställa, så nollställningen från "
           "Ann gäller inte.",
    }
    for seat in (0, 1, 2):
        events = [e.to_json() for e in g.events_for(seat)]
        for lang, objection in (("en", english[seat]), ("sv", swedish[seat])):
            lines = page.evaluate(_DESCRIBE_JS, [events, seat, lang])
            texts = [text for _, text in lines if text]
            assert objection in texts, (lang, seat, texts)
            show = texts[texts.index(objection) - 1]
            start = {
                "en": ("You show" if seat == 1 else "Bo shows")
                + " a higher four of a kind against the reset: ",
                "sv": ("Du visar" if seat == 1 else "Bo visar")
                + " ett högre fyrtal mot nollställningen: ",
            }[lang]
            assert show.startswith(start), show
            assert show.count("K") == 4, show  # the four kings, K♣ K♦ K♥ K♠
            if seat != 0:
                assert "9" not in " ".join(texts), "the lower four of a kind stays hidden"
            if where == "scoring round":
                chooses = {"en": "chooses to reset", "sv": "väljer att nollställa"}[lang]
                if seat != 0:
                    assert any(chooses in text for text in texts), texts
    label = page.evaluate("""async ([view, lang]) => {
      const i18n = await import('./js/i18n.js');
      const w = await import('./js/words.js');
      const b = await import('./js/board.js');
      i18n.setLang(lang);
      const names = new w.Names(['Ann', 'Bo', 'Cy'], view.seat);
      const el = b.seatPanel(view, 1, { names, me: view.seat, seats: null, events: view.events });
      const text = el.querySelector('.shown .label')?.textContent;
      i18n.setLang('en');
      return text;
    }""", [view_json(g.view(2)), "en"])
    assert label == "Shown: a higher four of a kind"


def test_a_reset_of_one_player_in_words_V_QUADS_ONE(page: Any) -> None:
    """V-QUADS-ONE: the browser says whom the reset lowers, in English and Swedish, for the
    holder, the player lowered and the third player (a real engine game)."""
    from engine_helpers import game, keep_all

    g = game(Rules.preset("pagat").with_variations("V-QUADS-ONE"), 3, dealer=2,
             hands=["9c 9d 9h 9s 2c"], scores=[10, 30, 20])
    keep_all(g)
    for text in ("announce four of a kind", "pass", "pass", "reset 1"):
        g.apply(text)
    expected = {
        ("en", 0): "You choose to reset Bo to zero.",
        ("en", 1): "Ann chooses to reset you to zero.",
        ("en", 2): "Ann chooses to reset Bo to zero.",
        ("sv", 0): "Du väljer att nollställa Bo.",
        ("sv", 1): "Ann väljer att nollställa dig.",
        ("sv", 2): "Ann väljer att nollställa Bo.",
    }
    for (lang, seat), line in expected.items():
        events = [e.to_json() for e in g.events_for(seat) if e.type == "quads_choice"]
        lines = page.evaluate(_DESCRIBE_JS, [events, seat, lang])
        assert [text for _, text in lines] == [line], (lang, seat)
