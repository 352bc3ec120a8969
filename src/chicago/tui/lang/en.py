"""English. The browser app's words (``web/static/js/lang/en.js``) are read from its file
(:mod:`chicago.tui.lang.browser`); its entries that are functions are here as Python
functions of the same parameters (``tests/test_tui_lang.py`` runs both and compares), and
the terminal's own words are the ``tui.`` keys."""

from __future__ import annotations

from typing import Any

from chicago.tui.lang._forms import s, v
from chicago.tui.lang.browser import browser_texts

__all__ = ["ENTRIES"]

def _you_verb(second: str, third: str, tail: str) -> Any:
    """An entry "{Who} <verb><tail>" with the verb agreeing with the seat."""
    return lambda p: f"{p['Who']} {v(p, second, third)}{tail}"


FUNCTIONS: dict[str, Any] = {
    "table.points": lambda p: f"{p['n']} {s(abs(p['n']), 'point', 'points')}",
    "phase.line": lambda p: f"Deal {p['deal']} · "
    + ("you deal" if p.get("you") else f"dealer {p['dealer']}"),
    "btn.exchange": lambda p: f"Exchange {p['n']} {s(p['n'], 'card', 'cards')}",
    "sel.count": lambda p: f"{p['n']} of at most {p['max']} {s(p['max'], 'card', 'cards')} "
    "selected",
    "sum.last_trick_text": lambda p: f"{p['Who']} {v(p, 'win', 'wins')} the last trick with "
    f"{p['card']}" + (
        f" and {v(p, 'score', 'scores')} {p['points']} {s(p['points'], 'point', 'points')}."
        if p.get("points") else "."
    ),
    "sum.chicago_made": _you_verb("make", "makes", " the Chicago: all five tricks!"),
    "sum.showdown_win": lambda p: f"{p['Who']} {v(p, 'have', 'has')} the best hand, "
    f"{p['cat']}: {p['points']} {s(p['points'], 'point', 'points')}.",
    "act.discard": lambda p: f"{p['Who']} {v(p, 'throw', 'throws')} away {p['cards']}.",
    "act.one_up": lambda p: f"{p['Who']} {v(p, 'throw', 'throws')} away {p['card']} and "
    f"{v(p, 'ask', 'asks')} for the new card face up.",
    "ev.deal": lambda p: f"Deal {p['deal']}: {p['who']} {v(p, 'deal', 'deals')}.",
    "ev.dealt": lambda p: f"{p['Who']} {v(p, 'are', 'is')} dealt {p['cards']}.",
    "ev.redeal_yes": _you_verb("throw", "throws", " in a low hand for five new cards."),
    "ev.redeal_no": _you_verb("keep", "keeps", " the dealt hand."),
    "ev.exchange": lambda p: f"{p['Who']} {v(p, 'exchange', 'exchanges')} {p['n']} "
    f"{s(p['n'], 'card', 'cards')}.",
    "ev.exchange_keep": _you_verb("keep", "keeps", " all five cards."),
    "ev.exchange_locked": _you_verb("are", "is", " locked and cannot exchange."),
    "ev.exchange_locked_six": lambda p: f"{p['Who']} {v(p, 'are', 'is')} locked with six cards "
    f"and {v(p, 'throw', 'throws')} one away.",
    "ev.exchange_one_up": lambda p: f"{p['Who']} {v(p, 'throw', 'throws')} one card away and "
    f"{v(p, 'ask', 'asks')} for the new one face up.",
    "ev.exchanged": lambda p: f"({p['Who']} {v(p, 'throw', 'throws')} away {p['out']} and "
    f"{v(p, 'draw', 'draws')} {p['got']}.)",
    "ev.exchanged_out": lambda p: f"({p['Who']} {v(p, 'throw', 'throws')} away {p['out']}.)",
    "ev.exchanged_in": lambda p: f"({p['Who']} {v(p, 'draw', 'draws')} {p['got']}.)",
    "ev.reshuffle": lambda p: f"The stock ran out: {p['n']} discarded "
    f"{s(p['n'], 'card is', 'cards are')} shuffled into a new stock.",
    "ev.show": lambda p: f"{p['Who']} {v(p, 'show', 'shows')} {p['cards']}"
    + (f" ({p['reason']})." if p.get("reason") else "."),
    "ev.one_up_accept": lambda p: f"{p['Who']} {v(p, 'take', 'takes')} {p['card']}.",
    "ev.one_up_reject": lambda p: f"{p['Who']} {v(p, 'reject', 'rejects')} {p['card']} and "
    f"{v(p, 'draw', 'draws')} the next card face down.",
    "ev.pass": _you_verb("pass", "passes", "."),
    "ev.announce": lambda p: f"{p['Who']} {v(p, 'announce', 'announces')} {p['cat']}.",
    "ev.reveal": lambda p: f"Tie-break, step {p['stage']}: {p['who']} "
    f"{v(p, 'show', 'shows')} {p['shown']}.",
    "ev.round_quads": lambda p: f"Scoring round {p['r']}: {p['who']} {v(p, 'win', 'wins')} "
    f"with four of a kind and {v(p, 'choose', 'chooses')}: reset the others or take the "
    "points.",
    "ev.round_win": lambda p: f"Scoring round {p['r']}: {p['who']} {v(p, 'win', 'wins')} "
    f"with {p['cat']}.",
    "ev.quads_reset_choice": _you_verb("choose", "chooses", " to reset every other score to "
                                       "zero."),
    "ev.quads_objection": lambda p: f"{p['Who']} {v(p, 'object', 'objects')}: only the highest "
    "four of a kind may reset, so "
    + ("your" if p.get("youAgainst") else f"{p['against']}'s") + " reset does not count.",
    "ev.show_objection": lambda p: f"{p['Who']} {v(p, 'show', 'shows')} a higher four of a "
    f"kind against the reset: {p['cards']}.",
    "ev.quads_score_choice": _you_verb("take", "takes", " the points for four of a kind."),
    "ev.quads_claim": _you_verb("claim", "claims", " a reset with four of a kind."),
    "ev.quads_claim_one": lambda p: f"{p['Who']} {v(p, 'claim', 'claims')} a reset of "
    f"{p['whom']} with four of a kind.",
    "ev.quads_reset_one_choice": lambda p: f"{p['Who']} {v(p, 'choose', 'chooses')} to reset "
    f"{p['whom']} to zero.",
    "ev.quads_no_claim": _you_verb("pass", "passes", " (no reset)."),
    "ev.chicago_yes": _you_verb("declare", "declares", " CHICAGO: all five tricks!"),
    "ev.chicago_no": _you_verb("do", "does", " not declare Chicago."),
    "ev.play": lambda p: f"{p['Who']} {v(p, 'play', 'plays')} {p['card']}.",
    "ev.trick": lambda p: f"{p['Who']} {v(p, 'win', 'wins')} trick {p['trick']} with "
    f"{p['card']}.",
    "ev.chicago_made": _you_verb("make", "makes", " the Chicago!"),
    "ev.score": lambda p: f"{p['Who']} {v(p, 'score', 'scores')} {p['points']} "
    f"{s(p['points'], 'point', 'points')} ({p['reason']}), total {p['total']}.",
    "ev.score_lose": lambda p: f"{p['Who']} {v(p, 'lose', 'loses')} {p['points']} "
    f"{s(p['points'], 'point', 'points')} ({p['reason']}), total {p['total']}.",
    "ev.showdown": lambda p: f"Final showdown: {p['hands']}. {p['Who']} "
    f"{v(p, 'win', 'wins')} with {p['cat']}.",
    "ev.game_end": lambda p: f"The game is over: {p['names']} "
    f"{'win' if p.get('plural') else 'wins'}. Final scores: {p['scores']}.",
}
"""The browser's entries that are functions, as Python functions."""


