#!/usr/bin/env python3
"""A complete chicago bot: it plays a random legal action (see docs/BOT_PROTOCOL.md).

It needs nothing but the standard library, so it runs as a file of its own as well as the
module that comes with chicago::

    chicago simulate --bots "cmd:python -m chicago.examples.random_bot",basic,basic,basic
"""

import json
import random
import sys


def main() -> None:
    """Answer every ``act`` message of the protocol with one of its legal actions."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "act":
            rng = random.Random(message["seed"])  # the seed chicago sends: repeatable games
            print(rng.choice(message["legal"]), flush=True)


if __name__ == "__main__":
    main()
