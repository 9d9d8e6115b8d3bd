"""The club nights' API (CLUB.md §6): every call and its refusals, and a whole night worked by hand."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from scoresheet.services.matches import seats

from .helpers import played

EVENT_KEYS = {
    "id",
    "name",
    "code",
    "game",
    "rounds",
    "seating",
    "hand_limit",
    "time_limit",
    "seed",
    "watch_url",
    "directors",
    "roster",
    "current_round",
    "rounds_played",
}
GAME = {"rules": "squarescores", "options": {}}
GUESTS = ["Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"]


def made(declarer: int) -> dict[str, Any]:
    """A hand the declarer makes: bid 140 with the hearts marriage; the others take 20 each."""
    points: list[int | None] = [20, 20, 20]
    points[declarer] = None
    marriages: list[list[str]] = [[], [], []]
    marriages[declarer] = ["hearts"]
    return played(declarer, 140, points, marriages=marriages)


def missed(declarer: int) -> dict[str, Any]:
    """A hand the declarer misses: bid 100 on 80 card points (−100); the others take 20 each."""
    points: list[int | None] = [20, 20, 20]
    points[declarer] = None
    return played(declarer, 100, points)


def make_event(director: Any, **body: Any) -> dict[str, Any]:
    """An event of the director's (three rounds of squarescores by default)."""
    body = {"name": "Friday", "game": GAME, "rounds": 3, **body}
    response = director.post("/api/events", json=body)
    assert response.status_code == 201, response.json
    return dict(response.json)


def patch(user: Any, url: str, body: Any) -> Any:
    """PATCH JSON with the user's token."""
    return user.client.patch(url, json=body, headers=user.headers)


def add_guests(director: Any, event_id: str, names: list[str]) -> None:
    """Put these guests on the roster."""
    for name in names:
        response = director.post(f"/api/events/{event_id}/roster", json={"guest": name})
        assert response.status_code == 201, response.json


@pytest.fixture
def director(make_user: Any) -> Any:
    """The director of the events below."""
    return make_user("director")


def test_making_an_event_answers_the_event_object_with_its_director_and_no_player(director: Any) -> None:
    event = make_event(director, seating="byes", hand_limit=12, time_limit=45, seed=2026)
    assert set(event) == EVENT_KEYS
    assert event["game"] == GAME
    assert (event["rounds"], event["seating"], event["hand_limit"], event["time_limit"]) == (3, "byes", 12, 45)
    assert event["seed"] == 2026
    assert event["directors"] == ["director"]
    assert event["roster"] == []
    assert (event["current_round"], event["rounds_played"]) == (0, [])
    assert "/events/watch/" in event["watch_url"]


def test_an_event_without_a_seed_draws_one_and_seats_by_fours(director: Any) -> None:
    event = make_event(director)
    assert isinstance(event["seed"], int)
    assert event["seating"] == "fours"
    assert event["hand_limit"] is None and event["time_limit"] is None


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"seating": "pairs"}, 422, "seating"),
        ({"rounds": 0}, 422, "rounds"),
        ({"rounds": 21}, 422, "rounds"),
        ({"rounds": "three"}, 422, "rounds"),  # CLUB.md §6: bad rounds, seating, limits → 422
        ({"hand_limit": 61}, 422, "hand_limit"),
        ({"hand_limit": 0}, 422, "hand_limit"),
        ({"time_limit": 9}, 422, "time_limit"),
        ({"time_limit": 241}, 422, "time_limit"),
        ({"seed": 2**63}, 422, "seed"),
        ({"name": ""}, 422, "name"),
        # API.md: a wrong type is a malformed request, 400 (the events' errors are "as in API.md")
        ({"seed": "7"}, 400, "seed"),
        ({"seed": True}, 400, "seed"),
        ({"name": 5}, 400, "name"),
        ({"game": "tysiacha"}, 400, "game"),
    ],
)
def test_a_bad_setting_is_refused_with_its_field(director: Any, body: dict[str, Any], status: int, field: str) -> None:
    response = director.post("/api/events", json={"name": "Friday", "game": GAME, "rounds": 3, **body})
    assert (response.status_code, response.json["field"]) == (status, field), response.json


@pytest.mark.parametrize(("rounds", "hand_limit", "time_limit"), [(1, 1, 10), (20, 60, 240)])
def test_a_nights_numbers_at_their_bounds_are_taken(
    director: Any, rounds: int, hand_limit: int, time_limit: int
) -> None:
    limits = {"rounds": rounds, "hand_limit": hand_limit, "time_limit": time_limit}
    made = director.post("/api/events", json={"name": "Friday", "game": GAME, **limits})
    assert made.status_code == 201, made.json
    assert {k: made.json[k] for k in limits} == limits


@pytest.mark.parametrize(
    ("path", "method", "body", "field"),
    [
        ("/roster", "post", {"guest": 5}, "guest"),
        ("/roster", "post", {"username": ["anna"]}, "username"),
        ("/roster/Dana", "patch", {"status": 5}, "status"),
        ("/roster/Dana", "patch", {"team": 5}, "team"),
        ("/directors", "post", {"username": 5}, "username"),
        ("/rounds/1/tables/1/result", "put", {"scores": "100 50 0"}, "scores"),
        ("/rounds/1/tables/1/result", "put", {"scores": [100, 50.5, 0]}, "scores"),
    ],
)
def test_a_value_of_the_wrong_type_is_malformed_and_changes_nothing(
    director: Any, path: str, method: str, body: dict[str, Any], field: str
) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    director.post(f"/api/events/{event['id']}/rounds")
    before = director.get(f"/api/events/{event['id']}").json
    url = f"/api/events/{event['id']}{path}"
    response = patch(director, url, body) if method == "patch" else getattr(director, method)(url, json=body)
    assert (response.status_code, response.json["field"]) == (400, field), response.json
    assert director.get(f"/api/events/{event['id']}").json == before


