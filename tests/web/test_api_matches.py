"""API matches: create, list, get, join; membership and tokens on every route; error bodies."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import played
from .test_strangers import match_routes, url_for_rule

MATCH_KEYS = {
    "id",
    "players",
    "rules",
    "options",
    "status",
    "winner",
    "join_code",
    "members",
    "next",
    "standings",
    "hands",
}
STANDING_KEYS = {
    "seat",
    "name",
    "score",
    "sheet",
    "owed",
    "barrel",
    "barrel_hands",
    "locked",
    "zeros",
    "forfeits",
    "barrel_hands_left",
    "next_zero_costs",
}
HOUSE_DEFAULTS = {
    "zeros": "total",
    "zero_penalty": 120,
    "dump_555": "off",
    "barrel_knock_off": False,
    "barrel_miss": "costs_bid",
    "barrel_hands": 3,
    "three_falls_reset": False,
    "declarer_rounding": False,
    "forfeit_pays": "60",
    "blind_doubles": "hand",
    "ace_marriage": False,
    "barrel_gap": 120,
    "barrel_jump": "wins",
    "barrel_clash": "all_stay",
    "barrel_defender_wins": False,
    "barrel_win_score": "target",
    "barrel_zeros": False,
    "forfeit_penalty": True,
    "dump_at": 555,
}
"""Squarescores' house rules as a new match reports them (RULES.md §11)."""


def test_create_with_players_only_gives_every_field_and_option(api_user: Any) -> None:
    response = api_user.post("/api/matches", json={"players": ["Anna", "Boris", "Vera"]})
    assert response.status_code == 201
    match = response.json
    assert set(match) == MATCH_KEYS
    assert match["rules"] == "squarescores"
    assert match["options"] == {
        "target": 1000,
        "gold_set": False,
        "blind_bids": False,
        "sitter_bonus": False,
        "sheet": "deferred",
        **HOUSE_DEFAULTS,
    }
    assert match["status"] == "in_progress" and match["winner"] is None
    assert match["members"] == ["anna"]
    assert match["next"] == {
        "hand": 1,
        "dealer": 0,
        "first_bidder": 1,
        "sitting_out": None,
        "gold": False,
        "min_bid": 100,
    }
    assert [set(s) for s in match["standings"]] == [STANDING_KEYS] * 3
    assert [s["name"] for s in match["standings"]] == ["Anna", "Boris", "Vera"]
    assert match["hands"] == []
    assert len(match["join_code"]) >= 10


