"""chicago.advice: the holds of a hand ranked by what they are worth at the table (issue 16).

The hint used to rank holds by the poker points after the draw alone; with 6♣ 7♦ A♥ 5♥ Q♦
it advised keeping the lone 6♣ (0.641 expected points) over the lone ace (0.627), though
the ace may well take the last trick (R-TRICK-4: 5 points). The ranking of both shells now
adds the last trick and a Chicago (R-CHI-*) to the ``ev`` bot's estimate of the hand.
"""

from __future__ import annotations

import pickle

from chicago.advice import improvement, kept_category, rank_holds
from chicago.cards import parse_cards
from chicago.odds import draw_odds
from chicago.poker import Category
from chicago.server.hints import hint_answer
from chicago.tui.hints import hint
from engine_helpers import game


def _keep(advice: object) -> list[str]:
    return [str(c) for c in advice.keep]  # type: ignore[attr-defined]


def test_a_lone_ace_is_kept_before_a_lone_six_for_the_last_trick_R_TRICK_4() -> None:
    g = game("pagat", 4, dealer=3, hands={0: "6c 7d Ah 5h Qd"})
    view = g.view(0)
    holds = draw_odds(view.hand)
    # the finding: by poker points alone the lone six came first, by a hair
    assert _keep(holds[0]) == ["6c"]
    ace = next(h for h in holds if _keep(h) == ["Ah"])
    assert round(holds[0].expected_points, 2) == 0.64 and round(ace.expected_points, 2) == 0.63
    ranked = rank_holds(view, holds)
    order = [_keep(a) for a in ranked]
    assert "Ah" in order[0]
    assert order.index(["Ah"]) < order.index(["6c"])
    six = ranked[order.index(["6c"])]
    lone_ace = ranked[order.index(["Ah"])]
    assert lone_ace.trick > 2 * six.trick and lone_ace.value > six.value
    assert lone_ace.trick_chance > six.trick_chance


def test_a_chicago_counts_only_where_it_may_be_declared_R_CHI_2() -> None:
    hands = {0: "As Ks Ah Kh Ad"}
    rich = game("pagat", 4, dealer=3, hands=hands, scores=[20, 0, 0, 0]).view(0)
    poor = game("pagat", 4, dealer=3, hands=hands, scores=[0, 0, 0, 0]).view(0)
    for view, may in ((rich, True), (poor, False)):
        ranked = rank_holds(view, draw_odds(view.hand))
        best = ranked[0]
        assert not best.discard  # a full house of aces and kings is kept whole
        if may:  # nobody can take a trick from A-K of spades and hearts and A of diamonds
            assert best.chicago_chance == 1.0 and best.chicago > 0
        else:
            assert best.chicago_chance == 0.0 and best.chicago == 0.0
    none = game("denexa", 4, dealer=3, hands=hands, scores=[20, 0, 0, 0]).view(0)
    assert all(a.chicago == 0.0 for a in rank_holds(none, draw_odds(none.hand)))


def test_improvement_names_the_next_category_the_draw_can_reach() -> None:
    g = game("pagat", 4, dealer=3, hands={0: "7d 7h 2c Ks As"})
    view = g.view(0)
    ranked = {tuple(_keep(a)): a for a in rank_holds(view, draw_odds(view.hand))}
    pair = ranked[("7d", "7h")]
    target, chance = improvement(pair)  # type: ignore[misc]
    assert target == "TWO_PAIR"
    probabilities = pair.hold.probabilities
    assert chance == sum(p for name, p in probabilities.items()
                         if Category[name] >= Category.TWO_PAIR)
    keep_all = next(a for a in ranked.values() if not a.discard)
    assert improvement(keep_all) is None  # nothing drawn
    assert kept_category(parse_cards("7d 7h 7c")) is Category.THREE_OF_A_KIND
    assert kept_category(parse_cards("7d 7h Kc Ks")) is Category.TWO_PAIR
    assert kept_category(parse_cards("2c 7d 7h Ks As")) is Category.PAIR


def test_both_shells_rank_with_it_and_it_reads_only_the_view() -> None:
    g = game("pagat", 4, dealer=3, hands={0: "6c 7d Ah 5h Qd"})
    view = g.view(0)
    ranked = [_keep(a) for a in rank_holds(view, draw_odds(view.hand))]
    assert [_keep(h) for h in hint(view).holds] == ranked  # the terminal's hint
    assert [h["keep"] for h in hint_answer(view, [], top=32)["holds"]] == ranked  # the web's
    copy = pickle.loads(pickle.dumps(view))  # the view alone, no game behind it
    assert [_keep(a) for a in rank_holds(copy, draw_odds(copy.hand))] == ranked
