"""Words, tables, rules help and odds hints of the terminal shells."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from rich.console import Console

from chicago import Game, Rules
from chicago.cards import parse_card, parse_cards
from chicago.engine.events import ChicagoCall, Exchanged, Play, Reshuffle, Score, event_from_json
from chicago.engine.views import hand_view
from chicago.rules import PRESETS, VARIATIONS
from chicago.tui.hint_words import hint_lines
from chicago.tui.hints import hint, known_dead
from chicago.tui.lang import catalogue
from chicago.tui.render import hint_table, scores_table, table_panel
from chicago.tui.rules_help import (
    option_description,
    option_descriptions,
    rules_help,
    rules_text,
    variations_on,
)
from chicago.tui.words import Words, plain_card, symbol_card


def render(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None, file=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def random_game(rules: Rules, seed: int, players: int = 4) -> Game:
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


RULE_SETS = [
    *(Rules.preset(name, max_deals=3) for name in PRESETS),
    *(Rules.preset("pagat", max_deals=3).with_variations(v) for v in VARIATIONS
      if v not in ("V-LARGE",)),
    Rules.preset("pagat", max_deals=3, negative_scores=True, chicago_min_score=None),
    Rules.preset("pagat", max_deals=3).with_variations("V-CHI-REQ3").replace(
        chicago_made_any_size=True),
    Rules.preset("pagat", max_deals=3, straight_flush_wins=True, instant_win_score="keep"),
    Rules.preset("pagat", max_deals=3).with_variations("V-DEUCE").replace(
        deuce_chicago_points=26),
    Rules.preset("pagat", max_deals=3).with_variations("V-QUADS-RESET").replace(
        quads_end_deal=True),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: str(sorted(r.differences())))
def test_every_event_and_view_renders(rules: Rules) -> None:
    """Every event has words, and every view renders, for each preset and variation."""
    game = random_game(rules, seed=3)
    words = Words(["You", "Astrid", "Bosse", "Cissi"], me=0, card=symbol_card)
    onlooker = Words(["Anna", "Astrid", "Bosse", "Cissi"], me=None, card=plain_card)
    for event in game.events:
        assert words.event(event), event
        assert onlooker.event(event), event
    view = game.view(0)
    assert "Final scores" in render(scores_table(view, words, title="Final scores"))
    render(table_panel(view, words))
    for seat in range(game.players):
        render(table_panel(game.view(seat), words, {seat: game.view(seat).hand}))


def test_words_agree_with_you() -> None:
    words = Words(["You", "Bo"], me=0)
    assert words.event(Play(0, parse_card("Ah"), 1)) == "You play Ah."
    assert words.event(Play(1, parse_card("Ah"), 1)) == "Bo plays Ah."
    assert words.event(ChicagoCall(0, False)) == "You do not declare Chicago."
    assert words.event(Score(1, -15, "Chicago failed", 0)) == \
        "Bo loses 15 points (failed Chicago), total 0."
    assert words.event(Exchanged(0, 1, (), ())) is None  # nothing to say
    assert words.action(0, "announce three of a kind") == "You announce three of a kind."
    assert words.menu(["pass", "play Th"]) == "1) Pass, 2) Play Th"


_THIRD_PERSON_YOU = re.compile(r"\bYou (?!pass\b)(?:[a-z]+s|is|has|does)\b")
_CAPITAL_YOU_INSIDE = re.compile(r"\b(?:for|by|dealer|as|Waiting for) You\b")


def _grammar_problems(text: str) -> list[str]:
    return [m.group(0) for m in _THIRD_PERSON_YOU.finditer(text)] + [
        m.group(0) for m in _CAPITAL_YOU_INSIDE.finditer(text)
    ]


@pytest.mark.parametrize("rules", [
    Rules.preset("pagat", max_deals=4),
    Rules.preset("wikipedia", max_deals=4),
    Rules.preset("pagat", max_deals=4).with_variations("V-QUADS-RESET"),
    Rules.preset("pagat", max_deals=4, lock_at=1).with_variations("V-LOCK-6"),
], ids=lambda r: str(sorted(r.differences())))
def test_you_never_takes_a_third_person_verb(rules: Rules) -> None:
    """"You win", never "You wins": every event, state line, question, action and table."""
    words = Words(["You", "Astrid", "Bosse", "Cissi"], me=0, card=symbol_card)
    for seed in range(2):
        game = Game(rules, players=4, seed=seed)
        rng = random.Random(seed)
        texts: list[str] = []
        while not game.is_over:
            view = game.view(0)
            texts += words.state_lines(view)
            texts.append(render(table_panel(view, words)))
            if game.to_act == 0:
                texts.append(words.question(view))
                texts += [words.action(0, str(a)) for a in view.legal_actions]
            start = len(game.events)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            texts += [t for e in game.events[start:] if (t := words.event(e))]
        texts.append(render(scores_table(game.view(0), words, title="Final scores")))
        problems = [p for text in texts for p in _grammar_problems(text)]
        assert not problems, problems[:5]


def test_round_result_on_the_table_agrees_with_you() -> None:
    events = [
        {"type": "announce", "seat": 0, "round": 1, "category": "FOUR_OF_A_KIND"},
        {"type": "pass", "seat": 1, "round": 1},
        {"type": "round_result", "round": 1, "winner": 0, "category": "FOUR_OF_A_KIND",
         "points": 8, "reason": "best hand"},
    ]
    game = Game(Rules.preset("pagat"), players=2, seed=1)
    view = dataclasses.replace(game.view(0), events=tuple(map(event_from_json, events)))
    text = render(table_panel(view, Words(["You", "A"], me=0)))
    assert "→ You win with four of a kind" in text


def test_staged_tie_break_is_shown_stage_by_stage() -> None:
    """R-ANN-3, R-ANN-5: the table shows each revealed stage and who won the round."""
    events = [
        {"type": "announce", "seat": 0, "round": 1, "category": "PAIR"},
        {"type": "announce", "seat": 1, "round": 1, "category": "PAIR"},
        {"type": "announce", "seat": 2, "round": 1, "category": "PAIR"},
        {"type": "pass", "seat": 3, "round": 1},
        {"type": "reveal", "seat": 0, "stage": 1, "rank": "9"},
        {"type": "reveal", "seat": 1, "stage": 1, "rank": "5"},
        {"type": "reveal", "seat": 2, "stage": 1, "rank": "9"},
        {"type": "reveal", "seat": 0, "stage": 2, "rank": "K"},
        {"type": "reveal", "seat": 2, "stage": 2, "rank": "K"},
        {"type": "reveal", "seat": 0, "stage": 3, "rank": "7"},
        {"type": "reveal", "seat": 2, "stage": 3, "rank": "T"},
        {"type": "round_result", "round": 1, "winner": 2, "category": "PAIR", "points": 1,
         "reason": "best hand"},
    ]
    game = Game(Rules.preset("pagat"), players=4, seed=1)
    view = dataclasses.replace(game.view(0), events=tuple(map(event_from_json, events)))
    words = Words(["You", "A", "B", "C"], me=0)
    text = render(table_panel(view, words))
    assert "Scoring round 1: You a pair · A a pair · B a pair · C pass" in text
    assert "tie-break: You nine, king, seven; A five; B nine, king, ten" in text
    assert "→ B wins with a pair" in text
    lines = [words.event(e) for e in view.events]
    assert "Tie-break, step 2: you show king." in lines
    assert "Scoring round 1: B wins with a pair." in lines


def test_rules_help_describes_each_preset() -> None:
    for name, rules in PRESETS.items():
        text = rules_help(rules)
        assert text.startswith(f"# Rules: {name}")
        assert f"{rules.exchanges} exchange rounds" in text
        for field in dataclasses.fields(rules):
            assert f"`{field.name}`" in text
    assert "There is no Chicago call" in rules_help(PRESETS["denexa"])
    assert "46 points or more" in rules_help(PRESETS["pagat"])
    assert "**One up.**" in rules_help(PRESETS["wikipedia"])
    changed = rules_help(Rules.preset("pagat", lock_at=42))
    assert "with changes" in changed and "lock_at=42" in changed
    assert "V-LOCK-42" in variations_on(Rules.preset("pagat", lock_at=42))
    assert variations_on(PRESETS["pagat"]) == []
    assert "R-EX-5" in option_descriptions()["lock_at"]


def test_rules_help_speaks_of_the_newer_options() -> None:
    """V-CHI-REQ3's table sizes, the instant winner's score, V-DEUCE's Chicago, and
    V-QUADS-RESET's objection and end of deal."""
    req3 = Rules.preset("pagat").with_variations("V-CHI-REQ3")
    text = rules_help(req3)
    assert "In a three-player game only a player who has made a Chicago can win" in text
    assert "At other table sizes this does not apply." in text
    anywhere = rules_help(req3.replace(chicago_made_any_size=True))
    assert "At any table size only a player who has made a Chicago can win" in anywhere
    assert "At other table sizes" not in anywhere
    raised = rules_help(Rules.preset("pagat").with_variations("V-SF-WIN"))
    assert "A straight flush (or royal flush) that scores wins the game at once, and the " \
        "winner's score is raised to 52 if lower." in raised
    kept = rules_help(Rules.preset("pagat", royal_wins=True, instant_win_score="keep"))
    assert "A royal flush that scores wins the game at once, and the winner keeps the score " \
        "they have (not raised to the target)" in kept
    deuce = Rules.preset("pagat").with_variations("V-DEUCE")
    assert "A made Chicago whose last trick is won with a two scores 30." in rules_help(deuce)
    assert "won with a two scores 26." in rules_help(deuce.replace(deuce_chicago_points=26))
    quads = Rules.preset("pagat").with_variations("V-QUADS-RESET")
    assert "Only the highest four of a kind at the table may" in rules_help(quads)
    assert "Scoring the points for four of a kind also ends" not in rules_help(quads)
    assert "Scoring the points for four of a kind also ends the deal." in rules_help(
        quads.replace(quads_end_deal=True))