def test_create_with_every_key(api_user: Any) -> None:
    match = api_user.new_match(
        players=["Аня", "Борис", "Вера", "Гена"],
        rules="classic",
        options={"target": 2000, "gold_set": True, "sitter_bonus": True, "sheet": "signed"},
        first_dealer=2,
        start_scores=[100, -20, 0, 500],
    )
    assert match["rules"] == "classic"
    assert match["options"]["target"] == 2000 and match["options"]["sheet"] == "signed"
    assert match["next"]["dealer"] == 2 and match["next"]["sitting_out"] == 2
    assert match["next"]["gold"] is True and match["next"]["min_bid"] == 120
    assert [s["score"] for s in match["standings"]] == [100, -20, 0, 500]


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"players": ["Anna", "Boris"]}, 422, "players"),
        ({"players": ["Anna", "Boris", "Vera", "Gena", "Dima"]}, 422, "players"),
        ({"players": ["Anna", "anna", "Vera"]}, 422, "players"),
        ({"players": ["Anna", "", "Vera"]}, 422, "players"),
        ({"players": ["Anna", "B" * 41, "Vera"]}, 422, "players"),
        ({"players": ["Anna", "\u0410nna", "Vera"]}, 422, "players"),  # a Cyrillic А: Anna twice to the eye
        ({"players": "Anna, Boris, Vera"}, 400, "players"),
        ({"players": ["Anna", 2, "Vera"]}, 400, "players"),
        ({}, 400, "players"),
        ({"players": ["A", "B", "C"], "rules": "whist"}, 422, "rules"),
        ({"players": ["A", "B", "C"], "rules": 1}, 400, "rules"),
        ({"players": ["A", "B", "C"], "options": {"target": 1500}}, 422, "options"),
        ({"players": ["A", "B", "C"], "options": {"colour": "red"}}, 400, "options"),
        ({"players": ["A", "B", "C"], "options": ["gold_set"]}, 400, "options"),
        ({"players": ["A", "B", "C"], "first_dealer": 3}, 422, "first_dealer"),
        ({"players": ["A", "B", "C"], "first_dealer": "0"}, 400, "first_dealer"),
        ({"players": ["A", "B", "C"], "start_scores": [0, 0]}, 422, "start_scores"),
        ({"players": ["A", "B", "C"], "start_scores": [900, 0, 0]}, 422, "start_scores"),
        ({"players": ["A", "B", "C"], "start_scores": [0.5, 0, 0]}, 400, "start_scores"),
        ({"players": ["A", "B", "C"], "colour": "red"}, 400, "colour"),
    ],
)
def test_create_refusals_name_the_field_and_store_nothing(api_user: Any, body: Any, status: int, field: str) -> None:
    response = api_user.post("/api/matches", json=body)
    assert response.status_code == status
    assert response.json["field"] == field
    assert isinstance(response.json["error"], str) and len(response.json["error"]) > 10
    assert api_user.get("/api/matches").json == {"matches": []}


def test_a_name_of_two_look_alike_alphabets_is_refused_one_alphabet_each_is_not(api_user: Any) -> None:
    mixed = api_user.post("/api/matches", json={"players": ["\u0410nna", "Boris", "Vera"]})
    assert mixed.status_code == 422 and mixed.json["field"] == "players"
    assert mixed.json["error"] == (
        "“\u0410nna” mixes letters of alphabets that look alike, so it could pass for another name: "
        "write its letters in one alphabet."
    )
    assert api_user.get("/api/matches").json == {"matches": []}
    # Names each in one alphabet are names of their own, the same sound in two alphabets too.
    started = api_user.post("/api/matches", json={"players": ["Anna", "Анна", "Łukasz"]})
    assert started.status_code == 201, started.json


@pytest.mark.parametrize(
    ("players", "named"),
    [
        (["Hope", "Норе", "Vera"], "Норе"),  # Cyrillic Н, о, р, е
        (["Вера", "Boris", "Bepa"], "Bepa"),  # Latin e, p, a
        (["ΙΟΝ", "Boris", "ION"], "ION"),  # Greek; a capital I is drawn as an l
        (["Анна", "Boris", "АННА\ufe0f"], "АННА\ufe0f"),  # case and a variation selector, as ever
    ],
)
def test_two_names_that_look_the_same_in_two_alphabets_are_one_name_twice(
    api_user: Any, players: list[str], named: str
) -> None:
    # “Норе” reads as Hope on every phone: the table could not tell the two seats apart.
    twice = api_user.post("/api/matches", json={"players": players})
    assert (twice.status_code, twice.json) == (
        422,
        {"error": f"Two players are called “{named}”: give each a different name.", "field": "players"},
    )
    assert api_user.get("/api/matches").json == {"matches": []}


def test_names_that_only_sound_alike_or_differ_in_case_as_they_look_are_names_of_their_own(api_user: Any) -> None:
    for players in (["Норе", "hope", "Vera"], ["Вера", "BEPA", "Ivan"], ["Анна", "Anna", "Lan"]):
        assert api_user.post("/api/matches", json={"players": players}).status_code == 201


def test_create_body_must_be_a_json_object(api_user: Any) -> None:
    for data in ("[]", "{", "null", "1"):
        response = api_user.post("/api/matches", data=data, content_type="application/json")
        assert response.status_code == 400
        assert response.json["field"] is None


