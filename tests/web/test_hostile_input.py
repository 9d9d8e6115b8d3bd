"""Hostile input through the API and the pages: each is answered with a clear 4xx (a page may
instead show its form again with the error, or go back to the sheet with a warning), nothing is
stored, nothing crashes, and the match keeps working afterwards. docs/security.md "Hostile
input" has the figures."""

from __future__ import annotations

import io
import json
import random
import tempfile
from typing import Any

import pytest
from conftest import ApiUser
from flask import Flask

from scoresheet import create_app
from scoresheet.storage.extensions import db
from scoresheet.storage.models import AuditEntry

from .helpers import played
from .page_helpers import TOKEN, Phone, all_errors, flashes
from .page_helpers import played as form_played
from .test_security import table_counts

HAND = played(1, 100, [40, None, 20])
DEEP = "[" * 10_000 + "]" * 10_000
BIG = json.dumps({"players": ["A", "B", "C"], "pad": "x" * 70_000})
NAMES = ["Anna", "Boris"]

# (name, method, path, request keyword arguments, status). {m}: anna's match with one hand;
# {other}: boris's match with one hand (another user's hand numbers).
API_CASES: list[tuple[str, str, str, dict[str, Any], int]] = [
    ("players not a list", "POST", "/api/matches", {"json": {"players": "Anna"}}, 400),
    ("players numbers", "POST", "/api/matches", {"json": {"players": [1, 2, 3]}}, 400),
    ("players null", "POST", "/api/matches", {"json": {"players": None}}, 400),
    ("players nested", "POST", "/api/matches", {"json": {"players": [["A"], "B", "C"]}}, 400),
    ("player NUL", "POST", "/api/matches", {"json": {"players": ["A\x00", "B", "C"]}}, 422),
    ("player bell", "POST", "/api/matches", {"json": {"players": ["A\x07", "B", "C"]}}, 422),
    ("player newline", "POST", "/api/matches", {"json": {"players": ["A\nB", "B", "C"]}}, 422),
    ("player RTL override", "POST", "/api/matches", {"json": {"players": ["A\u202e", "B", "C"]}}, 422),
    ("player lone surrogate", "POST", "/api/matches", {"json": {"players": ["A\ud800", "B", "C"]}}, 422),
    ("player empty", "POST", "/api/matches", {"json": {"players": ["", "B", "C"]}}, 422),
    ("player 41 chars", "POST", "/api/matches", {"json": {"players": ["A" * 41, "B", "C"]}}, 422),
    ("player 10 000 chars", "POST", "/api/matches", {"json": {"players": ["A" * 10_000, "B", "C"]}}, 422),
    ("players 1 000", "POST", "/api/matches", {"json": {"players": ["P"] * 1000}}, 422),
    ("players twice", "POST", "/api/matches", {"json": {"players": ["A", "A", "B"]}}, 422),
    ("rules a number", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "rules": 7}}, 400),
    ("rules unknown", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "rules": "poker"}}, 422),
    ("options a list", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": [1]}}, 400),
    (
        "options unknown key",
        "POST",
        "/api/matches",
        {"json": {"players": NAMES + ["C"], "options": {"cheat": True}}},
        400,
    ),
    ("target a text", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": {"target": "1000"}}}, 400),
    ("target 10**30", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": {"target": 10**30}}}, 400),
    (
        "target negative",
        "POST",
        "/api/matches",
        {"json": {"players": NAMES + ["C"], "options": {"target": -1000}}},
        422,
    ),
    (
        "target a float",
        "POST",
        "/api/matches",
        {"json": {"players": NAMES + ["C"], "options": {"target": 1000.0}}},
        400,
    ),
    ("flag a number", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": {"gold_set": 1}}}, 400),
    ("first dealer -1", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "first_dealer": -1}}, 422),
    ("first dealer 10**30", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "first_dealer": 10**30}}, 400),
    ("first dealer true", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "first_dealer": True}}, 400),
    (
        "start scores floats",
        "POST",
        "/api/matches",
        {"json": {"players": NAMES + ["C"], "start_scores": [1.5, 0, 0]}},
        400,
    ),
    (
        "start scores 10**30",
        "POST",
        "/api/matches",
        {"json": {"players": NAMES + ["C"], "start_scores": [10**30, 0, 0]}},
        400,
    ),
    (
        "start scores -10**30",
        "POST",
        "/api/matches",
        {"json": {"players": NAMES + ["C"], "start_scores": [-(10**30), 0, 0]}},
        400,
    ),
    ("unknown field", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "admin": 1}}, 400),
    ("body a list", "POST", "/api/matches", {"json": [NAMES]}, 400),
    ("body a string", "POST", "/api/matches", {"json": "players"}, 400),
    ("body null", "POST", "/api/matches", {"json": None}, 400),
    ("deep JSON", "POST", "/api/matches", {"data": DEEP, "content_type": "application/json"}, 400),
    ("deep JSON in a hand", "POST", "/api/matches/{m}/hands", {"data": DEEP, "content_type": "application/json"}, 400),
    ("body over 64 KiB", "POST", "/api/matches", {"data": BIG, "content_type": "application/json"}, 413),
    (
        "not UTF-8",
        "POST",
        "/api/matches",
        {"data": b'{"players": ["\xff\xfe", "B", "C"]}', "content_type": "application/json"},
        400,
    ),
    (
        "NaN",
        "POST",
        "/api/matches/{m}/hands",
        {"data": '{"kind": "played", "declarer": 1, "bid": NaN}', "content_type": "application/json"},
        400,
    ),
    (
        "text/plain JSON",
        "POST",
        "/api/matches",
        {"data": json.dumps({"players": ["A", "B", "C"]}), "content_type": "text/plain"},
        400,
    ),
    (
        "form-encoded",
        "POST",
        "/api/matches",
        {"data": {"players": "A"}, "content_type": "application/x-www-form-urlencoded"},
        400,
    ),
    ("no body", "POST", "/api/matches", {}, 400),
    ("kind a number", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "kind": 5}}, 400),
    ("kind unknown", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "kind": "won"}}, 422),
    ("declarer a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "declarer": "1"}}, 400),
    ("declarer -1", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "declarer": -1}}, 422),
    ("declarer 10**30", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "declarer": 10**30}}, 400),
    ("declarer a float", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "declarer": 1.0}}, 400),
    ("bid 10**30", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": 10**30}}, 400),
    ("bid negative", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": -100}}, 422),
    ("bid a float", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": 100.5}}, 400),
    ("bid a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": "100"}}, 400),
    ("points a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "points": "40"}}, 400),
    ("points floats", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "points": [40.5, None, 20]}}, 400),
    ("points 10**30", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "points": [10**30, None, 20]}}, 400),
    ("points negative", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "points": [-40, None, 20]}}, 422),
    ("points too many", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "points": [1] * 500}}, 422),
    (
        "marriage unknown suit",
        "POST",
        "/api/matches/{m}/hands",
        {"json": {**HAND, "marriages": [["stars"], [], []]}},
        422,
    ),
    ("marriages a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "marriages": "hearts"}}, 400),
    ("made a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "made": "yes"}}, 400),
    ("blind a number", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "blind": 1}}, 400),
    ("sitter points 10**30", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "sitter_points": 10**30}}, 400),
    ("hand unknown field", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "score": 999}}, 400),
    ("expected hand 0", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "expected_hand": 0}}, 400),
    ("expected hand a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "expected_hand": "2"}}, 400),
    ("expected hand 10**30", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "expected_hand": 10**30}}, 409),
    ("expected hand already taken", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "expected_hand": 1}}, 409),
    ("edit a hand that is not there", "PUT", "/api/matches/{m}/hands/7", {"json": HAND}, 404),
    ("edit hand 0", "PUT", "/api/matches/{m}/hands/0", {"json": HAND}, 404),
    ("edit hand 10**30", "PUT", "/api/matches/{m}/hands/" + "9" * 30, {"json": HAND}, 404),
    ("edit with a bad body", "PUT", "/api/matches/{m}/hands/1", {"json": {**HAND, "bid": "x"}}, 400),
    ("edit another user's hand", "PUT", "/api/matches/{other}/hands/1", {"json": HAND}, 404),
    ("delete another user's hand", "DELETE", "/api/matches/{other}/hands/1", {}, 404),
    ("delete hand 10**30", "DELETE", "/api/matches/{m}/hands/" + "9" * 30, {}, 404),
    ("end another user's match", "POST", "/api/matches/{other}/end", {"json": {}}, 404),
    ("match id not there", "GET", "/api/matches/NoSuchMatch", {}, 404),
    ("match id with NUL", "GET", "/api/matches/ab%00cd", {}, 404),
    ("match id 300 long", "GET", "/api/matches/" + "x" * 300, {}, 404),
    ("match id Cyrillic", "GET", "/api/matches/матч", {}, 404),
    ("join code a number", "POST", "/api/matches/join", {"json": {"code": 12345}}, 400),
    ("join code NUL", "POST", "/api/matches/join", {"json": {"code": "AB\x00CD"}}, 404),
    ("join code 10 000", "POST", "/api/matches/join", {"json": {"code": "A" * 10_000}}, 404),
    ("join code empty", "POST", "/api/matches/join", {"json": {"code": ""}}, 404),
    ("join with another key", "POST", "/api/matches/join", {"json": {"code": "ABCDEFGHJK", "team": "a"}}, 400),
    ("register username a number", "POST", "/api/users", {"json": {"username": 5, "password": "correct horse"}}, 400),
    (
        "register username NUL",
        "POST",
        "/api/users",
        {"json": {"username": "ve\x00ra", "password": "correct horse"}},
        422,
    ),
    (
        "register username tag",
        "POST",
        "/api/users",
        {"json": {"username": "<script>", "password": "correct horse"}},
        422,
    ),
    (
        "register password surrogate",
        "POST",
        "/api/users",
        {"json": {"username": "vera", "password": "\ud800" * 8}},
        400,
    ),
    ("register password 10 000", "POST", "/api/users", {"json": {"username": "vera", "password": "x" * 10_000}}, 422),
    (
        "register unknown field",
        "POST",
        "/api/users",
        {"json": {"username": "vera", "password": "correct horse", "admin": True}},
        400,
    ),
    (
        "log in username NUL",
        "POST",
        "/api/tokens",
        {"json": {"username": "an\x00na", "password": "correct horse"}},
        401,
    ),
    ("log in password surrogate", "POST", "/api/tokens", {"json": {"username": "anna", "password": "\udfff"}}, 401),
    (
        "log in password a list",
        "POST",
        "/api/tokens",
        {"json": {"username": "anna", "password": ["correct horse"]}},
        400,
    ),
    ("options null", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": None}}, 400),
    ("options empty list", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": []}}, 400),
    ("options 0", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": 0}}, 400),
    ("options false", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "options": False}}, 400),
    ("player Hangul filler", "POST", "/api/matches", {"json": {"players": ["\u3164", "B", "C"]}}, 422),
    ("Anna and Anna⠀", "POST", "/api/matches", {"json": {"players": ["Anna", "Anna\u2800", "C"]}}, 422),
    ("player braille blank", "POST", "/api/matches", {"json": {"players": ["\u2800\u2800", "B", "C"]}}, 422),
    ("player line separator", "POST", "/api/matches", {"json": {"players": ["\u2028", "B", "C"]}}, 422),
    (
        "player fillers and spaces",
        "POST",
        "/api/matches",
        {"json": {"players": ["\u115f \u1160\uffa0", "B", "C"]}},
        422,
    ),
    ("player zero-width joiner only", "POST", "/api/matches", {"json": {"players": ["\u200d", "B", "C"]}}, 422),
    ("players same after NFC", "POST", "/api/matches", {"json": {"players": ["Andr\u00e9", "Andre\u0301", "C"]}}, 422),
    (
        "players same after case folding",
        "POST",
        "/api/matches",
        {"json": {"players": ["STRASSE", "stra\u00dfe", "C"]}},
        422,
    ),
    ("edit hand fullwidth 1", "PUT", "/api/matches/{m}/hands/\uff11", {"json": HAND}, 404),
    ("delete hand Arabic-Indic 1", "DELETE", "/api/matches/{m}/hands/\u0661", {}, 404),
    ("restore entry fullwidth", "POST", "/api/matches/{m}/history/\uff11/restore", {}, 404),
    ("restore entry 2**63", "POST", f"/api/matches/{{m}}/history/{2**63}/restore", {}, 404),
]


