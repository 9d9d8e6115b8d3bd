"""Every match route, page and API alike, answers a stranger exactly like a match that is not
there (404) and changes nothing. Routes are read from the app's URL map, so a new route is
covered the day it is added."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from scoresheet.storage.models import JOIN_ALPHABET, JOIN_CODE_LENGTH, new_join_code

from .page_helpers import Phone, played
from .test_security import table_counts

METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE"}
ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


def url_for_rule(rule: str, match_id: str) -> str:
    """The rule's URL for this match: match ids filled in, numbers 1, other texts 'x'."""

    def fill(m: re.Match[str]) -> str:
        converter, name = m.group(1), m.group(2)
        if name == "match_id":
            return match_id
        return "1" if converter == "int" else "x"

    return ARGUMENT.sub(fill, rule)


def match_routes(app: Flask) -> list[tuple[str, str]]:
    """Every (rule, method) that names a match."""
    return sorted(
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        if "match_id" in rule.arguments
        for method in rule.methods & METHODS
    )


def test_every_match_route_page_and_api_is_404_for_a_stranger(csrf_app: Flask, phone: Phone, make_phone: Any) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    stranger = make_phone("stranger")
    token = stranger.token("/")
    api_token = (
        csrf_app.test_client()
        .post("/api/tokens", json={"username": "stranger", "password": "correct horse"})
        .json["token"]
    )
    routes = match_routes(csrf_app)
    assert len(routes) >= 20
    before = table_counts(csrf_app)
    body = {"kind": "redeal", "confirm": "y", "csrf_token": token, "expected_hand": "2"}
    for rule, method in routes:
        url = url_for_rule(rule, match_id)
        if rule.startswith("/api/"):
            response = stranger.client.open(
                url, method=method, json={"kind": "redeal"}, headers={"Authorization": f"Bearer {api_token}"}
            )
            assert response.status_code == 404, (rule, method, response.status_code)
            assert response.json["error"] == "There is no such match.", rule
        else:
            response = stranger.client.open(url, method=method, data=body, headers={"X-CSRFToken": token})
            assert response.status_code == 404, (rule, method, response.status_code)
            assert "There is no such match." in response.text, rule
    assert table_counts(csrf_app) == before
    # The same routes with a match id that does not exist say exactly the same.
    for rule, method in routes:
        if method == "GET" and not rule.startswith("/api/"):
            assert phone.get(url_for_rule(rule, "NoSuchMatch12")).status_code == 404, rule


def test_join_codes_are_random_and_long_enough_not_to_be_guessed() -> None:
    import math

    assert len(set(JOIN_ALPHABET)) == len(JOIN_ALPHABET) == 32
    bits = JOIN_CODE_LENGTH * math.log2(len(JOIN_ALPHABET))
    assert bits >= 50  # docs/security.md: the figures behind this
    codes = {new_join_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(len(c) == JOIN_CODE_LENGTH and set(c) <= set(JOIN_ALPHABET) for c in codes)
    seen = {ch for c in codes for ch in c}
    assert seen == set(JOIN_ALPHABET)  # every symbol is used: no fixed positions or bias to see
