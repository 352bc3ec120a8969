"""A real SMTP server for the mail tests (aiosmtpd, never a mock): what it received, in
order, and the fixture that starts it on a free port of 127.0.0.1."""

from __future__ import annotations

import queue
import socket
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller

WAIT = 30.0
"""Seconds a test waits for a mail before it fails (only a hang would reach it)."""


class Inbox:
    """What the test's SMTP server received."""

    def __init__(self) -> None:
        self.mails: queue.Queue[tuple[list[str], Message]] = queue.Queue()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.put((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"

    def next(self) -> tuple[list[str], Message]:
        """The next mail received (the recipients and the message), waiting for it."""
        return self.mails.get(timeout=WAIT)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    """An SMTP server on 127.0.0.1: its inbox and its port."""
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()
