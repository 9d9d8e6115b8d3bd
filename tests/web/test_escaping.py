"""Player names and every other text are escaped on every page; the CSV neutralises formulas."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Flask

from .page_helpers import Phone, played
from .test_strangers import url_for_rule

HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>', '=HYPERLINK("http://evil.example")']
RAW = ["<script>alert", "<img src=x", "onerror=alert(2)>"]


def page_gets(app: Flask) -> list[str]:
    """Every page (not /api, not static) that a GET shows, read from the URL map."""
    return sorted(
        rule.rule
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and not rule.rule.startswith(("/api/", "/static/"))
    )


def test_hostile_names_are_escaped_on_every_page_and_neutralised_in_the_csv(csrf_app: Flask, phone: Phone) -> None:
    match_id = phone.new_match(HOSTILE)
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    urls = [url_for_rule(rule, match_id) for rule in page_gets(csrf_app)]
    assert f"/matches/{match_id}" in urls and "/" in urls
    shown = 0
    for url in urls:
        response = phone.get(url)
        data = response.get_data()
        response.close()
        if not response.mimetype.startswith("text/"):
            continue  # icons and the like: no text of ours in them
        text = data.decode()
        if url.endswith(".csv") and response.status_code == 200:  # a made-up watch token: 404
            rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
            if url.startswith(f"/matches/{match_id}"):  # the sheet's header names its players
                assert '\'=HYPERLINK("http://evil.example")' in rows[0]
            assert not any(cell.startswith("=") for row in rows for cell in row)
            assert response.headers["Content-Disposition"].startswith("attachment;")
            continue
        for raw in RAW:
            assert raw not in text, (url, raw)
        if "&lt;script&gt;alert(1)&lt;/script&gt;" in text:
            shown += 1
    assert shown >= 4  # home, the sheet, the hand form, the edit form …


def test_a_hostile_username_is_refused_and_shown_back_escaped(csrf_app: Flask) -> None:
    phone = Phone(csrf_app.test_client())
    response = phone.register("<script>alert(1)</script>")
    assert response.status_code == 422
    assert "<script>alert" not in response.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text


def test_hostile_text_in_the_api_comes_back_as_json_text(api_user: Any) -> None:
    match = api_user.new_match(players=HOSTILE)
    response = api_user.get(f"/api/matches/{match['id']}")
    assert response.mimetype == "application/json"
    assert response.json["players"] == HOSTILE
