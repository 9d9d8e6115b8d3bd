"""API accounts and tokens: POST /api/users, POST /api/tokens, DELETE /api/tokens/current."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from scoresheet.services import accounts
from scoresheet.storage.extensions import db
from scoresheet.storage.models import ApiToken, User


def test_register_answers_username_and_a_working_token(client: Any) -> None:
    response = client.post("/api/users", json={"username": "anna", "password": "correct horse"})
    assert response.status_code == 201
    assert response.json["username"] == "anna"
    token = response.json["token"]
    assert client.get("/api/matches", headers={"Authorization": f"Bearer {token}"}).json == {"matches": []}


def test_a_sign_up_the_database_fails_stores_no_account(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The account and its first token are one transaction: a sign-up answered "try again"
    can be tried again (before, the account stayed without its token: "taken")."""

    def locked(*_args: Any) -> Any:
        raise OperationalError("INSERT INTO api_tokens", None, sqlite3.OperationalError("database is locked"))

    with monkeypatch.context() as patched:
        patched.setattr(accounts, "token_hash", locked)
        busy = client.post("/api/users", json={"username": "dana", "password": "correct horse"})
    assert busy.status_code == 503, busy.json
    again = client.post("/api/users", json={"username": "dana", "password": "correct horse"})
    assert again.status_code == 201, again.json


def test_only_the_token_hash_is_stored(app: Any, api_user: Any) -> None:
    with app.app_context():
        hashes = db.session.execute(db.select(ApiToken.token_hash)).scalars().all()
        password_hash = db.session.execute(db.select(User.password_hash)).scalar_one()
    assert api_user.token not in hashes and len(hashes[0]) == 64
    assert "correct horse" not in password_hash


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"username": "an", "password": "correct horse"}, 422, "username"),
        ({"username": "a" * 41, "password": "correct horse"}, 422, "username"),
        ({"username": "anna smith", "password": "correct horse"}, 422, "username"),
        ({"username": "Aня", "password": "correct horse"}, 422, "username"),  # a Latin A among Cyrillic letters
        ({"username": "anna", "password": "1234567"}, 422, "password"),
        ({"username": 12, "password": "correct horse"}, 400, "username"),
        ({"username": "anna", "password": None}, 400, "password"),
        ({"password": "correct horse"}, 400, "username"),
    ],
)
def test_register_refuses_bad_usernames_and_passwords(client: Any, body: Any, status: int, field: str) -> None:
    response = client.post("/api/users", json=body)
    assert response.status_code == status
    assert response.json["field"] == field
    assert response.json["error"]


def test_register_accepts_dots_dashes_and_underscores(client: Any) -> None:
    response = client.post("/api/users", json={"username": "a.n-n_a", "password": "correct horse"})
    assert response.status_code == 201


def test_taken_username_is_a_conflict_whatever_its_case(client: Any, api_user: Any) -> None:
    response = client.post("/api/users", json={"username": "ANNA", "password": "correct horse"})
    assert response.status_code == 409
    assert response.json["field"] == "username"
    assert "taken" in response.json["error"]


def test_register_body_must_be_a_json_object(client: Any) -> None:
    for data in ("[1, 2]", '"anna"', "null"):
        response = client.post("/api/users", data=data, content_type="application/json")
        assert response.status_code == 400
        assert response.json == {"error": "The request body must be a JSON object.", "field": None}
    unreadable = "The request body is not JSON that can be read: check its brackets, quotes and numbers."
    for data in ("not json", '{"username": "anna"', '{"bid": ' + "9" * 5000 + "}", "[" * 5000 + "]" * 5000):
        response = client.post("/api/users", data=data, content_type="application/json")
        assert response.status_code == 400
        assert response.json == {"error": unreadable, "field": None}


def test_log_in_gives_a_new_token(client: Any, api_user: Any) -> None:
    response = client.post("/api/tokens", json={"username": "anna", "password": "correct horse"})
    assert response.status_code == 201
    assert response.json["token"] != api_user.token
    headers = {"Authorization": f"Bearer {response.json['token']}"}
    assert client.get("/api/matches", headers=headers).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"username": "anna", "password": "wrong password"},
        {"username": "nobody", "password": "correct horse"},
        {"username": "ANNA ", "password": "correct horse"},
        {"username": "anna", "password": ""},
    ],
)
def test_wrong_credentials_are_401(client: Any, api_user: Any, body: Any) -> None:
    response = client.post("/api/tokens", json=body)
    assert response.status_code == 401
    assert response.json == {"error": "Wrong username or password.", "field": None}


@pytest.mark.parametrize(
    "body, field",
    [
        ({"username": "anna"}, "password"),
        ({"password": "correct horse"}, "username"),
        ({"username": ["anna"], "password": "correct horse"}, "username"),
        ({"username": "anna", "password": 12345678}, "password"),
        ({"username": None, "password": None}, "username"),
    ],
)
def test_log_in_with_wrong_types_is_400(client: Any, api_user: Any, body: Any, field: str) -> None:
    response = client.post("/api/tokens", json=body)
    assert response.status_code == 400
    assert response.json == {"error": f"The {field} must be text.", "field": field}


def test_deleting_the_current_token_stops_it_working(api_user: Any) -> None:
    match = api_user.new_match()
    response = api_user.delete("/api/tokens/current")
    assert response.status_code == 204
    assert response.data == b"" and "Content-Type" not in response.headers
    assert api_user.get("/api/matches").status_code == 401
    assert api_user.get(f"/api/matches/{match['id']}").status_code == 401
    assert api_user.post(f"/api/matches/{match['id']}/hands", json={"kind": "redeal"}).status_code == 401
    assert api_user.delete("/api/tokens/current").status_code == 401


def test_deleting_one_token_leaves_the_others(client: Any, api_user: Any) -> None:
    other = client.post("/api/tokens", json={"username": "anna", "password": "correct horse"})
    api_user.delete("/api/tokens/current")
    headers = {"Authorization": f"Bearer {other.json['token']}"}
    assert client.get("/api/matches", headers=headers).status_code == 200


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Bearer not-a-token",
        "Basic YW5uYTpwdw==",
        "token abc",
    ],
)
def test_missing_or_bad_token_is_401(client: Any, api_user: Any, authorization: Any) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    # the match checks the token in the query that reads it: the same answer
    for url in ("/api/matches", f"/api/matches/{api_user.new_match()['id']}", "/api/matches/nosuchmatch"):
        response = client.get(url, headers=headers)
        assert response.status_code == 401, url
        assert response.json["field"] is None
        assert "token" in response.json["error"]
        assert response.headers["WWW-Authenticate"] == "Bearer"
        assert client.options(url, headers=headers).status_code == 401, url
    # adding a hand checks it in the statement that reads the match, too
    match = api_user.new_match()["id"]
    for url in (f"/api/matches/{match}/hands", "/api/matches/nosuchmatch/hands"):
        response = client.post(url, headers=headers, json={"kind": "redeal"})
        assert response.status_code == 401, url
        assert response.json["field"] is None
        assert "token" in response.json["error"] and response.headers["WWW-Authenticate"] == "Bearer"
        assert client.options(url, headers=headers).status_code == 401, url
    assert api_user.get(f"/api/matches/{match}").json["hands"] == []
