"""Tichu through the API and the CSV (API.md "Tichu"), on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
EXAMPLE = {"calls": ["tichu", "grand", None, None], "first_out": 0, "double_victory": False, "card_points": [35, 65]}
"""RULES.md §10's example: team 0 +135, team 1 −135."""
PLAIN = {"card_points": [60, 40]}


def new_tichu(user: Any, **data: Any) -> dict[str, Any]:
    """A Tichu match of Anna, Boris, Vera and Gleb."""
    return user.new_match(players=PLAYERS, rules="tichu", **data)


def rounds_url(match: dict[str, Any], number: int | None = None) -> str:
    """The rounds (hands) of a match, or one of them."""
    url = f"/api/matches/{match['id']}/hands"
    return url if number is None else f"{url}/{number}"


def test_a_tichu_match_has_teams_and_standings_per_team(api_user: Any) -> None:
    match = new_tichu(api_user)
    assert match["rules"] == "tichu"
    assert match["options"] == {"target": 1000, "great_grand_tichu": False, "sheet": "signed"}
    assert match["teams"] == [
        {"team": 0, "seats": [0, 2], "name": "Anna & Vera"},
        {"team": 1, "seats": [1, 3], "name": "Boris & Gleb"},
    ]
    assert match["standings"] == [
        {"team": 0, "name": "Anna & Vera", "score": 0, "sheet": 0, "owed": 0},
        {"team": 1, "name": "Boris & Gleb", "score": 0, "sheet": 0, "owed": 0},
    ]
    assert match["next"] == {"hand": 1, "dealer": 0}
    assert match["status"] == "in_progress" and match["winner"] is None
    assert "teams" not in api_user.new_match()


def test_a_round_previews_as_adding_it_stores_it(api_user: Any) -> None:
    match = new_tichu(api_user, first_dealer=3)
    response = api_user.post(f"{rounds_url(match)}/preview", json=EXAMPLE)
    assert response.status_code == 200
    assert [r["delta"] for r in response.json["hand"]["results"]] == [135, -135]
    assert api_user.get(f"/api/matches/{match['id']}").json["hands"] == []
    stored = api_user.add_hand(match["id"], EXAMPLE)["hands"][0]
    assert response.json["hand"] == {k: v for k, v in stored.items() if k != "uid"}  # a preview names no hand
    response = api_user.post(f"{rounds_url(match)}/preview", json={"card_points": [60, 50]})
    assert response.status_code == 422 and response.json["field"] == "card_points"


def test_a_round_is_scored_per_team_with_its_event_words(api_user: Any) -> None:
    match = new_tichu(api_user, first_dealer=3)
    answer = api_user.add_hand(match["id"], {**EXAMPLE, "expected_hand": 1})
    (hand,) = answer["hands"]
    assert {k: v for k, v in hand.items() if k not in ("results", "uid")} == {
        "number": 1,
        "dealer": 3,
        "calls": ["tichu", "grand", None, None],
        "first_out": 0,
        "double_victory": False,
        "card_points": [35, 65],
        "version": 1,
    }
    assert hand["results"] == [
        {"team": 0, "delta": 135, "entry": 135, "owed": 0, "score": 135, "sheet": 135, "events": ["tichu_made"]},
        {"team": 1, "delta": -135, "entry": -135, "owed": 0, "score": -135, "sheet": -135, "events": ["grand_failed"]},
    ]
    assert [s["score"] for s in answer["standings"]] == [135, -135]
    assert answer["next"] == {"hand": 2, "dealer": 0}


def test_a_double_victory_has_no_card_points(api_user: Any) -> None:
    match = new_tichu(api_user)
    body = {"calls": [None, None, None, "grand"], "first_out": 3, "double_victory": True, "card_points": None}
    hand = api_user.add_hand(match["id"], body)["hands"][0]
    assert hand["card_points"] is None and hand["double_victory"] is True
    assert [r["delta"] for r in hand["results"]] == [0, 400]
    assert hand["results"][1]["events"] == ["double_victory", "grand_made"]


def test_great_grand_tichu_where_the_table_plays_it(api_user: Any) -> None:
    match = new_tichu(api_user, options={"great_grand_tichu": True})
    body = {"calls": [None, "great_grand", None, None], "first_out": 0, "card_points": [50, 50]}
    hand = api_user.add_hand(match["id"], body)["hands"][0]
    assert hand["results"][1]["events"] == ["great_grand_failed"]
    assert [r["delta"] for r in hand["results"]] == [50, -350]


