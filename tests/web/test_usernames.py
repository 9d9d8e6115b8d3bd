"""Usernames are unique ignoring case in the database itself, and are
written in any alphabet, but never in a mix of alphabets that imitates another name."""

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

from .page_helpers import Phone, errors_next_to

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
    monkeypatch.setattr(accounts, "find_user", lambda _name: None)  # the checks saw nobody
    monkeypatch.setattr(accounts, "looks_of", lambda _name: "")  # (nobody looks like nothing)
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


def test_names_in_any_alphabet_are_accounts_found_ignoring_case(client: Any) -> None:
    for name in ("Аня", "Łukasz", "明", "Zoë"):
        response = client.post("/api/users", json={"username": name, "password": PASSWORD})
        assert response.status_code == 201, response.json
        assert response.json["username"] == name
    taken = client.post("/api/users", json={"username": "АНЯ", "password": PASSWORD})  # Unicode case folding
    assert taken.status_code == 409 and taken.json["field"] == "username"
    for spelling in ("аня", "ŁUKASZ", "明", "Zoe\u0308"):  # the last one decomposed (NFC makes it Zoë)
        response = client.post("/api/tokens", json={"username": spelling, "password": PASSWORD})
        assert response.status_code == 201, spelling


@pytest.mark.parametrize(
    "name", ["anna\u3164", "anna\ufe0f", "\u115fanna", "an\u034fna", "anna\u17b4", "\u3164\u3164\u3164"]
)
def test_a_new_username_holds_no_filler_a_letter_to_unicode_that_shows_nothing(client: Any, name: str) -> None:
    assert client.post("/api/users", json={"username": "anna", "password": PASSWORD}).status_code == 201
    refused = client.post("/api/users", json={"username": name, "password": PASSWORD})  # anna again, to the eye
    assert (refused.status_code, refused.json["field"]) == (422, "username")
    if "anna" in name.replace("\u034f", ""):  # beside letters that show: said so, not "letters of any alphabet"
        assert "holds a character that shows nothing" in refused.json["error"]


def test_a_mixed_alphabet_imitation_of_a_name_is_refused(client: Any) -> None:
    assert client.post("/api/users", json={"username": "Аня", "password": PASSWORD}).status_code == 201
    latin_a = client.post("/api/users", json={"username": "Aня", "password": PASSWORD})  # a Latin "A"
    assert latin_a.status_code == 422 and latin_a.json["field"] == "username"
    assert "one alphabet" in latin_a.json["error"]
    russian = client.post(
        "/api/users", json={"username": "Aня", "password": PASSWORD}, headers={"Accept-Language": "ru"}
    )
    assert "одним алфавитом" in russian.json["error"]
    assert client.post("/api/users", json={"username": "аnna", "password": PASSWORD}).status_code == 422  # Cyrillic а


def test_the_register_page_refuses_an_imitation_and_keeps_the_name(csrf_app: Flask) -> None:
    assert Phone(csrf_app.test_client()).register("Аня").status_code == 302
    phone = Phone(csrf_app.test_client())
    response = phone.register("Aня")
    assert response.status_code == 422
    assert any("one alphabet" in e for e in errors_next_to(response.text, "username"))
    assert 'value="Aня"' in response.text  # typed once: only the password box is empty again
    for name in ("Łukasz", "明"):
        assert Phone(csrf_app.test_client()).register(name).status_code == 302


@pytest.mark.parametrize(
    ("name", "allowed"),
    [
        ("Аня", True),
        ("Łukasz", True),
        ("明", True),
        ("Zoë", True),
        ("ola.k", True),
        ("नमस्ते", True),
        ("an", False),  # too short in an alphabet
        ("anna smith", False),
        ("\u0301abc", False),  # an accent first
        ("anna\u200d", False),  # an invisible joiner
        ("x" * 41, False),
    ],
)
def test_what_a_username_may_hold(name: str, allowed: bool) -> None:
    assert accounts.username_allowed(name) is allowed


@pytest.fixture
def engine_before_unicode_folding(database_url: str) -> Any:
    """An engine on a database migrated to revision 0012 (usernames folded by lower())."""
    empty_database(database_url)
    engine = create_engine(psycopg_url(database_url))
    with engine.begin() as conn:
        upgrade(conn, "0012")
    yield engine
    engine.dispose()


