"""API hands: add (with expected_hand), edit, delete; bank and end."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import WINNING_HAND, WINNING_START, played

MISSED = played(1, 100, [20, None, 20])
"""Boris declares 100 and takes 80: missed."""
REDEAL = {"kind": "redeal"}
FORFEIT = {"kind": "forfeit", "declarer": 2, "bid": 120}


def hands_url(match: dict[str, Any], number: int | None = None) -> str:
    """The hands collection of a match, or one hand."""
    url = f"/api/matches/{match['id']}/hands"
    return url if number is None else f"{url}/{number}"


def stored(user: Any, match: dict[str, Any]) -> list[dict[str, Any]]:
    """The match's hands as the API shows them now."""
    return user.get(f"/api/matches/{match['id']}").json["hands"]


def test_add_a_hand_scores_it_and_completes_the_points(api_user: Any) -> None:
    match = api_user.new_match(start_scores=[650, 420, 300])
    body = played(
        1,
        160,
        [42, None, 23],
        marriages=[[], ["hearts", "clubs"], []],
        blind=False,
        made=True,
        sitter_points=0,
        forced=False,
        expected_hand=1,
    )
    response = api_user.post(hands_url(match), json=body)
    assert response.status_code == 201
    hand = response.json["hands"][0]
    assert hand["number"] == 1 and hand["dealer"] == 0 and hand["sitting_out"] is None
    assert hand["points"] == [42, 55, 23]
    assert hand["took"] == [42, 215, 23]
    assert hand["made"] is True and hand["gold"] is False
    assert [r["score"] for r in hand["results"]] == [690, 580, 325]
    assert hand["results"][1]["events"] == ["made"]
    assert set(hand["results"][0]) == {"delta", "entry", "owed", "score", "sheet", "barrel", "events"}
    assert response.json["next"]["hand"] == 2 and response.json["next"]["dealer"] == 1


def test_forfeit_and_redeal_have_no_points_made_or_took(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], REDEAL)
    result = api_user.add_hand(match["id"], FORFEIT)
    redeal, forfeit = result["hands"]
    for hand in (redeal, forfeit):
        assert hand["made"] is None and hand["took"] is None and hand["points"] is None
    assert redeal["dealer"] == forfeit["dealer"] == 0
    assert [r["delta"] for r in forfeit["results"]] == [60, 60, 0]


@pytest.mark.parametrize(
    "body, status, field",
    [
        (played(5, 100, [20, None, 20]), 422, "declarer"),
        (played(1, 103, [20, None, 20]), 422, "bid"),
        (played(1, 90, [20, None, 20]), 422, "bid"),
        (played(1, 100, [20, 30, 20]), 422, "points"),
        (played(1, 100, [20, None, 20], marriages=[[], ["roses"], []]), 422, "marriages"),
        (played(1, 100, [20, None, 20], marriages=[["hearts"], ["hearts"], []]), 422, "marriages"),
        (played(1, 100, [20, None, 20], made=True), 422, "made"),
        (played(1, 100, [20, None, 20], blind=True), 422, "blind"),
        (played(1, 100, ["20", None, 20]), 400, "points"),
        (played(1, 100, [20.5, None, 20]), 400, "points"),
        (played(1, "100", [20, None, 20]), 400, "bid"),
        (played(1, 100, [20, None, 20], colour="red"), 400, "colour"),
        (played(1, 100, [20, None, 20], expected_hand="1"), 400, "expected_hand"),
        (played(1, 100, [20, None, 20], expected_hand=0), 400, "expected_hand"),
        (played(1, 100, [20, None, 20], expected_hand=True), 400, "expected_hand"),
        ({"kind": 3}, 400, "kind"),
        ({"kind": "redeal", "declarer": 1}, 422, "declarer"),
        ({"kind": "forfeit", "declarer": 1}, 422, "bid"),
    ],
)
def test_refused_hands_name_the_field_and_store_nothing(api_user: Any, body: Any, status: int, field: str) -> None:
    match = api_user.new_match()
    response = api_user.post(hands_url(match), json=body)
    assert response.status_code == status
    assert response.json["field"] == field
    assert len(response.json["error"]) > 10
    assert stored(api_user, match) == []


