"""Type stubs of the C accelerator ``chicago.engine._engine`` (see ``_engine.c``)."""

import random

from chicago.cards import Card

def install(game: type, config: dict[str, object]) -> None: ...
def shuffle(rng: random.Random, cards: list[Card]) -> None: ...
