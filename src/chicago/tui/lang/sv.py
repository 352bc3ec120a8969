"""Svenska. Webbappens ord (``web/static/js/lang/sv.js``) läses från dess fil
(:mod:`chicago.tui.lang.browser`); dess texter som är funktioner finns här som
Python-funktioner med samma parametrar (``tests/test_tui_lang.py`` kör båda och jämför), och
terminalens egna ord är ``tui.``-nycklarna. Svenska verb böjs inte efter person."""

from __future__ import annotations

from typing import Any

from chicago.tui.lang.browser import browser_texts

__all__ = ["ENTRIES"]


FUNCTIONS: dict[str, Any] = {
    "table.points": lambda p: f"{p['n']} poäng",
    "btn.exchange": lambda p: f"Byt {p['n']} kort",
    "sel.count": lambda p: f"{p['n']} av högst {p['max']} kort valda",
    "sum.last_trick_text": lambda p: f"{p['Who']} tar sista sticket med {p['card']}"
    + (f" och får {p['points']} poäng." if p.get("points") else "."),
    "sum.showdown_win": lambda p: f"{p['Who']} har bästa handen, {p['cat']}: "
    f"{p['points']} poäng.",
    "ev.exchange": lambda p: f"{p['Who']} byter {p['n']} kort.",
    "ev.show": lambda p: f"{p['Who']} visar {p['cards']}"
    + (f" ({p['reason']})." if p.get("reason") else "."),
    "ev.quads_objection": lambda p: f"{p['Who']} protesterar: bara det högsta fyrtalet får "
    "nollställa, så "
    + ("din nollställning" if p.get("youAgainst") else f"nollställningen från {p['against']}")
    + " gäller inte.",
}
"""Webbappens texter som är funktioner, som Python-funktioner."""