@pytest.mark.parametrize("options", [[], "", 0, False, None])
def test_a_games_options_of_the_wrong_kind_are_refused_as_a_matchs_are(director: Any, options: Any) -> None:
    game = {"rules": "squarescores", "options": options}
    response = director.post("/api/events", json={"name": "Friday", "game": game, "rounds": 3})
    assert (response.status_code, response.json["field"]) == (400, "options")  # not stored as {}
    match = director.post("/api/matches", json={"players": ["A", "B", "C"], "options": options})
    assert (match.status_code, match.json) == (response.status_code, response.json)


def test_the_event_is_seen_by_its_directors_and_roster_and_nobody_else(
    director: Any, make_user: Any, stranger: Any
) -> None:
    event = make_event(director)
    anna = make_user("anna")
    assert anna.get(f"/api/events/{event['id']}").status_code == 404
    assert anna.post("/api/events/join", json={"code": event["code"].lower()}).status_code == 200
    seen = anna.get(f"/api/events/{event['id']}")
    assert seen.status_code == 200
    assert seen.json["roster"] == [{"name": "anna", "username": "anna", "team": None, "status": "present"}]
    assert director.get(f"/api/events/{event['id']}").status_code == 200
    assert stranger.get(f"/api/events/{event['id']}").status_code == 404


def test_joining_twice_changes_nothing_and_a_wrong_code_is_404(director: Any, make_user: Any) -> None:
    event = make_event(director)
    anna = make_user("anna")
    anna.post("/api/events/join", json={"code": event["code"]})
    again = anna.post("/api/events/join", json={"code": event["code"]})
    assert again.status_code == 200
    assert len(again.json["roster"]) == 1
    assert anna.post("/api/events/join", json={"code": "NOSUCHCODE"}).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "code"),
        ({"code": 123}, "code"),
        ({"code": None}, "code"),
        ({"code": "CODE", "name": 123}, "name"),
        ({"code": "CODE", "team": 5}, "team"),
    ],
)
def test_checking_in_with_a_code_or_name_that_is_not_a_text_is_400_naming_it(
    director: Any, make_user: Any, body: dict[str, Any], field: str
) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Dana"])
    before = director.get(f"/api/events/{event['id']}").json
    body = {k: event["code"] if v == "CODE" else v for k, v in body.items()}
    refused = make_user("anna").post("/api/events/join", json=body)
    assert (refused.status_code, refused.json["field"]) == (400, field)
    assert refused.json["error"].startswith("The ")
    assert director.get(f"/api/events/{event['id']}").json == before


def test_checking_in_with_a_blank_name_joins_under_ones_own_as_the_page_does(director: Any, make_user: Any) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Dana"])
    joined = make_user("anna").post("/api/events/join", json={"code": event["code"], "name": " "})
    assert joined.status_code == 200, joined.json
    assert [p["name"] for p in joined.json["roster"]] == ["Dana", "anna"]
    claimed = make_user("boris").post("/api/events/join", json={"code": event["code"], "name": " Dana "})
    assert claimed.status_code == 200, claimed.json  # the name trimmed, as the page trims it
    assert claimed.json["roster"][0]["username"] == "boris"


def test_a_guests_name_longer_than_a_name_can_be_is_refused_as_too_long_not_echoed(
    director: Any, make_user: Any
) -> None:
    event = make_event(director)
    refused = make_user("anna").post("/api/events/join", json={"code": event["code"], "name": "Vera" * 2500})
    assert (refused.status_code, refused.json) == (422, {"error": "A name has at most 40 characters.", "field": "name"})


def test_only_directors_change_the_event_a_member_gets_403_a_stranger_404(
    director: Any, make_user: Any, stranger: Any
) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    anna = make_user("anna")
    anna.post("/api/events/join", json={"code": event["code"]})
    for user, status in ((anna, 403), (stranger, 404)):
        assert patch(user, url, {"rounds": 5}).status_code == status
        assert user.post(f"{url}/directors", json={"username": "anna"}).status_code == status
        assert user.post(f"{url}/roster", json={"guest": "Dana"}).status_code == status
        assert patch(user, f"{url}/roster/anna", {"status": "absent"}).status_code == status
        assert user.post(f"{url}/rounds").status_code == status
        assert user.post(f"{url}/rounds/1/close").status_code == status
        assert user.delete(f"{url}/rounds/1").status_code == status
        assert user.put(f"{url}/rounds/1/tables/1/result", json={"scores": [1, 2, 3]}).status_code == status


def test_a_director_adds_rounds_but_never_takes_them_away(director: Any) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    more = patch(director, url, {"rounds": 5})
    assert more.status_code == 200
    assert more.json["rounds"] == 5
    fewer = patch(director, url, {"rounds": 4})
    assert (fewer.status_code, fewer.json["field"]) == (422, "rounds")


def test_a_co_director_has_the_same_rights(director: Any, make_user: Any) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    boris = make_user("boris")
    added = director.post(f"{url}/directors", json={"username": "BORIS"})
    assert added.status_code == 201
    assert added.json["directors"] == ["director", "boris"]
    assert patch(boris, url, {"rounds": 4}).status_code == 200
    nobody = director.post(f"{url}/directors", json={"username": "nobody"})
    assert (nobody.status_code, nobody.json["field"]) == (422, "username")


def test_a_co_director_added_after_a_round_was_seated_corrects_its_tables(director: Any, make_user: Any) -> None:
    # The directors of a round are members of its tables' matches from its seating; one added
    # later is made a member of every table seated so far (CLUB.md §4: corrected at any time).
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    table = director.post(f"{url}/rounds").json["tables"][0]
    director.add_hand(table["match_id"], made(0))
    boris = make_user("boris")
    assert director.post(f"{url}/directors", json={"username": "boris"}).status_code == 201
    assert boris.get(f"/api/matches/{table['match_id']}").status_code == 200
    corrected = boris.put(f"/api/matches/{table['match_id']}/hands/1", json=missed(1))
    assert corrected.status_code == 200, corrected.json


