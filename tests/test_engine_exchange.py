"""Rules engine: exchanges, reshuffles, show on break and the lock (R-EX-1 … R-EX-5)."""

from __future__ import annotations

import pytest

from chicago import Rules
from chicago.cards import DECK
from engine_helpers import (
    advance_to,
    assert_illegal,
    events_of,
    game,
    jview,
    keep_all,
    pass_all,
    run,
    view_text,
)


def _accounted(g: object) -> list[int]:
    from chicago import Game

    assert isinstance(g, Game)
    cards = [c for h in g.hands for c in h] + list(g._stock) + list(g._discards)
    return sorted(cards)


# ------------------------------------------------------------------------------ R-EX-1
def test_r_ex_1_discard_and_draw_from_the_stock() -> None:
    """R-EX-1: discard any number face down, draw as many from the stock, in order."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"], stock="Ah Ad As 3s 4s Qd")
    run(g, ["0: discard 2c 5d 9h"])
    assert sorted(map(str, g.hands[0])) == sorted(["Js", "Kc", "Ah", "Ad", "As"])
    run(g, ["1: discard " + " ".join(map(str, g.hands[1]))])  # all five
    assert sorted(map(str, g.hands[1])) == sorted(["3s", "4s", "Qd"] + [str(c) for c in
                                                  g.hands[1] if str(c) not in "3s4sQd"])
    assert len(g.hands[1]) == 5
    assert [e["discarded"] for e in events_of(g, "exchange")] == [3, 5]


def test_r_ex_1_keep_is_allowed_and_all_32_ways_offered() -> None:
    """R-EX-1: keeping all five is allowed; 0-5 cards: 32 discards are legal."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    legal = [str(a) for a in g.legal_actions()]
    assert legal[0] == "keep" and len(legal) == 32 and len(set(legal)) == 32
    assert "discard 2c 5d 9h Js Kc" in legal
    run(g, ["0: keep"])
    assert sorted(map(str, g.hands[0])) == sorted(["2c", "5d", "9h", "Js", "Kc"])


# ------------------------------------------------------------------------------ R-EX-2
def test_r_ex_2_reshuffle_when_the_stock_runs_out() -> None:
    """R-EX-2: an empty stock is refilled from the discards so far, not the player's own."""
    g = game("pagat", 4, dealer=3, hands=[])
    for seat in range(4):  # round 1: 20 cards drawn, 12 left, 20 on the pile
        run(g, [f"{seat}: discard " + " ".join(map(str, g.hands[seat]))])
    pass_all(g)
    assert g.stock_count == 12 and g.discard_count == 20
    run(g, ["0: discard " + " ".join(map(str, g.hands[0]))])
    run(g, ["1: discard " + " ".join(map(str, g.hands[1]))])
    assert g.stock_count == 2 and g.discard_count == 30
    own = list(g.hands[2])
    run(g, ["2: discard " + " ".join(map(str, own))])
    assert events_of(g, "reshuffle") == [{"type": "reshuffle", "count": 30}]
    assert not set(own) & set(g.hands[2])  # nobody draws back what they just threw
    assert g.discard_count == 5 and g.stock_count == 27
    assert _accounted(g) == list(DECK)
    # the reshuffle is seeded: the same game again draws the same cards
    again = game("pagat", 4, dealer=3, hands=[])
    run(again, [f"{s}: {a}" for s, a in g.actions])
    assert again.hands == g.hands and again.events[-1].data == g.events[-1].data


def test_r_ex_2_refuses_more_than_stock_and_pile() -> None:
    """R-EX-2: a discard larger than stock + pile is refused with a clear error."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    # an artificial state: only three cards left to draw from
    g._discards = list(g._stock[:1])
    g._stock = list(g._stock[1:3])
    assert max(len(a.cards) for a in g.legal_actions()) == 3
    err = assert_illegal(g, "discard 2c 5d 9h Js", "only 3 cards", "R-EX-2")
    assert err.seat == 0


def test_r_ex_2_max_discard_limits_each_round() -> None:
    """R-EX-2 / V-LARGE: max_discard limits the cards one player discards per round."""
    g = game(Rules.preset("pagat", max_discard=3), 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert max(len(a.cards) for a in g.legal_actions()) == 3
    assert len(g.legal_actions()) == 1 + 5 + 10 + 10
    assert_illegal(g, "discard 2c 5d 9h Js", "at most 3", "max_discard")


# ------------------------------------------------------------------------------ R-EX-3
def test_r_ex_3_counts_public_cards_private() -> None:
    """R-EX-3: how many cards a player exchanged is public; which cards is private."""
    g = game("pagat", 3, dealer=2, hands=["2c 5d 9h Js Kc"], stock="Ah Ad As")
    run(g, ["0: discard 2c 5d 9h"])
    mine, theirs, spectator = view_text(g, 0), view_text(g, 1), view_text(g, None)
    for card in ("2c", "5d", "9h", "Ah", "Ad", "As"):
        assert card in mine
        assert card not in theirs and card not in spectator
    for seat in (None, 0, 1, 2):
        assert g.view(seat).exchanges == ((3, 0, 0),)
        assert {"type": "exchange", "seat": 0, "round": 1, "discarded": 3, "drawn": 3} in [
            e.to_json() for e in g.events_for(seat)
        ]
    assert [str(c) for c in g.view(0).discarded] == ["2c", "5d", "9h"]
    assert g.view(1).discarded == ()


# ------------------------------------------------------------------------------ R-EX-4
def _show_on_break_deal(preset: str) -> object:
    g = game(preset, 3, dealer=2, hands=["9c 9d Kh 7s 2c", "5c 5d Qs 8h 3c", "2d 4h 6s 8c Td"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair", "2: pass"])
    assert g.scores == [1, 0, 0]
    return g


def test_r_ex_4_breaking_the_highest_combination_shows_the_hand() -> None:
    """R-EX-4: the round's winner who discards a card of the announced pair shows first."""
    g = _show_on_break_deal("pagat")
    before = sorted(map(str, g.hands[0]))
    run(g, ["0: discard 9c 2c"])
    shows = events_of(g, "show")
    assert len(shows) == 1 and shows[0]["seat"] == 0
    assert sorted(shows[0]["cards"]) == before  # the whole hand, before the discard
    for seat in (None, 1, 2):
        assert sorted(jview(g, seat)["shown"]["0"]) == before
    kinds = [e.data["type"] for e in g.deal_events]
    assert kinds.index("show") < len(kinds) - 1  # the show comes before the exchange
    assert g.deal_events[kinds.index("show") + 1].data["type"] == "exchange"