def test_expected_hand_makes_a_double_submission_409_with_one_hand_stored(api_user: Any, make_user: Any) -> None:
    match = api_user.new_match()
    boris = make_user("boris")
    boris.post("/api/matches/join", json={"code": match["join_code"]})
    api_user.add_hand(match["id"], {**MISSED, "expected_hand": 1})
    response = boris.post(hands_url(match), json={**MISSED, "expected_hand": 1})
    assert response.status_code == 409
    assert response.json == {"error": "Hand 1 was already recorded by anna.", "field": None}
    assert len(stored(api_user, match)) == 1


def test_expected_hand_ahead_of_the_match_is_409(api_user: Any) -> None:
    match = api_user.new_match()
    response = api_user.post(hands_url(match), json={**MISSED, "expected_hand": 3})
    assert response.status_code == 409
    assert "next hand is hand 1" in response.json["error"]
    assert stored(api_user, match) == []


def test_without_expected_hand_the_same_body_twice_records_two_hands(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], MISSED)
    assert len(api_user.add_hand(match["id"], MISSED)["hands"]) == 2


def test_a_finished_match_takes_no_more_hands(api_user: Any) -> None:
    match = api_user.new_match(start_scores=WINNING_START)
    result = api_user.add_hand(match["id"], WINNING_HAND)
    assert result["status"] == "finished" and result["winner"] == 0 and result["next"] is None
    assert "win" in result["hands"][0]["results"][0]["events"]
    response = api_user.post(hands_url(match), json=MISSED)
    assert response.status_code == 409
    assert "Anna has won" in response.json["error"]
    assert len(stored(api_user, match)) == 1


def test_a_preview_is_the_hand_adding_it_stores_and_stores_nothing(api_user: Any) -> None:
    match = api_user.new_match(start_scores=[650, 420, 300])
    api_user.add_hand(match["id"], MISSED)
    before = api_user.get(f"/api/matches/{match['id']}").json
    history = api_user.get(f"/api/matches/{match['id']}/history").json
    body = played(2, 120, [42, 23, None], marriages=[[], ["hearts"], []], expected_hand=2)
    response = api_user.post(f"{hands_url(match)}/preview", json=body)
    assert response.status_code == 200
    assert api_user.get(f"/api/matches/{match['id']}").json == before
    assert api_user.get(f"/api/matches/{match['id']}/history").json == history
    (hand,) = response.json.values()
    assert hand["number"] == 2 and hand["points"] == [42, 23, 55]
    stored = api_user.add_hand(match["id"], body)["hands"][1]
    assert "uid" not in hand and stored.pop("uid")  # a preview names no stored hand
    assert hand == stored


def test_a_refused_preview_names_the_field_and_a_malformed_one_is_400(api_user: Any) -> None:
    match = api_user.new_match()
    response = api_user.post(f"{hands_url(match)}/preview", json=played(1, 103, [20, None, 20]))
    assert response.status_code == 422 and response.json["field"] == "bid"
    response = api_user.post(f"{hands_url(match)}/preview", json=played(1, "100", [20, None, 20]))
    assert response.status_code == 400 and response.json["field"] == "bid"
    response = api_user.post(f"{hands_url(match)}/preview", json={**MISSED, "expected_hand": 3})
    assert response.status_code == 409 and "next hand is hand 1" in response.json["error"]
    assert stored(api_user, match) == []


def test_a_stranger_previewing_gets_the_404_of_a_missing_match(api_user: Any, stranger: Any) -> None:
    match = api_user.new_match()
    response = stranger.post(f"{hands_url(match)}/preview", json=MISSED)
    missing = stranger.post("/api/matches/nosuchmatch/hands/preview", json=MISSED)
    assert response.status_code == missing.status_code == 404
    assert response.json == missing.json


def test_a_stranger_adding_gets_the_404_of_a_missing_match(api_user: Any, stranger: Any) -> None:
    """Adding a hand checks the token in the statement that reads the match: a live token of
    somebody else is still told nothing about the match."""
    match = api_user.new_match()
    response = stranger.post(hands_url(match), json=MISSED)
    missing = stranger.post("/api/matches/nosuchmatch/hands", json=MISSED)
    assert response.status_code == missing.status_code == 404
    assert response.json == missing.json
    assert stored(api_user, match) == []