def test_the_roster_takes_accounts_and_guests_once_each(director: Any, make_user: Any) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}/roster"
    make_user("anna")
    assert director.post(url, json={"username": "anna"}).status_code == 201
    added = director.post(url, json={"guest": "Dana"})
    assert added.status_code == 201
    assert added.json["roster"][1] == {"name": "Dana", "username": None, "team": None, "status": "present"}
    twice = director.post(url, json={"guest": "dana"})
    assert (twice.status_code, twice.json["field"]) == (409, "guest")
    assert director.post(url, json={"username": "anna"}).status_code == 409
    assert director.post(url, json={"username": "nobody"}).json["field"] == "username"
    assert director.post(url, json={"guest": "Egor", "team": "Reds"}).json["field"] == "team"
    # A run of spaces inside a name is one (a page shows it so: the roster would seem to hold
    # one name twice), and dots alone are no name a link can carry ("/roster/.." is the roster).
    assert director.post(url, json={"guest": "Ежик в  тумане"}).json["roster"][-1]["name"] == "Ежик в тумане"
    again = director.post(url, json={"guest": "Ежик   в тумане"})
    assert (again.status_code, again.json["field"]) == (409, "guest")
    for dots in (".", ".."):
        refused = director.post(url, json={"guest": dots})
        assert (refused.status_code, refused.json) == (
            422,
            {"error": "Give a name with a letter or a digit in it.", "field": "guest"},
        )
    # A keyboard's layout switched mid-name: “Aня” (a Latin A) would stand beside “Аня” as if
    # one name twice. One alphabet is any alphabet; a Latin initial after a Cyrillic name is not.
    assert director.post(url, json={"guest": "Аня"}).status_code == 201
    for mixed in ("Aня", "Олег O."):
        refused = director.post(url, json={"guest": mixed})
        assert (refused.status_code, refused.json) == (
            422,
            {
                "error": f"“{mixed}” mixes letters of alphabets that look alike, so it could pass for another name: "
                "write its letters in one alphabet.",
                "field": "guest",
            },
        )
    assert [p["name"] for p in director.get(f"/api/events/{event['id']}").json["roster"]][-1] == "Аня"
    # A guest's name all in one alphabet that looks like one on the roster (“Норе” in Cyrillic
    # beside Hope) would stand on the standings as one name twice.
    assert director.post(url, json={"guest": "Hope"}).status_code == 201
    alike = director.post(url, json={"guest": "Норе"})
    assert (alike.status_code, alike.json) == (
        409,
        {"error": "“Норе” looks just like Hope, who is on the roster: give a guest another name.", "field": "guest"},
    )
    # An account's name is its own: the account “Норе” still checks in beside the guest Hope.
    make_user("Норе")
    assert director.post(url, json={"username": "Норе"}).status_code == 201
    upper = director.post(url, json={"guest": "АНЯ"})  # case ignored, in every alphabet
    assert (upper.status_code, upper.json["field"]) == (409, "guest")
    assert director.post(url, json={"guest": "Marta"}).status_code == 201
    assert director.post(url, json={"guest": "Марта"}).status_code == 201  # its т looks like no Latin letter


def test_a_guest_whose_name_holds_a_slash_is_changed_by_that_name(director: Any) -> None:
    # A link names a guest by name: "Ann/Bo" is one name, sent as "Ann%2FBo" or as it is.
    event = make_event(director)
    add_guests(director, event["id"], ["Ann/Bo"])
    for sent, status in (("Ann%2FBo", "absent"), ("Ann/Bo", "dropped")):
        changed = patch(director, f"/api/events/{event['id']}/roster/{sent}", {"status": status})
        assert (changed.status_code, changed.json["roster"][0]) == (
            200,
            {"name": "Ann/Bo", "username": None, "team": None, "status": status},
        )


def test_a_player_is_marked_absent_or_dropped_and_a_bad_status_is_refused(director: Any) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Dana"])
    url = f"/api/events/{event['id']}/roster/Dana"
    changed = patch(director, url, {"status": "absent"})
    assert changed.status_code == 200
    assert changed.json["roster"][0]["status"] == "absent"
    assert patch(director, url, {"status": "dropped"}).json["roster"][0]["status"] == "dropped"
    bad = patch(director, url, {"status": "asleep"})
    assert (bad.status_code, bad.json["field"]) == (422, "status")
    assert patch(director, f"/api/events/{event['id']}/roster/Nobody", {"status": "absent"}).status_code == 404


def test_a_player_marked_absent_misses_the_next_round_only_and_a_round_taken_back_keeps_the_mark(
    director: Any,
) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima", "Gleb"])
    assert patch(director, f"{url}/roster/Fima", {"status": "absent"}).status_code == 200

    def seated() -> list[str]:
        current = director.get(url).json["current_round"]
        tables = director.get(f"{url}/rounds/{current}").json["tables"]
        return sorted(name for t in tables for name in t["players"])

    def status(name: str) -> str:
        return {p["name"]: p["status"] for p in director.get(url).json["roster"]}[name]

    assert director.post(f"{url}/rounds").status_code == 201
    assert seated() == ["Dana", "Egor", "Gleb"] and status("Fima") == "present"  # back for round 2
    assert director.delete(f"{url}/rounds/1").status_code == 204  # taken back: absent for it again
    assert status("Fima") == "absent"
    assert director.post(f"{url}/rounds").status_code == 201  # seated again: still without her
    assert seated() == ["Dana", "Egor", "Gleb"] and status("Fima") == "present"
    backup = director.get(f"{url}/backup").json
    assert backup["rounds"][0]["absent"] == ["Fima"]
    backup["rounds"][0]["absent"] = ["Nobody"]  # not on the roster: refused, by its place
    refused = director.post("/api/events/import", json=backup)
    assert (refused.status_code, refused.json["field"]) == (422, "/rounds/0/absent")
    assert director.post(f"{url}/rounds/1/close").status_code == 200
    assert director.post(f"{url}/rounds").status_code == 201
    assert seated() == ["Dana", "Egor", "Fima", "Gleb"]  # round 2: she plays


