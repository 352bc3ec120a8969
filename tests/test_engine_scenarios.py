"""Rules engine: rules meeting each other in one deal (stacked decks).

R-EX-4 across rounds, R-TABLE-4 with V-LOCK-6, V-TIE-SUIT on a wheel, V-WIN-AGAIN with a
made Chicago, V-ONE-UP with a reshuffle (R-EX-2), V-QUADS-RESET with a Chicago player.
"""

from __future__ import annotations

from chicago import Action, Game, Rules
from chicago.cards import DECK
from engine_helpers import advance_to, events_of, game, jview, keep_all, pass_all, run, set_scores
from test_engine_properties import Knowledge, check_log, check_views


def test_r_ex_4_protection_lasts_to_the_last_exchange() -> None:
    """R-EX-4: a pair announced highest in round 1, kept in exchange 2, broken in exchange 3."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d Kh 7s 2c"])
    keep_all(g)
    run(g, ["0: announce pair", "1: pass"])
    keep_all(g)
    pass_all(g)
    assert events_of(g, "show") == []
    run(g, ["0: discard 9d"])
    assert [e["seat"] for e in events_of(g, "show")] == [0]


def test_r_table_4_sixth_card_dealt_after_five_rounds() -> None:
    """R-TABLE-4 / V-LOCK-6: the sixth card of a locked player comes after the five rounds."""
    deck = [str(c) for c in DECK]
    rules = Rules.preset("wikipedia-42")
    g = set_scores(Game(rules, 2, decks=[deck], dealer=1, seed=1), [42, 0])
    assert [str(c) for c in g.hands[0]] == [deck[i] for i in (0, 2, 4, 6, 8, 10)]
    assert [str(c) for c in g.hands[1]] == [deck[i] for i in (1, 3, 5, 7, 9)]
    run(g, ["0: discard " + deck[0], "1: discard " + deck[1]])
    assert str(g.hands[1][-1]) == deck[11]  # the stock starts after the sixth round


def test_v_tie_suit_on_a_wheel_looks_at_the_five() -> None:
    """V-TIE-SUIT: a wheel's highest card is its five, not the ace."""
    rules = Rules.preset("pagat").with_variations("V-TIE-SUIT")
    g = game(rules, 2, dealer=1, hands=["As 2d 3h 4s 5d", "Ah 2c 3d 4c 5h"])
    keep_all(g)
    run(g, ["0: announce straight", "1: announce straight"])
    assert [e.get("suit") for e in events_of(g, "reveal")] == [None, None, "d", "h"]
    assert g.scores == [0, 4]


def test_v_win_again_made_chicago_counts_as_the_last_trick() -> None:
    """V-WIN-AGAIN: a made Chicago wins the last trick, so it takes the game."""
    rules = Rules.preset("pagat", lock_at=None).with_variations("V-WIN-AGAIN")
    g = game(rules, 2, dealer=1, hands=["As Ah Ks Qs Js", "2c 3d 4h 5c 7d"], scores=[52, 10])
    advance_to(g, "chicago")
    run(g, ["0: chicago", "0: play As", "1: play 2c", "0: play Ks", "1: play 3d",
            "0: play Qs", "1: play 5c", "0: play Js", "1: play 7d", "0: play Ah", "1: play 4h"])
    assert g.is_over and g.winners == [0] and g.scores[0] == 52 + 15 + 1


def test_v_one_up_face_up_card_after_a_reshuffle() -> None:
    """V-ONE-UP with R-EX-2: the face-up card may come from a reshuffled pile; all accounted."""
    rules = Rules.preset("pagat").with_variations("V-ONE-UP", "V-LARGE")
    g = game(rules, 6, dealer=5, hands=[], seed=987654321)
    knowledge = Knowledge(g)  # what each seat has seen, followed action by action

    def act(text: str) -> None:
        assert g.to_act is not None
        knowledge.apply(g.to_act, Action.parse(text))

    for _ in range(4):  # 20 of the 22 stock cards go
        act(str(max(g.legal_actions(), key=lambda a: len(a.cards))))
    assert g.stock_count == 2
    seat = g.to_act
    assert seat is not None
    act("discard " + " ".join(map(str, sorted(g.hands[seat])[:2])))  # empties the stock
    seat = g.to_act
    assert seat is not None and g.stock_count == 0
    act(f"one up {sorted(g.hands[seat])[0]}")
    assert len(events_of(g, "reshuffle")) == 1
    face_up = jview(g, None)["one_up"]["card"]
    act("reject")
    assert face_up not in map(str, g.hands[seat])
    g._check_invariants()
    check_views(g, knowledge)  # nobody sees a card they have not seen
    check_log(g, knowledge)


def test_v_quads_reset_clears_a_chicago_candidate() -> None:
    """V-QUADS-RESET: the reset happens before the Chicago call, so nobody may declare."""
    rules = Rules.preset("pagat").with_variations("V-QUADS-RESET")
    g = game(rules, 2, dealer=1, hands=["9c 9d 9h 9s 2c"], scores=[10, 40])
    advance_to(g, "quads")
    run(g, ["0: reset", "1: pass"])
    deal1 = [e.data["type"] for e in g.events[: g._deal_start_event]]
    assert "chicago" not in deal1 and "play" not in deal1
    assert g.scores == [10, 0]