@pytest.fixture
def table(app: Flask, make_user: Any) -> dict[str, Any]:
    """anna's and boris's matches, one hand each."""
    anna: ApiUser = make_user("anna")
    boris: ApiUser = make_user("boris")
    m = anna.new_match()["id"]
    other = boris.new_match()["id"]
    anna.add_hand(m, HAND)
    boris.add_hand(other, HAND)
    return {"anna": anna, "m": m, "other": other}


@pytest.mark.parametrize("name, method, path, kwargs, status", API_CASES, ids=[c[0] for c in API_CASES])
def test_hostile_api_input_is_refused_and_stores_nothing(
    app: Flask, table: dict[str, Any], name: str, method: str, path: str, kwargs: dict[str, Any], status: int
) -> None:
    anna: ApiUser = table["anna"]
    before = table_counts(app)
    url = path.format(m=table["m"], other=table["other"])
    response = anna.client.open(url, method=method, headers=anna.headers, **kwargs)
    assert response.status_code == status, response.get_data(as_text=True)[:200]
    assert set(response.json) == {"error", "field"} and response.json["error"]
    assert table_counts(app) == before
    anna.add_hand(table["m"], played(2, 100, [40, 20, None]))  # and the match still works


# (name, path, form fields, expected): 422 = the form again with an error shown, 302 = back
# to the sheet with a warning, 4xx = an error page. {m}, {other} as above.
PAGE_CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("name NUL", "/matches/new", {"players-0": "A\x00", "players-1": "B", "players-2": "C"}, 422),
    ("name escape", "/matches/new", {"players-0": "A\x1b[31m", "players-1": "B", "players-2": "C"}, 422),
    ("name 10 000", "/matches/new", {"players-0": "A" * 10_000, "players-1": "B", "players-2": "C"}, 422),
    (
        "start score 10**30",
        "/matches/new",
        {"players-0": "A", "players-1": "B", "players-2": "C", "start_scores-0": "1" + "0" * 30},
        422,
    ),
    (
        "start score 1e30",
        "/matches/new",
        {"players-0": "A", "players-1": "B", "players-2": "C", "start_scores-0": "1e30"},
        422,
    ),
    (
        "start score float",
        "/matches/new",
        {"players-0": "A", "players-1": "B", "players-2": "C", "start_scores-0": "1.5"},
        422,
    ),
    (
        "first dealer a word",
        "/matches/new",
        {"players-0": "A", "players-1": "B", "players-2": "C", "first_dealer": "x"},
        422,
    ),
    (
        "first dealer 9",
        "/matches/new",
        {"players-0": "A", "players-1": "B", "players-2": "C", "first_dealer": "9"},
        422,
    ),
    ("rules unknown", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C", "rules": "poker"}, 422),
    ("target 7", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C", "target": "7"}, 422),
    ("declarer a word", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]), "declarer": "x"}, 422),
    ("declarer 9", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]), "declarer": "9"}, 422),
    ("bid 10**30", "/matches/{m}/hands/new", form_played(1, 10**30, [40, None, 20]), 422),
    ("bid negative", "/matches/{m}/hands/new", form_played(1, -100, [40, None, 20]), 422),
    ("bid float", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]), "bid": "100.5"}, 422),
    ("points NUL", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]), "points_0": "4\x000"}, 422),
    ("points 10**30", "/matches/{m}/hands/new", form_played(1, 100, [10**30, None, 20]), 422),
    (
        "marriage unknown",
        "/matches/{m}/hands/new",
        {**form_played(1, 100, [40, None, 20]), "marriages_0": "stars"},
        422,
    ),
    ("kind unknown", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]), "kind": "won"}, 422),
    (
        "expected hand superscript",
        "/matches/{m}/hands/new",
        {**form_played(1, 100, [40, None, 20]), "expected_hand": "²"},
        422,
    ),
    (
        "expected hand already taken",
        "/matches/{m}/hands/new",
        {**form_played(1, 100, [40, None, 20]), "expected_hand": "1"},
        302,
    ),
    (
        "expected hand 10**30",
        "/matches/{m}/hands/new",
        {**form_played(1, 100, [40, None, 20]), "expected_hand": "9" * 30},
        422,
    ),
    ("edit version a word", "/matches/{m}/hands/1/edit", {**form_played(2, 100, [40, 20, None]), "version": "x"}, 422),
    ("edit a hand that is not there", "/matches/{m}/hands/7/edit", form_played(1, 100, [40, None, 20]), 404),
    ("edit hand 10**30", "/matches/{m}/hands/" + "9" * 30 + "/edit", form_played(1, 100, [40, None, 20]), 404),
    ("edit another user's hand", "/matches/{other}/hands/1/edit", form_played(1, 100, [40, None, 20]), 404),
    ("delete another user's hand", "/matches/{other}/hands/1/delete", {"confirm": "y"}, 404),
    ("delete unticked", "/matches/{m}/hands/1/delete", {"confirm": ""}, 422),
    ("end another user's match", "/matches/{other}/end", {"confirm": "y"}, 404),
    ("match id with NUL", "/matches/ab%00cd/hands/new", form_played(1, 100, [40, None, 20]), 404),
    ("join code NUL", "/join", {"code": "AB\x00CD"}, 422),
    ("join code 10 000", "/join", {"code": "A" * 10_000}, 422),
    ("register username NUL", "/register", {"username": "ve\x00ra", "password": "x" * 8}, 422),
    ("register username tag", "/register", {"username": "<b>vera", "password": "x" * 8}, 422),
    ("log in username NUL", "/login", {"username": "an\x00na", "password": "correct horse"}, 422),
    (
        "expected hand 5 000 digits",
        "/matches/{m}/hands/new",
        {**form_played(1, 100, [40, None, 20]), "expected_hand": "9" * 5000},
        422,
    ),
    (
        "expected hand Arabic-Indic 2",
        "/matches/{m}/hands/new",
        {**form_played(1, 100, [40, None, 20]), "expected_hand": "\u0662"},
        422,
    ),
    (
        "edit version 5 000 digits",
        "/matches/{m}/hands/1/edit",
        {**form_played(2, 100, [40, 20, None]), "version": "9" * 5000},
        422,
    ),
    (
        "edit version Arabic-Indic 1",
        "/matches/{m}/hands/1/edit",
        {**form_played(2, 100, [40, 20, None]), "version": "\u0661"},
        422,
    ),
    ("edit hand fullwidth 1", "/matches/{m}/hands/\uff11/edit", form_played(2, 100, [40, 20, None]), 404),
    ("delete hand fullwidth 1", "/matches/{m}/hands/\uff11/delete", {"confirm": "y"}, 404),
    ("name Hangul filler", "/matches/new", {"players-0": "\u3164", "players-1": "B", "players-2": "C"}, 422),
    ("Anna and \u3164Anna", "/matches/new", {"players-0": "Anna", "players-1": "\u3164Anna", "players-2": "C"}, 422),
    (
        "names same after NFC",
        "/matches/new",
        {"players-0": "Andr\u00e9", "players-1": "Andre\u0301", "players-2": "C"},
        422,
    ),
    ("restore entry 2**31", "/matches/{m}/history/restore?entry=2147483648", {"confirm": "y"}, 404),
    ("restore entry 2**63", f"/matches/{{m}}/history/restore?entry={2**63}", {"confirm": "y"}, 404),
    ("restore entry 5 000 digits", "/matches/{m}/history/restore?entry=" + "9" * 5000, {"confirm": "y"}, 404),
    ("restore entry fullwidth", "/matches/{m}/history/restore?entry=\uff11", {"confirm": "y"}, 404),
    ("restore entry not a deletion", "/matches/{m}/history/restore?entry=1", {"confirm": "y"}, 404),
    ("restore another match's entry", "/matches/{m}/history/restore?entry={other_entry}", {"confirm": "y"}, 404),
    ("preview hand fullwidth 1", "/matches/{m}/hands/preview?number=\uff11", form_played(2, 100, [40, 20, None]), 404),
]