def test_seating_with_fewer_than_three_present_players_is_refused_on_the_roster(director: Any) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    patch(director, f"/api/events/{event['id']}/roster/Fima", {"status": "absent"})
    response = director.post(f"/api/events/{event['id']}/rounds")
    assert response.status_code == 422
    assert response.json["field"] == "roster"
    assert response.json["error"] == "A round needs at least 3 present players, not 2."


def test_a_seated_round_is_a_match_per_table_with_the_accounts_seats_claimed(director: Any, make_user: Any) -> None:
    event = make_event(director, seed=7)
    anna = make_user("anna")
    anna.post("/api/events/join", json={"code": event["code"]})
    add_guests(director, event["id"], ["Dana", "Egor", "Fima", "Gleb", "Hana"])
    seated = director.post(f"/api/events/{event['id']}/rounds")
    assert seated.status_code == 201
    round_ = seated.json
    assert round_["round"] == 1
    assert round_["byes"] == [] and round_["repeats"] == 0
    assert [len(t["players"]) for t in round_["tables"]] == [3, 3]  # 5 + anna = 6: two of three
    table = next(t for t in round_["tables"] if "anna" in t["players"])
    seats = anna.get(f"/api/matches/{table['match_id']}/seats").json["seats"]
    assert [s["name"] for s in seats] == table["players"]
    assert {s["username"] for s in seats} == {"anna", None}
    match = director.get(f"/api/matches/{table['match_id']}").json
    assert match["rules"] == "squarescores"
    assert all(t["result"] is None for t in director.get(f"/api/events/{event['id']}/rounds/1").json["tables"])


def test_five_players_make_a_table_of_three_and_two_byes(director: Any) -> None:
    event = make_event(director, seed=1)
    add_guests(director, event["id"], ["Dana", "Egor", "Fima", "Gleb", "Hana"])
    round_ = director.post(f"/api/events/{event['id']}/rounds").json
    assert [len(t["players"]) for t in round_["tables"]] == [3]
    assert len(round_["byes"]) == 2
    standings = director.get(f"/api/events/{event['id']}/standings").json["standings"]
    byes = [r for r in standings if r["name"] in round_["byes"]]
    assert all((r["match_points"], r["byes"], r["rounds_played"]) == ("1.0", 1, 1) for r in byes)


def test_the_next_round_waits_for_every_result_and_for_a_planned_round(director: Any) -> None:
    event = make_event(director, rounds=1, hand_limit=1)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    table = director.post(f"{url}/rounds").json["tables"][0]
    waiting = director.post(f"{url}/rounds")
    assert waiting.status_code == 409
    director.post(f"/api/matches/{table['match_id']}/hands", json=made(0))
    assert director.get(f"/api/matches/{table['match_id']}").json["status"] == "ended"  # the hand limit
    history = director.get(f"/api/matches/{table['match_id']}/history").json["history"]
    assert [(e["action"], e["hand"], e["after"].get("hand_limit")) for e in history[:2]] == [
        ("match_ended", None, 1),
        ("hand_added", 1, None),
    ]  # both written with the hand, in its one statement on PostgreSQL
    assert director.post(f"{url}/rounds").status_code == 409  # the one planned round is played
    patch(director, url, {"rounds": 2})
    assert director.post(f"{url}/rounds").status_code == 201


def test_a_round_is_seated_again_before_any_hand_and_never_after(director: Any) -> None:
    event = make_event(director, seed=11)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], GUESTS)
    first = director.post(f"{url}/rounds").json
    assert director.delete(f"{url}/rounds/2").status_code == 404
    removed = director.delete(f"{url}/rounds/1")
    assert removed.status_code == 204
    assert director.get(f"/api/matches/{first['tables'][0]['match_id']}").status_code == 404
    again = director.post(f"{url}/rounds").json
    assert again["round"] == 1
    assert [t["players"] for t in again["tables"]] != [t["players"] for t in first["tables"]]  # drawn again
    director.post(f"/api/matches/{again['tables'][0]['match_id']}/hands", json=made(0))
    assert director.delete(f"{url}/rounds/1").status_code == 409


def test_a_round_or_table_number_that_cannot_exist_is_refused_naming_a_round_or_table(director: Any) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    match_id = director.post(f"{url}/rounds").json["tables"][0]["match_id"]
    for method, path, words in [
        ("GET", "rounds/0", "This event has no round 0."),
        ("POST", "rounds/0/close", "This event has no round 0."),
        ("DELETE", "rounds/0", "This event has no round 0."),
        ("GET", "rounds/100001", "This event has no round 100001."),
        ("PUT", "rounds/0/tables/1/result", "This event has no round 0."),
        ("PUT", "rounds/1/tables/0/result", "Round 1 has no table 0."),
        ("PUT", "rounds/1/tables/2147483648/result", "Round 1 has no table 2147483648."),
    ]:
        body = {"scores": [1, 2, 3]} if method == "PUT" else None
        response = director.client.open(f"{url}/{path}", method=method, json=body, headers=director.headers)
        assert (response.status_code, response.json["error"]) == (404, words), path
    russian = director.client.get(f"{url}/rounds/0", headers={**director.headers, "Accept-Language": "ru"})
    assert russian.json["error"] == "В этом турнире нет тура 0."
    seat = director.delete(f"/api/matches/{match_id}/seats/2147483648")
    assert (seat.status_code, seat.json["error"]) == (404, "This match has no such seat.")


