"""Mail notices (issue 26), received by a real SMTP server the test starts (aiosmtpd, no
mock): an address is confirmed by its link before anything else is sent to it; a notice
when it becomes your turn at a correspondence table, with an unsubscribe link in its text
and its headers (RFC 8058), which is honoured; a cap per profile per day; no mail at all
where the site has no SMTP; a mail when the day to move ran out and the stand-in moved; the
outbox survives a restart. With the hostile requests of each new endpoint.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from server_support import WsPlayer, close_all, create_table
from starlette.testclient import TestClient

from chicago.server import Settings, create_app
from chicago.server.clock import ShiftedClock
from smtp_inbox import Inbox, free_port
from smtp_inbox import inbox as inbox

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def client(settings: Settings, inbox: tuple[Inbox, int]) -> Iterator[TestClient]:
    settings.smtp_url = f"smtp://127.0.0.1:{inbox[1]}"
    settings.public_origin = "https://chicago.example"
    settings.mail_per_day = 4
    with TestClient(create_app(settings)) as test_client:
        try:
            yield test_client
        finally:
            close_all()


def _profile(client: TestClient, name: str) -> str:
    secret: str = client.post("/api/profiles", json={"name": name}).json()["secret"]
    return secret


def _text(mail: Message) -> str:
    body = mail.get_body(("plain",)) if hasattr(mail, "get_body") else mail
    payload = body.get_payload(decode=True) if body is not None else b""
    return payload.decode() if isinstance(payload, bytes) else str(payload)


def _confirmed(client: TestClient, inbox: Inbox, secret: str, address: str) -> None:
    answer = client.put("/api/profiles/me/mail", json={"address": address, "notify": True},
                        headers={"X-Chicago-Profile": secret})
    assert answer.status_code == 200 and answer.json()["confirmed"] is False
    to, mail = inbox.next()
    assert to == [address] and "Confirm your address" in mail["Subject"]
    token = re.search(r"#/confirm/([A-Za-z0-9_-]+)", _text(mail))
    assert token is not None
    assert client.post(f"/api/mail/confirm?token={token.group(1)}").status_code == 200
    again = client.get("/api/profiles/me/mail", headers={"X-Chicago-Profile": secret}).json()
    assert again == {"available": True, "address": address, "confirmed": True,
                     "notify": True}


def test_a_turn_is_mailed_and_the_unsubscribe_link_is_honoured(
        client: TestClient, inbox: tuple[Inbox, int]) -> None:
    mails = inbox[0]
    secret = _profile(client, "Anna")
    _confirmed(client, mails, secret, "anna@example.org")
    info = create_table(client, ["open", "open"], clock_days=2, deal_pause=None,
                        name="Letters")
    client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                headers={"X-Chicago-Profile": secret})
    bo = client.post(f"/api/tables/{info['id']}/join", json={"seat": 1}).json()["token"]
    if client.get(f"/api/tables/{info['id']}").json()["to_act"] != 0:
        mover = WsPlayer(client, info["id"], bo)
        while mover.state["to_act"] == 1:
            mover.send(type="act", action=mover.state["legal_actions"][0], seq=mover.seq)
            mover.until(lambda f: f["type"] == "update")
    to, mail = mails.next()
    assert to == ["anna@example.org"]
    assert mail["Subject"] == "Your turn at Letters / Din tur vid Letters"
    text = _text(mail)
    assert f"https://chicago.example/#/table/{info['id']}" in text
    assert "Det är din tur vid Letters." in text
    link = re.search(r"#/unsubscribe/([A-Za-z0-9_-]+)", text)
    assert link is not None
    assert mail["List-Unsubscribe"] == (
        f"<https://chicago.example/api/mail/unsubscribe?token={link.group(1)}>")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # the one click of a mail program: a POST to the header's address
    assert client.post(f"/api/mail/unsubscribe?token={link.group(1)}",
                       content=b"List-Unsubscribe=One-Click").status_code == 200
    mailer = client.app.state.mailer  # type: ignore[attr-defined]
    profile = client.get("/api/profiles/me", headers={"X-Chicago-Profile": secret}).json()
    sent = client.portal.call(mailer.notice, profile["profile"]["id"], "turn", info["id"],
                              "Letters")  # type: ignore[union-attr]
    assert sent is False and mailer.skipped["unsubscribed"] >= 1
    settings = client.get("/api/profiles/me/mail", headers={"X-Chicago-Profile": secret})
    assert settings.json()["notify"] is False


def _seated(client: TestClient, secret: str, name: str) -> tuple[str, str]:
    """A two-seat correspondence table called ``name`` with the profile of ``secret`` at
    seat 0 and seat 1 open: its id and the seat 0 token."""
    info = create_table(client, ["open", "open"], clock_days=2, deal_pause=None, name=name)
    joined = client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                         headers={"X-Chicago-Profile": secret})
    assert joined.status_code == 200, joined.text
    return info["id"], joined.json()["token"]


def _bo_plays_until_seat_0(client: TestClient, table_id: str) -> None:
    """Bo takes seat 1 (the game starts) and moves until it is seat 0's turn."""
    bo = WsPlayer(client, table_id, client.post(f"/api/tables/{table_id}/join",
                                                json={"seat": 1}).json()["token"])
    while bo.state["to_act"] == 1:
        bo.send(type="act", action=bo.state["legal_actions"][0], seq=bo.seq)
        bo.until(lambda f: f["type"] == "update")
    bo.close()


