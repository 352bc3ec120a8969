"""Issue 16, words: every mark on the table is explained, every prompt has its buttons.

- On real engine views of every kind of decision (exchanges, the face-up card, low hands,
  scoring rounds with a forced pass, four of a kind, the Chicago call, tricks), the page's
  prompt for the seat to act comes with a button (or a card) for each of its legal actions;
  a forced pass says why it is the only choice.
- The exchange counts, the Locked, dealer, Chicago and bot badges carry their meaning in a
  tooltip; the help page explains the marks and states each preset's Chicago call exactly.
- The waiting room says nothing about the cards before the game starts.
- No emoji anywhere in the app (the clock's glyph was an empty box without an emoji font).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from chicago import Game, Rules
from chicago.engine.viewjson import view_json
from chicago.web import STATIC_DIR

from .driver import api, join_page
from .serving import LiveServer


def _decisions() -> list[dict[str, Any]]:
    """One view of the seat to act for each kind of decision met in random games."""
    found: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    variants = [
        Rules.preset("wikipedia", max_deals=3),  # the face-up card (V-ONE-UP)
        Rules.preset("pagat", max_deals=3).with_variations("V-QUADS-RESET", "V-REDEAL-LOW"),
        Rules.preset("pagat", max_deals=3, chicago_min_score=None, negative_scores=True),
    ]
    for rules in variants:
        for seed in range(25):
            game = Game(rules, players=3, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                seat = game.to_act
                assert seat is not None
                view = view_json(game.view(seat))
                kinds = tuple(sorted({a.split(" ")[0] for a in view["legal_actions"]}))
                found.setdefault((view["phase"], kinds), view)
                game.apply(rng.choice(game.legal_actions()))
    return list(found.values())


_RENDER = """async (views) => {
  const { TablePage } = await import('./js/table.js');
  const out = [];
  for (const view of views) {
    const root = document.createElement('div');
    const tp = new TablePage(root, 'test');
    tp.table = { seats: [0, 1, 2].map((s) => ({ seat: s, kind: 'human', name: `P${s}` })),
                 rules: view.rules, status: 'playing' };
    tp.you = view.seat;
    tp.view = view;
    tp.status = 'open';  // connected (a table that cannot be reached takes no move)
    tp.conn = { lastSeq: 1, request() { return true; }, act() { return null; }, close() {} };
    const names = tp.names();
    const prompt = tp.prompt(names).textContent;
    const area = document.createElement('div');
    area.append(tp.handArea(names), tp.actions(names));
    const actions = [...area.querySelectorAll('.actions button')].map((b) => b.dataset.action);
    const cards = [...area.querySelectorAll('.hand button[data-card]:not([disabled])')]
      .map((b) => b.dataset.card);
    tp.unmount();
    out.push({ prompt, actions, cards });
  }
  return out;
}"""

_BUTTON = {"pass": "pass", "announce": "announce", "keep": "keep", "discard": "exchange",
           "one": "one-up", "accept": "accept", "reject": "reject", "redeal": "redeal",
           "chicago": "chicago", "no": "no-chicago", "reset": "reset", "score": "score"}


def test_every_prompt_comes_with_a_button_for_each_legal_action(page: Any) -> None:
    views = _decisions()
    phases = {v["phase"] for v in views}
    assert {"exchange", "announce", "play", "chicago", "one up", "redeal", "quads"} <= phases
    rendered = page.evaluate(_RENDER, views)
    forced = 0
    for view, shown in zip(views, rendered, strict=True):
        legal = view["legal_actions"]
        assert shown["prompt"].startswith("Your turn: "), shown["prompt"]
        assert shown["prompt"] != "Your turn: " + ", ".join(legal)  # words, not notation
        for action in legal:
            kind = action.split(" ")[0]
            if kind == "play":
                assert action[5:] in shown["cards"], (action, shown)
            else:
                assert _BUTTON[kind] in shown["actions"], (view["phase"], action, shown)
        if view["phase"] == "announce" and legal == ["pass"]:
            forced += 1
            assert "so you can only pass" in shown["prompt"], shown["prompt"]
            assert "announce your hand" not in shown["prompt"]
    assert forced, "no forced pass met"


def test_marks_have_tooltips_and_the_help_page_explains_them(
    browser: Any, live: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    table_id = api(live, "POST", "api/tables", {
        "seats": ["open", "open", "bot:basic"], "rules": {"lock_at": 1, "max_deals": 2}})["id"]
    page, _ = join_page(context, live, table_id, name="Anna")
    # the waiting room: no word about cards before any are dealt
    head = page.locator("[data-testid=phase]").inner_text()
    assert head == "waiting for 1 more player", head
    assert "redealt" not in page.locator(".table-page").inner_text()
    other, _ = join_page(browser.new_context(), live, table_id, name="Bo")
    page.wait_for_selector(".hand [data-card]")
    counts = page.locator(".seat .exchanges").first
    assert "thrown away and drawn in each exchange round" in counts.get_attribute("title")
    assert "× a round the player is locked out of" in counts.get_attribute("title")
    dealer = page.locator(".chip.dealer").first.get_attribute("title")
    assert "dealer" in dealer.lower()
    bot = page.locator(".badge.bot").first.get_attribute("title")
    assert bot == "A bot (Bosse: plays by rules of thumb) plays this seat."
    other.context.close()
    # the help page: the marks, and every preset's Chicago call in full sentences
    page.goto(f"{live.url}#/help")
    page.wait_for_selector(".preset-rule[data-preset=wikipedia-42]")
    text = page.locator(".help").inner_text()
    assert "× · ×" in text and "The player is locked: no exchange this deal." in text
    rules = {p: page.locator(f".preset-rule[data-preset={p}]").inner_text()
             for p in ("pagat", "denexa", "wikipedia", "wikipedia-42")}
    assert "at least 15 points" in rules["pagat"] and "scores 15 points" in rules["pagat"]
    assert "never falls below zero" in rules["pagat"]
    assert "no Chicago call" in rules["denexa"]
    assert "at any score" in rules["wikipedia"] and "may go below zero" in rules["wikipedia"]
    assert "must have declared a Chicago" in rules["wikipedia-42"]
    assert "a player with enough points" not in text
    context.close()


_MOMENTS = """async () => {
  const { momentsOf } = await import('./js/moments.js');
  const { Names } = await import('./js/words.js');
  const names = new Names(['Anna', 'Bo', 'Cy'], 0);
  const view = { chicago_points: 20, lock_at: 46 };  // the rule values the view carries
  const round = [
    { type: 'announce', seat: 1, round: 1, category: 'PAIR' },
    { type: 'announce', seat: 2, round: 1, category: 'PAIR' },
    { type: 'pass', seat: 0, round: 1 },
    { type: 'reveal', seat: 1, stage: 1, rank: 'K' },
    { type: 'reveal', seat: 2, stage: 1, rank: 'K' },
    { type: 'reveal', seat: 1, stage: 2, rank: 'Q' },
    { type: 'reveal', seat: 2, stage: 2, rank: 'J' },
    { type: 'round_result', round: 1, winner: 1, category: 'PAIR', points: 1, reason: 'best hand' },
    { type: 'score', seat: 1, points: 1, reason: 'scoring round 1', total: 1 },
  ];
  const chicago = [{ type: 'chicago', seat: 2, declared: true }];
  const broken = [
    { type: 'play', seat: 0, trick: 2, card: 'Ah' },
    { type: 'trick', trick: 2, winner: 0, card: 'Ah' },
    { type: 'chicago_result', seat: 2, made: false, broken_by: 0 },
    { type: 'score', seat: 2, points: -15, reason: 'Chicago failed', total: 5 },
  ];
  const last = [
    { type: 'trick', trick: 5, winner: 1, card: 'Ts' },
    { type: 'score', seat: 1, points: 5, reason: 'last trick', total: 9 },
    { type: 'deal_end', deal: 1, points: [0, 5, 0], scores: [0, 9, 5] },
    { type: 'deal', deal: 2, dealer: 1, scores: [0, 9, 5], locked: [false, false, true] },
  ];
  return [momentsOf(round, [], names, view), momentsOf(chicago, [], names, view),
          momentsOf(broken, [], names, view), momentsOf(last, [], names, view)];
}"""


def test_the_key_moments_in_words(page: Any) -> None:
    """The banners: a scoring round's winner, category, deciding tie-break step and points;
    a Chicago declared and broken (by whom, in which trick, for how much); the last trick;
    a lock at the deal's start. The points of a Chicago called are the view's
    ``chicago_points`` (20 here; the browser assumed 15 before), those of one broken the
    score's."""
    round_, chicago, broken, last = page.evaluate(_MOMENTS)
    assert round_ == [{"kind": "round",
                       "text": "Scoring round 1: Bo wins with a pair, 1 point.",
                       "detail": "The tie-break was decided at step 2: Bo queen, Cy jack."}]
    assert chicago[0]["text"] == "Cy declares Chicago: all five tricks for 20 points."
    assert broken[0]["text"] == ("The Chicago is broken: You take trick 2, and Cy loses "
                                 "15 points.")
    assert [m["kind"] for m in last] == ["last-trick", "lock"]
    assert last[0]["text"] == "Bo wins the last trick with 10♠: +5 points."
    assert last[1]["text"] == ("Locked this deal (46 points or more at the start, no "
                               "exchanges): Cy.")