def test_a_result_by_hand_needs_a_score_per_seat(director: Any) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    director.post(f"{url}/rounds")
    short = director.put(f"{url}/rounds/1/tables/1/result", json={"scores": [100, 50]})
    assert (short.status_code, short.json["field"]) == (422, "scores")
    words = director.put(f"{url}/rounds/1/tables/1/result", json={"scores": "100 50 0"})
    assert (words.status_code, words.json["field"]) == (400, "scores")  # a wrong type: malformed
    assert director.put(f"{url}/rounds/1/tables/9/result", json={"scores": [1, 2, 3]}).status_code == 404
    entered = director.put(f"{url}/rounds/1/tables/1/result", json={"scores": [100, 50, 0]})
    assert entered.status_code == 200
    result = entered.json["tables"][0]["result"]
    assert result == {
        "scores": [100, 50, 0],
        "match_points": ["2.0", "1.0", "0.0"],
        "table_scores": [50, 0, -50],
        "entered_by": "director",
    }
    match_id = entered.json["tables"][0]["match_id"]
    assert director.get(f"/api/matches/{match_id}").json["status"] == "ended"
    history = director.get(f"/api/matches/{match_id}/history").json["history"]
    assert history[0]["action"] == "match_ended"  # newest first
    assert (history[0]["user"], history[0]["after"]["entered_by"]) == ("director", "director")
    assert history[0]["after"]["scores"] == [100, 50, 0]


def test_a_paper_result_for_a_table_that_has_ended_already_is_in_its_history_and_its_backup(director: Any) -> None:
    event = make_event(director, hand_limit=1, seed=3)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], [f"Guest {n}" for n in range(9)])
    tables = director.post(f"{url}/rounds").json["tables"]
    at_the_limit, closed, twice = (t["match_id"] for t in tables)
    director.post(f"/api/matches/{at_the_limit}/hands", json=made(0))  # ends at the hand limit
    director.post(f"{url}/rounds/1/close")
    director.put(f"{url}/rounds/1/tables/3/result", json={"scores": [10, 20, 30]})
    for number, match_id in enumerate((at_the_limit, closed, twice), start=1):
        players = tables[number - 1]["players"]
        hands = len(director.get(f"/api/matches/{match_id}").json["hands"])
        entered = director.put(f"{url}/rounds/1/tables/{number}/result", json={"scores": [300, 150, 0]})
        assert entered.status_code == 200
        assert entered.json["tables"][number - 1]["result"]["entered_by"] == "director"
        match = director.get(f"/api/matches/{match_id}").json
        assert (match["status"], len(match["hands"])) == ("ended", hands)  # its own hands stay as they were
        entry = director.get(f"/api/matches/{match_id}/history").json["history"][0]
        assert (entry["action"], entry["user"], entry["before"]) == ("match_ended", "director", {"status": "ended"})
        assert entry["after"] == {"status": "ended", "scores": [300, 150, 0], "entered_by": "director"}
        scores = f"{players[0]} 300, {players[1]} 150, {players[2]} 0"
        words = f"director entered the final scores from the paper sheet: {scores}"
        assert entry["words"] == words
        backup = director.get(f"/api/matches/{match_id}/backup").json
        assert backup["matches"][0]["audit"][-1]["words"] == words
        imported = director.post("/api/matches/import", json=backup)
        assert imported.status_code == 201, imported.json
        history = director.get(f"/api/matches/{imported.json['matches'][0]['id']}/history").json["history"]
        assert [(e["action"], e["after"], e["words"]) for e in history[1:2]] == [("match_ended", entry["after"], words)]


def test_a_correction_after_the_hand_limit_changes_the_standings(director: Any) -> None:
    event = make_event(director, hand_limit=1)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    table = director.post(f"{url}/rounds").json["tables"][0]
    director.post(f"/api/matches/{table['match_id']}/hands", json=made(0))
    first = director.get(f"{url}/standings").json["standings"][0]
    assert (first["name"], first["match_points"], first["table_score"]) == (table["players"][0], "2.0", 80)
    corrected = director.put(f"/api/matches/{table['match_id']}/hands/1", json=made(1))
    assert corrected.status_code == 200, corrected.json
    first = director.get(f"{url}/standings").json["standings"][0]
    assert (first["name"], first["match_points"], first["table_score"]) == (table["players"][1], "2.0", 80)


def test_the_standings_csv_has_the_same_columns_with_a_bom(director: Any) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Дана", "Egor", "Fima"])
    director.post(f"/api/events/{event['id']}/rounds")
    director.put(f"/api/events/{event['id']}/rounds/1/tables/1/result", json={"scores": [30, 20, 10]})
    response = director.get(f"/api/events/{event['id']}/standings.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    text = response.data.decode("utf-8")
    assert text.startswith("\ufeffplace,name,match_points,table_score,opponents_points,firsts,rounds_played,byes\r\n")
    assert len(text.splitlines()) == 4
    assert "Дана" in text


def test_the_standings_csv_runs_no_name_as_a_formula_and_keeps_its_numbers(director: Any) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["=1+2", "@SUM(A1)", "Vera;-5"])
    director.post(f"/api/events/{event['id']}/rounds")
    director.put(f"/api/events/{event['id']}/rounds/1/tables/1/result", json={"scores": [30, 20, -100]})
    rows = list(csv.reader(io.StringIO(director.get(f"/api/events/{event['id']}/standings.csv").data.decode())))
    names = {row[1] for row in rows[1:]}
    assert names == {"'=1+2", "'@SUM(A1)", "Vera;'-5"}
    assert any(row[3].startswith("-") for row in rows[1:])  # a table score below the average stays a number