def test_no_turn_mail_while_the_person_has_a_page_open(
        client: TestClient, inbox: tuple[Inbox, int]) -> None:
    """A turn is mailed only to someone away: while Anna has the site open (its site
    socket, or a table's socket holding her seat) the page tells her and no mail is queued;
    once she has closed them, her next turn is mailed. The mails go out in the order they
    are queued, so the next one to arrive being the last table's proves the others were
    never queued."""
    mails = inbox[0]
    mailer = client.app.state.mailer  # type: ignore[attr-defined]
    secret = _profile(client, "Anna")
    _confirmed(client, mails, secret, "anna@example.org")
    with client.websocket_connect("/ws/site") as site:  # any page of the site
        site.send_text(json.dumps({"type": "hello", "profile": secret, "tokens": []}))
        assert json.loads(site.receive_text()) == {"type": "turns", "turns": []}
        letters, _ = _seated(client, secret, "Letters")
        _bo_plays_until_seat_0(client, letters)
        while not json.loads(site.receive_text())["turns"]:
            pass  # the in-page notice: the site socket lists the table
        assert mailer.skipped["on_site"] == 1
    postcards, token = _seated(client, secret, "Postcards")
    anna = WsPlayer(client, postcards, token)  # the table's own page
    _bo_plays_until_seat_0(client, postcards)
    assert mailer.skipped["on_site"] == 2
    anna.close()
    away, _ = _seated(client, secret, "Away")  # every page closed: she is away
    _bo_plays_until_seat_0(client, away)
    to, mail = mails.next()
    assert to == ["anna@example.org"]
    assert mail["Subject"] == "Your turn at Away / Din tur vid Away"
    assert mailer.skipped["on_site"] == 2


def test_mail_per_profile_is_capped_per_day(client: TestClient,
                                            inbox: tuple[Inbox, int]) -> None:
    secret = _profile(client, "Cleo")
    _confirmed(client, inbox[0], secret, "cleo@example.org")  # mail 1 of 4
    mailer = client.app.state.mailer  # type: ignore[attr-defined]
    pid = client.get("/api/profiles/me", headers={"X-Chicago-Profile": secret}).json()[
        "profile"]["id"]
    results = [client.portal.call(mailer.notice, pid, "turn", "t", "T")  # type: ignore[union-attr]
               for _ in range(5)]
    assert results == [True, True, True, False, False]
    assert mailer.skipped["cap"] == 2
    changed = client.put("/api/profiles/me/mail", json={"address": "c2@example.org"},
                         headers={"X-Chicago-Profile": secret})
    assert changed.status_code == 429 and changed.json()["error"]["code"] == "mail_limited"