# Characters shown as emoji (Unicode Emoji=Yes) below U+1F000, and everything from there up;
# the card suits ♠ ♣ ♥ ♦ are text in every font the app names, so they are allowed.
_EMOJI = re.compile(
    "[\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u2199\u21a9\u21aa\u231a\u231b\u2328\u23cf"
    "\u23e9-\u23f3\u23f8-\u23fa\u24c2\u25aa\u25ab\u25b6\u25c0\u25fb-\u25fe\u2600-\u2604"
    "\u260e\u2611\u2614\u2615\u2618\u261d\u2620\u2622\u2623\u2626\u262a\u262e\u262f"
    "\u2638-\u263a\u2640\u2642\u2648-\u2653\u265f\u2668\u267b\u267e\u267f\u2692-\u2697"
    "\u2699\u269b\u269c\u26a0\u26a1\u26a7\u26aa\u26ab\u26b0\u26b1\u26bd\u26be\u26c4\u26c5"
    "\u26c8\u26ce\u26cf\u26d1\u26d3\u26d4\u26e9\u26ea\u26f0-\u26f5\u26f7-\u26fa\u26fd\u2702"
    "\u2705\u2708-\u270d\u270f\u2712\u2714\u2716\u271d\u2721\u2728\u2733\u2734\u2744\u2747"
    "\u274c\u274e\u2753-\u2755\u2757\u2763\u2764\u2795-\u2797\u27a1\u27b0\u27bf\u2934\u2935"
    "\u2b05-\u2b07\u2b1b\u2b1c\u2b50\u2b55\u3030\u303d\u3297\u3299\ufe0f"
    "\U0001f000-\U0010ffff]")


def test_no_emoji_anywhere_in_the_app() -> None:
    files = [p for p in STATIC_DIR.rglob("*") if p.suffix in (".js", ".css", ".html", ".svg")]
    assert len(files) > 10
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in _EMOJI.finditer(line):
                found.append(f"{Path(path).name}:{number}: {match.group()!r}")
    assert found == []