@pytest.fixture
def page_table(csrf_app: Flask, make_phone: Any) -> dict[str, Any]:
    """anna's phone and match, boris's match, one hand each."""
    anna: Phone = make_phone("anna")
    boris: Phone = make_phone("boris")
    m = anna.new_match()
    other = boris.new_match()
    assert anna.hand(m, 1, **form_played(1, 100, [40, None, 20])).status_code == 302
    assert boris.hand(other, 1, **form_played(1, 100, [40, None, 20])).status_code == 302
    assert boris.hand(other, 2, **form_played(2, 100, [40, 20, None])).status_code == 302
    assert boris.post(f"/matches/{other}/hands/2/delete", {"confirm": "y"}).status_code == 302
    with csrf_app.app_context():
        other_entry = db.session.execute(
            db.select(AuditEntry.id).where(AuditEntry.match_id == other, AuditEntry.action == "hand_deleted")
        ).scalar_one()
    return {"anna": anna, "m": m, "other": other, "other_entry": other_entry}


@pytest.mark.parametrize("name, path, data, status", PAGE_CASES, ids=[c[0] for c in PAGE_CASES])
def test_hostile_form_input_is_refused_and_stores_nothing(
    csrf_app: Flask, page_table: dict[str, Any], name: str, path: str, data: dict[str, Any], status: int
) -> None:
    anna: Phone = page_table["anna"]
    token = anna.token("/")
    before = table_counts(csrf_app)
    url = path.format(**{k: v for k, v in page_table.items() if k != "anna"})
    response = anna.client.post(url, data={**data, "csrf_token": token})
    assert response.status_code == status
    if status == 422:
        assert all_errors(response.text), "the refusal is shown on the form"
    if status == 302:
        assert flashes(anna.get(response.location).text), "and a warning on the sheet"
    assert table_counts(csrf_app) == before
    response = anna.hand(page_table["m"], 2, **form_played(2, 100, [40, 20, None]))
    assert response.status_code == 302  # and the match still works


