"""Example programs that come with chicago (run them with ``python -m``).

:mod:`chicago.examples.random_bot` is a complete external bot (docs/BOT_PROTOCOL.md) in a
few lines of the standard library: ``chicago simulate --bots "cmd:python -m
chicago.examples.random_bot",basic,basic,basic``.
"""