def test_an_unconfirmed_address_gets_nothing_but_its_confirmation(
        client: TestClient, inbox: tuple[Inbox, int]) -> None:
    secret = _profile(client, "Dag")
    client.put("/api/profiles/me/mail", json={"address": "victim@example.org"},
               headers={"X-Chicago-Profile": secret})
    inbox[0].next()  # the confirmation
    mailer = client.app.state.mailer  # type: ignore[attr-defined]
    pid = client.get("/api/profiles/me", headers={"X-Chicago-Profile": secret}).json()[
        "profile"]["id"]
    assert client.portal.call(mailer.notice, pid, "turn", "t", "T") is False  # type: ignore[union-attr]
    assert mailer.skipped["unconfirmed"] == 1


@pytest.mark.parametrize("body", [
    {"address": "no-at-sign"}, {"address": "a@b.c\nBcc: x@evil.example"},
    {"address": "a b@example.org"}, {"address": 5}, {"address": "a@example.org", "notify": "yes"},
    {"address": "a@example.org", "extra": 1}, {"address": "x" * 250 + "@e.org"},
])
def test_hostile_mail_settings_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    secret = _profile(client, "Eva")
    answer = client.put("/api/profiles/me/mail", json=body,
                        headers={"X-Chicago-Profile": secret})
    assert answer.status_code == 400, answer.text
    assert client.get("/api/profiles/me/mail", headers={"X-Chicago-Profile": secret}
                      ).json()["address"] is None


def test_mail_links_are_checked_and_rate_limited(client: TestClient) -> None:
    assert client.put("/api/profiles/me/mail", json={"address": "a@example.org"}
                      ).status_code == 401
    assert client.post("/api/mail/confirm?token=short").status_code == 400
    assert client.post("/api/mail/unsubscribe?token=a%20b" + "c" * 20).status_code == 400
    codes = [client.post("/api/mail/unsubscribe?token=" + "u" * 32).status_code
             for _ in range(32)]
    assert codes[:30] == [404] * 30 and codes[-1] == 429