_RULE_ID = re.compile(r"\b[RV]-[A-Z]+(?:-[A-Z0-9]+)*")


def test_every_rule_option_has_swedish_words() -> None:
    """Each field of Rules has its description in the Swedish catalogue (``tui.opt.NAME``;
    an option added without Swedish words fails here), naming the same rule ids (R-EX-5,
    V-LOCK-42 …) and the same code values (`target`, `made` …) as its English documentation."""
    english = option_descriptions()
    names = [f.name for f in dataclasses.fields(Rules)]
    options = [key for key in catalogue("sv") if key.startswith("tui.opt.")]
    assert sorted(options) == sorted(f"tui.opt.{name}" for name in names)
    for name in names:
        swedish = option_description(name, "sv")
        assert swedish and swedish != english[name], name
        assert set(_RULE_ID.findall(swedish)) == set(_RULE_ID.findall(english[name])), name
        assert set(re.findall(r"`[^`]*`", swedish)) == set(re.findall(r"`[^`]*`",
                                                                       english[name])), name
        assert option_description(name, "en") == english[name]
    assert option_description("no_such_option", "sv") == ""


@pytest.mark.parametrize("rules", RULE_SETS[:8], ids=lambda r: str(sorted(r.differences())))
def test_the_rules_help_in_swedish_has_no_english_option_description(rules: Rules) -> None:
    """--lang sv: every option of the help (Markdown and plain) is described in Swedish; the
    English documentation of the Rules fields appears nowhere."""
    english = option_descriptions()
    markdown = rules_help(rules, "sv")
    plain = "\n".join(rules_text(rules, "sv"))
    for name, text in english.items():
        assert text not in markdown and text not in plain, name
        assert f"`{name}` = " in markdown
        swedish = option_description(name, "sv")
        assert f" — {swedish}" in markdown and f" — {swedish.replace('`', '')}" in plain
    assert "Varje regelval står med sitt namn i programmet" in markdown
    assert "poängrunda" in markdown and "scoring round" not in markdown.lower()
    # the points option's value is in the language too
    assert "`points` = par 1, två par 2, triss 3" in markdown