def test_a_tichu_event_seats_teams_and_counts_per_team(director: Any) -> None:
    event = make_event(director, game={"rules": "tichu", "options": {}})
    url = f"/api/events/{event['id']}/roster"
    for name, team in (("Anna", "Reds"), ("Vera", "Reds"), ("Boris", "Blues"), ("Gleb", "Blues")):
        assert director.post(url, json={"guest": name, "team": team}).status_code == 201
    table = director.post(f"/api/events/{event['id']}/rounds").json["tables"][0]
    partners = {frozenset(table["players"][0::2]), frozenset(table["players"][1::2])}
    assert partners == {frozenset({"Anna", "Vera"}), frozenset({"Boris", "Gleb"})}
    short = director.put(f"/api/events/{event['id']}/rounds/1/tables/1/result", json={"scores": [1, 2, 3, 4]})
    assert (short.status_code, short.json["field"]) == (422, "scores")
    director.put(f"/api/events/{event['id']}/rounds/1/tables/1/result", json={"scores": [1040, 760]})
    rows = {r["name"]: r for r in director.get(f"/api/events/{event['id']}/standings").json["standings"]}
    assert (rows[table["players"][0]]["match_points"], rows[table["players"][0]]["table_score"]) == ("2.0", 140)
    assert (rows[table["players"][3]]["match_points"], rows[table["players"][3]]["table_score"]) == ("0.0", -140)


def test_a_tichu_team_is_one_whatever_its_case_and_fixed_once_a_round_is_seated(director: Any) -> None:
    event = make_event(director, game={"rules": "tichu", "options": {}})
    url = f"/api/events/{event['id']}"
    for name, team in (("Anna", "Reds"), ("Vera", "reds"), ("Boris", "Blues"), ("Gleb", "BLUES"), ("Dima", None)):
        assert director.post(f"{url}/roster", json={"guest": name, "team": team}).status_code == 201
    assert [p["team"] for p in director.get(url).json["roster"]] == ["Reds", "Reds", "Blues", "Blues", None]
    assert patch(director, f"{url}/roster/Dima", {"status": "absent"}).status_code == 200
    assert director.post(f"{url}/rounds").status_code == 201  # two teams: the case made none of them two
    before = director.get(url).json
    moved = patch(director, f"{url}/roster/Vera", {"team": "Blues"})
    assert (moved.status_code, moved.json["field"]) == (409, "team")
    assert "Vera plays for Reds" in moved.json["error"]
    assert director.get(url).json == before
    assert patch(director, f"{url}/roster/Vera", {"team": "REDS"}).status_code == 200  # the same team
    assert patch(director, f"{url}/roster/Dima", {"team": "Greens"}).status_code == 200  # a first team
    third = director.post(f"{url}/roster", json={"guest": "Late", "team": "reds"})
    assert (third.status_code, third.json["field"]) == (422, "team")  # the Reds are two already
    # A team name is compared as a name is: an invisible filler makes no new team that reads
    # "Reds", and a look-alike letter of another alphabet ("Rеds", a Cyrillic е) is refused.
    for filled in ("Reds\u3164", "Reds\ufe0f", "Reds\u2800"):
        again = director.post(f"{url}/roster", json={"guest": "Late", "team": filled})
        assert (again.status_code, again.json["field"]) == (422, "team"), filled
    mixed = director.post(f"{url}/roster", json={"guest": "Late", "team": "R\u0435ds"})
    assert (mixed.status_code, mixed.json["field"]) == (422, "team")
    assert "mixes letters of alphabets that look alike" in mixed.json["error"]
    assert patch(director, f"{url}/roster/Vera", {"status": "dropped", "team": "Reds"}).status_code == 200
    assert director.post(f"{url}/roster", json={"guest": "Nina", "team": "Reds"}).status_code == 201
    back = patch(director, f"{url}/roster/Vera", {"status": "present"})  # a third Red back: refused
    assert (back.status_code, back.json["field"]) == (422, "team")
    assert patch(director, f"{url}/roster/Nina", {"status": "dropped"}).status_code == 200
    assert patch(director, f"{url}/roster/Vera", {"status": "present"}).status_code == 200
    assert director.post(f"{url}/roster", json={"guest": "Late", "team": "Purples"}).status_code == 201
    assert patch(director, f"{url}/roster/Late", {"team": "Greens"}).status_code == 200  # not seated yet
    assert patch(director, f"{url}/roster/Dima", {"team": "Purples"}).status_code == 200  # nor Dima


def test_a_tichu_player_without_a_team_cannot_be_seated(director: Any) -> None:
    event = make_event(director, game={"rules": "tichu", "options": {}})
    add_guests(director, event["id"], ["Anna", "Vera", "Boris", "Gleb"])
    response = director.post(f"/api/events/{event['id']}/rounds")
    assert (response.status_code, response.json["field"]) == (422, "roster")