TERMINAL: dict[str, Any] = {
    # names, pieces and marks
    "tui.name_you": "{name} (you)",
    "tui.nobody_yet": "nobody yet",
    "tui.or": " or ",
    "tui.stock": "stock {n}",
    "tui.led": "led",
    "tui.no_cards": "no cards",
    "tui.table_empty": "Nothing on the table yet.",
    "tui.col.player": "player",
    "tui.col.points": "pts",
    "tui.col.exchanges": "exch.",
    "tui.mark.dealer": "dealer",
    "tui.mark.locked": "locked",
    "tui.mark.winner": "WINNER",
    "tui.mark.declared": "declared",
    "tui.mark.made": "made",
    "tui.mark.declared_caption": "declared = has declared a Chicago in this game: only such a "
    "player can win (V-CHI-DECLARED).",
    "tui.mark.made_caption": "made = has made a Chicago in this game: only such a player can "
    "win, and reaching the target without one resets the score to 0 (V-CHI-REQ3).",
    "tui.chicago_declared_line": "Chicago declared in this game: {names}. Only a player who "
    "has declared one can win (V-CHI-DECLARED).",
    "tui.chicago_made_line": "Chicago made in this game: {names}. Only a player who has made "
    "one can win; reaching the target without one resets the score to 0 (V-CHI-REQ3).",
    "tui.subtitle": "rules {rules}, seed {seed}",
    # the game in lines
    "tui.deal_points": "Points this deal: {points}.",
    "tui.settlement_line": "Settlement: {money}.",
    "tui.settlement_at": "Settlement at {stake} per point: {money}.",
    "tui.scores_line": "Scores: {scores}.",
    "tui.hand_line": "Your hand: {cards}.",
    "tui.hand_line_cat": "Your hand: {cards} ({cat}).",
    "tui.hand_empty": "Your hand is empty.",
    "tui.showed": "{Who} showed {cards}.",
    "tui.showed_label": "{Who} showed:",
    "tui.on_table": "On the table (trick {n}): {plays}.",
    "tui.played_line": "Played: {piles}.",
    "tui.round_won": lambda p: f"{p['Who']} {v(p, 'win', 'wins')} with {p['cat']}",
    "tui.round_nobody": "nobody scores",
    "tui.sum.trick": "Trick {n}: {plays}.",
    "tui.record_in": "The game record is in {path}.",
    "tui.watch_again": "Watch it again with: chicago replay {path}",
    "tui.not_accepted": "Not accepted: {why}.",
    "tui.refused": "Not accepted. {why}",
    "tui.automatic": "(automatic)",
    "tui.act.chose": lambda p: f"{p['Who']} {v(p, 'choose', 'chooses')}: {p['choice']}.",
    # buttons and choices
    "tui.btn.play": "Play {card}",
    "tui.btn.one_up": "One up {card}",
    "tui.btn.discard": "Throw away {cards}",
    "tui.btn.accept": "Take the card",
    # questions of the line mode
    "tui.q.exchange_six": "You hold six cards (locked): throw away exactly one, by number or "
    "card.",
    "tui.q.exchange": "Exchange {r}: throw away which cards? Card numbers (1 3) or cards "
    "({example}); 0 keeps all",
    "tui.q.at_most": lambda p: f"at most {p['n']} {s(p['n'], 'card', 'cards')}",
    "tui.q.one_up": "'one up N' asks for the new card face up",
    "tui.q.play": "Trick {r}: play which card?",
    # typed answers that are no answer
    "tui.in.nothing": "nothing typed",
    "tui.in.no_choice": "there is no choice {n}",
    "tui.in.number_only_in_play": "a number picks a card only when you play",
    "tui.in.several": "'{typed}' fits several choices: {choices}",
    "tui.in.not_an_answer": "'{typed}' is not an answer here",
    "tui.in.one_up_one": "one up takes exactly one card: e.g. 'one up 3' or 'one up 7c'",
    "tui.in.twice": "the same card is named twice",
    "tui.in.at_most_five": "at most five cards can be thrown away",
    "tui.in.not_a_card": "'{typed}' is not a card or a card number",
    "tui.in.no_card": "there is no card {n}: your hand has {size} cards, numbered 1-{size}",
    "tui.in.expect_exchange": "type card numbers (1 3) or cards ({example}) to throw away, or "
    "0 to keep all",
    "tui.in.expect_one_up": ", or 'one up N'",
    "tui.in.expect_play_menu": "play one of {cards} (the number of a choice, or the card)",
    "tui.in.expect_play": "play one of {cards}",
    "tui.in.expect_menu": "type 1-{n} or one of: {choices}",
    "tui.in.expect_text": "type one of: {choices}",
    "tui.in.not_your_turn": "it is not your turn",
    # why a move is not allowed
    "tui.do.discard": "exchange cards",
    "tui.do.keep": "keep your cards",
    "tui.do.one_up": "ask for one up",
    "tui.do.accept": "take the face-up card",
    "tui.do.reject": "reject the face-up card",
    "tui.do.redeal": "throw in your hand",
    "tui.do.announce": "announce",
    "tui.do.pass": "pass",
    "tui.do.chicago": "declare Chicago",
    "tui.do.no_chicago": "decline the Chicago",
    "tui.do.play": "play a card",
    "tui.do.reset": "reset the others' scores",
    "tui.do.score": "take the points",
    "tui.err.not_now": "You cannot {doing} now: it is {phase}, and you may {may}.",
    "tui.err.not_held": "You do not hold {cards}.",
    "tui.err.follow": "You must follow suit: {suit} were led, and you hold {cards}.",
    "tui.err.six": "You hold six cards (locked): throw away exactly one.",
    "tui.err.redeal_cards": "Before the exchanges you may only keep your hand or throw it in "
    "whole.",
    "tui.err.no_one_up": "There is no one up under these rules.",
    "tui.err.one_up": "One up is not possible now: too few cards are left to draw.",
    "tui.err.announce_exactly": "Your hand is {mine}, not {wanted}: announce exactly what you "
    "hold.",
    "tui.err.announce_higher": lambda p: f"{p['cat'][:1].upper()}{p['cat'][1:]} has been "
    "announced: announce that or better, or pass.",
    "tui.err.redeal_low": "Only a hand of five low cards may be thrown in.",
    "tui.err.reset_quads": "Only four of a kind may reset the others' scores.",
    "tui.err.over": "The game is over.",
    "tui.err.you_may": "You may {may}.",
    # the full screen
    "tui.fs.out": "out",
    "tui.fs.placeholder": "press : to type an answer (1 3, pass, help)",
    "tui.fs.keys_line": "? help  s scores  h odds  : type  q save & quit",
    "tui.fs.press_enter": "Press Enter to go on to the next deal.",
    "tui.fs.over": "The game is over. Press q to quit.",
    "tui.fs.over_head": lambda p: f"The game is over: {p['names']} "
    f"{'win' if p.get('plural') else 'wins'}!",
    "tui.fs.wait": "Wait for your turn.",
    "tui.fs.q.six": "You hold six cards (locked): select the one to throw away (1-6), then "
    "Enter.",
    "tui.fs.q.exchange": "Exchange {r}: select the cards to throw away (1-5 or a click), then "
    "Enter; none selected keeps all.",
    "tui.fs.q.play": "Its number or a click plays a card.",
    "tui.fs.no_card": "There is no card {n}: you hold {size} cards.",
    "tui.fs.no_card_now": "No card is asked for now: {question}",
    "tui.fs.key_means_nothing": "The key {letter} means nothing now: {question}",
    "tui.fs.help_title": "Keys and rules",
    "tui.fs.odds_title": "Odds (h)",
    "tui.window_keys": "↑↓ PgUp PgDn Home End · Esc closes",
    "tui.key.cards": "select a card of your hand (in trick play: play it); a click does the "
    "same",
    "tui.key.enter": "exchange the selected cards (none selected: keep all); at a deal's end, "
    "go on",
    "tui.key.one_up": "one up: ask for the new card face up, with exactly one card selected",
    "tui.key.esc": "clear the selection, leave the input line, close a window",
    "tui.key.announce": "announce your hand / pass",
    "tui.key.chicago": "declare Chicago / no Chicago",
    "tui.key.face_up": "take / reject the face-up card",
    "tui.key.redeal": "throw in a low hand / keep it",
    "tui.key.quads": "four of a kind: reset the others / take the points",
    "tui.key.type": "type an answer: card numbers (1 3), cards (Ah 7c), keep, play Ah, pass, "
    "announce pair",
    "tui.key.scores": "the score sheet: every deal's points",
    "tui.key.hint": "the draw odds of your hand",
    "tui.key.help": "these keys and the rules",
    "tui.key.quit": "save and quit",
    # the score sheet
    "tui.sheet_head": lambda p: f"Score sheet, {p['n']} {s(p['n'], 'deal', 'deals')}:",
    "tui.sheet_total": "Total: {scores}.",
    "tui.sheet_legend": "Each cell: the points of the deal (· none), then the total after it.",
    # the hint
    "tui.hint.title": "Draw odds of your hand, best holds first",
    "tui.hint.caption": "·· = throw away; exp. = expected points after the draw; % chance of "
    "each hand: {legend}.",
    "tui.hint.exp": "exp.",
    "tui.hint.discard": "throw away",
    "tui.hint.hand": "hand",
    "tui.hint.six_title": "Locked with six cards: the hand each discard leaves, best first",
    "tui.hint.six_caption": "You draw nothing: throw away exactly one card.",
    "tui.hint.no_draw": "No draw odds: {reason}. The hand is {cat} ({points}).",
    "tui.hint.why_six": "you are locked with six cards: throw away exactly one, and draw none",
    "tui.hint.why_locked": "you are locked and cannot exchange this deal",
    "tui.hint.why_over": "the exchanges of this deal are over",
    "tui.hint.no_odds": lambda p: "No odds: there is no hand yet." if not p["n"] else (
        f"No odds: they need a hand of five cards (you hold {p['n']})."
    ),
    "tui.hint.short_stock": lambda p: f"The stock has {p['n']} {s(p['n'], 'card', 'cards')}: "
    "throwing away more draws the rest from the discards shuffled into a new stock, so for "
    "those holds the discard pile counts as drawable too.",
    "tui.hint.returned": "The discards were shuffled into a new stock: {cards} went back into "
    "it and may be drawn again (counted like any unseen card, though they are a little "
    "likelier).",
    "tui.hint.hand_only": "Your hand {cards}.",
    "tui.hint.hand_is": "Your hand {cards} is {cat} ({points}).",
    "tui.hint.six_line": "{i}. throw away {card}: keep {keep}, {cat} ({points})",
    "tui.hint.six_head": "No draw: {reason}. Your six cards: {cards}. The hand each discard "
    "leaves, best first:",
    "tui.hint.no_draw_line": "No draw odds: {reason}.",
    "tui.hint.odds_for": "Draw odds for {cards}",
    "tui.hint.best_first": "Best holds first:",
    "tui.hint.hold": lambda p: f"{p['i']}. keep {p['keep']} (throw away {p['n']}): expected "
    f"{p['exp']} points; {p['chances']}",
    "tui.hint.no_pair_likely": "no pair likely",
    # the line mode
    "tui.pl.intro": "Chicago, rules {rules}, {n} players, seed {seed}. Type help for the rules, "
    "hint for the odds of your hand, look to see the table, scores for every deal's points, "
    "quit to save and stop.",
    "tui.pl.players": "Players: {seats}.",
    "tui.pl.seat_you": "seat {n}: {name}",
    "tui.pl.seat_bot": "seat {n}: {name} ({level})",
    "tui.pl.saved_every": "The game is saved after every action in {path}.",
    "tui.pl.resumed": "Resumed. This deal so far:",
    "tui.pl.automatic": "Only one choice, taken for you:",
    "tui.pl.choices": "Choices: {menu}.",
    "tui.pl.warning": "Warning: {problem}",
    "tui.pl.end_of_input": "End of input",
    "tui.pl.stopped": "Stopped",
    "tui.pl.not_saved": "{why}: the game was not saved.",
    "tui.pl.saved_in": "{why}: the game is saved in {path}.",
    "tui.pl.continue_with": "Continue it with: chicago play --resume {path}",
    "tui.pl.save_failed": "{why}: {problem}",
    "tui.pl.interrupted_unsaved": "Interrupted: the game was not saved.",
    "tui.pl.interrupted_saved": "Interrupted: the game is saved in {path}; continue it with: "
    "chicago play --resume {path}",
    "tui.pl.interrupted_failed": "Interrupted: {problem}",
    "tui.pl.final": "Final scores: {scores}.",
    "tui.pl.commands": "Commands",
    "tui.pl.cmd.help": "the rules of this game and these commands",
    "tui.pl.cmd.hint": "the draw odds of your hand",
    "tui.pl.cmd.state": "the table, the scores and your hand again",
    "tui.pl.cmd.scores": "the score sheet: every finished deal's points and the totals",
    "tui.pl.cmd.quit": "save the game and stop",
    "tui.pl.answers": "Answers: the number of a choice, card numbers or cards in an exchange "
    "(0 keeps all), a card to play it.",
    # the replay
    "tui.rp.title_finished": "Replay of a finished game: rules {rules}, {n} players ({names}), "
    "seed {seed}, {steps} actions; {who}.",
    "tui.rp.title_unfinished": "Replay of an unfinished game: rules {rules}, {n} players "
    "({names}), seed {seed}, {steps} actions; {who}.",
    "tui.rp.face_up": "every card face up",
    "tui.rp.as_seat": "as {whom} (seat {n}) saw it",
    "tui.rp.start": "Start of the game",
    "tui.rp.step": "Step {i}: {Who}",
    "tui.rp.status": "Step {i} of {n} · {where}",
    "tui.rp.ends_early": "The record ends here, before the game is over (after {n} actions).",
    "tui.rp.keys_line": "→ next  ← back  n/p deal  Home/End  ? help  q quit",
    "tui.rp.help_title": "Keys and rules",
    "tui.key.rp_step": "next step / previous step (also l, space / h, backspace)",
    "tui.key.rp_deal": "next / previous deal (also PageDown / PageUp)",
    "tui.key.rp_ends": "first / last step (also g / G)",
    "tui.key.rp_quit": "quit",
    # notices
    "tui.note.unavailable": "The {spec} bot is not available yet: playing against random bots "
    "instead.",
    "tui.note.bot_illegal_stand_in": "{name}'s bot gave an illegal answer; the {level} bot "
    "played for it.",
    "tui.note.bot_illegal_random": "{name}'s bot gave an illegal answer; a random legal action "
    "was played for it.",
    "tui.note.bot_failed_stand_in": "{name}'s bot failed ({error}); the {level} bot played for "
    "it.",
    "tui.note.bot_failed_random": "{name}'s bot failed ({error}); a random legal action was "
    "played for it.",
    "tui.note.goes_on_declared": "The game goes on: under these rules only a player who has "
    "declared a Chicago can win (V-CHI-DECLARED), and nobody at {n} or more has declared one "
    "({scores}).",
    "tui.note.goes_on_again": "The game goes on: a player who is at {n} or more when a deal "
    "starts must win that deal's last trick to take the game (V-WIN-AGAIN).",
    "tui.note.replay_unfinished_seat": "The game is not finished: showing only what seat {n} "
    "({name}) saw; --seat N shows another seat.",
    "tui.note.replay_unfinished": "The game is not finished: showing only what seat {n} "
    "({name}) saw.",
    "tui.note.replay_other_seat": "Warning: this game is not finished and was played from "
    "seat {human} ({human_name}); you are shown the cards of seat {n} ({name}), which that "
    "player did not see.",
    # the review (chicago review, chicago replay --review)
    "tui.review.short.exchange": "exch {n}",
    "tui.review.short.one_up": "1-up {n}",
    "tui.review.short.redeal": "redeal",
    "tui.review.short.announce": "score {n}",
    "tui.review.short.quads": "quads",
    "tui.review.short.quads_choice": "quads",
    "tui.review.short.chicago": "call",
    "tui.review.short.play": "trick {n}",
    "tui.review.phases.redeal": "redeal",
    "tui.review.phases.exchange": "exchanges",
    "tui.review.phases.one_up": "one up",
    "tui.review.phases.announce": "scoring rounds",
    "tui.review.phases.quads_choice": "quads choice",
    "tui.review.phases.quads": "quads",
    "tui.review.phases.chicago": "Chicago call",
    "tui.review.phases.play": "tricks",
    "tui.review.note_best": "review: {grade} ({where})",
    "tui.review.note": "review: {grade}, -{loss} points; {better}",
    "tui.review.head": lambda p: f"Review of {p['who']}: {p['rules']}, {p['players']} "
    f"players, seed {p['seed']}, {p['deals']} {s(p['deals'], 'deal', 'deals')}; level "
    f"{p['level']}, review seed {p['review_seed']}.",
    "tui.review.who_named": "{name} (seat {n})",
    "tui.review.who_seat": "seat {n}",
    "tui.review.totals": lambda p: f"Accuracy {p['accuracy']} · {p['n']} "
    f"{s(p['n'], 'decision', 'decisions')} · {p['loss']} expected points lost "
    f"({p['per_deal']} per deal).",
    "tui.review.unfinished": "The game is not finished: reviewed as far as it goes.",
    "tui.review.graph": "Scores after each deal (the target {target}):",
    "tui.review.graph_lost": "points lost (· some, ▲ 2.5 or more)",
    "tui.review.by_phase": "Points lost by phase",
    "tui.review.all_phases": "all",
    "tui.review.per_deal": "Points lost per deal: {deals} (mean {mean})",
    "tui.review.deal_loss": "{deal}: {loss}",
    "tui.review.sep": ", ",
    "tui.review.biggest_item": "step {step} (deal {deal}, {where}), hand {hand}: {done}; "
    "{better}. {grade}, {loss} points lost",
    "tui.review.known_loss": "({loss} with all cards known)",
    "tui.review.known_note": "known: the points the choice lost with all cards known (the "
    "stock, the other hands), which the seat could not see; never part of the grade.",
    "tui.review.col.step": "step",
    "tui.review.col.deal": "deal",
    "tui.review.col.when": "when",
    "tui.review.col.hand": "hand",
    "tui.review.col.played": "played",
    "tui.review.col.better": "better",
    "tui.review.col.loss": "loss",
    "tui.review.col.grade": "grade",
    "tui.review.col.known": "known",
    "tui.review.col.phase": "phase",
    "tui.review.col.decisions": "decisions",
    "tui.review.col.lost": "lost",
    "tui.review.progress": "decisions",
    "tui.review.warn_other_seat": "warning: this game is not finished and was played from "
    "seat {n}; the review of another seat shows cards that player did not see",
    # the rules help
    "tui.rules.title": "Rules: {name}",
    "tui.rules.with_changes": "with changes",
    "tui.rules.changed": "Changed options: {changes}.",
    "tui.rules.variations": "Variations in play",
    "tui.rules.options": "Every option",
    "tui.rules.options_note": "Each option by its name in the program, as --set name=value "
    "changes it.",
    "tui.rules.players": "Players.",
    "tui.rules.players_text": "{min} to {max}, one pack of 52 cards. Everything goes clockwise "
    "from the dealer's left; the deal passes on after each hand.",
    "tui.rules.deal": "A deal.",
    "tui.rules.deal_text": "Five cards each, then {n} exchange rounds: in turn each player "
    "discards 0 to {max} cards and draws as many.",
    "tui.rules.deal_rounds": "After each exchange round but the last comes a scoring round "
    "({n} in all).",
    "tui.rules.deal_no_rounds": "There is no scoring round during the exchanges.",
    "tui.rules.rounds": "Scoring rounds.",
    "tui.rules.rounds_text": "In turn each player passes or announces exactly what the hand "
    "is, at least as high as the best announced so far. The best hand scores its points.",
    "tui.rules.ties_staged": "Two or more with the same best category reveal their ranks stage "
    "by stage (combination first, then the odd cards) until one is ahead; exactly equal hands "
    "score nothing.",
    "tui.rules.ties_none": "If two or more announce the same best category nobody scores.",
    "tui.rules.ties_suit": "Exactly equal hands go to the better suit of the top card "
    "({order}).",
    "tui.rules.points": "Points.",
    "tui.rules.show": "Show on break.",
    "tui.rules.show_text": "A player whose announced combination was highest and who then "
    "discards a card of it must first show the whole hand to everyone.",
    "tui.rules.lock": "Lock.",
    "tui.rules.lock_text": "A player with {n} points or more at the start of a deal may not "
    "exchange in that deal.",
    "tui.rules.lock_six": "Such a player is dealt six cards and discards one in the first "
    "exchange.",
    "tui.rules.one_up": "One up.",
    "tui.rules.one_up_text": "Exchanging exactly one card, a player may ask for the new card "
    "face up, then take it or reject it for the next card face down.",
    "tui.rules.redeal": "Redeal.",
    "tui.rules.redeal_text": "Before the first exchange a player whose five cards are all "
    "{limit} may throw them in and draw five new ones.",
    "tui.rules.below_ten": "below ten",
    "tui.rules.ten_or_lower": "ten or lower",
    "tui.rules.quads": "Four of a kind",
    "tui.rules.quads_text": "that wins a scoring round (or is claimed after the last exchange) "
    "may reset every other player's score to zero, ending the deal. Only the highest four of "
    "a kind at the table may: if a higher one is held, its holder objects and shows those "
    "four cards, and the reset does not count (in a scoring round the winner scores the four "
    "of a kind instead; after the last exchange the deal goes on).",
    "tui.rules.quads_end": "Scoring the points for four of a kind also ends the deal.",
    "tui.rules.chicago": "Chicago.",
    "tui.rules.chicago_min": "with at least {n} points",
    "tui.rules.chicago_any": "at any score",
    "tui.rules.declarer_leads": "the declarer leads",
    "tui.rules.left_leads": "the dealer's left leads",
    "tui.rules.chicago_text": "After the last exchange a player {minimum} may declare Chicago, "
    "a promise to win all five tricks ({leader}). Made: {n} points instead of the last trick. "
    "Failed: minus {n}, and the deal ends at the trick that breaks it.",
    "tui.rules.chicago_deuce": "A made Chicago whose last trick is won with a two scores {n}.",
    "tui.rules.chicago_breaker": "Whoever breaks it scores {n}.",
    "tui.rules.no_chicago": "There is no Chicago call under these rules.",
    "tui.rules.tricks": "Tricks.",
    "tui.rules.tricks_text": "Five tricks, no trumps; follow suit if you can; the highest card "
    "of the suit led wins. Only the last trick scores: {n} points",
    "tui.rules.tricks_deuce": "({n} if won with a two)",
    "tui.rules.tricks_end": ". Played cards stay face up in front of each player.",
    "tui.rules.showdown": "Showdown.",
    "tui.rules.showdown_text": "After the last trick the best hand scores its points once more "
    "(exactly equal best hands score nothing).",
    "tui.rules.end": "End.",
    "tui.rules.end_text": "The game ends after a deal in which someone reaches {n}; the most "
    "points win.",
    "tui.rules.end_made_3": "In a three-player game only a player who has made a Chicago can "
    "win; reaching the target without one resets the score to zero. At other table sizes "
    "this does not apply.",
    "tui.rules.end_made_any": "At any table size only a player who has made a Chicago can win; "
    "reaching the target without one resets the score to zero.",
    "tui.rules.end_declared": "Only a player who has declared a Chicago can win.",
    "tui.rules.end_again": "A player at the target must then win a last trick in a later deal.",
    "tui.rules.sf_or_royal": "straight flush (or royal flush)",
    "tui.rules.sf": "straight flush",
    "tui.rules.royal": "royal flush",
    "tui.rules.instant_raised": "A {hand} that scores wins the game at once, and the winner's "
    "score is raised to {n} if lower.",
    "tui.rules.instant_kept": "A {hand} that scores wins the game at once, and the winner keeps "
    "the score they have (not raised to the target): the others pay only what they are below "
    "it.",
    "tui.rules.end_deals": lambda p: f"The game also ends after {p['n']} "
    f"{s(p['n'], 'deal', 'deals')}.",
    "tui.rules.pays": "Settlement.",
    "tui.rules.pays_text": "Every other player pays {stake} per point of difference to the "
    "winner's score; tied winners share.",
    "tui.rules.pays_negative": "Scores may go below zero, and a negative score pays double.",
    "tui.rules.pays_zero": "Scores never go below zero.",
}
"""The terminal's own words."""

ENTRIES: dict[str, Any] = {**browser_texts("en"), **FUNCTIONS, **TERMINAL}
"""Every English entry."""
