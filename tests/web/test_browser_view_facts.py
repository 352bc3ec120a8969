"""The browser derives nothing (issue 24): it shows the facts the view carries.

Hand sizes are the view's ``hand_sizes`` (the page counted five less the cards played, or six
for a locked V-LOCK-6 player, itself), the scoring round is the view's ``scoring_round`` (the
page rebuilt it from the events), and a Chicago's points are the view's ``chicago_points``
(the page assumed 15 without the rules). Each check renders a real engine view whose facts
the old derivations would have got wrong or could not know.
"""

from __future__ import annotations

import random
from typing import Any

from chicago import Game, Rules
from chicago.engine.viewjson import view_json
from engine_helpers import game, keep_all, run

_PANEL = """async ([view, seat, events]) => {
  const w = await import('./js/words.js');
  const b = await import('./js/board.js');
  const names = new w.Names(['Ann', 'Bo', 'Cy', 'Di'], view.seat);
  const ctx = { names, me: view.seat, seats: null, events };
  const panel = b.seatPanel(view, seat, ctx);
  return {
    backs: panel.querySelectorAll('.backs .card').length,
    said: panel.querySelector('.said')?.textContent ?? null,
    round: b.roundInfo(view),
  };
}"""


def test_the_card_backs_are_the_views_hand_sizes(page: Any) -> None:
    """A seat's backs are ``hand_sizes``: a face-up card waiting (V-ONE-UP) leaves four in
    that seat's hand, which the page's count (five) got wrong."""
    rules = Rules.preset("wikipedia").with_variations("V-ONE-UP")
    g = Game(rules, 4, seed=2)
    asking = g.to_act
    assert asking is not None
    one_up = next(a for a in g.legal_actions() if a.kind.name == "ONE_UP")
    g.apply(one_up)
    onlooker = (asking + 1) % 4
    view = view_json(g.view(onlooker))
    assert view["hand_sizes"][asking] == 4
    panel = page.evaluate(_PANEL, [view, asking, view["events"]])
    assert panel["backs"] == 4
    # the facts come from the view alone: other sizes are drawn as the view says
    view["hand_sizes"] = [3, 3, 3, 3]
    assert page.evaluate(_PANEL, [view, asking, view["events"]])["backs"] == 3


def test_the_scoring_round_is_the_views(page: Any) -> None:
    """The words and tie-break stages on the seat panels come from ``scoring_round``, not
    from the events (the page is given none)."""
    g = game("pagat", 4, dealer=3, hands=["9c 9d Kh 7s 2c", "5c 5d Qs 8h 3c",
                                            "9h 9s Kd Tc 4c", "2d 3d 4h 6s 8c"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair", "2: announce pair", "3: pass"])
    view = view_json(g.view(3))
    got = page.evaluate(_PANEL, [view, 2, []])
    assert got["round"]["order"] == [0, 1, 2, 3] and got["round"]["result"]["winner"] == 2
    assert got["round"]["reveals"]["0"] == ["9", "K", "7"]
    assert got["said"] is not None and "pair" in got["said"].lower()
    view["scoring_round"] = None  # no round on the view: nothing is said on the panel
    assert page.evaluate(_PANEL, [view, 2, view["events"]])["said"] is None


def test_a_chicago_is_worth_the_views_points(page: Any) -> None:
    """The banner of a Chicago call names the view's ``chicago_points`` (20 at this table)."""
    rules = Rules.preset("wikipedia", chicago_points=20)
    data = view_json(Game(rules, 3, seed=1).view(0))
    texts = page.evaluate("""async (view) => {
      const { momentsOf } = await import('./js/moments.js');
      const { Names } = await import('./js/words.js');
      const names = new Names(['Ann', 'Bo', 'Cy'], 0);
      return momentsOf([{ type: 'chicago', seat: 1, declared: true }], [], names, view)
        .map((m) => m.text);
    }""", data)
    assert texts == ["Bo declares Chicago: all five tricks for 20 points."]


_RECORD = """async ([end, events]) => {
  const b = await import('./js/board.js');
  return b.dealRecord(end, events);
}"""


def test_the_deal_appended_on_an_update_is_the_snapshots_history(page: Any) -> None:
    """Issue 30: on a ``deal_end`` the page appends to ``history`` the record a snapshot
    carries (the deal's tricks and its Chicago declarer, R-CHI-1), made from the deal's
    events as the seat got them; deals with and without a Chicago declared."""
    g = Game(Rules.preset("pagat", max_deals=4, chicago_min_score=None), 4, seed=11)
    rng = random.Random(11)
    seat, seen = 1, []
    while not g.is_over:
        legal = g.legal_actions()
        chicago = [a for a in legal if a.kind.name == "CHICAGO"]
        if chicago and g.deal_number % 2 == 0:  # a Chicago in every second deal
            g.apply(chicago[0])
        else:
            g.apply(rng.choice([a for a in legal if a.kind.name != "CHICAGO"]))
    deal: list[dict[str, Any]] = []
    for event in g.events_for(seat):
        data = event.to_json()
        if data["type"] == "deal":
            deal = []
        deal.append(data)
        if data["type"] == "deal_end":
            seen.append(page.evaluate(_RECORD, [data, deal]))
    history = view_json(g.view(seat))["history"]
    assert seen == history
    assert any(r["chicago"] is not None for r in history)
    assert any(r["chicago"] is None for r in history)