def test_body_over_64_kib_is_413(api_user: Any) -> None:
    response = api_user.post("/api/matches", json={"players": ["x" * 70_000, "B", "C"]})
    assert response.status_code == 413
    assert response.json == {"error": "The request is too large: at most 64 KiB.", "field": None}


def test_body_over_64_kib_is_413_also_where_the_body_is_not_read(api_user: Any) -> None:
    match = api_user.new_match()
    base = f"/api/matches/{match['id']}"
    big = "x" * (64 * 1024 + 1)
    for method, url in [
        ("post", f"{base}/bank"),
        ("post", f"{base}/end"),
        ("delete", f"{base}/hands/1"),
        ("get", base),
        ("delete", "/api/tokens/current"),
    ]:
        response = getattr(api_user.client, method)(
            url, data=big, headers=api_user.headers, content_type="application/json"
        )
        assert response.status_code == 413, (method, url)
        assert response.json == {"error": "The request is too large: at most 64 KiB.", "field": None}
    assert api_user.get(base).json == match


def test_deeply_nested_json_is_400(api_user: Any) -> None:
    data = "[" * 20_000 + "]" * 20_000
    response = api_user.post("/api/matches", data=data, content_type="application/json")
    assert response.status_code == 400


def test_list_is_newest_first_and_brief(api_user: Any) -> None:
    first = api_user.new_match(players=["A", "B", "C"])
    second = api_user.new_match(players=["D", "E", "F"], rules="polish")
    api_user.add_hand(second["id"], played(1, 100, [20, None, 20]))
    response = api_user.get("/api/matches")
    assert response.status_code == 200
    matches = response.json["matches"]
    assert [m["id"] for m in matches] == [second["id"], first["id"]]
    assert matches[0]["players"] == ["D", "E", "F"] and matches[0]["rules"] == "polish"
    assert matches[0]["status"] == "in_progress" and matches[0]["hands"] == 1


def test_list_shows_only_the_callers_matches(api_user: Any, stranger: Any) -> None:
    api_user.new_match()
    assert stranger.get("/api/matches").json == {"matches": []}


def test_get_a_match(api_user: Any) -> None:
    match = api_user.new_match()
    response = api_user.get(f"/api/matches/{match['id']}")
    assert response.status_code == 200
    assert response.json == match


def test_missing_match_is_404(api_user: Any) -> None:
    response = api_user.get("/api/matches/nosuchmatch")
    assert response.status_code == 404
    assert response.json == {"error": "There is no such match.", "field": None}


def stranger_routes(match_id: str) -> list[tuple[str, str, Any]]:
    """Every match route, with a valid body where one is needed."""
    base = f"/api/matches/{match_id}"
    hand = played(1, 100, [20, None, 20])
    return [
        ("get", base, None),
        ("post", f"{base}/hands", hand),
        ("put", f"{base}/hands/1", hand),
        ("delete", f"{base}/hands/1", None),
        ("post", f"{base}/bank", None),
        ("post", f"{base}/end", None),
        ("get", f"{base}/sheet.csv", None),
    ]


def test_a_stranger_gets_404_on_every_route_like_a_missing_match(api_user: Any, stranger: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], played(1, 100, [20, None, 20]))
    for (method, url, body), (_, missing_url, _) in zip(
        stranger_routes(match["id"]), stranger_routes("nosuchmatch"), strict=True
    ):
        kw = {} if body is None else {"json": body}
        response = getattr(stranger, method)(url, **kw)
        missing = getattr(stranger, method)(missing_url, **kw)
        assert response.status_code == 404, (method, url)
        assert response.data == missing.data
        assert sorted(response.headers.items()) == sorted(missing.headers.items())
    assert api_user.get(f"/api/matches/{match['id']}").json["hands"][0]["bid"] == 100


