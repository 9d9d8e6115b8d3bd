"""Usernames are unique ignoring case in the database itself (issue 10, item 3)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from conftest import empty_database
from flask import Flask
from sqlalchemy import Engine, create_engine, text

from scoresheet.config import psycopg_url
from scoresheet.services import accounts
from scoresheet.storage.database import upgrade

PASSWORD = "correct horse"


def register_at_once(app: Flask, names: list[str]) -> list[int]:
    """Register every name from its own thread, all released together; the status codes."""
    start = threading.Barrier(len(names))
    codes: list[int] = []

    def register(name: str) -> None:
        client = app.test_client()
        start.wait()
        codes.append(client.post("/api/users", json={"username": name, "password": PASSWORD}).status_code)

    threads = [threading.Thread(target=register, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return sorted(codes)


def test_the_database_refuses_a_second_spelling_when_both_checks_passed(
    app: Flask, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two phones checked "is dupabc free?" at the same moment and both heard yes: the
    database's unique index on the folded name still lets only one in, the other gets 409."""
    assert client.post("/api/users", json={"username": "dupabc", "password": PASSWORD}).status_code == 201
    monkeypatch.setattr(accounts, "find_user", lambda _name: None)  # the check saw nobody
    response = client.post("/api/users", json={"username": "DUPABC", "password": PASSWORD})
    assert response.status_code == 409
    assert response.json["field"] == "username"
    assert "taken" in response.json["error"]


def test_simultaneous_registrations_of_one_name_in_two_cases_make_one_account(app: Flask) -> None:
    for round_ in range(4):
        names = [f"dup{round_}abc", f"DUP{round_}ABC", f"Dup{round_}Abc"]
        assert register_at_once(app, names) == [201, 409, 409]
        client = app.test_client()
        for name in names:  # logging in as any spelling reaches the one account
            response = client.post("/api/tokens", json={"username": name, "password": PASSWORD})
            assert response.status_code == 201, response.json


@pytest.fixture
def engine_before_folding(database_url: str) -> Any:
    """An engine on a database migrated to revision 0004 (before the folded usernames)."""
    empty_database(database_url)
    engine = create_engine(psycopg_url(database_url))
    with engine.begin() as conn:
        upgrade(conn, "0004")
    yield engine
    engine.dispose()


def add_users(engine: Engine, *names: str) -> None:
    """Insert users as an old version of the app could (no folded name yet)."""
    with engine.begin() as conn:
        for name in names:
            conn.execute(
                text(
                    "INSERT INTO users (username, password_hash, session_version, "
                    "created_at) VALUES (:n, 'x', 0, CURRENT_TIMESTAMP)"
                ),
                {"n": name},
            )


def test_the_migration_stops_and_names_the_users_whose_names_collide(engine_before_folding: Engine) -> None:
    add_users(engine_before_folding, "anna", "ANNA", "Anna", "boris", "Vera", "vera", "gleb")
    with pytest.raises(RuntimeError) as caught, engine_before_folding.begin() as conn:
        upgrade(conn, "0005")
    message = str(caught.value)
    assert "anna, ANNA, Anna" in message.replace("“", "").replace("”", "")
    assert "Vera" in message and "vera" in message
    assert "boris" not in message and "gleb" not in message
    with engine_before_folding.connect() as conn:  # nothing changed: still at 0004
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0004"


def test_the_migration_folds_existing_usernames(engine_before_folding: Engine) -> None:
    add_users(engine_before_folding, "Anna", "boris")
    with engine_before_folding.begin() as conn:
        upgrade(conn, "0005")
    with engine_before_folding.connect() as conn:
        rows = conn.execute(text("SELECT username, username_folded FROM users ORDER BY username")).all()
    assert [tuple(r) for r in rows] == [("Anna", "anna"), ("boris", "boris")]