def test_a_hand_added_is_by_the_user_of_the_token_sent(api_user: Any, stranger: Any) -> None:
    match = api_user.new_match()
    assert stranger.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    assert stranger.post(hands_url(match), json=MISSED).status_code == 201
    assert api_user.post(hands_url(match), json=MISSED).status_code == 201
    history = api_user.get(f"/api/matches/{match['id']}/history").json["history"]
    assert [(entry["action"], entry["user"]) for entry in history if entry["action"] == "hand_added"] == [
        ("hand_added", "anna"),
        ("hand_added", "stranger"),
    ]


def test_a_finished_match_previews_no_more_hands(api_user: Any) -> None:
    match = api_user.new_match(start_scores=WINNING_START)
    api_user.add_hand(match["id"], WINNING_HAND)
    response = api_user.post(f"{hands_url(match)}/preview", json=MISSED)
    assert response.status_code == 409 and "Anna has won" in response.json["error"]


def test_editing_a_hand_recomputes_every_later_hand(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], MISSED)
    api_user.add_hand(match["id"], played(2, 100, [20, 20, None]))
    before = stored(api_user, match)
    assert before[1]["results"][1]["score"] == -100 + 20
    response = api_user.put(hands_url(match, 1), json=played(1, 100, [10, None, 10]))
    assert response.status_code == 200
    first, second = response.json["hands"]
    assert first["made"] is True and first["points"] == [10, 100, 10]
    assert second["results"][1]["score"] == 100 + 20
    assert second["results"][0]["score"] == 10 + 20
    assert stored(api_user, match) == response.json["hands"]


def test_editing_may_change_the_kind_and_accepts_the_same_body_with_expected_hand(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], {**MISSED, "expected_hand": 1})
    response = api_user.put(hands_url(match, 1), json={**REDEAL, "expected_hand": 1})
    assert response.status_code == 200
    assert response.json["hands"][0]["kind"] == "redeal"
    assert response.json["next"]["dealer"] == 0


def test_a_refused_edit_changes_nothing(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], MISSED)
    before = stored(api_user, match)
    response = api_user.put(hands_url(match, 1), json=played(1, 100, [20, None, 120]))
    assert response.status_code == 422 and response.json["field"] == "points"
    assert stored(api_user, match) == before


def test_an_edit_that_breaks_a_later_hand_is_refused_and_says_which(api_user: Any) -> None:
    match = api_user.new_match(start_scores=WINNING_START)
    api_user.add_hand(match["id"], played(1, 100, [0, None, 20]))
    api_user.add_hand(match["id"], WINNING_HAND)
    before = stored(api_user, match)
    response = api_user.put(hands_url(match, 1), json=WINNING_HAND)
    assert response.status_code == 422
    assert response.json["error"].startswith("Changing hand 1 would break hand 2:")
    assert stored(api_user, match) == before


def test_an_edit_can_unfinish_a_match(api_user: Any) -> None:
    match = api_user.new_match(start_scores=WINNING_START)
    api_user.add_hand(match["id"], WINNING_HAND)
    response = api_user.put(hands_url(match, 1), json=played(0, 140, [None, 60, 20]))
    assert response.status_code == 200
    assert response.json["status"] == "in_progress" and response.json["winner"] is None


@pytest.mark.parametrize("number", [0, 2, 99])
def test_editing_or_deleting_a_missing_hand_is_404(api_user: Any, number: int) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], MISSED)
    assert api_user.put(hands_url(match, number), json=MISSED).status_code == 404
    assert api_user.delete(hands_url(match, number)).status_code == 404
    assert api_user.delete(hands_url(match) + "/-1").status_code == 404
    assert len(stored(api_user, match)) == 1


def test_deleting_a_hand_renumbers_the_later_ones(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], played(1, 100, [20, None, 20]))
    api_user.add_hand(match["id"], played(2, 105, [20, 20, None]))
    api_user.add_hand(match["id"], played(0, 110, [None, 20, 20]))
    response = api_user.delete(hands_url(match, 1))
    assert response.status_code == 200
    hands = response.json["hands"]
    assert [h["number"] for h in hands] == [1, 2]
    assert [h["bid"] for h in hands] == [105, 110]
    assert [h["dealer"] for h in hands] == [0, 1]
    assert response.json["next"]["hand"] == 3
    assert stored(api_user, match) == hands
    api_user.add_hand(match["id"], {**MISSED, "expected_hand": 3})