@pytest.mark.parametrize(
    "body, content_type, status",
    [
        (b"players-0=" + b"A" * 70_000, "application/x-www-form-urlencoded", 413),
        (
            b"players-0=\xff\xfe&players-1=B&players-2=C&rules=squarescores&sheet=deferred&first_dealer=0",
            "application/x-www-form-urlencoded",
            400,
        ),  # form dropped whole
        (b'{"players-0": "A"}', "application/json", 400),
        (
            b'--x\r\nContent-Disposition: form-data; name="players-0"\r\n\r\nA\r\n--x--\r\n',
            "multipart/form-data; boundary=x",
            400,
        ),
    ],
    ids=["over 64 KiB", "not UTF-8", "JSON to a form", "multipart without its token"],
)
def test_hostile_bodies_to_a_page_are_refused(
    csrf_app: Flask, page_table: dict[str, Any], body: bytes, content_type: str, status: int
) -> None:
    anna: Phone = page_table["anna"]
    token = anna.token("/matches/new")
    before = table_counts(csrf_app)
    if body.startswith(b"players-0=\xff"):
        body += b"&csrf_token=" + token.encode()
    response = anna.client.post("/matches/new", data=body, content_type=content_type)
    assert response.status_code == status
    assert "<html" in response.text and "Traceback" not in response.text
    assert table_counts(csrf_app) == before


