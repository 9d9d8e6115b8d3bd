"""Who is at the table: a join code can be replaced (the old one joins nothing at once), the
creator removes a member, a member leaves; a removed member is a stranger from then on; a
won, banked or ended match takes no new member by code (its watch link is for onlookers)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .helpers import WINNING_HAND, WINNING_START
from .page_helpers import Phone, flashes, parse


def join(user: Any, code: str) -> Any:
    """POST /api/matches/join."""
    return user.post("/api/matches/join", json={"code": code})


def test_a_replaced_join_code_joins_nothing_at_once(make_user: Any) -> None:
    anna, boris, vera = make_user("anna"), make_user("boris"), make_user("vera")
    match = anna.new_match()
    assert join(boris, match["join_code"]).status_code == 200
    response = boris.post(f"/api/matches/{match['id']}/code")  # any member
    assert response.status_code == 201 and set(response.json) == {"join_code"}
    new = response.json["join_code"]
    assert new != match["join_code"]
    assert join(vera, match["join_code"]).status_code == 404
    assert join(vera, new).status_code == 200
    assert anna.get(f"/api/matches/{match['id']}").json["join_code"] == new
    history = anna.get(f"/api/matches/{match['id']}/history").json["history"]
    assert history[1]["action"] == "join_code_replaced" and "boris" in history[1]["words"]
    assert make_user("stranger").post(f"/api/matches/{match['id']}/code").status_code == 404


def test_the_creator_removes_a_member_who_then_sees_nothing_of_the_match(make_user: Any) -> None:
    anna, boris, vera = make_user("anna"), make_user("boris"), make_user("vera")
    match = anna.new_match()
    for user in (boris, vera):
        assert join(user, match["join_code"]).status_code == 200
    url = f"/api/matches/{match['id']}"
    assert boris.delete(f"{url}/members/vera").status_code == 403  # only the creator removes others
    assert anna.delete(f"{url}/members/nobody").status_code == 404
    response = anna.delete(f"{url}/members/VERA")
    assert response.status_code == 204 and response.data == b""
    assert anna.get(url).json["members"] == ["anna", "boris"]
    for path in ("", "/history", "/seats", "/links", "/sheet.csv"):
        assert vera.get(url + path).status_code == 404, path
    assert vera.post(f"{url}/hands", json=WINNING_HAND).status_code == 404
    assert match["id"] not in [m["id"] for m in vera.get("/api/matches").json["matches"]]
    history = anna.get(f"{url}/history").json["history"]
    assert history[0]["action"] == "member_removed" and history[0]["words"] == "anna removed vera from the match"


def test_a_member_leaves_and_the_last_one_out_takes_the_match_along(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match()
    assert join(boris, match["join_code"]).status_code == 200
    url = f"/api/matches/{match['id']}"
    assert boris.delete(f"{url}/members/boris").status_code == 204
    assert boris.get(url).status_code == 404
    assert anna.get(f"{url}/history").json["history"][0]["words"] == "boris left the match"
    assert anna.delete(f"{url}/members/anna").status_code == 204  # the creator may leave too
    assert anna.get(url).status_code == 404


@pytest.mark.parametrize("ending", ["won", "banked", "ended"])
def test_a_won_banked_or_ended_match_takes_no_new_member_by_code(make_user: Any, ending: str) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match(start_scores=WINNING_START)
    if ending in ("won", "banked"):
        anna.add_hand(match["id"], WINNING_HAND)
    if ending != "won":
        assert anna.post(f"/api/matches/{match['id']}/{'bank' if ending == 'banked' else 'end'}").status_code == 200
    response = join(boris, match["join_code"])
    assert response.status_code == 409 and "watch link" in response.json["error"]
    assert anna.get(f"/api/matches/{match['id']}").json["members"] == ["anna"]
    assert join(anna, match["join_code"]).status_code == 200  # a member already: nothing changes


def test_the_match_page_replaces_the_code_removes_members_and_lets_one_leave(make_phone: Any, csrf_app: Flask) -> None:
    anna, boris, vera = make_phone("anna"), make_phone("boris"), make_phone("vera")
    match_id = anna.new_match()
    with csrf_app.app_context():
        old = db.session.get(Match, match_id).join_code
    for phone in (boris, vera):
        assert phone.post("/join", {"code": old}, form_url="/").status_code == 302
    page = anna.get(f"/matches/{match_id}").text
    buttons = {n.text() for n in parse(page).walk() if n.tag == "button"}
    assert {"Replace the join code", "Remove boris", "Remove vera", "Leave the match"} <= buttons
    boris_page = {n.text() for n in parse(boris.get(f"/matches/{match_id}").text).walk() if n.tag == "button"}
    assert "Leave the match" in boris_page and "Remove vera" not in boris_page

    response = anna.post(f"/matches/{match_id}/code", {}, form_url=f"/matches/{match_id}", follow_redirects=True)
    assert "New join code: the old link, QR code and code no longer work." in flashes(response.text)
    with csrf_app.app_context():
        assert db.session.get(Match, match_id).join_code != old
    gleb = Phone(csrf_app.test_client())
    gleb.register("gleb")
    assert gleb.get(f"/join/{old}").status_code == 404

    response = anna.post(
        f"/matches/{match_id}/members/vera/remove", {}, form_url=f"/matches/{match_id}", follow_redirects=True
    )
    assert "vera is no longer a member of this match." in flashes(response.text)
    assert vera.get(f"/matches/{match_id}").status_code == 404
    response = boris.post(
        f"/matches/{match_id}/members/boris/remove", {}, form_url=f"/matches/{match_id}", follow_redirects=True
    )
    assert "You left the match: it is no longer on your list." in flashes(response.text)
    assert boris.get(f"/matches/{match_id}").status_code == 404


def test_joining_a_finished_match_on_the_page_says_why(make_phone: Any, csrf_app: Flask) -> None:
    anna, boris = make_phone("anna"), make_phone("boris")
    match_id = anna.new_match()
    anna.post(f"/matches/{match_id}/end", {"confirm": "y"})
    with csrf_app.app_context():
        code = db.session.get(Match, match_id).join_code
    response = boris.post("/join", {"code": code}, form_url="/")
    assert "This match is over: it takes no new players." in response.text
    # The join link says so before any tap: no Join button, logged in or not.
    page = boris.get(f"/join/{code}").text
    assert "This match is over: it takes no new players." in page and 'class="wide">Join</button>' not in page
    page = Phone(csrf_app.test_client()).get(f"/join/{code}").text
    assert "This match is over: it takes no new players." in page and "Make an account or log in" not in page
    response = boris.post(f"/join/{code}", {}, follow_redirects=True)
    assert any("This match is over" in f for f in flashes(response.text))
    assert boris.get(f"/matches/{match_id}").status_code == 404


def test_the_join_link_of_a_match_won_but_not_banked_takes_nobody(make_phone: Any, csrf_app: Flask) -> None:
    anna, boris = make_phone("anna"), make_phone("boris")
    match_id = anna.new_match(**{f"start_scores-{i}": str(s) for i, s in enumerate(WINNING_START)})
    with csrf_app.app_context():
        code = db.session.get(Match, match_id).join_code
    assert "Join this match?" in boris.get(f"/join/{code}").text  # open, nobody has won yet
    form = {"declarer": "0", "bid": "140", "points_1": "20", "points_2": "20", "marriages_0": "hearts"}
    assert anna.hand(match_id, **form).status_code == 302  # 870 + 140: won, not banked
    page = boris.get(f"/join/{code}").text
    assert "This match is over: it takes no new players." in page and 'class="wide">Join</button>' not in page
    assert "Join this match?" not in page
