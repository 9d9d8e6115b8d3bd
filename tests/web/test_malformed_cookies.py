"""A malformed remember-me cookie is treated as absent: every page (and the error page) shows
as to a visitor who is not logged in."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize("value", ["é|é", "anna|é", "é", "1:1|ü" + "0" * 60, "|", "\u202e|x"])
def test_a_malformed_remember_me_cookie_is_treated_as_absent(client: Any, value: str) -> None:
    client.set_cookie("remember_token", value)
    assert client.get("/").status_code == 302  # to the log-in page, as without the cookie
    assert client.get("/login").status_code == 200
    missing = client.get("/no/such/page")
    assert missing.status_code == 404 and "<html" in missing.text