def test_a_tichu_round_with_a_kind_is_malformed_and_stores_nothing(api_user: Any) -> None:
    match = new_tichu(api_user)
    response = api_user.post(rounds_url(match), json={"kind": "played", **PLAIN})
    assert response.status_code == 400
    assert response.json["field"] == "kind"
    assert api_user.get(f"/api/matches/{match['id']}").json["hands"] == []


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"calls": ["small", None, None, None], "first_out": 0, "card_points": [50, 50]}, 422, "calls"),
        ({"calls": [None, "great_grand", None, None], "first_out": 0, "card_points": [50, 50]}, 422, "calls"),
        ({"calls": [None, None, None], "first_out": 0, "card_points": [50, 50]}, 422, "calls"),
        ({"calls": ["tichu", None, None, None], "card_points": [50, 50]}, 422, "first_out"),
        ({"double_victory": True}, 422, "first_out"),
        ({"first_out": 7, "card_points": [50, 50]}, 422, "first_out"),
        ({"card_points": [52, 48]}, 422, "card_points"),
        ({"card_points": [130, -30]}, 422, "card_points"),
        ({"card_points": [60, 60]}, 422, "card_points"),
        ({"first_out": 1, "double_victory": True, "card_points": [50, 50]}, 422, "card_points"),
        ({}, 422, "card_points"),
        ({"calls": "tichu", "card_points": [50, 50]}, 400, "calls"),
        ({"card_points": "60"}, 400, "card_points"),
        ({"first_out": True, "card_points": [50, 50]}, 400, "first_out"),
        ({"double_victory": "yes", "first_out": 0}, 400, "double_victory"),
        ({"declarer": 1, "card_points": [50, 50]}, 400, "declarer"),
    ],
)
def test_refused_rounds_name_their_field_and_store_nothing(
    api_user: Any, body: dict[str, Any], status: int, field: str
) -> None:
    match = new_tichu(api_user)
    response = api_user.post(rounds_url(match), json=body)
    assert response.status_code == status, response.json
    assert response.json["field"] == field
    assert response.json["error"].endswith(".")
    assert api_user.get(f"/api/matches/{match['id']}").json["hands"] == []


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"options": {"gold_set": True}}, "options"),
        ({"options": {"blind_bids": True}}, "options"),
        ({"options": {"target": 3000}}, "options"),
        ({"start_scores": [0, 0, 0, 0]}, "start_scores"),
        ({"start_scores": [1000, 0]}, "start_scores"),
        ({"players": ["Anna", "Boris", "Vera"]}, "players"),
    ],
)
def test_tichu_set_up_refusals(api_user: Any, data: dict[str, Any], field: str) -> None:
    response = api_user.post("/api/matches", json={"players": PLAYERS, "rules": "tichu", **data})
    assert response.status_code == 422, response.json
    assert response.json["field"] == field


def test_great_grand_tichu_is_refused_on_a_tysiacha_match(api_user: Any) -> None:
    response = api_user.post("/api/matches", json={"players": ["A", "B", "C"], "options": {"great_grand_tichu": True}})
    assert response.status_code == 422 and response.json["field"] == "options"


def test_both_past_the_target_the_higher_team_wins(api_user: Any) -> None:
    match = new_tichu(api_user, start_scores=[950, 980])
    answer = api_user.add_hand(match["id"], {"card_points": [80, 20]})  # 1030 v 1000
    assert answer["winner"] == 0 and answer["status"] == "finished"


def test_equal_scores_past_the_target_play_on(api_user: Any) -> None:
    match = new_tichu(api_user, start_scores=[950, 950])
    answer = api_user.add_hand(match["id"], {"card_points": [50, 50]})
    assert answer["status"] == "in_progress" and answer["winner"] is None
    answer = api_user.add_hand(match["id"], {"card_points": [55, 45]})
    assert answer["status"] == "finished" and answer["winner"] == 0
    assert answer["hands"][-1]["results"][0]["events"] == ["win"]
    assert answer["next"] is None
    refused = api_user.post(rounds_url(match), json=PLAIN)
    assert refused.status_code == 409
    over = "The match is over: Anna & Vera have won. Bank it, or correct an earlier round first."
    assert refused.json["error"] == over
    ended = api_user.post(f"/api/matches/{match['id']}/end")
    assert ended.status_code == 409 and ended.json["error"] == "Anna & Vera have won this match: bank it instead."
    assert api_user.post(f"/api/matches/{match['id']}/bank").status_code == 200
    assert api_user.get(f"/api/matches/{match['id']}").json["status"] == "banked"


