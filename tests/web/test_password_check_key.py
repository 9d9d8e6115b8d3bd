"""The limit on wrong passwords where one is asked again counts per credential the route
authenticates with: a page counts per session, whatever Authorization header comes along."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from conftest import app_config, empty_database

from scoresheet import create_app
from scoresheet.storage.extensions import db

from .page_helpers import Phone

OLD, NEW = "correct horse", "violin meadow candle trout"


@pytest.mark.parametrize(
    "url, body",
    [
        ("/account/password", {"current_password": "a guess", "new_password": NEW}),
        ("/account/delete", {"password": "a guess"}),
    ],
)
def test_a_page_counts_wrong_passwords_per_session_whatever_authorization_header_it_carries(
    tmp_path: Any, database_url: str, url: str, body: dict[str, str]
) -> None:
    empty_database(database_url)
    app = create_app(
        app_config(
            database_url, tmp_path, RATELIMIT_ENABLED=True, WTF_CSRF_ENABLED=True, PASSWORD_CHECK_LIMIT="2 per minute"
        )
    )
    try:
        thief = Phone(app.test_client())
        assert thief.register("anna", OLD).status_code == 302
        statuses = [
            thief.post(
                url, body, form_url="/account", headers={"Authorization": f"Bearer fake{secrets.token_hex(8)}"}
            ).status_code
            for _ in range(3)
        ]
        assert statuses == [422, 422, 429]
    finally:
        app.extensions["push"].stop()
        with app.app_context():
            db.engine.dispose()
