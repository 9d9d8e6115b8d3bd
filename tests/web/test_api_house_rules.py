"""The house rules of RULES.md §11 through the API: options in and out, refusals, new events,
the aces marriage, and the standings' additions."""

from __future__ import annotations

from typing import Any

import pytest


def test_house_rules_are_kept_and_reported_with_the_match(api_user: Any) -> None:
    options = {"zeros": "consecutive", "zero_penalty": 100, "barrel_hands": 2,
               "barrel_knock_off": True, "forfeit_pays": "half_bid"}
    match = api_user.new_match(players=["Anna", "Boris", "Vera"], rules="classic",
                               options=options)
    assert match["options"] | options == match["options"]
    assert match["options"]["barrel_miss"] == "stays"  # classic's default (§7)
    again = api_user.get(f"/api/matches/{match['id']}").json
    assert again["options"] == match["options"]


@pytest.mark.parametrize(("body", "status", "field", "error"), [
    ({"rules": "polish", "options": {"barrel_hands": 4}}, 422, "options",
     "polish has no barrel: barrel_hands must be 3."),
    ({"rules": "tyzicha", "options": {"dump_555": "plus"}}, 422, "options",
     "tyzicha has no house rules: dump_555 must be “off”."),
    ({"options": {"dump_555": "plus"}, "start_scores": [555, 0, 0]}, 422, "start_scores",
     "Anna's start score 555 would be dumped: enter 0."),
    ({"options": {"barrel_hands": "two"}}, 400, "options", "“barrel_hands” is a whole number."),
    ({"options": {"ace_marriage": 1}}, 400, "options",
     "“ace_marriage” is yes or no: true or false."),
])
def test_an_option_the_rules_refuse_is_answered_with_its_field(
        api_user: Any, body: dict[str, Any], status: int, field: str, error: str) -> None:
    response = api_user.post("/api/matches", json={"players": ["Anna", "Boris", "Vera"], **body})
    assert response.status_code == status
    assert response.json == {"error": error, "field": field}
    assert api_user.get("/api/matches").json["matches"] == []


def test_the_aces_marriage_and_the_dump_show_in_the_hand(api_user: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera"], start_scores=[455, 0, 0],
                               options={"dump_555": "plus", "ace_marriage": True})
    response = api_user.post(f"/api/matches/{match['id']}/hands", json={
        "declarer": 0, "bid": 100, "points": [None, 50, 40], "marriages": [["aces"], [], []]})
    assert response.status_code == 201
    hand = response.json["hands"][0]
    assert hand["marriages"] == [["aces"], [], []] and hand["took"] == [230, 50, 40]
    assert hand["results"][0]["events"] == ["made", "dump"]
    assert hand["results"][0]["owed"] == 455


def test_the_aces_marriage_is_refused_where_the_table_does_not_play_it(api_user: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera"])
    response = api_user.post(f"/api/matches/{match['id']}/hands", json={
        "declarer": 0, "bid": 100, "points": [None, 50, 40], "marriages": [["aces"], [], []]})
    assert response.status_code == 422 and response.json["field"] == "marriages"


def test_standings_say_what_the_next_zero_costs_and_the_barrel_hands_left(api_user: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera"], start_scores=[800, 0, 0],
                               options={"zero_penalty": 100, "barrel_hands": 2})
    url = f"/api/matches/{match['id']}/hands"
    for points in ([100, None, 0], [10, None, 0]):  # Anna mounts, then one barrel hand
        response = api_user.post(url, json={"declarer": 1, "bid": 100, "points": points})
    anna, _, vera = response.json["standings"]
    assert (anna["barrel"], anna["barrel_hands_left"]) == (True, 1)
    assert (vera["zeros"], vera["next_zero_costs"]) == (2, 100)


@pytest.mark.parametrize(("rules", "option", "old", "now"), [
    ("classic", "barrel_miss", "costs_bid", "stays"), ("tyzicha", "forced_any_seat", True, False)])
def test_a_backup_from_before_the_corrections_keeps_its_old_rule(
        api_user: Any, rules: str, option: str, old: object, now: object) -> None:
    api_user.new_match(players=["Anna", "Boris", "Vera"], rules=rules)
    backup = api_user.get("/api/backup").json
    new = backup["matches"][0]["setup"]["options"]
    assert new[option] == now  # a backup of today names the option
    del new[option]  # as a backup written before issue 14
    response = api_user.post("/api/matches/import", json=backup)
    assert response.status_code == 201, response.json
    imported = [api_user.get(f"/api/matches/{m['id']}").json
                for m in api_user.get("/api/matches").json["matches"]]
    assert sorted([m["options"][option] for m in imported], key=str) == sorted([old, now], key=str)


def test_a_refused_house_rule_is_said_in_the_readers_language(api_user: Any) -> None:
    response = api_user.client.post(
        "/api/matches", json={"players": ["Anna", "Boris", "Vera"],
                              "options": {"zeros": "sometimes"}},
        headers={**api_user.headers, "Accept-Language": "ru"})
    assert response.status_code == 422 and response.json["field"] == "options"
    assert response.json["error"] == (
        "zeros — одно из: “total”, “consecutive” или “off”; «sometimes» — нет.")
