"""Play and replay Chicago in the terminal: a full-screen Textual app and a plain line mode.

The shells are thin: :class:`~chicago.tui.session.PlaySession` runs the game, the bots and
the saving; everything shown to the player is built from the player's seat view
(``game.view(seat)``) and the events that seat may see, never from another hand.

- :mod:`chicago.tui.session` — a game against bots, saved after every action
- :mod:`chicago.tui.words` — events, states and prompts in words
- :mod:`chicago.tui.inputs` — typed answers (numbers, cards, action text) to actions
- :mod:`chicago.tui.hints` — the exact draw odds of the player's hand
- :mod:`chicago.tui.rules_help` — the rules of a rule set in words
- :mod:`chicago.tui.storage` — the data directory and record files (JSON or text notation)
- :mod:`chicago.tui.replayer` — stepping through a recorded game
- :mod:`chicago.tui.plain` — the plain line mode of ``chicago play`` and ``chicago replay``
- :mod:`chicago.tui.app` / :mod:`chicago.tui.replay_app` — the full-screen apps
- :mod:`chicago.tui.review_words` — a game review (:mod:`chicago.review`) in words
"""