def test_a_delete_that_breaks_a_later_hand_is_refused(api_user: Any) -> None:
    match = api_user.new_match(players=["A", "B", "C", "D"])
    api_user.add_hand(match["id"], played(1, 100, [None, None, 40, 40]))
    api_user.add_hand(match["id"], played(2, 100, [40, None, None, 40]))
    response = api_user.delete(hands_url(match, 1))
    assert response.status_code == 422 and response.json["field"] == "points"
    assert response.json["error"].startswith("Deleting hand 1 would break hand 2:")
    assert len(stored(api_user, match)) == 2


def test_bank_needs_a_finished_match(api_user: Any) -> None:
    match = api_user.new_match()
    response = api_user.post(f"/api/matches/{match['id']}/bank")
    assert response.status_code == 409
    assert "nobody has won" in response.json["error"]


def test_a_banked_match_keeps_its_winner_and_refuses_every_change(api_user: Any) -> None:
    match = api_user.new_match(start_scores=WINNING_START)
    api_user.add_hand(match["id"], WINNING_HAND)
    response = api_user.post(f"/api/matches/{match['id']}/bank")
    assert response.status_code == 200
    assert response.json["status"] == "banked" and response.json["winner"] == 0
    assert_read_only(api_user, match, "banked")


def test_end_an_unfinished_match(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], MISSED)
    response = api_user.post(f"/api/matches/{match['id']}/end")
    assert response.status_code == 200
    assert response.json["status"] == "ended"
    assert response.json["winner"] is None and response.json["next"] is None
    assert_read_only(api_user, match, "ended")


def test_a_finished_match_cannot_be_ended(api_user: Any) -> None:
    match = api_user.new_match(start_scores=WINNING_START)
    api_user.add_hand(match["id"], WINNING_HAND)
    response = api_user.post(f"/api/matches/{match['id']}/end")
    assert response.status_code == 409
    assert "bank it" in response.json["error"]


def assert_read_only(user: Any, match: dict[str, Any], status: str) -> None:
    """Every change to a banked or ended match is 409 and changes nothing."""
    before = user.get(f"/api/matches/{match['id']}").json
    base = f"/api/matches/{match['id']}"
    for method, url, body in [
        ("post", f"{base}/hands", MISSED),
        ("post", f"{base}/hands/preview", MISSED),
        ("put", f"{base}/hands/1", MISSED),
        ("delete", f"{base}/hands/1", None),
        ("post", f"{base}/bank", None),
        ("post", f"{base}/end", None),
    ]:
        response = getattr(user, method)(url, **({} if body is None else {"json": body}))
        assert response.status_code == 409, (method, url)
        assert status in response.json["error"]
    after = user.get(f"/api/matches/{match['id']}").json
    assert after == before and after["status"] == status


@pytest.mark.parametrize("expected", ["1", 0, True, 1.5])
def test_an_edit_with_a_malformed_expected_hand_is_400(api_user: Any, expected: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], MISSED)
    before = stored(api_user, match)
    response = api_user.put(hands_url(match, 1), json={**REDEAL, "expected_hand": expected})
    assert response.status_code == 400
    assert response.json == {"error": "The expected hand is a hand number: 1, 2, 3 …", "field": "expected_hand"}
    assert stored(api_user, match) == before


def test_a_correction_for_a_hand_that_moved_up_after_a_deletion_is_refused(api_user: Any) -> None:
    match = api_user.new_match()
    for declarer in (0, 1, 2):
        api_user.add_hand(
            match["id"], {"declarer": declarer, "bid": 100, "points": [None if s == declarer else 30 for s in range(3)]}
        )
    before = api_user.get(f"/api/matches/{match['id']}").json["hands"]
    seen = before[1]["version"]  # another phone's form for hand 2
    assert api_user.delete(f"/api/matches/{match['id']}/hands/2").status_code == 200
    late = api_user.put(
        f"/api/matches/{match['id']}/hands/2",
        json={"declarer": 1, "bid": 120, "points": [30, None, 30], "version": seen},
    )
    assert late.status_code == 409  # hand 3 moved into number 2: not the hand that form saw
    after = api_user.get(f"/api/matches/{match['id']}").json["hands"]
    assert after[1]["declarer"] == 2 and after[1]["bid"] == 100
