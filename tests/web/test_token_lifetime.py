"""An API token works for `API_TOKEN_DAYS` days from when it was made, then answers 401 like a
revoked one (docs/security.md)."""

from __future__ import annotations

from datetime import timedelta

from conftest import ApiUser
from flask import Flask

from scoresheet.services.accounts import token_hash
from scoresheet.storage.extensions import db
from scoresheet.storage.models import ApiToken, utcnow


def made_days_ago(app: Flask, token: str, days: float) -> None:
    """Date the token's making back."""
    with app.app_context():
        db.session.execute(
            db.update(ApiToken)
            .where(ApiToken.token_hash == token_hash(token))
            .values(created_at=utcnow() - timedelta(days=days))
        )
        db.session.commit()


def test_a_token_stops_working_after_its_lifetime(app: Flask, api_user: ApiUser) -> None:
    assert app.config["API_TOKEN_DAYS"] == 90
    match = f"/api/matches/{api_user.new_match()['id']}"  # it and its hands check the token themselves
    made_days_ago(app, api_user.token, 89)
    assert api_user.get("/api/matches").status_code == 200
    assert api_user.get(match).status_code == 200
    assert api_user.post(f"{match}/hands", json={"kind": "redeal"}).status_code == 201
    made_days_ago(app, api_user.token, 91)
    assert api_user.get("/api/matches").status_code == 401
    assert api_user.get(match).status_code == 401
    assert api_user.post(f"{match}/hands", json={"kind": "redeal"}).status_code == 401
    fresh = api_user.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"})
    assert fresh.status_code == 201
    headers = {"Authorization": f"Bearer {fresh.json['token']}"}
    assert api_user.client.get("/api/matches", headers=headers).status_code == 200
    assert len(api_user.client.get(match, headers=headers).json["hands"]) == 1  # the refused one is not stored
