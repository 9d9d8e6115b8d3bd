"""The house rules of RULES.md §11 through the API: options in and out, refusals, new events,
the aces marriage, and the standings' additions."""

from __future__ import annotations

from typing import Any

import pytest

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match


def test_house_rules_are_kept_and_reported_with_the_match(api_user: Any) -> None:
    options = {
        "zeros": "consecutive",
        "zero_penalty": 100,
        "barrel_hands": 2,
        "barrel_knock_off": True,
        "forfeit_pays": "half_bid",
    }
    match = api_user.new_match(players=["Anna", "Boris", "Vera"], rules="classic", options=options)
    assert match["options"] | options == match["options"]
    assert match["options"]["barrel_miss"] == "stays"  # classic's default (§7)
    again = api_user.get(f"/api/matches/{match['id']}").json
    assert again["options"] == match["options"]


@pytest.mark.parametrize(
    ("body", "status", "field", "error"),
    [
        (
            {"rules": "polish", "options": {"barrel_hands": 4}},
            422,
            "options",
            "polish has no barrel: barrel_hands must be 3.",
        ),
        (
            {"rules": "tyzicha", "options": {"dump_555": "plus"}},
            422,
            "options",
            "tyzicha has no house rules: dump_555 must be “off”.",
        ),
        (
            {"options": {"dump_555": "plus"}, "start_scores": [555, 0, 0]},
            422,
            "start_scores",
            "Anna's start score 555 would be dumped: enter 0.",
        ),
        ({"options": {"barrel_hands": "two"}}, 400, "options", "“barrel_hands” is a whole number."),
        ({"options": {"ace_marriage": 1}}, 400, "options", "“ace_marriage” is yes or no: true or false."),
    ],
)
def test_an_option_the_rules_refuse_is_answered_with_its_field(
    api_user: Any, body: dict[str, Any], status: int, field: str, error: str
) -> None:
    response = api_user.post("/api/matches", json={"players": ["Anna", "Boris", "Vera"], **body})
    assert response.status_code == status
    assert response.json == {"error": error, "field": field}
    assert api_user.get("/api/matches").json["matches"] == []


def test_the_aces_marriage_and_the_dump_show_in_the_hand(api_user: Any) -> None:
    match = api_user.new_match(
        players=["Anna", "Boris", "Vera"], start_scores=[455, 0, 0], options={"dump_555": "plus", "ace_marriage": True}
    )
    response = api_user.post(
        f"/api/matches/{match['id']}/hands",
        json={"declarer": 0, "bid": 100, "points": [None, 50, 40], "marriages": [["aces"], [], []]},
    )
    assert response.status_code == 201
    hand = response.json["hands"][0]
    assert hand["marriages"] == [["aces"], [], []] and hand["took"] == [230, 50, 40]
    assert hand["results"][0]["events"] == ["made", "dump"]
    assert hand["results"][0]["owed"] == 455


