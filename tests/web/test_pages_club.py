"""The club night's page for its players and directors: the round, its tables' matches, the standings."""

from __future__ import annotations

from typing import Any

from flask import Flask


def api_token(app: Flask, username: str) -> dict[str, str]:
    """A new account's API headers."""
    response = app.test_client().post("/api/users", json={"username": username, "password": "correct horse"})
    return {"Authorization": f"Bearer {response.json['token']}"}


def test_a_player_sees_the_round_with_a_link_to_their_table_and_a_stranger_sees_nothing(
    csrf_app: Flask, make_phone: Any
) -> None:
    anna = make_phone("anna")
    stranger = make_phone("stranger")
    director = api_token(csrf_app, "director")
    api = csrf_app.test_client()
    event = api.post(
        "/api/events",
        json={"name": "Friday club", "game": {"rules": "squarescores"}, "time_limit": 30},
        headers=director,
    ).json
    api.post(f"/api/events/{event['id']}/roster", json={"username": "anna"}, headers=director)
    for name in ("Dana", "Egor"):
        api.post(f"/api/events/{event['id']}/roster", json={"guest": name}, headers=director)
    table = api.post(f"/api/events/{event['id']}/rounds", headers=director).json["tables"][0]
    page = anna.get(f"/events/{event['id']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Friday club" in html
    assert f'href="/matches/{table["match_id"]}"' in html
    assert "30 minutes left" in html
    assert event["code"] not in html  # the join code is the directors'
    assert "match_points" in anna.get(f"/events/{event['id']}/standings.csv").get_data(as_text=True)
    assert stranger.get(f"/events/{event['id']}").status_code == 404
    assert csrf_app.test_client().get(f"/events/{event['id']}").status_code == 302  # log in first
