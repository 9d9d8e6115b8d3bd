"""Input of the wrong type is refused with its field, never taken as a default: `sitter_points`
given as [], {}, "" or false (400, API.md: wrong types), a house rule's word given as ""
(422, as any word that is not one of its words)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ApiUser

from .helpers import played
from .page_helpers import count_hands


@pytest.mark.parametrize("value", [[], {}, "", False, True, "0", 1.5, [0]])
def test_sitter_points_of_a_wrong_type_are_refused_with_the_field(app: Any, api_user: ApiUser, value: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera", "Gleb"], options={"sitter_bonus": True})
    hand = {**played(1, 100, [40, None, 20, None]), "sitter_points": value}
    response = api_user.post(f"/api/matches/{match['id']}/hands", json=hand)
    assert response.status_code == 400 and response.json["field"] == "sitter_points", response.json
    assert count_hands(app) == 0


@pytest.mark.parametrize("option", ["zeros", "barrel_miss", "dump_555"])
def test_an_empty_house_rule_word_is_refused_as_any_other_word(api_user: ApiUser, option: str) -> None:
    response = api_user.post("/api/matches", json={"players": ["Anna", "Boris", "Vera"], "options": {option: ""}})
    assert response.status_code == 422 and response.json["field"] == "options", response.json
    assert option in response.json["error"]
    assert api_user.get("/api/matches").json["matches"] == []
