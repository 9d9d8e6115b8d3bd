"""A table's usual rules: saved from one of its matches, and the next match started
with them in one tap from the home page. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match, User

from .page_helpers import Phone, count_matches, flashes, parse

HOUSE = {
    "zeros": "consecutive",
    "zero_penalty": 100,
    "dump_555": "plus",
    "barrel_knock_off": True,
    "barrel_hands": 2,
    "forfeit_pays": "half_bid",
    # round two (RULES.md §11.11–§11.18), each away from classic's default
    "barrel_gap": 100,
    "barrel_jump": "mounts",
    "barrel_clash": "one_stays",
    "barrel_defender_wins": True,
    "barrel_win_score": "added",
    "barrel_zeros": True,
    "forfeit_penalty": True,
    "dump_at": 550,
}
ROUND_TWO = (
    "barrel_gap",
    "barrel_jump",
    "barrel_clash",
    "barrel_defender_wins",
    "barrel_win_score",
    "barrel_zeros",
    "forfeit_penalty",
    "dump_at",
)
"""The house rules of RULES.md §11.11–§11.18."""


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


def rule_card(phone: Phone, match_id: str) -> str:
    """The match page's rule card as text."""
    cards = [n.text() for n in parse(phone.get(f"/matches/{match_id}").text).walk() if "rule-card" in n.classes()]
    return cards[0]


def test_usual_rules_chosen_on_the_start_form_with_the_new_house_rules_start_the_next_match(
    phone: Phone, csrf_app: Flask
) -> None:
    first = phone.new_match(
        rules="classic",
        barrel_gap="100",
        barrel_clash="all_fall",
        barrel_win_score="added",
        forfeit_penalty="true",
        dump_555="both",
        dump_at="450",
    )
    phone.post(f"/matches/{first}/usual", {}, form_url=f"/matches/{first}")
    started = phone.post("/matches/usual", {}, form_url="/")
    assert started.status_code == 302
    second = started.headers["Location"].rsplit("/", 1)[-1]
    options = setup_of(csrf_app, second)["options"]
    assert options == setup_of(csrf_app, first)["options"]
    assert (options["barrel_gap"], options["barrel_clash"], options["dump_at"]) == (100, "all_fall", 450)
    assert rule_card(phone, second) == rule_card(phone, first)
    assert "The dump: 450 and −450 go back to 0" in rule_card(phone, second)


def test_usual_rules_saved_before_the_new_house_rules_start_with_their_defaults(phone: Phone, csrf_app: Flask) -> None:
    # A user's usual rules stored before RULES.md §11.11–§11.18 name none of them.
    with csrf_app.app_context():
        user = db.session.execute(db.select(User).filter_by(username="anna")).scalar_one()
        user.usual_rules = {
            "players": ["Anna", "Boris", "Vera"],
            "rules": "classic",
            "options": {"target": 1000, "dump_555": "plus", "barrel_knock_off": True, "barrel_hands": 2},
        }
        db.session.commit()
    started = phone.post("/matches/usual", {}, form_url="/")
    assert started.status_code == 302
    options = setup_of(csrf_app, started.headers["Location"].rsplit("/", 1)[-1])["options"]
    assert (options["dump_555"], options["barrel_knock_off"], options["barrel_hands"]) == ("plus", True, 2)
    assert {k: options[k] for k in ROUND_TWO} == {
        "barrel_gap": 120,
        "barrel_jump": "wins",
        "barrel_clash": "all_stay",
        "barrel_defender_wins": False,
        "barrel_win_score": "target",
        "barrel_zeros": False,
        "forfeit_penalty": False,
        "dump_at": 555,
    }
