"""Mail notices (docs/SERVER.md, "Mail"): a mail when it becomes your turn at a
correspondence table while you are away (no page of the site open and connected:
:meth:`YourGames.on_site`), and when your day there ran out and the stand-in played for you;
only where the site has SMTP (``Settings.smtp_url``, ``chicago serve --smtp``; off by
default).

A profile gives an address (``PUT /api/profiles/me/mail``); nothing is sent to it but the
confirmation until its link is followed (``POST /api/mail/confirm``), so nobody can have the
site mail someone else. Every mail has an unsubscribe link (in its text, and the
``List-Unsubscribe`` headers of RFC 2369 and RFC 8058: one click, ``POST
/api/mail/unsubscribe``). At most ``Settings.mail_per_day`` mails go to one profile and
``Settings.mail_site_per_day`` from the site in 24 hours, counted in the outbox (the same on
every worker, and after a restart). Mails are queued in the database and sent by whichever
worker claims them (:class:`Mailer`), so a restart sends what was queued.
"""

from __future__ import annotations

import asyncio
import email.policy
import logging
import re
import secrets
import smtplib
import ssl
import unicodedata
from collections import Counter
from email.message import EmailMessage
from typing import Annotated, Any
from urllib.parse import unquote, urlsplit

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, Field

from chicago.server.admission import client_key
from chicago.server.core.rows import Change
from chicago.server.core.seats import hash_token
from chicago.server.limits import make_limiter
from chicago.server.live import LiveTable
from chicago.server.protocol import TableError
from chicago.server.settings import Settings
from chicago.server.storage import Store
from chicago.server.storage.mail import MailRow, MailStore, OutboxRow
from chicago.server.strict import STRICT
from chicago.server.tables import TableManager
from chicago.server.tasks import wait_woken
from chicago.server.together.turns import YourGames

__all__ = ["Mailer", "check_address", "router"]

log = logging.getLogger("chicago.server")

router = APIRouter(prefix="/api")

_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")
_LINK_TOKEN = r"^[A-Za-z0-9_-]{16,64}$"
DAY = 86400.0
_POLICY = email.policy.SMTP.clone(max_line_length=998)
"""CRLF lines; a header as long as the link it holds (not encoded to fold it)."""


def check_address(text: str) -> str:
    """A mail address as stored (trimmed), or TableError ``bad_request``: one ``@``, no
    blanks, controls or line breaks (nothing can be added to a mail's headers), at most 254
    characters."""
    address = text.strip()
    if (not address or len(address) > 254 or not _ADDRESS.match(address)
            or any(unicodedata.category(ch).startswith("C") for ch in address)):
        raise TableError("bad_request", "address: not a mail address (name@example.org)")
    return address