def test_every_api_match_route_answers_a_stranger_byte_for_byte_like_a_missing_match(
    app: Any, api_user: Any, stranger: Any
) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], played(1, 100, [20, None, 20]))
    api_user.delete(f"/api/matches/{match['id']}/hands/1")
    routes = [(rule, method) for rule, method in match_routes(app) if rule.startswith("/api/")]
    assert len(routes) >= 10
    for rule, method in routes:
        answers = [
            stranger.client.open(
                url_for_rule(rule, match_id), method=method, json={"kind": "redeal"}, headers=stranger.headers
            )
            for match_id in (match["id"], "NoSuchMatch1")
        ]
        assert [a.status_code for a in answers] == [404, 404], (rule, method)
        assert answers[0].data == answers[1].data, (rule, method)
        assert sorted(answers[0].headers.items()) == sorted(answers[1].headers.items())
    assert api_user.get(f"/api/matches/{match['id']}").json["hands"] == []


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", "/api/matches"),
        ("post", "/api/matches"),
        ("post", "/api/matches/join"),
        ("get", "/api/matches/x"),
        ("post", "/api/matches/x/hands"),
        ("put", "/api/matches/x/hands/1"),
        ("delete", "/api/matches/x/hands/1"),
        ("post", "/api/matches/x/bank"),
        ("post", "/api/matches/x/end"),
        ("get", "/api/matches/x/sheet.csv"),
        ("delete", "/api/tokens/current"),
    ],
)
def test_no_token_is_401_on_every_route(client: Any, method: str, url: str) -> None:
    response = getattr(client, method)(url, json={})
    assert response.status_code == 401
    assert response.json["field"] is None


def test_join_by_code_makes_the_caller_a_member(api_user: Any, stranger: Any) -> None:
    match = api_user.new_match()
    response = stranger.post("/api/matches/join", json={"code": match["join_code"]})
    assert response.status_code == 200
    assert response.json["id"] == match["id"]
    assert response.json["members"] == ["anna", "stranger"]
    assert stranger.get(f"/api/matches/{match['id']}").status_code == 200
    assert [m["id"] for m in stranger.get("/api/matches").json["matches"]] == [match["id"]]


def test_join_code_is_forgiving_about_case_and_spaces(api_user: Any, stranger: Any) -> None:
    code = api_user.new_match()["join_code"]
    typed = f" {code[:5].lower()} {code[5:]} "
    assert stranger.post("/api/matches/join", json={"code": typed}).status_code == 200


def test_joining_twice_is_harmless(api_user: Any, stranger: Any) -> None:
    match = api_user.new_match()
    for user in (api_user, stranger, stranger):
        response = user.post("/api/matches/join", json={"code": match["join_code"]})
        assert response.status_code == 200
    assert response.json["members"] == ["anna", "stranger"]


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"code": "WRONGCODE2"}, 404, None),
        ({"code": ""}, 404, None),
        ({"code": 12345}, 400, "code"),
        ({}, 400, "code"),
    ],
)
def test_join_with_a_bad_code(api_user: Any, stranger: Any, body: Any, status: int, field: Any) -> None:
    api_user.new_match()
    response = stranger.post("/api/matches/join", json=body)
    assert response.status_code == status
    assert response.json["field"] == field
    assert stranger.get("/api/matches").json == {"matches": []}


def test_join_codes_are_random_and_distinct(api_user: Any) -> None:
    codes = {api_user.new_match()["join_code"] for _ in range(20)}
    assert len(codes) == 20
    assert all(len(c) >= 10 and c.isalnum() and c.isupper() for c in codes)


def test_unknown_api_route_and_wrong_method_are_json(api_user: Any) -> None:
    response = api_user.get("/api/nothing-here")
    assert response.status_code == 404 and response.json["field"] is None
    response = api_user.client.patch("/api/matches", headers=api_user.headers)
    assert response.status_code == 405 and "PATCH" in response.json["error"]
