#!/usr/bin/env python3
"""A complete chicago bot: it plays a random legal action (see docs/BOT_PROTOCOL.md).

Try it:  chicago simulate --bots "cmd:python examples/random_bot.py",basic,basic,basic
"""

import json
import random
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        rng = random.Random(message["seed"])  # the seed chicago sends: repeatable games
        print(rng.choice(message["legal"]), flush=True)