class Mailer:
    """The mail notices of one server process: deciding, queueing and sending them."""

    def __init__(self, manager: TableManager, store: Store, settings: Settings,
                 games: YourGames) -> None:
        self.manager = manager
        self.settings = settings
        self.games = games
        self.rows = MailStore(store)
        self.on = settings.smtp_url is not None
        """Whether this site sends mail at all."""
        self.sent = 0
        self.skipped: Counter[str] = Counter()
        """Notices not sent, by why (no_address, unconfirmed, unsubscribed, cap, site_cap,
        on_site: the person had a page open when it became their turn)."""
        self.links = make_limiter(settings, "mail links", 30, 30)
        """Confirm and unsubscribe requests per address (30 at once, 30 a minute)."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        games.became_turn.append(self._your_turn)
        manager.cache.stored.append(self._stored)

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start sending (only where the site has SMTP)."""
        if self.on:
            self._task = asyncio.create_task(self._send_loop(), name="chicago-mail")

    async def stop(self) -> None:
        """Stop sending (what is queued stays queued)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.links.close()

    # ------------------------------------------------------------------ notices
    def _your_turn(self, table: LiveTable, seat: int) -> None:
        """It became the turn of the person of ``seat``: a mail, unless they have a page of
        the site open and connected now (the notice in the page serves)."""
        state = table.state
        profile = state.seats[seat].profile
        if not self.on or profile is None or state.options.clock_days is None:
            return
        if self.games.on_site(table, seat):
            self.skipped["on_site"] += 1
            return
        self.manager.tasks.spawn(self.notice(profile, "turn", table.id, state.row.name))

    def _stored(self, table: LiveTable, change: Change, _before: int | None) -> None:
        state = table.state
        if not self.on or state.options.clock_days is None:
            return
        for entry in change.entries:
            if entry.kind == "act" and entry.data.get("by") == "clock" and entry.seat is not None:
                profile = state.seats[entry.seat].profile
                if profile is not None:
                    self.manager.tasks.spawn(self.notice(profile, "clock", table.id,
                                                         state.row.name))

    async def notice(self, profile: str, kind: str, table_id: str, table_name: str,
                     by: str | None = None) -> bool:
        """Queue a notice of ``kind`` (turn, clock, invite: ``by`` whom) about a table for
        ``profile`` if it wants it and the caps allow; whether it was queued
        (:attr:`skipped` says why not)."""
        row = await asyncio.to_thread(self.rows.settings, profile)
        why = ("no_address" if row is None else "unconfirmed" if not row.confirmed
               else "unsubscribed" if not row.notify else None)
        if why is None and row is not None:
            why = await self._over_cap(profile)
            if why is None:
                subject, body = _notice_text(kind, table_name or "Chicago",
                                             self._link(f"#/table/{table_id}"),
                                             self._link(f"#/unsubscribe/{row.unsubscribe}"),
                                             by)
                await asyncio.to_thread(self.rows.queue, profile, row.address, kind, subject,
                                        body, row.unsubscribe, self.manager.clock.time())
                self._wake.set()
        if why is not None:
            self.skipped[why] += 1
        return why is None

    async def _over_cap(self, profile: str) -> str | None:
        since = self.manager.clock.time() - DAY
        if await asyncio.to_thread(self.rows.sent_since, since, profile) >= \
                self.settings.mail_per_day:
            return "cap"
        if await asyncio.to_thread(self.rows.sent_since, since) >= \
                self.settings.mail_site_per_day:
            return "site_cap"
        return None

    def _link(self, fragment: str) -> str:
        base = (self.settings.public_origin or "http://localhost:8000").rstrip("/")
        return f"{base}/{fragment}"

    # ------------------------------------------------------------------ addresses
    async def set_address(self, profile: str, address: str | None, notify: bool) -> MailRow | None:
        """The profile's new address (None: forget it) and wish; a new address gets a
        confirmation mail (TableError 429 ``mail_limited`` over the profile's cap)."""
        if not self.on:
            raise TableError("mail_off", "this site sends no mail", 409)
        at = self.manager.clock.time()
        if address is None:
            await asyncio.to_thread(self.rows.forget, profile)
            return None
        old = await asyncio.to_thread(self.rows.settings, profile)
        if old is not None and old.address == address:
            await asyncio.to_thread(self.rows.set_notify, profile, notify, at)
            return await asyncio.to_thread(self.rows.settings, profile)
        cap = await self._over_cap(profile)
        if cap is not None:
            limit = (f"at most {self.settings.mail_per_day} mails a day to one profile"
                     if cap == "cap" else
                     f"at most {self.settings.mail_site_per_day} mails a day from this site")
            raise TableError("mail_limited", f"{limit}; try again tomorrow", 429,
                             retry_after=3600)
        token = secrets.token_urlsafe(24)
        row = MailRow(profile, address, False, hash_token(token), notify,
                      secrets.token_urlsafe(24), at)
        await asyncio.to_thread(self.rows.set_address, row)
        subject, body = _confirm_text(self._link(f"#/confirm/{token}"),
                                      self._link(f"#/unsubscribe/{row.unsubscribe}"))
        await asyncio.to_thread(self.rows.queue, profile, address, "confirm", subject, body,
                                row.unsubscribe, at)
        self._wake.set()
        return row

    # ------------------------------------------------------------------ sending
    async def _send_loop(self) -> None:
        worker = self.manager.worker[:32]
        while True:
            self._wake.clear()  # a mail queued from now on wakes the wait below
            try:
                mails = await asyncio.to_thread(self.rows.claim, worker,
                                                self.manager.clock.time(), 300.0)
                for mail in mails:
                    error = await asyncio.to_thread(self._send, mail)
                    await asyncio.to_thread(self.rows.sent, mail.id, self.manager.clock.time(),
                                            error)
                    if error is None:
                        self.sent += 1
                    else:
                        log.warning("mail %d to profile %s not sent: %s", mail.id,
                                    mail.profile_id, error)
                if mails:
                    continue
            except Exception:
                log.exception("mail: sending failed; trying again")
            await wait_woken(self._wake, 30.0)  # also what other workers queued

    def _send(self, mail: OutboxRow) -> str | None:
        """Send one mail over SMTP (in a worker thread); None, or why it failed."""
        url = urlsplit(self.settings.smtp_url or "")
        message = EmailMessage(policy=_POLICY)
        message["From"] = self.settings.mail_from
        message["To"] = mail.address
        message["Subject"] = mail.subject
        if mail.unsubscribe:
            link = self._link(f"api/mail/unsubscribe?token={mail.unsubscribe}")
            message["List-Unsubscribe"] = f"<{link}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(mail.body)
        try:
            port = url.port or (465 if url.scheme == "smtps" else 25)
            smtp: smtplib.SMTP
            if url.scheme == "smtps":
                smtp = smtplib.SMTP_SSL(url.hostname or "localhost", port, timeout=30,
                                        context=ssl.create_default_context())
            else:
                smtp = smtplib.SMTP(url.hostname or "localhost", port, timeout=30)
            with smtp:
                if url.scheme == "smtp+starttls":
                    smtp.starttls(context=ssl.create_default_context())
                if url.username:
                    smtp.login(unquote(url.username), unquote(url.password or ""))
                smtp.send_message(message)
        except (OSError, smtplib.SMTPException) as exc:
            return str(exc) or type(exc).__name__
        return None


def _notice_text(kind: str, name: str, link: str, unsubscribe: str,
                 by: str | None = None) -> tuple[str, str]:
    """The subject and text of a notice (English, then Swedish)."""
    if kind == "invite":
        who = by or "A player"
        subject = f"{who} invites you to {name} / {by or 'En spelare'} bjuder in dig till {name}"
        en = f"{who} invites you to a game of Chicago at {name}. Follow the link to take a seat."
        sv = (f"{by or 'En spelare'} bjuder in dig till ett parti Chicago vid {name}. Följ "
              "länken för att sätta dig.")
    elif kind == "clock":
        subject = f"Your time ran out at {name} / Din tid tog slut vid {name}"
        en = (f"Your time to move at {name} ran out, so the stand-in bot moved for you, as at "
              "a live table. After three times in a row it plays on for you until you come "
              "back.")
        sv = (f"Din tid att dra vid {name} tog slut, så ersättarboten drog åt dig, som vid "
              "ett bord i realtid. Efter tre gånger i rad spelar den vidare åt dig tills du "
              "kommer tillbaka.")
    else:
        subject = f"Your turn at {name} / Din tur vid {name}"
        en = f"It is your turn at {name}."
        sv = f"Det är din tur vid {name}."
    body = (f"{en}\n\n{link}\n\n{sv}\n\n--\nYou get this mail because you asked Chicago for "
            f"notices. Unsubscribe / Avsluta prenumerationen:\n{unsubscribe}\n")
    return subject, body


def _confirm_text(link: str, unsubscribe: str) -> tuple[str, str]:
    subject = "Confirm your address at Chicago / Bekräfta din adress hos Chicago"
    body = ("Someone, we hope you, gave this address for the notices of the card game "
            f"Chicago. Follow this link to confirm it:\n\n{link}\n\nNågon, förhoppningsvis "
            "du, gav den här adressen för meddelanden från kortspelet Chicago. Följ länken "
            "ovan för att bekräfta den.\n\n--\nNot you? Nothing more is sent unless the "
            f"link is followed. Unsubscribe / Avsluta:\n{unsubscribe}\n")
    return subject, body


# ---------------------------------------------------------------------- routes
class MailRequest(BaseModel):
    """``PUT /api/profiles/me/mail``."""

    model_config = STRICT

    address: str | None = Field(None, max_length=254)
    notify: bool = True


def _mailer(request: Request) -> Mailer:
    mailer: Mailer = request.app.state.mailer
    return mailer


def _out(row: MailRow | None, on: bool) -> dict[str, Any]:
    if row is None:
        return {"available": on, "address": None, "confirmed": False, "notify": False}
    return {"available": on, "address": row.address, "confirmed": row.confirmed,
            "notify": row.notify}


ProfileHeader = Annotated[str | None, Header(alias="X-Chicago-Profile")]
LinkToken = Annotated[str, Query(pattern=_LINK_TOKEN)]


@router.get("/profiles/me/mail")
async def my_mail(request: Request, secret: ProfileHeader = None) -> dict[str, Any]:
    """The profile's address for notices and its wish (``available``: the site sends mail)."""
    mailer = _mailer(request)
    profile = await request.app.state.club.profile_of(secret)
    return _out(await asyncio.to_thread(mailer.rows.settings, profile.id), mailer.on)


@router.put("/profiles/me/mail")
async def set_my_mail(body: MailRequest, request: Request,
                      secret: ProfileHeader = None) -> dict[str, Any]:
    """Give (or change, or with null take back) the profile's address and say whether it
    wants the notices; a new address is sent a confirmation mail first."""
    mailer = _mailer(request)
    profile = await request.app.state.club.profile_of(secret)
    address = check_address(body.address) if body.address is not None else None
    return _out(await mailer.set_address(profile.id, address, body.notify), mailer.on)


async def _link_request(request: Request) -> Mailer:
    mailer = _mailer(request)
    key = client_key(request.client.host if request.client else None)
    wait = await mailer.links.take(key)
    if wait is not None:
        raise TableError("rate_limited", "too many mail links from one address; try again "
                         "later", 429, retry_after=wait)
    return mailer


@router.post("/mail/confirm")
async def confirm(request: Request, token: LinkToken) -> dict[str, Any]:
    """Follow a confirmation link: the address gets the notices from now on."""
    mailer = await _link_request(request)
    if not await asyncio.to_thread(mailer.rows.confirm, hash_token(token),
                                   mailer.manager.clock.time()):
        raise TableError("unknown_link", "this link confirms nothing (used already, or the "
                         "address was changed since)", 404)
    return {"confirmed": True}


@router.post("/mail/unsubscribe")
async def unsubscribe(request: Request, token: LinkToken) -> dict[str, Any]:
    """Follow an unsubscribe link (also the one click of a mail program, RFC 8058): no
    more notices go to that address."""
    mailer = await _link_request(request)
    if not await asyncio.to_thread(mailer.rows.unsubscribe, token,
                                   mailer.manager.clock.time()):
        raise TableError("unknown_link", "this link unsubscribes nothing (the address was "
                         "changed or taken back since)", 404)
    return {"unsubscribed": True}
