"""Strict types (issue 23, finding 6): every field of every request body, given a JSON value
of another type (a string for a number, a string or a number for a boolean, a number for a
string, an object for a list …), is refused with 400 ``bad_request`` naming the field, and
nothing is stored; a number in a path or a query is digits only (``%200`` was seat 0)."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from club_support import error_reply
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from sqlalchemy import func, select
from starlette.testclient import TestClient

from chicago.server.club.routes import CreateProfile, CreateTournament, RemoveEntrant
from chicago.server.lobby import CreateTable, JoinTable
from chicago.server.storage.models import log, profiles, tables, tournaments
from chicago.server.web_api import HintRequest, OddsRequest

pytestmark = pytest.mark.timeout(300)

BODIES: list[tuple[str, type[BaseModel]]] = [
    ("/api/tables", CreateTable),
    ("/api/tables/t0000000000000000/join", JoinTable),
    ("/api/profiles", CreateProfile),
    ("/api/tournaments", CreateTournament),
    ("/api/tournaments/x0000000000/remove", RemoveEntrant),
    ("/api/web/odds", OddsRequest),
    ("/api/web/hint/t0000000000000000", HintRequest),
]
"""Every route that reads a JSON body, with its model."""


def json_kinds(annotation: Any) -> set[str]:
    """The JSON types a field of this annotation takes."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return json_kinds(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(json_kinds(a) for a in typing.get_args(annotation)))
    base = origin or annotation
    kinds = {bool: {"boolean"}, int: {"integer"}, float: {"integer", "number"},
             str: {"string"}, list: {"array"}, dict: {"object"}, type(None): {"null"}}
    return kinds[base]


def kind_of(value: Any) -> str:
    for python, kind in ((bool, "boolean"), (int, "integer"), (float, "number"),
                         (str, "string"), (list, "array"), (dict, "object")):
        if isinstance(value, python):
            return kind
    return "null"


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(["", "3", "0", "true", "yes", "60", "open", "1.5"]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3),
                   st.dictionaries(st.sampled_from(["a", "seat"]), SCALARS, max_size=2))

FIELDS = [(path, model, name) for path, model in BODIES for name in model.model_fields]


@st.composite
def wrong_bodies(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    """A route, a field of its body, and a body whose only field has a wrong JSON type (or,
    for a list of strings, holds an item that is not a string)."""
    path, model, name = draw(st.sampled_from(FIELDS))
    annotation = model.model_fields[name].annotation
    kinds = json_kinds(annotation)
    value = draw(VALUES.filter(lambda v: kind_of(v) not in kinds))
    if "array" in kinds and draw(st.booleans()):
        item = draw(SCALARS.filter(lambda v: not isinstance(v, str)))
        value = ["open", item]
    return path, name, {name: value}


def _stored(client: TestClient) -> tuple[int, ...]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return tuple(int(conn.execute(select(func.count()).select_from(t)).scalar_one())
                     for t in (tables, log, profiles, tournaments))


def test_every_body_field_has_a_json_type() -> None:
    """The test covers every field: each one's JSON types are known."""
    for _, model, name in FIELDS:
        assert json_kinds(model.model_fields[name].annotation), name


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=wrong_bodies())
def test_a_wrong_json_type_in_any_field_is_400_naming_it(
        client: TestClient, case: tuple[str, str, dict[str, Any]]) -> None:
    path, name, body = case
    before = _stored(client)
    response = client.post(path, json=body, headers={
        "Authorization": "Bearer x", "X-Chicago-Organizer": "o" * 24})
    message = error_reply(response, 400, "bad_request")
    assert any(problem.startswith(name) for problem in message.split("; ")), (body, message)
    assert _stored(client) == before


@pytest.mark.parametrize("body, field", [
    ({"rounds": "3"}, "rounds"), ({"rounds": True}, "rounds"),
    ({"duplicate": "yes"}, "duplicate"), ({"tables": 2.0}, "tables"),
    ({"name": 7}, "name"), ({"clock": "60"}, "clock"),
])
def test_the_tournament_findings(client: TestClient, body: dict[str, Any], field: str) -> None:
    """The issue's examples: each was 201 (``{"rounds": true}`` made a tournament of one
    round)."""
    before = _stored(client)
    message = error_reply(client.post("/api/tournaments", json=body), 400, "bad_request")
    assert message.startswith(field)
    assert _stored(client) == before


def test_tables_joins_and_numbers_in_paths_and_queries(client: TestClient) -> None:
    before = _stored(client)
    assert error_reply(client.post("/api/tables", json={"private": "yes"}), 400,
                       "bad_request").startswith("private")
    assert _stored(client) == before
    created = client.post("/api/tables", json={"seats": ["open", "bot:random"]})
    assert created.status_code == 201
    table_id = created.json()["id"]
    before = _stored(client)
    assert error_reply(client.post(f"/api/tables/{table_id}/join", json={"seat": "0"}), 400,
                       "bad_request").startswith("seat")
    assert _stored(client) == before
    for path in (f"/api/games/{table_id}/1/reviews/%200", f"/api/games/{table_id}/%201",
                 f"/api/games/{table_id}/+1", "/api/tables?limit=%205",
                 "/api/leaderboard?limit=1e2", f"/api/web/replay/{table_id}/1?deal=٣"):
        message = error_reply(client.get(path), 400, "bad_request")
        assert "digits" in message, (path, message)
    assert client.get("/api/tables?limit=5").status_code == 200
