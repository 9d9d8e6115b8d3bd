"""Join and watch links are built on `PUBLIC_URL` where it is set, never on the request's Host
or X-Forwarded-Host; unset, on the request's address."""

from __future__ import annotations

from typing import Any

from conftest import ApiUser
from flask import Flask


def links(api_user: ApiUser, match_id: str, **headers: str) -> dict[str, Any]:
    """The match's links as the API gives them, asked with these headers."""
    response = api_user.client.get(f"/api/matches/{match_id}/links", headers={**api_user.headers, **headers})
    assert response.status_code == 200
    return dict(response.json)


def test_links_are_built_on_the_public_url_whatever_host_a_request_names(app: Flask, api_user: ApiUser) -> None:
    match = api_user.new_match()
    assert api_user.post(f"/api/matches/{match['id']}/watch").status_code == 201
    unset = links(api_user, match["id"], Host="evil.example")
    assert unset["join_url"].startswith("http://evil.example/join/")  # the requester's own answer only
    app.config["PUBLIC_URL"] = "https://scores.example.org/"
    for headers in ({"Host": "evil.example"}, {"X-Forwarded-Host": "evil.example"}, {}):
        found = links(api_user, match["id"], **headers)
        assert found["join_url"] == f"https://scores.example.org/join/{match['join_code']}"
        assert found["watch_url"].startswith("https://scores.example.org/watch/")
    page = api_user.client.get(f"/api/matches/{match['id']}", headers={**api_user.headers, "Host": "evil.example"})
    assert "evil.example" not in page.text