HOSTILE_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**30,
    -(10**30),
    float("inf"),
    "",
    "x",
    "\x00",
    "\ud800",
    "<script>",
    "=1+1",
    "A" * 5000,
    [],
    [None],
    [[[]]],
    {},
    {"a": 1},
    "120",
    [1] * 50,
]


def mutate(value: Any, rng: random.Random, values: list[Any] = HOSTILE_VALUES) -> Any:
    """The value with one leaf (or the whole of it) replaced by something hostile."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice([*value, "unknown"])
        return {**value, key: mutate(value.get(key), rng, values)}
    if isinstance(value, list) and value and rng.random() < 0.7:
        i = rng.randrange(len(value))
        return [*value[:i], mutate(value[i], rng, values), *value[i + 1 :]]
    return rng.choice(values)


FUZZ_CASES = 150


def test_random_hostile_bodies_never_crash_and_refusals_store_nothing(app: Flask, table: dict[str, Any]) -> None:
    anna: ApiUser = table["anna"]
    rng = random.Random(20261130)
    valid = [
        (
            "/api/matches",
            {"players": ["A", "B", "C"], "rules": "polish", "options": {"gold_set": True}, "start_scores": [0, 0, 0]},
        ),
        (f"/api/matches/{table['m']}/hands", played(2, 100, [40, 20, None])),
        ("/api/matches/join", {"code": "ABCDEFGHJK"}),
    ]
    refused = 0
    for _ in range(FUZZ_CASES):
        url, body = rng.choice(valid)
        hostile = mutate(body, rng)
        before = table_counts(app)
        response = anna.client.post(
            url, data=json.dumps(hostile, allow_nan=True), content_type="application/json", headers=anna.headers
        )
        assert response.status_code < 500, (hostile, response.json)
        if response.status_code >= 400:
            refused += 1
            assert table_counts(app) == before, hostile
    assert refused > FUZZ_CASES * 0.8
    anna.add_hand(table["m"], played(0, 100, [None, 20, 40]), status=201)


def test_the_restore_page_answers_a_missing_and_a_strangers_entry_alike(
    csrf_app: Flask, page_table: dict[str, Any]
) -> None:
    anna: Phone = page_table["anna"]
    url = f"/matches/{page_table['m']}/history/restore?entry="
    anna.get("/")  # shows (and so clears) the flashes waiting
    answers = [
        anna.get(url + str(entry)) for entry in (page_table["other_entry"], 99_999, 2**31, 2**63, 1, "\uff11", "x", "")
    ]
    pages = {(a.status_code, main_part(a.text)) for a in answers}  # (the footer links back)
    assert pages == {(404, main_part(answers[0].text))}


def main_part(html: str) -> str:
    """What a page says: its <main>, without the footer that links back to the page."""
    return TOKEN.sub("", html[html.index("<main") : html.index("</main>")])


def chunked(client: Any, url: str, body: bytes, content_type: str, **kw: Any) -> Any:
    """POST a body without a Content-Length, as a chunked request arrives from gunicorn."""
    return client.post(
        url,
        input_stream=io.BytesIO(body),
        content_type=content_type,
        headers={"Transfer-Encoding": "chunked", **kw.pop("headers", {})},
        environ_overrides={"wsgi.input_terminated": True},
        **kw,
    )


def test_a_chunked_body_over_the_limit_answers_413(csrf_app: Flask, page_table: dict[str, Any], make_user: Any) -> None:
    anna: Phone = page_table["anna"]
    token = anna.token("/matches/new")
    before = table_counts(csrf_app)
    form = f"csrf_token={token}&players-0=A&players-1=B&players-2=C&pad=".encode()
    page = chunked(anna.client, "/matches/new", form + b"x" * 70_000, "application/x-www-form-urlencoded")
    assert page.status_code == 413 and "<html" in page.text
    vera: ApiUser = make_user("vera")
    for url in ("/api/matches", f"/api/matches/{page_table['m']}/hands", "/api/tokens"):
        answer = chunked(vera.client, url, BIG.encode(), "application/json", headers=vera.headers)
        assert answer.status_code == 413, (url, answer.json)
    assert table_counts(csrf_app) == {**before, "users": before["users"] + 1, "api_tokens": before["api_tokens"] + 1}
    small = chunked(anna.client, "/matches/new", form, "application/x-www-form-urlencoded")
    assert small.status_code == 302  # a chunked form within the limit is read whole


def test_a_chunked_backup_import_may_be_larger_than_64_kib_but_not_4_mib(app: Flask, table: dict[str, Any]) -> None:
    anna: ApiUser = table["anna"]
    text = json.dumps(anna.get(f"/api/matches/{table['m']}/backup").json).encode()
    for padding, status in [(100_000, 201), (4 * 1024 * 1024, 413)]:
        answer = chunked(
            anna.client, "/api/matches/import", text + b" " * padding, "application/json", headers=anna.headers
        )
        assert answer.status_code == status, answer.json


def test_a_page_form_with_broken_utf8_is_refused(csrf_app: Flask, page_table: dict[str, Any]) -> None:
    anna: Phone = page_table["anna"]
    token = anna.token("/matches/new")
    before = table_counts(csrf_app)
    for name in ("%ED%A0%80", "%FF", "%C3", "A%80B"):
        body = f"csrf_token={token}&players-0={name}&players-1=B&players-2=C&rules=squarescores"
        response = anna.client.post(
            "/matches/new", data=body.encode(), content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code == 400 and "UTF-8" in response.text, name
    assert table_counts(csrf_app) == before


def test_a_refused_import_page_answers_422(csrf_app: Flask, page_table: dict[str, Any]) -> None:
    anna: Phone = page_table["anna"]
    response = anna.post(
        "/import", {"file": (io.BytesIO(b"not json"), "backup.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422 and all_errors(response.text)


@pytest.mark.parametrize("expected", ["9" * 5000, "\u0661", "9" * 30])
def test_a_tichu_round_form_with_a_tampered_expected_hand_is_refused(
    csrf_app: Flask, phone: Phone, expected: str
) -> None:
    match_id = phone.new_match(["Anna", "Boris", "Vera", "Gleb"], rules="tichu", sheet="")
    before = table_counts(csrf_app)
    response = phone.post(
        f"/matches/{match_id}/hands/new",
        {
            "calls_0": "",
            "calls_1": "",
            "calls_2": "",
            "calls_3": "",
            "first_out": "0",
            "card_points": "50",
            "expected_hand": expected,
        },
    )
    assert response.status_code == 422 and all_errors(response.text)
    assert table_counts(csrf_app) == before


TAKES_NO_BODY = frozenset(
    {
        ("DELETE", "/api/tokens/current"),
        ("DELETE", "/api/matches/<match_id>/members/<username>"),
        ("DELETE", "/api/matches/<match_id>/seats/<int:seat>"),
        ("DELETE", "/api/matches/<match_id>/watch"),
        ("DELETE", "/api/events/<event_id>/rounds/<int:number>"),
        ("POST", "/api/matches/<match_id>/bank"),
        ("POST", "/api/matches/<match_id>/code"),
        ("POST", "/api/matches/<match_id>/end"),
        ("POST", "/api/matches/<match_id>/history/<int:entry_id>/restore"),
        ("POST", "/api/matches/<match_id>/rematch"),
        ("POST", "/api/matches/<match_id>/seats/<int:seat>/claim"),
        ("POST", "/api/matches/<match_id>/watch"),
        ("POST", "/api/events/<event_id>/rounds"),
        ("POST", "/api/events/<event_id>/rounds/<int:number>/close"),
    }
)
"""The API's writing routes that read no body (one sent is not read)."""


