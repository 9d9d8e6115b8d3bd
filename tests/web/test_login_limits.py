"""Brute-force limits: log-in limits keep guessing slow without handing anybody a switch that
locks the real player out (docs/security.md, "Brute-force limits");
registrations and join codes are limited per address."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import app_config
from flask import Flask
from flask.testing import FlaskClient

from scoresheet import create_app
from scoresheet.storage.extensions import db

from .page_helpers import count_hands, count_matches

PASSWORD = "correct horse"


@pytest.fixture
def limited_app(tmp_path: Any) -> Iterator[Flask]:
    """The limits on, small enough to reach in a test."""
    app = create_app(
        app_config(
            f"sqlite:///{tmp_path / 'limits.sqlite'}",
            tmp_path,
            RATELIMIT_ENABLED=True,
            LOGIN_LIMIT_PER_ADDRESS="8 per minute",
            LOGIN_LIMIT_PER_USERNAME_AND_ADDRESS="3 per minute",
            LOGIN_LIMIT_UNDER_ATTACK="1 per minute",
            LOGIN_ATTACK_THRESHOLD="6 per minute",
            REGISTER_LIMIT_PER_ADDRESS="4 per minute",
            REGISTER_LIMIT_PER_USERNAME="3 per minute",
            JOIN_LIMIT_PER_ADDRESS="3 per minute",
        )
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def from_address(app: Flask, address: str) -> FlaskClient:
    """A new browser (no cookies) whose requests come from this address."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def api_log_in(client: FlaskClient, password: str, username: str = "anna") -> int:
    """Status of an API log-in."""
    return client.post("/api/tokens", json={"username": username, "password": password}).status_code


def page_log_in(client: FlaskClient, password: str, username: str = "anna") -> int:
    """Status of a log-in on the page (302: logged in)."""
    return client.post("/login", data={"username": username, "password": password}).status_code


def test_guesses_from_elsewhere_never_lock_the_real_player_out(limited_app: Flask) -> None:
    assert (
        from_address(limited_app, "10.0.0.1")
        .post("/api/users", json={"username": "anna", "password": PASSWORD})
        .status_code
        == 201
    )
    mallory = from_address(limited_app, "203.0.113.9")
    assert [api_log_in(mallory, "guess") for _ in range(5)] == [401, 401, 401, 429, 429]
    refused = mallory.post("/api/tokens", json={"username": "anna", "password": "x"})
    assert refused.json["error"].startswith("Too many tries") and refused.json["field"] is None
    assert page_log_in(mallory, "guess") == 429  # page and API count together
    assert page_log_in(mallory, "guess", "ANNA") == 429  # whatever the case
    # The real player, from another address: the API and a browser that never logged in.
    assert api_log_in(from_address(limited_app, "10.0.0.2"), PASSWORD) == 201
    assert page_log_in(from_address(limited_app, "10.0.0.3"), PASSWORD) == 302


def test_a_username_under_attack_from_many_addresses_still_lets_the_player_in(limited_app: Flask) -> None:
    assert (
        from_address(limited_app, "10.0.0.1")
        .post("/api/users", json={"username": "anna", "password": PASSWORD})
        .status_code
        == 201
    )
    botnet = [from_address(limited_app, f"198.51.100.{i}") for i in range(1, 5)]
    first = [[api_log_in(bot, "guess") for _ in range(2)] for bot in botnet[:3]]
    assert first == [[401, 401]] * 3  # 6 failures a minute: the threshold is reached
    # Under attack, each address gets one failure where it had three …
    assert [api_log_in(botnet[3], "guess") for _ in range(2)] == [401, 429]
    assert api_log_in(botnet[0], "guess") == 401 and api_log_in(botnet[0], "guess") == 429
    # … while the player, from an address that has not failed, logs in at once.
    assert api_log_in(from_address(limited_app, "10.0.0.2"), PASSWORD) == 201
    assert page_log_in(from_address(limited_app, "10.0.0.3"), PASSWORD) == 302
    # Other usernames are not under attack.
    assert (
        from_address(limited_app, "10.0.0.4")
        .post("/api/users", json={"username": "boris", "password": PASSWORD})
        .status_code
        == 201
    )
    assert [api_log_in(botnet[3], "guess", "boris") for _ in range(3)] == [401] * 3


def test_the_phone_the_player_logged_in_on_is_exempt_from_the_username_limits(limited_app: Flask) -> None:
    phone = from_address(limited_app, "10.0.0.1")
    assert phone.post("/register", data={"username": "anna", "password": PASSWORD}).status_code == 302
    assert [page_log_in(phone, "typo") for _ in range(4)] == [422] * 4  # shown again, not 429
    assert page_log_in(phone, PASSWORD) == 302


def test_one_address_trying_many_usernames_is_stopped(limited_app: Flask) -> None:
    mallory = from_address(limited_app, "203.0.113.7")
    statuses = [api_log_in(mallory, "guess", f"user{i}") for i in range(8)]
    assert statuses == [401] * 8
    page = mallory.post("/login", data={"username": "someone", "password": "guess"})
    assert page.status_code == 429
    assert "Too many tries" in page.text and "<html" in page.text


def test_registration_and_join_codes_are_limited_per_address(limited_app: Flask) -> None:
    client = from_address(limited_app, "198.51.100.8")
    statuses = [
        client.post("/api/users", json={"username": f"user{i}", "password": PASSWORD}).status_code for i in range(5)
    ]
    assert statuses == [201, 201, 201, 201, 429]
    token = (
        from_address(limited_app, "10.0.0.3")
        .post("/api/users", json={"username": "anna", "password": PASSWORD})
        .json["token"]
    )
    headers = {"Authorization": f"Bearer {token}"}
    guesses = [
        client.post("/api/matches/join", json={"code": f"GUESS{i}"}, headers=headers).status_code for i in range(4)
    ]
    assert guesses == [404, 404, 404, 429]
    assert count_matches(limited_app) == 0 and count_hands(limited_app) == 0


def test_an_app_with_its_limits_off_keeps_them_off_when_another_app_turns_them_on(tmp_path: Any) -> None:
    """One process, two apps (as a test run serving the browser tests' app): the limiter is one
    object, and the last app bound to it must not switch the other's limits on."""
    unlimited = create_app(app_config(f"sqlite:///{tmp_path / 'off.sqlite'}", tmp_path / "off"))
    limited = create_app(
        app_config(
            f"sqlite:///{tmp_path / 'on.sqlite'}",
            tmp_path / "on",
            RATELIMIT_ENABLED=True,
            REGISTER_LIMIT_PER_ADDRESS="2 per minute",
        )
    )

    def statuses(app: Flask, name: str, count: int) -> list[int]:
        client = from_address(app, "198.51.100.9")
        return [
            client.post("/api/users", json={"username": f"{name}{i}", "password": PASSWORD}).status_code
            for i in range(count)
        ]

    assert statuses(unlimited, "free", 7) == [201] * 7  # over the default 5 per minute
    assert statuses(limited, "held", 3) == [201, 201, 429]
    for app in (unlimited, limited):
        with app.app_context():
            db.engine.dispose()