TERMINAL: dict[str, Any] = {
    # namn, delar och markeringar
    "tui.name_you": "{name} (du)",
    "tui.nobody_yet": "ingen än",
    "tui.or": " eller ",
    "tui.stock": "talong {n}",
    "tui.led": "utspel",
    "tui.no_cards": "inga kort",
    "tui.table_empty": "Inget på bordet än.",
    "tui.col.player": "spelare",
    "tui.col.points": "p",
    "tui.col.exchanges": "byten",
    "tui.mark.dealer": "givare",
    "tui.mark.locked": "låst",
    "tui.mark.winner": "VINNARE",
    "tui.mark.declared": "sagt",
    "tui.mark.made": "klarat",
    "tui.mark.declared_caption": "sagt = har sagt Chicago i det här partiet: bara en sådan "
    "spelare kan vinna (V-CHI-DECLARED).",
    "tui.mark.made_caption": "klarat = har klarat en Chicago i det här partiet: bara en sådan "
    "spelare kan vinna, och den som når målet utan en får 0 poäng igen (V-CHI-REQ3).",
    "tui.chicago_declared_line": "Chicago sagt i det här partiet: {names}. Bara den som har "
    "sagt Chicago kan vinna (V-CHI-DECLARED).",
    "tui.chicago_made_line": "Chicago klarat i det här partiet: {names}. Bara den som har "
    "klarat en Chicago kan vinna; den som når målet utan en får 0 poäng igen (V-CHI-REQ3).",
    "tui.subtitle": "regler {rules}, slumptal {seed}",
    # spelet i rader
    "tui.deal_points": "Poäng i given: {points}.",
    "tui.settlement_line": "Avräkning: {money}.",
    "tui.settlement_at": "Avräkning med {stake} per poäng: {money}.",
    "tui.scores_line": "Poäng: {scores}.",
    "tui.hand_line": "Din hand: {cards}.",
    "tui.hand_line_cat": "Din hand: {cards} ({cat}).",
    "tui.hand_empty": "Du har inga kort på handen.",
    "tui.showed": "{Who} visade {cards}.",
    "tui.showed_label": "{Who} visade:",
    "tui.on_table": "På bordet (stick {n}): {plays}.",
    "tui.played_line": "Spelade: {piles}.",
    "tui.round_won": "{Who} vinner med {cat}",
    "tui.round_nobody": "ingen får poäng",
    "tui.sum.trick": "Stick {n}: {plays}.",
    "tui.record_in": "Partiet finns sparat i {path}.",
    "tui.watch_again": "Se det igen med: chicago replay {path}",
    "tui.not_accepted": "Går inte: {why}.",
    "tui.refused": "Går inte. {why}",
    "tui.automatic": "(automatiskt)",
    "tui.act.chose": "{Who} väljer: {choice}.",
    # knappar och val
    "tui.btn.play": "Spela {card}",
    "tui.btn.one_up": "Öppet kort {card}",
    "tui.btn.discard": "Släng {cards}",
    "tui.btn.accept": "Ta kortet",
    # radlägets frågor
    "tui.q.exchange_six": "Du har sex kort (köpstopp): släng exakt ett, med nummer eller kort.",
    "tui.q.exchange": "Byte {r}: vilka kort slänger du? Kortnummer (1 3) eller kort "
    "({example}); 0 behåller alla",
    "tui.q.at_most": "högst {n} kort",
    "tui.q.one_up": "'öppet N' ber om det nya kortet öppet",
    "tui.q.play": "Stick {r}: vilket kort spelar du?",
    # skrivna svar som inte är svar
    "tui.in.nothing": "inget skrivet",
    "tui.in.no_choice": "det finns inget val {n}",
    "tui.in.number_only_in_play": "ett nummer väljer ett kort bara när du spelar",
    "tui.in.several": "'{typed}' passar flera val: {choices}",
    "tui.in.not_an_answer": "'{typed}' är inget svar här",
    "tui.in.one_up_one": "öppet kort gäller exakt ett kort: till exempel 'öppet 3' eller "
    "'öppet 7c'",
    "tui.in.twice": "samma kort står två gånger",
    "tui.in.at_most_five": "du kan slänga högst fem kort",
    "tui.in.not_a_card": "'{typed}' är inget kort och inget kortnummer",
    "tui.in.no_card": "det finns inget kort {n}: du har {size} kort, numrerade 1-{size}",
    "tui.in.expect_exchange": "skriv kortnummer (1 3) eller kort ({example}) att slänga, "
    "eller 0 för att behålla alla",
    "tui.in.expect_one_up": ", eller 'öppet N'",
    "tui.in.expect_play_menu": "spela ett av {cards} (numret på ett val, eller kortet)",
    "tui.in.expect_play": "spela ett av {cards}",
    "tui.in.expect_menu": "skriv 1-{n} eller ett av: {choices}",
    "tui.in.expect_text": "skriv ett av: {choices}",
    "tui.in.not_your_turn": "det är inte din tur",
    # varför ett drag inte går
    "tui.do.discard": "byta kort",
    "tui.do.keep": "behålla dina kort",
    "tui.do.one_up": "be om öppet kort",
    "tui.do.accept": "ta det öppna kortet",
    "tui.do.reject": "neka det öppna kortet",
    "tui.do.redeal": "kasta in handen",
    "tui.do.announce": "säga vad du har",
    "tui.do.pass": "passa",
    "tui.do.chicago": "säga Chicago",
    "tui.do.no_chicago": "avstå från Chicago",
    "tui.do.play": "spela ett kort",
    "tui.do.reset": "nollställa de andras poäng",
    "tui.do.score": "ta poängen",
    "tui.err.not_now": "Du kan inte {doing} nu: det är {phase}, och du får {may}.",
    "tui.err.not_held": "Du har inte {cards}.",
    "tui.err.follow": "Du måste bekänna färg: det spelades ut {suit}, och du har {cards}.",
    "tui.err.six": "Du har sex kort (köpstopp): släng exakt ett.",
    "tui.err.redeal_cards": "Före bytena får du bara behålla handen eller kasta in hela.",
    "tui.err.no_one_up": "Med de här reglerna finns inget öppet kort.",
    "tui.err.one_up": "Öppet kort går inte nu: det finns för få kort kvar att dra.",
    "tui.err.announce_exactly": "Du har {mine}, inte {wanted}: säg exakt vad du har.",
    "tui.err.announce_higher": "Någon har sagt {cat}: säg det eller bättre, eller passa.",
    "tui.err.redeal_low": "Bara en hand med fem låga kort får kastas in.",
    "tui.err.reset_quads": "Bara ett fyrtal får nollställa de andras poäng.",
    "tui.err.over": "Partiet är slut.",
    "tui.err.you_may": "Du får {may}.",
    # helskärmen
    "tui.fs.out": "släng",
    "tui.fs.placeholder": "skriv ett svar med : (1 3, passa, hjälp)",
    "tui.fs.keys_line": "? hjälp  s poäng  h odds  : skriv  q spara och sluta",
    "tui.fs.press_enter": "Tryck Enter för att gå vidare till nästa giv.",
    "tui.fs.over": "Partiet är slut. Tryck q för att sluta.",
    "tui.fs.over_head": "Partiet är slut: {names} vinner!",
    "tui.fs.wait": "Vänta på din tur.",
    "tui.fs.q.six": "Du har sex kort (köpstopp): välj det kort du slänger (1-6), sedan Enter.",
    "tui.fs.q.exchange": "Byte {r}: välj korten du slänger (1-5 eller ett klick), sedan "
    "Enter; inget valt behåller alla.",
    "tui.fs.q.play": "Numret eller ett klick spelar ett kort.",
    "tui.fs.no_card": "Det finns inget kort {n}: du har {size} kort.",
    "tui.fs.no_card_now": "Inget kort efterfrågas nu: {question}",
    "tui.fs.key_means_nothing": "Tangenten {letter} betyder inget nu: {question}",
    "tui.fs.help_title": "Tangenter och regler",
    "tui.fs.odds_title": "Odds (h)",
    "tui.window_keys": "↑↓ PgUp PgDn Home End · Esc stänger",
    "tui.key.cards": "välj ett kort på handen (i stickspelet: spela det); ett klick gör "
    "detsamma",
    "tui.key.enter": "byt de valda korten (inget valt: behåll alla); när given är slut: gå "
    "vidare",
    "tui.key.one_up": "öppet kort: be om det nya kortet öppet, med exakt ett kort valt",
    "tui.key.esc": "rensa valet, lämna skrivraden, stäng ett fönster",
    "tui.key.announce": "säg vad du har / passa",
    "tui.key.chicago": "Chicago / ingen Chicago",
    "tui.key.face_up": "ta / neka det öppna kortet",
    "tui.key.redeal": "kasta in en låg hand / behåll den",
    "tui.key.quads": "fyrtal: nollställ de andra / ta poängen",
    "tui.key.type": "skriv ett svar: kortnummer (1 3), kort (Ah 7c), behåll, spela Ah, passa, "
    "säg",
    "tui.key.scores": "poängtavlan: varje givs poäng",
    "tui.key.hint": "dragchanserna för din hand",
    "tui.key.help": "de här tangenterna och reglerna",
    "tui.key.quit": "spara och sluta",
    # poängtavlan
    "tui.sheet_head": lambda p: f"Poängtavla, {p['n']} {'giv' if p['n'] == 1 else 'givar'}:",
    "tui.sheet_total": "Summa: {scores}.",
    "tui.sheet_legend": "Varje ruta: givens poäng (· inga), sedan summan efter den.",
    # tipset
    "tui.hint.title": "Dragchanser för din hand, bästa först",
    "tui.hint.caption": "·· = släng; förv. = förväntade poäng efter draget; % chans för varje "
    "hand: {legend}.",
    "tui.hint.exp": "förv.",
    "tui.hint.discard": "släng",
    "tui.hint.hand": "hand",
    "tui.hint.six_title": "Låst med sex kort: handen som blir kvar för varje kort du slänger, "
    "bästa först",
    "tui.hint.six_caption": "Du drar inget: släng exakt ett kort.",
    "tui.hint.no_draw": "Inga dragchanser: {reason}. Handen är {cat} ({points}).",
    "tui.hint.why_six": "du är låst med sex kort: släng exakt ett, och du drar inget",
    "tui.hint.why_locked": "du är låst och får inte byta i den här given",
    "tui.hint.why_over": "bytena i den här given är över",
    "tui.hint.no_odds": lambda p: "Inga odds: du har ingen hand än." if not p["n"] else (
        f"Inga odds: de kräver en hand med fem kort (du har {p['n']})."
    ),
    "tui.hint.short_stock": "Talongen har {n} kort: den som slänger fler drar resten ur de "
    "slängda korten som blandas till en ny talong, så för de valen räknas även de slängda "
    "korten som möjliga att dra.",
    "tui.hint.returned": "De slängda korten blandades till en ny talong: {cards} kom tillbaka "
    "och kan dras igen (räknade som andra osedda kort, fast de är lite troligare).",
    "tui.hint.hand_only": "Din hand {cards}.",
    "tui.hint.hand_is": "Din hand {cards} är {cat} ({points}).",
    "tui.hint.six_line": "{i}. släng {card}: behåll {keep}, {cat} ({points})",
    "tui.hint.six_head": "Inget drag: {reason}. Dina sex kort: {cards}. Handen som blir kvar "
    "för varje kort du slänger, bästa först:",
    "tui.hint.no_draw_line": "Inga dragchanser: {reason}.",
    "tui.hint.odds_for": "Dragchanser för {cards}",
    "tui.hint.best_first": "Bästa sätten att behålla kort först:",
    "tui.hint.hold": "{i}. behåll {keep} (släng {n}): förväntat {exp} poäng; {chances}",
    "tui.hint.no_pair_likely": "troligen inget par",
    # radläget
    "tui.pl.intro": "Chicago, regler {rules}, {n} spelare, slumptal {seed}. Skriv hjälp för "
    "reglerna, tips för oddsen för din hand, läge för att se bordet, poäng för varje givs "
    "poäng, avsluta för att spara och sluta.",
    "tui.pl.players": "Spelare: {seats}.",
    "tui.pl.seat_you": "plats {n}: {name}",
    "tui.pl.seat_bot": "plats {n}: {name} ({level})",
    "tui.pl.saved_every": "Partiet sparas efter varje drag i {path}.",
    "tui.pl.resumed": "Fortsätter. Den här given hittills:",
    "tui.pl.automatic": "Bara ett val, gjort åt dig:",
    "tui.pl.choices": "Val: {menu}.",
    "tui.pl.warning": "Varning: {problem}",
    "tui.pl.end_of_input": "Inmatningen tog slut",
    "tui.pl.stopped": "Avslutat",
    "tui.pl.not_saved": "{why}: partiet sparades inte.",
    "tui.pl.saved_in": "{why}: partiet är sparat i {path}.",
    "tui.pl.continue_with": "Fortsätt med: chicago play --resume {path}",
    "tui.pl.save_failed": "{why}: {problem}",
    "tui.pl.interrupted_unsaved": "Avbrutet: partiet sparades inte.",
    "tui.pl.interrupted_saved": "Avbrutet: partiet är sparat i {path}; fortsätt med: "
    "chicago play --resume {path}",
    "tui.pl.interrupted_failed": "Avbrutet: {problem}",
    "tui.pl.final": "Slutpoäng: {scores}.",
    "tui.pl.commands": "Kommandon",
    "tui.pl.cmd.help": "reglerna för det här partiet och de här kommandona",
    "tui.pl.cmd.hint": "dragchanserna för din hand",
    "tui.pl.cmd.state": "bordet, poängen och din hand igen",
    "tui.pl.cmd.scores": "poängtavlan: varje avslutad givs poäng och summan",
    "tui.pl.cmd.quit": "spara partiet och sluta",
    "tui.pl.answers": "Svar: numret på ett val, kortnummer eller kort i ett byte (0 behåller "
    "alla), ett kort för att spela det.",
    # reprisen
    "tui.rp.title_finished": "Repris av ett avslutat parti: regler {rules}, {n} spelare "
    "({names}), slumptal {seed}, {steps} drag; {who}.",
    "tui.rp.title_unfinished": "Repris av ett oavslutat parti: regler {rules}, {n} spelare "
    "({names}), slumptal {seed}, {steps} drag; {who}.",
    "tui.rp.face_up": "alla kort synliga",
    "tui.rp.as_seat": "som {whom} (plats {n}) såg det",
    "tui.rp.start": "Partiets början",
    "tui.rp.step": "Steg {i}: {Who}",
    "tui.rp.status": "Steg {i} av {n} · {where}",
    "tui.rp.ends_early": "Partiet tar slut här, innan det är avgjort (efter {n} drag).",
    "tui.rp.keys_line": "→ framåt  ← bakåt  n/p giv  Home/End  ? hjälp  q sluta",
    "tui.rp.help_title": "Tangenter och regler",
    "tui.key.rp_step": "nästa steg / förra steget (även l, mellanslag / h, backsteg)",
    "tui.key.rp_deal": "nästa / förra given (även PageDown / PageUp)",
    "tui.key.rp_ends": "första / sista steget (även g / G)",
    "tui.key.rp_quit": "sluta",
    # meddelanden
    "tui.note.unavailable": "Datorn {spec} finns inte än: du spelar mot slumpdatorer i "
    "stället.",
    "tui.note.bot_illegal_stand_in": "Datorn {name} gav ett otillåtet svar; datorn {level} "
    "spelade åt den.",
    "tui.note.bot_illegal_random": "Datorn {name} gav ett otillåtet svar; ett slumpat tillåtet "
    "drag spelades åt den.",
    "tui.note.bot_failed_stand_in": "Datorn {name} fick fel ({error}); datorn {level} spelade "
    "åt den.",
    "tui.note.bot_failed_random": "Datorn {name} fick fel ({error}); ett slumpat tillåtet drag "
    "spelades åt den.",
    "tui.note.goes_on_declared": "Partiet fortsätter: med de här reglerna kan bara den som har "
    "sagt Chicago vinna (V-CHI-DECLARED), och ingen med {n} poäng eller mer har sagt en "
    "({scores}).",
    "tui.note.goes_on_again": "Partiet fortsätter: den som har {n} poäng eller mer när en giv "
    "börjar måste ta sista sticket i den given för att vinna partiet (V-WIN-AGAIN).",
    "tui.note.replay_unfinished_seat": "Partiet är inte slut: bara det som plats {n} ({name}) "
    "såg visas; --seat N visar en annan plats.",
    "tui.note.replay_unfinished": "Partiet är inte slut: bara det som plats {n} ({name}) såg "
    "visas.",
    "tui.note.replay_other_seat": "Varning: partiet är inte slut och spelades från plats "
    "{human} ({human_name}); du ser korten för plats {n} ({name}), som den spelaren inte såg.",
    # analysen (chicago review, chicago replay --review)
    "tui.review.short.exchange": "byte {n}",
    "tui.review.short.one_up": "öppet {n}",
    "tui.review.short.redeal": "nya kort",
    "tui.review.short.announce": "runda {n}",
    "tui.review.short.quads": "fyrtal",
    "tui.review.short.quads_choice": "fyrtal",
    "tui.review.short.chicago": "Chicago",
    "tui.review.short.play": "stick {n}",
    "tui.review.phases.redeal": "nya kort",
    "tui.review.phases.exchange": "byten",
    "tui.review.phases.one_up": "öppet kort",
    "tui.review.phases.announce": "poängrundor",
    "tui.review.phases.quads_choice": "fyrtalsval",
    "tui.review.phases.quads": "fyrtal",
    "tui.review.phases.chicago": "Chicago eller inte",
    "tui.review.phases.play": "stick",
    "tui.review.note_best": "analys: {grade} ({where})",
    "tui.review.note": "analys: {grade}, -{loss} poäng; {better}",
    "tui.review.head": lambda p: f"Analys av {p['who']}: {p['rules']}, {p['players']} "
    f"spelare, slumptal {p['seed']}, {p['deals']} {'giv' if p['deals'] == 1 else 'givar'}; "
    f"nivå {p['level']}, analysens slumptal {p['review_seed']}.",
    "tui.review.who_named": "{name} (plats {n})",
    "tui.review.who_seat": "plats {n}",
    "tui.review.totals": "Precision {accuracy} · {n} beslut · {loss} förväntade poäng "
    "förlorade ({per_deal} per giv).",
    "tui.review.unfinished": "Partiet är inte slut: analyserat så långt det går.",
    "tui.review.graph": "Poäng efter varje giv (målet {target}):",
    "tui.review.graph_lost": "förlorade poäng (· några, ▲ 2,5 eller fler)",
    "tui.review.by_phase": "Förlorade poäng per skede",
    "tui.review.all_phases": "alla",
    "tui.review.per_deal": "Förlorade poäng per giv: {deals} (medel {mean})",
    "tui.review.deal_loss": "{deal}: {loss}",
    "tui.review.sep": "; ",
    "tui.review.biggest_item": "steg {step} (giv {deal}, {where}), hand {hand}: {done}; "
    "{better}. {grade}, {loss} poäng förlorade",
    "tui.review.known_loss": "({loss} med alla kort kända)",
    "tui.review.known_note": "kända: poängen valet förlorade med alla kort kända (talongen, "
    "de andras händer), som platsen inte kunde se; räknas aldrig i betyget.",
    "tui.review.col.step": "steg",
    "tui.review.col.deal": "giv",
    "tui.review.col.when": "när",
    "tui.review.col.hand": "hand",
    "tui.review.col.played": "gjort",
    "tui.review.col.better": "bättre",
    "tui.review.col.loss": "förlust",
    "tui.review.col.grade": "betyg",
    "tui.review.col.known": "kända",
    "tui.review.col.phase": "skede",
    "tui.review.col.decisions": "beslut",
    "tui.review.col.lost": "förlorat",
    "tui.review.progress": "beslut",
    "tui.review.warn_other_seat": "varning: partiet är inte slut och spelades från plats {n}; "
    "analysen av en annan plats visar kort som den spelaren inte såg",
    # reglerna
    "tui.rules.title": "Regler: {name}",
    "tui.rules.with_changes": "med ändringar",
    "tui.rules.changed": "Ändrade regelval: {changes}.",
    "tui.rules.variations": "Varianter som gäller",
    "tui.rules.options": "Alla regelval",
    "tui.rules.options_note": "Varje regelval står med sitt namn i programmet, som det ändras "
    "med --set namn=värde.",
    "tui.rules.players": "Spelare.",
    "tui.rules.players_text": "{min} till {max}, en kortlek med 52 kort. Allt går medsols från "
    "givarens vänstra sida; given går vidare efter varje hand.",
    "tui.rules.deal": "En giv.",
    "tui.rules.deal_text": "Fem kort var, sedan {n} byten: i tur och ordning slänger varje "
    "spelare 0 till {max} kort och drar lika många.",
    "tui.rules.deal_rounds": "Efter varje byte utom det sista kommer en poängrunda ({n} i "
    "allt).",
    "tui.rules.deal_no_rounds": "Det finns ingen poängrunda under bytena.",
    "tui.rules.rounds": "Poängrundor.",
    "tui.rules.rounds_text": "I tur och ordning passar varje spelare eller säger exakt vad "
    "handen är, minst lika högt som det bästa som sagts hittills. Bästa handen får sina "
    "poäng.",
    "tui.rules.ties_staged": "Har två eller fler samma bästa kombination visar de sina valörer "
    "steg för steg (kombinationen först, sedan de övriga korten) tills en ligger före; helt "
    "lika händer får inga poäng.",
    "tui.rules.ties_none": "Säger två eller fler samma bästa kombination får ingen poäng.",
    "tui.rules.ties_suit": "Helt lika händer avgörs av färgen på det högsta kortet ({order}).",
    "tui.rules.points": "Poäng.",
    "tui.rules.show": "Visa vid brytning.",
    "tui.rules.show_text": "Den vars sagda kombination var högst och som sedan slänger ett kort "
    "ur den måste först visa hela handen för alla.",
    "tui.rules.lock": "Köpstopp.",
    "tui.rules.lock_text": "Den som har {n} poäng eller mer när en giv börjar får inte byta i "
    "den given.",
    "tui.rules.lock_six": "En sådan spelare får sex kort och slänger ett i första bytet.",
    "tui.rules.one_up": "Öppet kort.",
    "tui.rules.one_up_text": "Den som byter exakt ett kort får be om det nya kortet öppet, och "
    "sedan ta det eller neka det och dra nästa kort dolt.",
    "tui.rules.redeal": "Nya kort.",
    "tui.rules.redeal_text": "Före första bytet får den vars fem kort alla är {limit} kasta in "
    "dem och dra fem nya.",
    "tui.rules.below_ten": "under tio",
    "tui.rules.ten_or_lower": "tio eller lägre",
    "tui.rules.quads": "Fyrtal",
    "tui.rules.quads_text": "som vinner en poängrunda (eller anmäls efter sista bytet) får "
    "nollställa alla andras poäng, och given är då slut. Bara det högsta fyrtalet vid bordet "
    "får det: har någon ett högre protesterar den och visar de fyra korten, och "
    "nollställningen gäller inte (i en poängrunda får vinnaren i stället poängen för "
    "fyrtalet; efter sista bytet fortsätter given).",
    "tui.rules.quads_end": "Tar man poängen för fyrtalet är given också slut.",
    "tui.rules.chicago": "Chicago.",
    "tui.rules.chicago_min": "med minst {n} poäng",
    "tui.rules.chicago_any": "vid alla poäng",
    "tui.rules.declarer_leads": "den som sagt Chicago spelar ut",
    "tui.rules.left_leads": "givarens vänstra granne spelar ut",
    "tui.rules.chicago_text": "Efter sista bytet får en spelare {minimum} säga Chicago, ett "
    "löfte att ta alla fem sticken ({leader}). Klarad: {n} poäng i stället för sista sticket. "
    "Misslyckad: minus {n}, och given är slut vid sticket som spräcker den.",
    "tui.rules.chicago_deuce": "En klarad Chicago vars sista stick tas med en tvåa ger {n}.",
    "tui.rules.chicago_breaker": "Den som spräcker den får {n}.",
    "tui.rules.no_chicago": "Det finns ingen Chicago med de här reglerna.",
    "tui.rules.tricks": "Stick.",
    "tui.rules.tricks_text": "Fem stick, ingen trumf; bekänn färg om du kan; högsta kortet i "
    "utspelad färg vinner. Bara sista sticket ger poäng: {n} poäng",
    "tui.rules.tricks_deuce": "({n} om det tas med en tvåa)",
    "tui.rules.tricks_end": ". Spelade kort ligger öppna framför varje spelare.",
    "tui.rules.showdown": "Slutvisning.",
    "tui.rules.showdown_text": "Efter sista sticket får bästa handen sina poäng en gång till "
    "(helt lika bästa händer får inga poäng).",
    "tui.rules.end": "Slut.",
    "tui.rules.end_text": "Partiet är slut efter en giv där någon når {n}; flest poäng vinner.",
    "tui.rules.end_made_3": "Med tre spelare kan bara den som har klarat en Chicago vinna; den "
    "som når målet utan en får noll poäng igen. Med fler eller färre spelare gäller det inte.",
    "tui.rules.end_made_any": "Oavsett antalet spelare kan bara den som har klarat en Chicago "
    "vinna; den som når målet utan en får noll poäng igen.",
    "tui.rules.end_declared": "Bara den som har sagt Chicago kan vinna.",
    "tui.rules.end_again": "Den som når målet måste sedan ta sista sticket i en senare giv.",
    "tui.rules.sf_or_royal": "färgstege (eller royal flush)",
    "tui.rules.sf": "färgstege",
    "tui.rules.royal": "royal flush",
    "tui.rules.instant_raised": "En {hand} som ger poäng vinner partiet direkt, och vinnarens "
    "poäng höjs till {n} om de är lägre.",
    "tui.rules.instant_kept": "En {hand} som ger poäng vinner partiet direkt, och vinnaren "
    "behåller sina poäng (de höjs inte till målet): de andra betalar bara det de ligger under "
    "dem.",
    "tui.rules.end_deals": lambda p: f"Partiet är också slut efter {p['n']} "
    + ("giv." if p["n"] == 1 else "givar."),
    "tui.rules.pays": "Avräkning.",
    "tui.rules.pays_text": "Varje annan spelare betalar {stake} per poäng i skillnad mot "
    "vinnarens poäng; delar flera på segern delar de på pengarna.",
    "tui.rules.pays_negative": "Poängen kan bli negativa, och negativa poäng betalar dubbelt.",
    "tui.rules.pays_zero": "Poängen blir aldrig negativa.",
}
"""Terminalens egna ord."""