def test_a_whole_night_of_nine_players_ends_in_the_standings_worked_by_hand(director: Any, make_user: Any) -> None:
    event = make_event(director, hand_limit=2, seed=2026)
    url = f"/api/events/{event['id']}"
    for name in ("anna", "boris", "vera"):
        make_user(name).post("/api/events/join", json={"code": event["code"]})
    add_guests(director, event["id"], GUESTS)

    def play(number: int, hands: list[list[dict[str, Any]] | None], seats: list[list[str]]) -> None:
        round_ = director.post(f"{url}/rounds")
        assert round_.status_code == 201, round_.json
        assert [t["players"] for t in round_.json["tables"]] == seats
        assert round_.json["repeats"] == 0
        for table, table_hands in zip(round_.json["tables"], hands, strict=True):
            if table_hands is None:  # the table kept paper
                entered = director.put(
                    f"{url}/rounds/{number}/tables/{table['table']}/result", json={"scores": [300, 150, 0]}
                )
                assert entered.status_code == 200
            for hand in table_hands or []:
                director.add_hand(table["match_id"], hand)

    # Round 1, drawn from the seed; every table ends at the hand limit (two hands).
    play(1, [[made(0), made(1)], [missed(0), made(2)], [made(2), missed(1)]],
         [["Hana", "Egor", "anna"], ["Gleb", "vera", "Dana"], ["Ivan", "Fima", "boris"]])  # fmt: skip
    # Round 2, Swiss; table 2 kept paper (300, 150, 0).
    play(2, [[made(1), made(1)], None, [missed(2), made(0)]],
         [["Dana", "boris", "Egor"], ["vera", "Hana", "Ivan"], ["Gleb", "Fima", "anna"]])  # fmt: skip
    # Round 3: one hand at each table, then the director closes the round.
    play(3, [[made(0)], [missed(1)], [made(2)]],
         [["vera", "anna", "boris"], ["Fima", "Dana", "Hana"], ["Gleb", "Egor", "Ivan"]])  # fmt: skip
    assert director.post(f"{url}/rounds/4").status_code == 405
    closed = director.post(f"{url}/rounds/3/close")
    assert closed.status_code == 200
    assert [t["result"]["scores"] for t in closed.json["tables"]] == [[140, 20, 20], [20, -100, 20], [20, 20, 140]]

    # By hand. Round 1: 160 160 40 (mean 120) → Hana, Egor 1.5 (+40), anna 0 (−80);
    # −80 40 160 (mean 40) → Gleb 0 (−120), vera 1 (0), Dana 2 (+120); 40 −80 160 → Ivan 1 (0),
    # Fima 0 (−120), boris 2 (+120). Round 2: 40 280 40 (mean 120) → Dana 0.5 (−80), boris 2
    # (+160), Egor 0.5 (−80); paper 300 150 0 → vera 2 (+150), Hana 1 (0), Ivan 0 (−150);
    # 160 40 −80 → Gleb 2 (+120), Fima 1 (0), anna 0 (−120). Round 3: 140 20 20 (mean 60) →
    # vera 2 (+80), anna and boris 0.5 (−40); 20 −100 20 (mean −20) → Fima, Hana 1.5 (+40),
    # Dana 0 (−80); 20 20 140 → Gleb, Egor 0.5 (−40), Ivan 2 (+80).
    # Opponents' points, e.g. vera met Gleb 2.5, Dana 2.5, Hana 4, Ivan 3, anna 0.5, boris 4.5 = 17.
    # Dana and Gleb are equal on points and table score: Dana met stronger opponents (21 > 16).
    # Egor and Fima are equal on all four: they share 7th place.
    standings = director.get(f"{url}/standings").json
    assert standings["round"] == 3
    rows = [
        (r["place"], r["name"], r["match_points"], r["table_score"], r["opponents_points"], r["firsts"])
        for r in standings["standings"]
    ]
    assert rows[:6] == [
        (1, "vera", "5.0", 230, "17.0", 2),
        (2, "boris", "4.5", 240, "16.0", 2),
        (3, "Hana", "4.0", 80, "16.0", 2),
        (4, "Ivan", "3.0", -70, "21.0", 1),
        (5, "Dana", "2.5", -40, "21.0", 1),
        (6, "Gleb", "2.5", -40, "16.0", 1),
    ]
    assert sorted(rows[6:8]) == [(7, "Egor", "2.5", -80, "17.0", 1), (7, "Fima", "2.5", -80, "17.0", 1)]
    assert rows[8] == (9, "anna", "0.5", -240, "21.0", 0)
    assert all((r["rounds_played"], r["byes"]) == (3, 0) for r in standings["standings"])
    assert director.get(url).json["rounds_played"] == [1, 2, 3]
    assert director.post(f"{url}/rounds").status_code == 409  # three rounds planned, three played


