"""Hostile input through the API and the pages: each is answered with a clear 4xx (a page may
instead show its form again with the error, or go back to the sheet with a warning), nothing is
stored, nothing crashes, and the match keeps working afterwards. docs/security.md "Hostile
input" has the figures."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import ApiUser
from flask import Flask

from .helpers import played
from .page_helpers import Phone, all_errors, flashes
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
    ("player RTL override", "POST", "/api/matches",
     {"json": {"players": ["A\u202e", "B", "C"]}}, 422),
    ("player lone surrogate", "POST", "/api/matches",
     {"json": {"players": ["A\ud800", "B", "C"]}}, 422),
    ("player empty", "POST", "/api/matches", {"json": {"players": ["", "B", "C"]}}, 422),
    ("player 41 chars", "POST", "/api/matches", {"json": {"players": ["A" * 41, "B", "C"]}}, 422),
    ("player 10 000 chars", "POST", "/api/matches",
     {"json": {"players": ["A" * 10_000, "B", "C"]}}, 422),
    ("players 1 000", "POST", "/api/matches", {"json": {"players": ["P"] * 1000}}, 422),
    ("players twice", "POST", "/api/matches", {"json": {"players": ["A", "A", "B"]}}, 422),
    ("rules a number", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "rules": 7}},
     400),
    ("rules unknown", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "rules": "poker"}}, 422),
    ("options a list", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "options": [1]}}, 400),
    ("options unknown key", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "options": {"cheat": True}}}, 400),
    ("target a text", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "options": {"target": "1000"}}}, 400),
    ("target 10**30", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "options": {"target": 10**30}}}, 400),
    ("target negative", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "options": {"target": -1000}}}, 422),
    ("target a float", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "options": {"target": 1000.0}}}, 400),
    ("flag a number", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "options": {"gold_set": 1}}}, 400),
    ("first dealer -1", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "first_dealer": -1}}, 422),
    ("first dealer 10**30", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "first_dealer": 10**30}}, 400),
    ("first dealer true", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "first_dealer": True}}, 400),
    ("start scores floats", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "start_scores": [1.5, 0, 0]}}, 400),
    ("start scores 10**30", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "start_scores": [10**30, 0, 0]}}, 400),
    ("start scores -10**30", "POST", "/api/matches",
     {"json": {"players": NAMES + ["C"], "start_scores": [-(10**30), 0, 0]}}, 400),
    ("unknown field", "POST", "/api/matches", {"json": {"players": NAMES + ["C"], "admin": 1}},
     400),
    ("body a list", "POST", "/api/matches", {"json": [NAMES]}, 400),
    ("body a string", "POST", "/api/matches", {"json": "players"}, 400),
    ("body null", "POST", "/api/matches", {"json": None}, 400),
    ("deep JSON", "POST", "/api/matches", {"data": DEEP, "content_type": "application/json"},
     400),
    ("deep JSON in a hand", "POST", "/api/matches/{m}/hands",
     {"data": DEEP, "content_type": "application/json"}, 400),
    ("body over 64 KiB", "POST", "/api/matches", {"data": BIG, "content_type": "application/json"},
     413),
    ("not UTF-8", "POST", "/api/matches",
     {"data": b'{"players": ["\xff\xfe", "B", "C"]}', "content_type": "application/json"}, 400),
    ("NaN", "POST", "/api/matches/{m}/hands",
     {"data": '{"kind": "played", "declarer": 1, "bid": NaN}',
      "content_type": "application/json"}, 400),
    ("text/plain JSON", "POST", "/api/matches",
     {"data": json.dumps({"players": ["A", "B", "C"]}), "content_type": "text/plain"}, 400),
    ("form-encoded", "POST", "/api/matches",
     {"data": {"players": "A"}, "content_type": "application/x-www-form-urlencoded"}, 400),
    ("no body", "POST", "/api/matches", {}, 400),
    ("kind a number", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "kind": 5}}, 400),
    ("kind unknown", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "kind": "won"}}, 422),
    ("declarer a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "declarer": "1"}},
     400),
    ("declarer -1", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "declarer": -1}}, 422),
    ("declarer 10**30", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "declarer": 10**30}}, 400),
    ("declarer a float", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "declarer": 1.0}},
     400),
    ("bid 10**30", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": 10**30}}, 400),
    ("bid negative", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": -100}}, 422),
    ("bid a float", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": 100.5}}, 400),
    ("bid a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "bid": "100"}}, 400),
    ("points a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "points": "40"}}, 400),
    ("points floats", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "points": [40.5, None, 20]}}, 400),
    ("points 10**30", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "points": [10**30, None, 20]}}, 400),
    ("points negative", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "points": [-40, None, 20]}}, 422),
    ("points too many", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "points": [1] * 500}}, 422),
    ("marriage unknown suit", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "marriages": [["stars"], [], []]}}, 422),
    ("marriages a text", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "marriages": "hearts"}}, 400),
    ("made a text", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "made": "yes"}}, 400),
    ("blind a number", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "blind": 1}}, 400),
    ("sitter points 10**30", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "sitter_points": 10**30}}, 400),
    ("hand unknown field", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "score": 999}},
     400),
    ("expected hand 0", "POST", "/api/matches/{m}/hands", {"json": {**HAND, "expected_hand": 0}},
     400),
    ("expected hand a text", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "expected_hand": "2"}}, 400),
    ("expected hand 10**30", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "expected_hand": 10**30}}, 409),
    ("expected hand already taken", "POST", "/api/matches/{m}/hands",
     {"json": {**HAND, "expected_hand": 1}}, 409),
    ("edit a hand that is not there", "PUT", "/api/matches/{m}/hands/7", {"json": HAND}, 404),
    ("edit hand 0", "PUT", "/api/matches/{m}/hands/0", {"json": HAND}, 404),
    ("edit hand 10**30", "PUT", "/api/matches/{m}/hands/" + "9" * 30, {"json": HAND}, 404),
    ("edit with a bad body", "PUT", "/api/matches/{m}/hands/1", {"json": {**HAND, "bid": "x"}},
     400),
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
    ("register username a number", "POST", "/api/users",
     {"json": {"username": 5, "password": "correct horse"}}, 400),
    ("register username NUL", "POST", "/api/users",
     {"json": {"username": "ve\x00ra", "password": "correct horse"}}, 422),
    ("register username tag", "POST", "/api/users",
     {"json": {"username": "<script>", "password": "correct horse"}}, 422),
    ("register password surrogate", "POST", "/api/users",
     {"json": {"username": "vera", "password": "\ud800" * 8}}, 400),
    ("register password 10 000", "POST", "/api/users",
     {"json": {"username": "vera", "password": "x" * 10_000}}, 422),
    ("register unknown field", "POST", "/api/users",
     {"json": {"username": "vera", "password": "correct horse", "admin": True}}, 400),
    ("log in username NUL", "POST", "/api/tokens",
     {"json": {"username": "an\x00na", "password": "correct horse"}}, 401),
    ("log in password surrogate", "POST", "/api/tokens",
     {"json": {"username": "anna", "password": "\udfff"}}, 401),
    ("log in password a list", "POST", "/api/tokens",
     {"json": {"username": "anna", "password": ["correct horse"]}}, 400),
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


@pytest.mark.parametrize("name, method, path, kwargs, status", API_CASES,
                         ids=[c[0] for c in API_CASES])
def test_hostile_api_input_is_refused_and_stores_nothing(
    app: Flask, table: dict[str, Any], name: str, method: str, path: str,
    kwargs: dict[str, Any], status: int
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
    ("name escape", "/matches/new", {"players-0": "A\x1b[31m", "players-1": "B",
                                     "players-2": "C"}, 422),
    ("name 10 000", "/matches/new", {"players-0": "A" * 10_000, "players-1": "B",
                                     "players-2": "C"}, 422),
    ("start score 10**30", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C",
                                            "start_scores-0": "1" + "0" * 30}, 422),
    ("start score 1e30", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C",
                                          "start_scores-0": "1e30"}, 422),
    ("start score float", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C",
                                           "start_scores-0": "1.5"}, 422),
    ("first dealer a word", "/matches/new", {"players-0": "A", "players-1": "B",
                                             "players-2": "C", "first_dealer": "x"}, 422),
    ("first dealer 9", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C",
                                        "first_dealer": "9"}, 422),
    ("rules unknown", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C",
                                       "rules": "poker"}, 422),
    ("target 7", "/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C",
                                  "target": "7"}, 422),
    ("declarer a word", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]),
                                                   "declarer": "x"}, 422),
    ("declarer 9", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]),
                                              "declarer": "9"}, 422),
    ("bid 10**30", "/matches/{m}/hands/new", form_played(1, 10**30, [40, None, 20]), 422),
    ("bid negative", "/matches/{m}/hands/new", form_played(1, -100, [40, None, 20]), 422),
    ("bid float", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]),
                                             "bid": "100.5"}, 422),
    ("points NUL", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]),
                                              "points_0": "4\x000"}, 422),
    ("points 10**30", "/matches/{m}/hands/new", form_played(1, 100, [10**30, None, 20]), 422),
    ("marriage unknown", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]),
                                                    "marriages_0": "stars"}, 422),
    ("kind unknown", "/matches/{m}/hands/new", {**form_played(1, 100, [40, None, 20]),
                                                "kind": "won"}, 422),
    ("expected hand superscript", "/matches/{m}/hands/new",
     {**form_played(1, 100, [40, None, 20]), "expected_hand": "²"}, 422),
    ("expected hand already taken", "/matches/{m}/hands/new",
     {**form_played(1, 100, [40, None, 20]), "expected_hand": "1"}, 302),
    ("expected hand 10**30", "/matches/{m}/hands/new",
     {**form_played(1, 100, [40, None, 20]), "expected_hand": "9" * 30}, 302),
    ("edit version a word", "/matches/{m}/hands/1/edit",
     {**form_played(2, 100, [40, 20, None]), "version": "x"}, 302),
    ("edit a hand that is not there", "/matches/{m}/hands/7/edit",
     form_played(1, 100, [40, None, 20]), 404),
    ("edit hand 10**30", "/matches/{m}/hands/" + "9" * 30 + "/edit",
     form_played(1, 100, [40, None, 20]), 404),
    ("edit another user's hand", "/matches/{other}/hands/1/edit",
     form_played(1, 100, [40, None, 20]), 404),
    ("delete another user's hand", "/matches/{other}/hands/1/delete", {"confirm": "y"}, 404),
    ("delete unticked", "/matches/{m}/hands/1/delete", {"confirm": ""}, 422),
    ("end another user's match", "/matches/{other}/end", {"confirm": "y"}, 404),
    ("match id with NUL", "/matches/ab%00cd/hands/new", form_played(1, 100, [40, None, 20]), 404),
    ("join code NUL", "/join", {"code": "AB\x00CD"}, 422),
    ("join code 10 000", "/join", {"code": "A" * 10_000}, 422),
    ("register username NUL", "/register", {"username": "ve\x00ra", "password": "x" * 8}, 422),
    ("register username tag", "/register", {"username": "<b>vera", "password": "x" * 8}, 422),
    ("log in username NUL", "/login", {"username": "an\x00na", "password": "correct horse"},
     422),
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
    return {"anna": anna, "m": m, "other": other}


@pytest.mark.parametrize("name, path, data, status", PAGE_CASES, ids=[c[0] for c in PAGE_CASES])
def test_hostile_form_input_is_refused_and_stores_nothing(
    csrf_app: Flask, page_table: dict[str, Any], name: str, path: str, data: dict[str, Any],
    status: int
) -> None:
    anna: Phone = page_table["anna"]
    token = anna.token("/")
    before = table_counts(csrf_app)
    url = path.format(m=page_table["m"], other=page_table["other"])
    response = anna.client.post(url, data={**data, "csrf_token": token})
    assert response.status_code == status
    if status == 422:
        assert all_errors(response.text), "the refusal is shown on the form"
    if status == 302:
        assert flashes(anna.get(response.location).text), "and a warning on the sheet"
    assert table_counts(csrf_app) == before
    response = anna.hand(page_table["m"], 2, **form_played(2, 100, [40, 20, None]))
    assert response.status_code == 302  # and the match still works


@pytest.mark.parametrize("body, content_type, status", [
    (b"players-0=" + b"A" * 70_000, "application/x-www-form-urlencoded", 413),
    (b"players-0=\xff\xfe&players-1=B&players-2=C&rules=squarescores&sheet=deferred"
     b"&first_dealer=0", "application/x-www-form-urlencoded", 400),  # form dropped whole
    (b'{"players-0": "A"}', "application/json", 400),
    (b"--x\r\nContent-Disposition: form-data; name=\"players-0\"\r\n\r\nA\r\n--x--\r\n",
     "multipart/form-data; boundary=x", 400),
], ids=["over 64 KiB", "not UTF-8", "JSON to a form", "multipart without its token"])
def test_hostile_bodies_to_a_page_are_refused(csrf_app: Flask, page_table: dict[str, Any],
                                              body: bytes, content_type: str,
                                              status: int) -> None:
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
    None, True, False, 0, -1, 1.5, 10**30, -(10**30), float("inf"), "", "x", "\x00", "\ud800",
    "<script>", "=1+1", "A" * 5000, [], [None], [[[]]], {}, {"a": 1}, "120", [1] * 50,
]


def mutate(value: Any, rng: random.Random) -> Any:
    """The value with one leaf (or the whole of it) replaced by something hostile."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice([*value, "unknown"])
        return {**value, key: mutate(value.get(key), rng)}
    if isinstance(value, list) and value and rng.random() < 0.7:
        i = rng.randrange(len(value))
        return [*value[:i], mutate(value[i], rng), *value[i + 1:]]
    return rng.choice(HOSTILE_VALUES)


FUZZ_CASES = 150


def test_random_hostile_bodies_never_crash_and_refusals_store_nothing(
    app: Flask, table: dict[str, Any]
) -> None:
    anna: ApiUser = table["anna"]
    rng = random.Random(20261130)
    valid = [("/api/matches", {"players": ["A", "B", "C"], "rules": "polish",
                               "options": {"gold_set": True}, "start_scores": [0, 0, 0]}),
             (f"/api/matches/{table['m']}/hands", played(2, 100, [40, 20, None])),
             ("/api/matches/join", {"code": "ABCDEFGHJK"})]
    refused = 0
    for _ in range(FUZZ_CASES):
        url, body = rng.choice(valid)
        hostile = mutate(body, rng)
        before = table_counts(app)
        response = anna.client.post(url, data=json.dumps(hostile, allow_nan=True),
                                    content_type="application/json", headers=anna.headers)
        assert response.status_code < 500, (hostile, response.json)
        if response.status_code >= 400:
            refused += 1
            assert table_counts(app) == before, hostile
    assert refused > FUZZ_CASES * 0.8
    anna.add_hand(table["m"], played(0, 100, [None, 20, 40]), status=201)