def test_the_aces_marriage_is_refused_where_the_table_does_not_play_it(api_user: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera"])
    response = api_user.post(
        f"/api/matches/{match['id']}/hands",
        json={"declarer": 0, "bid": 100, "points": [None, 50, 40], "marriages": [["aces"], [], []]},
    )
    assert response.status_code == 422 and response.json["field"] == "marriages"


def test_standings_say_what_the_next_zero_costs_and_the_barrel_hands_left(api_user: Any) -> None:
    match = api_user.new_match(
        players=["Anna", "Boris", "Vera"], start_scores=[800, 0, 0], options={"zero_penalty": 100, "barrel_hands": 2}
    )
    url = f"/api/matches/{match['id']}/hands"
    for points in ([100, None, 0], [10, None, 0]):  # Anna mounts, then one barrel hand
        response = api_user.post(url, json={"declarer": 1, "bid": 100, "points": points})
    anna, _, vera = response.json["standings"]
    assert (anna["barrel"], anna["barrel_hands_left"]) == (True, 1)
    assert (vera["zeros"], vera["next_zero_costs"]) == (2, 100)


@pytest.mark.parametrize(
    ("rules", "option", "old", "now"),
    [("classic", "barrel_miss", "costs_bid", "stays"), ("tyzicha", "forced_any_seat", True, False)],
)
def test_a_backup_from_before_the_corrections_keeps_its_old_rule(
    api_user: Any, rules: str, option: str, old: object, now: object
) -> None:
    api_user.new_match(players=["Anna", "Boris", "Vera"], rules=rules)
    backup = api_user.get("/api/backup").json
    new = backup["matches"][0]["setup"]["options"]
    assert new[option] == now  # a backup of today names the option
    del new[option]  # as a backup written before the house rules
    response = api_user.post("/api/matches/import", json=backup)
    assert response.status_code == 201, response.json
    imported = [api_user.get(f"/api/matches/{m['id']}").json for m in api_user.get("/api/matches").json["matches"]]
    assert sorted([m["options"][option] for m in imported], key=str) == sorted([old, now], key=str)


def test_a_refused_house_rule_is_said_in_the_readers_language(api_user: Any) -> None:
    response = api_user.client.post(
        "/api/matches",
        json={"players": ["Anna", "Boris", "Vera"], "options": {"zeros": "sometimes"}},
        headers={**api_user.headers, "Accept-Language": "ru"},
    )
    assert response.status_code == 422 and response.json["field"] == "options"
    assert response.json["error"] == ("zeros — одно из: “total”, “consecutive” или “off”; «sometimes» — нет.")


def stored_before_the_corrections(api_user: Any, match_id: str) -> None:
    """Give a stored tyzicha match the old forced rule, as migration 0006 writes it (RULES.md
    §7); a new revision, so no process keeps the sheet it had before."""
    with api_user.client.application.app_context():
        match = db.session.get(Match, match_id)
        match.setup = {**match.setup, "options": {**match.setup["options"], "forced_any_seat": True}}
        match.revision += 1
        db.session.commit()


FORCED_BY_THE_DEALERS_RIGHT = {"declarer": 2, "bid": 100, "forced": True, "points": [10, 10, None]}
"""Forced on the first dealer's right: only the old rule allows it (RULES.md §7)."""


def test_a_new_tyzicha_match_cannot_take_the_old_forced_rule(api_user: Any) -> None:
    response = api_user.post(
        "/api/matches",
        json={"players": ["Anna", "Boris", "Vera"], "rules": "tyzicha", "options": {"forced_any_seat": True}},
    )
    assert response.status_code == 422
    assert response.json == {
        "field": "options",
        "error": (
            "A new match plays tyzicha's forced rule as corrected: only the dealer's left, at "
            "exactly 100. forced_any_seat is kept only for matches stored before; leave it out."
        ),
    }
    assert api_user.get("/api/matches").json["matches"] == []
    plain = api_user.new_match(rules="tyzicha", options={"forced_any_seat": False})
    assert plain["options"]["forced_any_seat"] is False


def test_the_old_forced_rule_is_refused_in_the_readers_language(api_user: Any) -> None:
    response = api_user.client.post(
        "/api/matches",
        json={"players": ["Anna", "Boris", "Vera"], "rules": "tyzicha", "options": {"forced_any_seat": True}},
        headers={**api_user.headers, "Accept-Language": "de"},
    )
    assert response.status_code == 422 and response.json["field"] == "options"
    assert "forced_any_seat" in response.json["error"]
    assert "leave it out" not in response.json["error"]


def test_a_migrated_tyzicha_match_keeps_the_old_forced_rule_but_not_its_rematch(api_user: Any) -> None:
    old = api_user.new_match(rules="tyzicha")
    refused = api_user.post(f"/api/matches/{old['id']}/hands", json=FORCED_BY_THE_DEALERS_RIGHT)
    assert refused.status_code == 422 and refused.json["field"] == "forced"
    stored_before_the_corrections(api_user, old["id"])
    assert api_user.get(f"/api/matches/{old['id']}").json["options"]["forced_any_seat"] is True
    played = api_user.add_hand(old["id"], FORCED_BY_THE_DEALERS_RIGHT)
    assert played["standings"][2]["score"] == 100
    assert api_user.post(f"/api/matches/{old['id']}/end").status_code == 200
    rematch = api_user.post(f"/api/matches/{old['id']}/rematch")
    assert rematch.status_code == 201, rematch.json
    assert rematch.json["options"]["forced_any_seat"] is False
    # the rematch's first dealer is seat 1: seat 0 is its dealer's right, never forced now
    again = api_user.post(
        f"/api/matches/{rematch.json['id']}/hands",
        json={**FORCED_BY_THE_DEALERS_RIGHT, "declarer": 0, "points": [None, 10, 10]},
    )
    assert again.status_code == 422 and again.json["field"] == "forced"


def test_a_backup_of_a_migrated_tyzicha_match_imports_with_the_old_forced_rule(api_user: Any) -> None:
    old = api_user.new_match(rules="tyzicha")
    stored_before_the_corrections(api_user, old["id"])
    api_user.add_hand(old["id"], FORCED_BY_THE_DEALERS_RIGHT)
    backup = api_user.get("/api/backup").json
    assert backup["matches"][0]["setup"]["options"]["forced_any_seat"] is True
    response = api_user.post("/api/matches/import", json=backup)
    assert response.status_code == 201, response.json
    imported = [m["id"] for m in api_user.get("/api/matches").json["matches"] if m["id"] != old["id"]]
    assert len(imported) == 1
    match = api_user.get(f"/api/matches/{imported[0]}").json
    assert match["options"]["forced_any_seat"] is True
    assert [s["score"] for s in match["standings"]] == [0, 0, 100]


# -- RULES.md §11.11–§11.18 -------------------------------------------------------------------

ROUND_TWO = {
    "barrel_gap": 100,
    "barrel_jump": "mounts",
    "barrel_clash": "one_stays",
    "barrel_defender_wins": True,
    "barrel_win_score": "added",
    "barrel_zeros": True,
    "forfeit_penalty": False,
    "dump_555": "plus",
    "dump_at": 550,
}
"""Every option of §11.11–§11.18 away from its default (squarescores), and the dump it moves."""


def test_the_new_house_rules_are_kept_and_reported_with_the_match(api_user: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera"], options=ROUND_TWO)
    assert {k: match["options"][k] for k in ROUND_TWO} == ROUND_TWO
    assert api_user.get(f"/api/matches/{match['id']}").json["options"] == match["options"]


@pytest.mark.parametrize(
    ("rules", "forfeit_penalty"), [("squarescores", True), ("classic", False), ("ggtables", False)]
)
def test_every_match_reports_the_new_house_rules_at_their_defaults(
    api_user: Any, rules: str, forfeit_penalty: bool
) -> None:
    options = api_user.new_match(players=["Anna", "Boris", "Vera"], rules=rules)["options"]
    assert {k: options[k] for k in (*ROUND_TWO, "forfeit_penalty")} == {
        "barrel_gap": 120,
        "barrel_jump": "wins",
        "barrel_clash": "all_stay",
        "barrel_defender_wins": False,
        "barrel_win_score": "target",
        "barrel_zeros": False,
        "forfeit_penalty": forfeit_penalty,
        "dump_555": "off",
        "dump_at": 555,
    }


@pytest.mark.parametrize(
    ("body", "status", "field", "error"),
    [
        ({"options": {"barrel_gap": 110}}, 422, "options", "The barrel sits 120 or 100 below the target (880 or 900)."),
        (
            {"rules": "polish", "options": {"barrel_jump": "mounts"}},
            422,
            "options",
            "polish has no barrel: barrel_jump must be “wins”.",
        ),
        (
            {"options": {"barrel_clash": "some"}},
            422,
            "options",
            "barrel_clash is one of “all_stay”, “one_stays” or “all_fall”; “some” is not.",
        ),
        (
            {"rules": "classic", "options": {"barrel_zeros": True}},
            422,
            "options",
            "There are no zeros to count: set zeros to “total” or “consecutive”.",
        ),
        (
            {"rules": "tyzicha", "options": {"forfeit_penalty": True}},
            422,
            "options",
            "tyzicha has no house rules: forfeit_penalty must be false.",
        ),
        (
            {"options": {"dump_555": "both", "dump_at": 880}},
            422,
            "options",
            "The dump score is a multiple of 5 from 100 to 875.",
        ),
        (
            {"options": {"dump_at": 550}},
            422,
            "options",
            "There is no dump to move: set dump_555 to “plus” or “both”.",
        ),
        (
            {"options": {"dump_555": "plus", "dump_at": 550}, "start_scores": [550, 0, 0]},
            422,
            "start_scores",
            "Anna's start score 550 would be dumped: enter 0.",
        ),
        (
            {"options": {"barrel_gap": 100}, "start_scores": [900, 0, 0]},
            422,
            "start_scores",
            "Anna's start score 900 is on the barrel (900..999): "
            "start below 900, as the sheet never shows those scores.",
        ),
        ({"options": {"barrel_gap": "100"}}, 400, "options", "“barrel_gap” is a whole number."),
        ({"options": {"dump_at": 550.5}}, 400, "options", "“dump_at” is a whole number."),
        ({"options": {"barrel_jump": True}}, 400, "options", "“barrel_jump” is a word: “wins” or “mounts”."),
        ({"options": {"barrel_win_score": 1}}, 400, "options", "“barrel_win_score” is a word: “target” or “added”."),
        ({"options": {"forfeit_penalty": "no"}}, 400, "options", "“forfeit_penalty” is yes or no: true or false."),
        ({"options": {"barrel_zeros": None}}, 400, "options", "“barrel_zeros” is yes or no: true or false."),
    ],
)
def test_a_new_option_the_rules_refuse_is_answered_with_its_field(
    api_user: Any, body: dict[str, Any], status: int, field: str, error: str
) -> None:
    response = api_user.post("/api/matches", json={"players": ["Anna", "Boris", "Vera"], **body})
    assert response.status_code == status
    assert response.json == {"error": error, "field": field}
    assert api_user.get("/api/matches").json["matches"] == []


def test_a_new_refusal_is_said_in_the_readers_language(api_user: Any) -> None:
    response = api_user.client.post(
        "/api/matches",
        json={"players": ["Anna", "Boris", "Vera"], "options": {"dump_at": 550}},
        headers={**api_user.headers, "Accept-Language": "ru"},
    )
    assert response.status_code == 422 and response.json["field"] == "options"
    assert response.json["error"] == "Самосвал выключен, переносить нечего: поставьте dump_555 на «plus» или «both»."


def test_a_clash_on_the_barrel_shows_in_the_hand(api_user: Any) -> None:
    # §11.13: Anna (800 + 100) and Boris (860 + 30) mount together; "one_stays" keeps Anna.
    match = api_user.new_match(
        players=["Anna", "Boris", "Vera"], start_scores=[800, 860, 0], options={"barrel_clash": "one_stays"}
    )
    response = api_user.post(
        f"/api/matches/{match['id']}/hands",
        json={"declarer": 0, "bid": 100, "points": [None, 30, 0], "marriages": [["spades"], [], []]},
    )
    assert response.status_code == 201
    anna, boris, _ = response.json["hands"][0]["results"]
    assert anna["events"] == ["made", "barrel_on"] and anna["score"] == 880
    assert boris["events"] == ["barrel_on", "barrel_clash"]
    assert (boris["score"], boris["delta"], boris["entry"], boris["owed"]) == (760, -100, 0, 100)


def test_a_defender_wins_from_the_barrel_with_the_points_added(api_user: Any) -> None:
    # §11.14, §11.15: Boris mounts (800 + 80), then takes 60 card points and hearts: 880 + 160.
    match = api_user.new_match(
        players=["Anna", "Boris", "Vera"],
        start_scores=[0, 800, 0],
        options={"barrel_defender_wins": True, "barrel_win_score": "added"},
    )
    url = f"/api/matches/{match['id']}/hands"
    api_user.post(url, json={"declarer": 0, "bid": 100, "points": [None, 80, 0]})
    response = api_user.post(
        url, json={"declarer": 0, "bid": 100, "points": [None, 60, 0], "marriages": [[], ["hearts"], []]}
    )
    assert response.status_code == 201
    assert response.json["status"] == "finished" and response.json["winner"] == 1
    assert response.json["standings"][1]["score"] == 1040


def test_a_backup_carries_the_new_house_rules_and_imports_them(api_user: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera"], options=ROUND_TWO)
    backup = api_user.get("/api/backup").json
    assert {k: backup["matches"][0]["setup"]["options"][k] for k in ROUND_TWO} == ROUND_TWO
    response = api_user.post("/api/matches/import", json=backup)
    assert response.status_code == 201, response.json
    imported = [m["id"] for m in api_user.get("/api/matches").json["matches"] if m["id"] != match["id"]]
    assert len(imported) == 1
    assert api_user.get(f"/api/matches/{imported[0]}").json["options"] == match["options"]


def test_a_club_nights_game_takes_the_new_house_rules_and_seats_its_tables_with_them(api_user: Any) -> None:
    # CLUB.md: an event's game is checked as a match's set-up and every table's match plays it.
    game = {"rules": "squarescores", "options": ROUND_TWO}
    refused = api_user.post(
        "/api/events",
        json={"name": "Friday", "game": {**game, "options": {**ROUND_TWO, "dump_at": 552}}, "rounds": 1},
    )
    assert refused.status_code == 422 and refused.json["field"] == "options"  # as for a match
    assert refused.json["error"] == "The dump score is a multiple of 5 from 100 to 875."
    event = api_user.post("/api/events", json={"name": "Friday", "game": game, "rounds": 1})
    assert event.status_code == 201, event.json
    assert event.json["game"] == game
    for name in ("Dana", "Egor", "Fima"):
        assert api_user.post(f"/api/events/{event.json['id']}/roster", json={"guest": name}).status_code == 201
    seated = api_user.post(f"/api/events/{event.json['id']}/rounds")
    assert seated.status_code == 201, seated.json
    match = api_user.get(f"/api/matches/{seated.json['tables'][0]['match_id']}").json
    assert {k: match["options"][k] for k in ROUND_TWO} == ROUND_TWO
