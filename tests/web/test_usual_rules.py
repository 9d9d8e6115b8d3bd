"""A table's usual rules: saved from one of its matches, and the next match started
with them in one tap from the home page. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .page_helpers import Phone, count_matches, flashes

HOUSE = {
    "zeros": "consecutive",
    "zero_penalty": 100,
    "dump_555": "plus",
    "barrel_knock_off": True,
    "barrel_hands": 2,
    "forfeit_pays": "half_bid",
}


def api_match(phone: Phone, **body: Any) -> str:
    """A match of anna's made through the API; its id."""
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    created = phone.client.post("/api/matches", headers={"Authorization": f"Bearer {token}"}, json=body)
    assert created.status_code == 201, created.json
    return str(created.json["id"])


def setup_of(app: Flask, match_id: str) -> dict[str, Any]:
    """A match's stored set-up."""
    with app.app_context():
        return dict(db.session.get(Match, match_id).setup)


def test_a_tables_usual_rules_start_the_next_match_in_one_tap(phone: Phone, csrf_app: Flask) -> None:
    first = api_match(
        phone,
        players=["Anna", "Boris", "Vera", "Gleb"],
        rules="classic",
        first_dealer=2,
        start_scores=[100, 200, 300, 0],
        options={"target": 2000, "gold_set": True, **HOUSE},
    )
    assert "Start with our usual rules" not in phone.get("/").text
    saved = phone.post(f"/matches/{first}/usual", {}, form_url=f"/matches/{first}", follow_redirects=True)
    assert any("usual rules" in f for f in flashes(saved.text))
    home = phone.get("/").text
    assert "Start with our usual rules" in home and "Anna · Boris · Vera · Gleb · Classic" in home
    before = count_matches(csrf_app)
    started = phone.post("/matches/usual", {}, form_url="/")  # the one tap
    assert started.status_code == 302 and count_matches(csrf_app) == before + 1
    second = started.headers["Location"].rsplit("/", 1)[-1]
    old, new = setup_of(csrf_app, first), setup_of(csrf_app, second)
    assert new["players"] == old["players"] and new["rules"] == "classic"
    assert new["options"] == old["options"]  # target, gold set and every house rule
    assert new["first_dealer"] == 0 and new["start_scores"] == [0, 0, 0, 0]


def test_usual_rules_are_saved_only_from_ones_own_match(phone: Phone, make_phone: Any) -> None:
    match_id = phone.new_match()
    stranger = make_phone("boris")
    refused = stranger.post(f"/matches/{match_id}/usual", {}, form_url="/")
    assert refused.status_code == 404
    nothing = stranger.post("/matches/usual", {}, form_url="/")
    assert nothing.status_code == 404 and "save them from a match" in nothing.text


def test_tyzichas_old_forced_rule_is_not_carried_into_a_new_match(phone: Phone, csrf_app: Flask) -> None:
    old = api_match(phone, players=["Anna", "Boris", "Vera"], rules="tyzicha")
    with csrf_app.app_context():  # as migration 0006 keeps old matches (new ones refuse it)
        match = db.session.get(Match, old)
        match.setup = {**match.setup, "options": {**match.setup["options"], "forced_any_seat": True}}
        db.session.commit()
    phone.post(f"/matches/{old}/usual", {}, form_url=f"/matches/{old}")
    started = phone.post("/matches/usual", {}, form_url="/")
    new = setup_of(csrf_app, started.headers["Location"].rsplit("/", 1)[-1])
    assert new["rules"] == "tyzicha" and not new["options"].get("forced_any_seat")