def test_r_ex_4_equal_highest_also_shows() -> None:
    """R-EX-4: a player whose announcement was equal highest (lost the tie-break) shows too."""
    g = _show_on_break_deal("pagat")
    run(g, ["0: keep", "1: discard 5d"])
    assert [e["seat"] for e in events_of(g, "show")] == [1]


def test_r_ex_4_other_cards_and_other_players_do_not_show() -> None:
    """R-EX-4: discarding odd cards, or a player who passed, shows nothing."""
    g = _show_on_break_deal("pagat")
    run(g, ["0: discard Kh 7s 2c", "1: discard Qs 8h", "2: discard 2d 4h 6s"])
    assert events_of(g, "show") == []
    assert jview(g, 1)["shown"] == {}


def test_r_ex_4_a_lower_announcement_does_not_show() -> None:
    """R-EX-4: only the highest (or equal highest) announced combination is protected."""
    g = game("pagat", 3, dealer=2, hands=["9c 9d Kh 7s 2c", "5c 5d Qs Qh 3c"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce two pair", "2: pass"])
    run(g, ["0: discard 9c 9d"])
    assert events_of(g, "show") == []
    run(g, ["1: discard Qs"])
    assert [e["seat"] for e in events_of(g, "show")] == [1]


def test_r_ex_4_one_up_break_shows() -> None:
    """R-EX-4 with V-ONE-UP: breaking with a one-up request shows the hand too."""
    g = game(Rules.preset("pagat").with_variations("V-ONE-UP"), 3, dealer=2,
             hands=["9c 9d Kh 7s 2c", "5c 5d Qs 8h 3c", "2d 4h 6s 8c Td"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair", "2: pass", "0: one up 9d"])
    assert [e["seat"] for e in events_of(g, "show")] == [0]


def test_r_ex_4_off_in_wikipedia() -> None:
    """R-EX-4: the wikipedia preset has no show on break (show_on_break off)."""
    g = _show_on_break_deal("wikipedia")
    run(g, ["0: discard 9c 9d"])
    assert events_of(g, "show") == []


# ------------------------------------------------------------------------------ R-EX-5
def test_r_ex_5_locked_player_does_not_exchange() -> None:
    """R-EX-5: at 46 or more at the start of a deal a player may not exchange."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d Kh 7s 2c"], scores=[46, 0])
    assert g.locked == [True, False] and jview(g, 1)["locked"] == [True, False]
    for _ in range(3):
        assert g.to_act == 1
        g.apply("keep")
        if g.phase.value == "announce":
            assert g.to_act == 0  # a locked player still announces
            pass_all(g)
    locked = [e for e in events_of(g, "exchange") if e["seat"] == 0]
    assert len(locked) == 3 and all(e["locked"] and e["discarded"] == 0 for e in locked)
    assert [str(c) for c in g.hands[0]] == ["9c", "9d", "Kh", "7s", "2c"]


def test_r_ex_5_threshold_reached_mid_deal_changes_nothing() -> None:
    """R-EX-5: reaching the threshold during a deal locks only from the next deal."""
    rules = Rules.preset("pagat", target=100)
    g = game(rules, 2, dealer=1, hands=["9c 9d Kh 7s 2c"], scores=[45, 0])
    keep_all(g)
    run(g, ["0: announce pair", "1: pass"])
    assert g.scores[0] == 46 and g.locked == [False, False]
    assert g.to_act == 0 and len(g.legal_actions()) == 32  # still exchanges
    advance_to(g, "play")
    while g.deal_number == 1:
        g.apply(g.legal_actions()[0])
    assert g.locked[0] is True


def test_r_ex_5_unlocked_after_falling_below() -> None:
    """R-EX-5: a locked player whose score falls below the threshold exchanges again."""
    g = game("pagat", 2, dealer=1, hands=["2c 3d 4h 5s 7d", "Ac 9d Th Js Qc"], scores=[46, 0])
    advance_to(g, "chicago")
    run(g, ["0: chicago", "0: play 2c", "1: play Ac"])  # broken at once (R-CHI-4)
    assert g.deal_number == 2 and g.scores == [31, 0]
    assert g.locked == [False, False]
    assert g.to_act == 1 and len(g.legal_actions()) == 32


@pytest.mark.parametrize("preset", ["pagat", "denexa"])
def test_r_ex_5_threshold_is_46_in_p_and_d(preset: str) -> None:
    """R-EX-5: the lock threshold of P and D is 46: 45 still exchanges."""
    assert Rules.preset(preset).lock_at == 46
    g = game(preset, 2, dealer=1, hands=[], scores=[45, 46])
    assert g.locked == [False, True]