def test_known_dead_cards_for_the_hint() -> None:
    """R-EX-2: discards are out of the stock until a reshuffle brings them back; cards known
    to be in another hand stay out (more cases in test_tui_hints.py)."""
    events = [
        {"type": "deal", "deal": 1, "dealer": 3, "scores": [0] * 4, "locked": [False] * 4},
        {"type": "exchanged", "seat": 0, "round": 1, "discarded": ["2c", "3d"],
         "drawn": ["4h", "5s"], "to": 0},
        {"type": "show", "seat": 1, "cards": ["Ah", "Ad", "9c", "8c", "7c"], "reason": "test"},
        {"type": "one_up_choice", "seat": 2, "card": "Kd", "accepted": False},
    ]
    typed = [event_from_json(e) for e in events]
    assert known_dead(typed, ["4h"]) == ["2c", "3d", "7c", "8c", "9c", "Kd", "Ad", "Ah"]
    assert known_dead([*typed, Reshuffle(20)], []) == [
        "7c", "8c", "9c", "Ad", "Ah",
    ]


def test_hint_uses_only_the_view() -> None:
    game = Game(Rules.preset("pagat"), players=4, seed=5)
    while game.to_act != 0:
        game.apply(game.legal_actions()[0])
    result = hint(game.view(0))
    assert len(result.holds) == 32
    assert set(result.hand) == {str(c) for c in game.view(0).hand}
    lines = hint_lines(result)
    # the advice first, in words, then the holds (issue 16: hints with words)
    assert lines[0].startswith(("Keep ", "Throw all five")) and " points expected" in lines[0]
    assert lines[1].startswith("Draw odds for ") and lines[2].startswith("1. keep ")
    assert "points expected" in render(hint_table(result))
    with pytest.raises(ValueError, match="five cards"):
        hint(hand_view(parse_cards("2c")))