def add_folded_users(engine: Engine, *names: str) -> None:
    """Insert users as revision 0012 folded them (lower()), e.g. from a backup."""
    with engine.begin() as conn:
        for name in names:
            conn.execute(
                text(
                    "INSERT INTO users (username, username_folded, password_hash, session_version, "
                    "created_at) VALUES (:n, :f, 'x', 0, CURRENT_TIMESTAMP)"
                ),
                {"n": name, "f": name.lower()},
            )


def test_the_migration_folds_usernames_by_unicode_case_folding(engine_before_unicode_folding: Engine) -> None:
    add_folded_users(engine_before_unicode_folding, "Anna", "Straße", "ΣΟΦΟΣ", "ß" * 40)
    with engine_before_unicode_folding.begin() as conn:
        upgrade(conn, "0013")
    with engine_before_unicode_folding.connect() as conn:
        rows = dict(conn.execute(text("SELECT username, username_folded FROM users")).all())
    assert rows == {"Anna": "anna", "Straße": "strasse", "ΣΟΦΟΣ": "σοφοσ", "ß" * 40: "ss" * 40}


def test_the_unicode_folding_migration_stops_on_names_that_become_one(engine_before_unicode_folding: Engine) -> None:
    add_folded_users(engine_before_unicode_folding, "Strasse", "Straße", "boris")
    with pytest.raises(RuntimeError) as caught, engine_before_unicode_folding.begin() as conn:
        upgrade(conn, "0013")
    assert "“Strasse”, “Straße”" in str(caught.value) and "boris" not in str(caught.value)
    with engine_before_unicode_folding.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0012"


def test_a_username_that_looks_exactly_like_an_accounts_in_another_alphabet_is_refused(client: Any) -> None:
    for name in ("Hope", "ION", "Anna"):
        assert client.post("/api/users", json={"username": name, "password": PASSWORD}).status_code == 201
    for twin, of in (("Норе", "Hope"), ("НОРЕ", "Hope"), ("ΙΟΝ", "ION")):  # all Cyrillic; all Greek
        refused = client.post("/api/users", json={"username": twin, "password": PASSWORD})
        assert (refused.status_code, refused.json["field"]) == (409, "username")
        assert refused.json["error"] == f"“{twin}” looks just like the username “{of}”: choose another."
    russian = client.post(
        "/api/users", json={"username": "Норе", "password": PASSWORD}, headers={"Accept-Language": "ru"}
    )
    assert russian.json["error"] == "«Норе» выглядит точь-в-точь как имя «Hope»: выберите другое."
    # Only a name that looks like a spelling of the account's ("НОРЕ" as HOPE, which logs in as
    # Hope): its н makes "Анна" another name than Anna; "норе" is no "hope".
    for name in ("Анна", "норе"):
        assert client.post("/api/users", json={"username": name, "password": PASSWORD}).status_code == 201, name


def test_the_register_page_says_which_account_a_look_alike_name_imitates(csrf_app: Flask) -> None:
    assert Phone(csrf_app.test_client()).register("Hope").status_code == 302
    response = Phone(csrf_app.test_client()).register("Норе")
    assert response.status_code == 422  # a refused form, as every page answers one
    assert errors_next_to(response.text, "username") == ["“Норе” looks just like the username “Hope”: choose another."]


def test_the_migration_reads_how_every_username_looks_and_keeps_look_alikes_made_before(database_url: str) -> None:
    empty_database(database_url)
    engine = create_engine(psycopg_url(database_url))
    with engine.begin() as conn:
        upgrade(conn, "0021")
        for name in ("Hope", "Норе", "Ivan"):  # two that look alike, made before anything asked
            conn.execute(
                text(
                    "INSERT INTO users (username, username_folded, password_hash, session_secret, created_at) "
                    "VALUES (:n, :f, 'x', 's', CURRENT_TIMESTAMP)"
                ),
                {"n": name, "f": name.casefold()},
            )
        upgrade(conn, "0022")
    with engine.connect() as conn:
        looks = dict(conn.execute(text("SELECT username, username_looks FROM users")).all())
    engine.dispose()
    assert looks == {"Hope": "hope", "Норе": "hope", "Ivan": "lvan"}