def test_the_board_behind_the_watch_link_shows_live_scores_and_the_countdown_to_anyone(
    director: Any, client: Any
) -> None:
    event = make_event(director, time_limit=45)
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    table = director.post(f"/api/events/{event['id']}/rounds").json["tables"][0]
    director.add_hand(table["match_id"], made(0))
    token = event["watch_url"].rsplit("/", 1)[1]
    board = client.get(f"/events/watch/{token}")
    assert board.status_code == 200
    page = board.get_data(as_text=True)
    for name, score in zip(table["players"], [140, 20, 20], strict=True):
        assert f'<th scope="row">{name}</th><td>{score}</td>' in page
    assert "45 minutes left" in page
    russian = client.get(f"/events/watch/{token}", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Осталось 45 минут" in russian
    assert client.get("/events/watch/nosuchtoken").status_code == 404


def test_a_refusal_of_the_club_engine_speaks_the_readers_language(director: Any) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Dana", "Egor"])
    headers = {**director.headers, "Accept-Language": "ru"}
    response = director.client.post(f"/api/events/{event['id']}/rounds", headers=headers)
    assert response.status_code == 422
    assert response.json == {"error": "Для тура нужно не меньше 3 игроков на месте, а не 2.", "field": "roster"}


def test_a_won_event_table_banked_counts_in_the_players_statistics_and_ratings(director: Any, make_user: Any) -> None:
    event = make_event(director, game={"rules": "tichu", "options": {}})
    players = {name: make_user(name) for name in ("anna", "vera", "boris", "gleb")}
    for name, team in (("anna", "Reds"), ("vera", "Reds"), ("boris", "Blues"), ("gleb", "Blues")):
        assert (
            director.post(f"/api/events/{event['id']}/roster", json={"username": name, "team": team}).status_code == 201
        )
    table = director.post(f"/api/events/{event['id']}/rounds").json["tables"][0]
    grand = {"calls": ["grand", None, None, None], "first_out": 0, "double_victory": True, "card_points": None}
    for _ in range(3):  # 400 a round: 1200, past the target
        director.add_hand(table["match_id"], grand)
    assert director.post(f"/api/matches/{table['match_id']}/bank").status_code == 200
    winner = players[table["players"][0]]
    profile = winner.get(f"/api/players/{winner.username}").json
    tichu = next(r for r in profile["rulesets"] if r["rules"] == "tichu")
    assert (tichu["banked"], tichu["won"]) == (1, 1)
    assert profile["ratings"]["tichu"]["matches"] == 1
    first = director.get(f"/api/events/{event['id']}/standings").json["standings"][0]
    assert first["name"] in table["players"][0::2] and first["match_points"] == "2.0"
    assert (first["table_score"], tichu["grand_called"]) == (600, 3)

    plain = {"calls": [None, None, None, None], "first_out": 0, "double_victory": True, "card_points": None}
    corrected = director.put(f"/api/matches/{table['match_id']}/hands/1", json=plain)  # banked: still taken
    assert corrected.status_code == 200, corrected.json
    first = director.get(f"/api/events/{event['id']}/standings").json["standings"][0]
    tichu = next(r for r in winner.get(f"/api/players/{winner.username}").json["rulesets"] if r["rules"] == "tichu")
    assert (first["table_score"], tichu["grand_called"], tichu["banked"]) == (500, 2, 1)


@pytest.mark.parametrize("moment", ["before", "at the same moment"])
@pytest.mark.parametrize("how", ["checking in", "given by the director"])
def test_a_guest_whose_seat_another_account_holds_is_not_claimed_and_nothing_is_stored(
    director: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch, moment: str, how: str
) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    table = director.post(f"{url}/rounds").json["tables"][0]
    boris = make_user("boris")
    code = director.get(f"/api/matches/{table['match_id']}").json["join_code"]
    assert boris.post("/api/matches/join", json={"code": code}).status_code == 200
    seat = table["players"].index("Dana")
    assert boris.post(f"/api/matches/{table['match_id']}/seats/{seat}/claim").status_code == 200
    before = director.get(url).json
    if moment == "at the same moment":  # the seat looked free: boris's claim lands just before
        monkeypatch.setattr(seats, "_holds", lambda *_args: False)
    dana = make_user("dana")
    if how == "checking in":
        refused = dana.post("/api/events/join", json={"code": event["code"], "name": "Dana"})
    else:
        refused = patch(director, f"{url}/roster/Dana", {"username": "dana", "status": "absent"})
    assert refused.status_code == 409, refused.json
    assert director.get(url).json == before  # Dana is still a guest of the roster, and present
    members = director.get(f"/api/matches/{table['match_id']}").json["members"]
    assert "dana" not in members


def test_an_account_claims_a_guest_and_takes_its_seats_at_the_tables_seated(director: Any, make_user: Any) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    table = director.post(f"{url}/rounds").json["tables"][0]
    dana = make_user("dana")
    joined = dana.post("/api/events/join", json={"code": event["code"], "name": "Dana"})
    assert joined.status_code == 200
    assert joined.json["roster"][0] == {"name": "Dana", "username": "dana", "team": None, "status": "present"}
    seats = dana.get(f"/api/matches/{table['match_id']}/seats").json["seats"]
    assert seats[table["players"].index("Dana")]["username"] == "dana"
    again = make_user("other").post("/api/events/join", json={"code": event["code"], "name": "Dana"})
    assert (again.status_code, again.json["field"]) == (409, "name")
    make_user("egor")
    before = director.get(url).json
    refused = patch(director, f"{url}/roster/Egor", {"username": "egor", "status": "sleeping"})
    assert (refused.status_code, refused.json["field"]) == (422, "status")
    assert director.get(url).json == before  # one change: the status refused, Egor not given either
    given = patch(director, f"{url}/roster/Egor", {"username": "egor"})
    assert given.status_code == 200
    assert given.json["roster"][1]["username"] == "egor"
    assert patch(director, f"{url}/roster/Fima", {"username": "nobody"}).json["field"] == "username"


def test_an_empty_roster_change_names_every_change_it_takes(director: Any) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana"])
    before = director.get(url).json
    refused = patch(director, f"{url}/roster/Dana", {})
    assert (refused.status_code, refused.json["field"]) == (422, "status")
    assert all(f"“{key}”" in refused.json["error"] for key in ("status", "team", "username"))
    assert director.get(url).json == before


@pytest.mark.parametrize("name", ["\u3164", "\u2800 \u115f", "\u200b"])
def test_a_name_that_shows_nothing_is_refused_where_it_is_given_not_when_seating(director: Any, name: str) -> None:
    event = make_event(director)
    url = f"/api/events/{event['id']}"
    add_guests(director, event["id"], ["Dana", "Egor"])
    before = director.get(url).json
    refused = director.post(f"{url}/roster", json={"guest": name})
    assert (refused.status_code, refused.json["field"]) == (422, "guest")
    assert director.get(url).json == before
    renamed = director.post("/api/events", json={"name": name, "game": GAME})
    assert (renamed.status_code, renamed.json["field"]) == (422, "name")
    alike = director.post(f"{url}/roster", json={"guest": "DANA\u3164"})  # Dana with a filler
    assert (alike.status_code, alike.json["field"]) == (409, "guest")


def test_a_tichu_player_whose_team_sat_out_a_round_keeps_that_team(director: Any) -> None:
    event = make_event(director, game={"rules": "tichu", "options": {}})
    url = f"/api/events/{event['id']}"
    for name, team in (("A1", "Ace"), ("A2", "Ace"), ("B1", "Bee"), ("B2", "Bee"), ("C1", "Cat"), ("C2", "Cat")):
        assert director.post(f"{url}/roster", json={"guest": name, "team": team}).status_code == 201
    byes = director.post(f"{url}/rounds").json["byes"]
    assert len(byes) == 2  # three teams: one sits the round out
    moved = patch(director, f"{url}/roster/{byes[0]}", {"team": "Dog"})
    assert (moved.status_code, moved.json["field"]) == (409, "team")  # a bye is a round played