def _api_writes() -> list[tuple[str, str]]:
    """Every API route that writes (method, rule), from the app's URL map: a new route is
    expected to read a body, or to be listed in `TAKES_NO_BODY`."""
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x", "INSTANCE_PATH": instance})
    return sorted(
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in sorted((rule.methods or set()) & {"POST", "PUT", "PATCH", "DELETE"})
    )


@pytest.mark.parametrize(("method", "rule"), _api_writes(), ids=lambda v: str(v))
def test_every_api_body_nested_too_deep_to_read_is_answered_400(
    app: Flask, table: dict[str, Any], method: str, rule: str
) -> None:
    """JSON nested deeper than Python's parser goes raises RecursionError while it is read:
    each route that reads a body answers 400 saying so, none a 500; a route that reads none
    answers as it would without it (not 400: it read nothing)."""
    anna: ApiUser = table["anna"]
    event = anna.post("/api/events", json={"name": "Friday", "game": {"rules": "squarescores"}}).json
    for guest in ("Dana", "Egor", "Fima"):
        anna.post(f"/api/events/{event['id']}/roster", json={"guest": guest})
    assert anna.post(f"/api/events/{event['id']}/rounds").status_code == 201
    values = {"match_id": table["m"], "number": 1, "entry_id": 1, "seat": 0, "username": "anna"}
    values |= {"event_id": event["id"], "name": "Dana", "table": 1}
    url = rule.replace("<int:", "<").replace("<path:", "<")
    for key, value in values.items():
        url = url.replace(f"<{key}>", str(value))
    assert "<" not in url, url
    deep = '{"a":' * 3000 + "1" + "}" * 3000  # an object (the other DEEP is a list), under 64 KiB
    response = anna.client.open(url, method=method, headers=anna.headers, data=deep, content_type="application/json")
    if (method, rule) in TAKES_NO_BODY:
        assert response.status_code < 500 and response.status_code != 400, response.get_data(as_text=True)[:300]
    else:
        assert response.status_code == 400, response.get_data(as_text=True)[:300]
        assert response.json["error"].startswith("The request body is not JSON that can be read")