OPTIONS: dict[str, str] = {
    # Regelvalens beskrivningar i hjälpen (på engelska står de under fälten i Rules-klassen;
    # tests/test_tui_render.py kräver en svensk text för varje fält, med samma regel-id).
    "tui.opt.preset_name": "De förinställda regler som regelsamlingen utgick från (bara "
    "upplysning; enskilda val kan ha ändrats efteråt).",
    "tui.opt.variations": "Varianterna som lagts på de förinställda reglerna, med id i tur och "
    "ordning (bara upplysning, som `preset_name`, och jämförs inte: lika val är lika regler "
    "hur de än byggdes; enskilda val kan ha ändrats efteråt). Textnotationen skriver dem som "
    "`Variation`-taggar.",
    "tui.opt.min_players": "R-TABLE-1: minsta antal platser vid ett bord.",
    "tui.opt.max_players": "R-TABLE-1 / V-LARGE: största antal platser vid ett bord (högst 6).",
    "tui.opt.points": "R-HAND-1: poängen för varje kombination, från inget par till royal "
    "flush.",
    "tui.opt.royal_separate": "V-ROYAL: en färgstege med ess högst är en egen kombination, "
    "royal flush (P, D: 52 poäng).",
    "tui.opt.royal_wins": "V-ROYAL: en royal flush som ger poäng vinner hela partiet direkt.",
    "tui.opt.straight_flush_wins": "V-SF-WIN: en färgstege (eller royal flush) som ger poäng "
    "vinner hela partiet direkt.",
    "tui.opt.instant_win_score": "V-SF-WIN / V-ROYAL: en direktvinnares poäng höjs till målet "
    "(`target`, W:s \"elevated to 52\") eller behålls som de är (`keep`); avräkningen följer "
    "av dem.",
    "tui.opt.wheel_straight": "R-HAND-3: A-2-3-4-5 är en stege (med femman högst).",
    "tui.opt.suit_order": "V-TIE-SUIT: färgerna, högsta först (`\"hdsc\"`), som avgör helt "
    "lika händer; None = av.",
    "tui.opt.tie_mode": "R-ANN-3 / V-TIE-CATEGORY: `staged` särskiljer lika kombinationer "
    "valör för valör, `category` ger lika kombinationer 0 poäng.",
    "tui.opt.exchanges": "R-PHASE-1: antal byten per giv; efter varje byte utom det sista "
    "kommer en poängrunda.",
    "tui.opt.max_discard": "R-EX-2 / V-LARGE: flest kort en spelare får slänga i ett byte.",
    "tui.opt.show_on_break": "R-EX-4: den som slänger ett kort ur poängrundans högsta "
    "kombination visar först hela handen.",
    "tui.opt.lock_at": "R-EX-5 / V-LOCK-42 / V-LOCK-45: den som har minst så många poäng när "
    "given börjar har köpstopp; None = aldrig.",
    "tui.opt.lock_six": "V-LOCK-6: den som har köpstopp får sex kort och slänger ett före "
    "första poängrundan.",
    "tui.opt.one_up": "V-ONE-UP: den som byter ett enda kort får be om det nya som öppet kort.",
    "tui.opt.redeal_low": "V-REDEAL-LOW: fem kort som alla är under tio (eller tio och lägre) "
    "får kastas in mot fem nya, en gång.",
    "tui.opt.chicago_enabled": "R-CHI-1: det finns en Chicago att säga (D har ingen).",
    "tui.opt.chicago_points": "R-CHI-3 / R-CHI-4 / V-CHI-13: poängen en klarad Chicago ger och "
    "en misslyckad kostar.",
    "tui.opt.chicago_min_score": "R-CHI-2: poängen som krävs för att säga Chicago; None = vid "
    "alla poäng (V-NEG).",
    "tui.opt.chicago_callers": "R-CHI-1: högst en som säger Chicago, den första i tur och "
    "ordning.",
    "tui.opt.chicago_caller_leads": "R-CHI-6: den som sa Chicago spelar ut till första sticket "
    "(V-CHI-13) i stället för spelaren till vänster om givaren.",
    "tui.opt.chicago_final_showdown": "R-CHI-3: efter en klarad Chicago ger slutvisningen ändå "
    "poäng.",
    "tui.opt.chicago_breaker_points": "V-CHI-BREAKER: poängen till den spelare vars stick "
    "spräcker en Chicago (8); 0 = av.",
    "tui.opt.chicago_required": "V-CHI-REQ3 (`made`) / V-CHI-DECLARED (`declared`): vad en "
    "spelare behöver för att kunna vinna.",
    "tui.opt.chicago_made_any_size": "V-CHI-REQ3: `made` gäller vid alla bordsstorlekar; av: "
    "bara när tre spelar (som P säger).",
    "tui.opt.last_trick_points": "R-TRICK-4: poängen för sista sticket.",
    "tui.opt.deuce_bonus": "V-DEUCE: sista sticket taget med en tvåa ger dubbla "
    "`last_trick_points` (10); en klarad Chicago vars sista stick tas med en tvåa ger "
    "`deuce_chicago_points`.",
    "tui.opt.deuce_chicago_points": "V-DEUCE: så mycket ger en klarad Chicago vars sista stick "
    "tas med en tvåa (30, också med V-CHI-13; 26 vore en dubblad Chicago på 13 poäng).",
    "tui.opt.target": "R-END-1: partiet är slut efter en giv där någon når så många poäng.",
    "tui.opt.stake": "R-END-2: pengar per poäng i skillnad (kr).",
    "tui.opt.negative_scores": "R-CHI-5 / V-NEG: poängen får gå under noll (och enligt R-END-3 "
    "betalar negativa poäng dubbelt).",
    "tui.opt.win_again": "V-WIN-AGAIN: den som har nått målet måste ta sista sticket i en "
    "senare giv för att vinna partiet.",
    "tui.opt.max_deals": "Husregel: partiet är också slut efter så många givar; flest poäng "
    "vinner.",
    "tui.opt.quads_reset": "V-QUADS-RESET: fyrtal får nollställa alla andras poäng i stället "
    "för att ge poäng.",
    "tui.opt.quads_end_deal": "V-QUADS-RESET: att ta de 7 poängen för fyrtal avslutar också "
    "given.",
    "tui.opt.quads_reset_one": "V-QUADS-ONE: fyrtalet nollställer en annan spelare som "
    "innehavaren väljer (`reset SEAT`) i stället för alla andra.",
    "tui.opt.quads_to_target": "V-QUADS-52: fyrtal som ger poäng (i en poängrunda eller "
    "slutvisningen) lyfter innehavarens poäng direkt till målet (eller med sina poäng, om det "
    "är mer).",
}
"""Regelvalens beskrivningar: ``tui.opt.`` och fältets namn i :class:`~chicago.Rules`."""

ENTRIES: dict[str, Any] = {**browser_texts("sv"), **FUNCTIONS, **TERMINAL, **OPTIONS}
"""Alla svenska texter."""