def test_correct_and_delete_a_round(api_user: Any) -> None:
    match = new_tichu(api_user, options={"sheet": "deferred"})
    api_user.add_hand(match["id"], EXAMPLE)
    api_user.add_hand(match["id"], PLAIN)
    fixed = api_user.put(rounds_url(match, 1), json={**EXAMPLE, "first_out": 1})
    assert fixed.status_code == 200, fixed.json
    first = fixed.json["hands"][0]["results"]
    assert [r["delta"] for r in first] == [-65, 265]
    assert [(r["entry"], r["owed"]) for r in first] == [(0, 65), (265, 0)]
    assert api_user.put(rounds_url(match, 1), json={"kind": "played"}).status_code == 400
    gone = api_user.delete(rounds_url(match, 1))
    assert gone.status_code == 200
    assert [h["card_points"] for h in gone.json["hands"]] == [[60, 40]]
    assert [s["score"] for s in gone.json["standings"]] == [60, 40]
    history = api_user.get(f"/api/matches/{match['id']}/history").json["history"]
    deleted = next(e for e in history if e["action"] == "hand_deleted")
    back = api_user.post(f"/api/matches/{match['id']}/history/{deleted['id']}/restore")
    assert back.status_code == 200, back.json
    assert [h["first_out"] for h in back.json["hands"]] == [1, None]


def test_a_tichu_match_in_brief_and_its_history(api_user: Any) -> None:
    match = new_tichu(api_user)
    api_user.add_hand(match["id"], EXAMPLE)
    (brief,) = api_user.get("/api/matches").json["matches"]
    assert brief["rules"] == "tichu" and brief["hands"] == 1
    history = api_user.get(f"/api/matches/{match['id']}/history").json
    words = [e["words"] for e in history["history"]]
    assert any("Anna out first" in w and "Anna: Tichu" in w for w in words), words


def test_a_tichu_backup_imports_as_the_same_sheet(api_user: Any) -> None:
    match = new_tichu(api_user, start_scores=[100, -50])
    api_user.add_hand(match["id"], EXAMPLE)
    api_user.add_hand(match["id"], {"first_out": 1, "double_victory": True})
    backup = api_user.get(f"/api/matches/{match['id']}/backup").json
    imported = api_user.post("/api/matches/import", json=backup)
    assert imported.status_code == 201, imported.json
    copy = api_user.get(f"/api/matches/{imported.json['matches'][0]['id']}").json
    original = api_user.get(f"/api/matches/{match['id']}").json
    assert copy["standings"] == original["standings"]
    assert [h["results"] for h in copy["hands"]] == [h["results"] for h in original["hands"]]


def csv_rows(user: Any, match: dict[str, Any]) -> list[list[str]]:
    """The match's CSV, read."""
    text = user.get(f"/api/matches/{match['id']}/sheet.csv").data.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_the_tichu_csv_has_its_columns_per_team(api_user: Any) -> None:
    match = new_tichu(api_user, options={"sheet": "deferred"})
    api_user.add_hand(match["id"], EXAMPLE)
    api_user.add_hand(match["id"], {"first_out": 1, "double_victory": True})
    header, first, second, total = csv_rows(api_user, match)
    assert header == [
        "hand",
        "dealer",
        "first_out",
        "calls",
        "Anna & Vera",
        "Anna & Vera total",
        "Anna & Vera owed",
        "Anna & Vera score",
        "Boris & Gleb",
        "Boris & Gleb total",
        "Boris & Gleb owed",
        "Boris & Gleb score",
    ]
    assert first == ["1", "Anna", "Anna", "Anna tichu; Boris grand", "135", "135", "0", "135", "0", "0", "135", "-135"]
    assert second == ["2", "Boris", "Boris", "", "0", "135", "0", "135", "65", "65", "0", "65"]
    assert total == ["total", "", "", "", "135", "135", "0", "135", "65", "65", "0", "65"]


def test_a_corrected_round_is_told_in_the_history(api_user: Any) -> None:
    match = new_tichu(api_user)
    api_user.add_hand(match["id"], {"first_out": 1, "card_points": [50, 50]})
    api_user.put(
        rounds_url(match, 1), json={"first_out": 0, "calls": ["tichu", None, None, None], "card_points": [30, 70]}
    )
    history = api_user.get(f"/api/matches/{match['id']}/history").json["history"]
    assert history[0]["words"] == (
        "anna corrected round 1: out first Boris → Anna; card points 50, 50 → 30, 70; Anna's call — → Tichu"
    )