def test_a_site_without_smtp_takes_no_address(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        secret = _profile(client, "Finn")
        answer = client.put("/api/profiles/me/mail", json={"address": "f@example.org"},
                            headers={"X-Chicago-Profile": secret})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "mail_off"
        assert client.get("/api/profiles/me/mail", headers={"X-Chicago-Profile": secret}
                          ).json()["available"] is False


def _mail_settings(settings: Settings, port: int) -> Settings:
    settings.smtp_url = f"smtp://127.0.0.1:{port}"
    settings.public_origin = "https://chicago.example"
    return settings


def test_a_day_that_ran_out_is_mailed_and_tells_no_card(settings: Settings,
                                                       inbox: tuple[Inbox, int]) -> None:
    """Issue 26: a correspondence player who let the day run out is replaced for that move
    by the stand-in, as at a live table, and told so by mail; the mail names the table and
    links to it, and tells nothing of the game (no card)."""
    clock = ShiftedClock()
    mails = inbox[0]
    with TestClient(create_app(_mail_settings(settings, inbox[1]), clock=clock)) as client:
        secret = _profile(client, "Hedda")
        _confirmed(client, mails, secret, "hedda@example.org")
        info = create_table(client, ["open", "open"], clock_days=1, deal_pause=None,
                            name="Slow")
        client.post(f"/api/tables/{info['id']}/join", json={"seat": 0},
                    headers={"X-Chicago-Profile": secret})
        bo = WsPlayer(client, info["id"], client.post(
            f"/api/tables/{info['id']}/join", json={"seat": 1}).json()["token"])
        while bo.state["to_act"] == 1:  # Bo moves until it is Hedda's turn
            bo.send(type="act", action=bo.state["legal_actions"][0], seq=bo.seq)
            bo.until(lambda f: f["type"] == "update")
        to, mail = mails.next()
        assert to == ["hedda@example.org"] and mail["Subject"].startswith("Your turn at Slow")
        clock.advance(86400 + 1)
        moved = bo.until(lambda f: f["type"] == "update" and f["by"] == "clock")
        assert moved["seat"] == 0
        to, mail = mails.next()
        assert to == ["hedda@example.org"]
        assert mail["Subject"] == "Your time ran out at Slow / Din tid tog slut vid Slow"
        text = _text(mail)
        assert "stand-in bot moved for you" in text and "ersättarboten drog" in text
        assert f"https://chicago.example/#/table/{info['id']}" in text
        assert not set("♠♥♦♣") & set(text + mail["Subject"])
        assert not re.search(r"\b(10|[2-9JQKA])[SHDC]\b", text)  # no card in notation
        close_all()


def test_a_mail_not_sent_before_a_restart_is_sent_after_it(settings: Settings,
                                                           inbox: tuple[Inbox, int]) -> None:
    """The outbox is in the database: a mail the SMTP server could not take (it was down)
    stays queued, and the next server sends it once the failed try's claim is stale; it
    arrives once, and its link works."""
    clock = ShiftedClock()
    _mail_settings(settings, free_port())  # nothing listens there
    with TestClient(create_app(settings, clock=clock)) as client:
        secret = _profile(client, "Gus")
        answer = client.put("/api/profiles/me/mail", json={"address": "gus@example.org"},
                            headers={"X-Chicago-Profile": secret})
        assert answer.status_code == 200 and answer.json()["confirmed"] is False
        close_all()
    _mail_settings(settings, inbox[1])
    clock.advance(301)
    with TestClient(create_app(settings, clock=clock)) as client:
        to, mail = inbox[0].next()
        assert to == ["gus@example.org"] and "Confirm your address" in mail["Subject"]
        token = re.search(r"#/confirm/([A-Za-z0-9_-]+)", _text(mail))
        assert token is not None
        assert client.post(f"/api/mail/confirm?token={token.group(1)}").status_code == 200
        assert client.get("/api/profiles/me/mail", headers={"X-Chicago-Profile": secret}
                          ).json()["confirmed"] is True
        close_all()
    assert inbox[0].mails.empty()  # sent once


def test_the_site_cap_holds_for_every_profile(client: TestClient,
                                              inbox: tuple[Inbox, int]) -> None:
    """At most ``mail_site_per_day`` mails leave the site in 24 hours, whoever they are for:
    a new address is refused (429, nothing stored) and notices are skipped."""
    mailer = client.app.state.mailer  # type: ignore[attr-defined]
    mailer.settings.mail_site_per_day = 2
    first = _profile(client, "Ivar")
    _confirmed(client, inbox[0], first, "ivar@example.org")  # mail 1 of 2
    pid = client.get("/api/profiles/me", headers={"X-Chicago-Profile": first}).json()[
        "profile"]["id"]
    assert client.portal.call(mailer.notice, pid, "turn", "t", "T") is True  # type: ignore[union-attr]
    second = _profile(client, "Jon")
    refused = client.put("/api/profiles/me/mail", json={"address": "jon@example.org"},
                         headers={"X-Chicago-Profile": second})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "mail_limited"
    assert client.get("/api/profiles/me/mail", headers={"X-Chicago-Profile": second}
                      ).json()["address"] is None
    assert client.portal.call(mailer.notice, pid, "turn", "t", "T") is False  # type: ignore[union-attr]
    assert mailer.skipped["site_cap"] == 1


@pytest.mark.parametrize(("options", "words"), [
    (["--smtp", "http://mail.example"], "--smtp needs an smtp://, smtps:// or smtp+starttls://"),
    (["--smtp", "smtp://mail.example:25"], "--smtp needs --public-origin"),
])
def test_serve_refuses_bad_mail_options(options: list[str], words: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``chicago serve --smtp`` takes an SMTP URL, and the address players open (the mails'
    links); anything else is refused before anything is made."""
    from chicago.cli import main

    code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--port", "0",
                 *options])
    assert code == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()
