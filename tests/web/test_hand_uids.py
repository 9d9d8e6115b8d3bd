"""Naming what a change is about: every hand carries a uid for its whole life; a delete or a
correction that names one changes nothing (409) once hand n is another hand — the API, the
pages' edit and delete forms, and the Undo toast."""

from __future__ import annotations

from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .helpers import played
from .page_helpers import Phone, all_errors, flashes, parse
from .page_helpers import played as form_of

BORIS = played(1, 100, [20, None, 20])
VERA = played(2, 100, [20, 20, None])
BORIS_FORM = form_of(1, 100, [20, None, 20])
VERA_FORM = form_of(2, 100, [20, 20, None])


def hands_url(match: dict[str, Any], number: int | None = None) -> str:
    """The hands collection of a match, or one hand."""
    url = f"/api/matches/{match['id']}/hands"
    return url if number is None else f"{url}/{number}"


def hands(user: Any, match: dict[str, Any]) -> list[dict[str, Any]]:
    """The match's hands as the API shows them now."""
    return user.get(f"/api/matches/{match['id']}").json["hands"]


def test_every_hand_carries_a_uid_an_edit_keeps_and_no_new_hand_reuses(api_user: Any) -> None:
    match = api_user.new_match()
    for body in (BORIS, VERA, BORIS):
        api_user.add_hand(match["id"], body)
    before = hands(api_user, match)
    uids = [h["uid"] for h in before]
    assert len(set(uids)) == 3 and all(isinstance(u, str) and u for u in uids)
    response = api_user.put(hands_url(match, 2), json={**BORIS, "uid": uids[1]})
    assert response.status_code == 200, response.json
    assert [h["uid"] for h in response.json["hands"]] == uids  # the correction keeps it
    deleted = api_user.delete(hands_url(match, 2), query_string={"uid": uids[1]})
    assert [h["uid"] for h in deleted.json["hands"]] == [uids[0], uids[2]]  # renumbered, the same
    again = api_user.add_hand(match["id"], VERA)
    assert again["hands"][-1]["uid"] not in uids


def test_two_deletes_of_one_hand_delete_one_hand_not_two(api_user: Any) -> None:
    match = api_user.new_match()
    for body in (BORIS, VERA, BORIS, VERA):
        api_user.add_hand(match["id"], body)
    third = hands(api_user, match)[2]["uid"]
    first = api_user.delete(hands_url(match, 3), query_string={"uid": third})
    assert first.status_code == 200
    second = api_user.delete(hands_url(match, 3), query_string={"uid": third})
    assert second.status_code == 409 and "no longer the hand you saw" in second.json["error"]
    assert len(hands(api_user, match)) == 3  # the fourth hand, now hand 3, is still there


def test_a_delete_or_correction_names_its_hand_in_the_body_too(api_user: Any) -> None:
    match = api_user.new_match()
    for body in (BORIS, VERA):
        api_user.add_hand(match["id"], body)
    first, second = (h["uid"] for h in hands(api_user, match))
    assert api_user.put(hands_url(match, 1), json={**VERA, "uid": second}).status_code == 409
    assert api_user.put(hands_url(match, 1), json=VERA, query_string={"uid": second}).status_code == 409
    assert hands(api_user, match)[0]["declarer"] == 1  # nothing changed
    assert api_user.delete(hands_url(match, 1), json={"uid": second}).status_code == 409
    assert api_user.delete(hands_url(match, 1), json={"uid": 7}).status_code == 400
    # a uid sent as null, or a body with a key misspelt, is refused: never "whatever hand 1 is"
    for refused, field in (({"uid": None}, "uid"), ({"uidd": first}, "uidd")):
        answer = api_user.delete(hands_url(match, 1), json=refused)
        assert (answer.status_code, answer.json["field"]) == (400, field)
    answer = api_user.put(hands_url(match, 1), json={**VERA, "uid": None})
    assert (answer.status_code, answer.json["field"]) == (400, "uid")
    assert [h["uid"] for h in hands(api_user, match)] == [first, second]  # nothing changed
    assert api_user.delete(hands_url(match, 1), json={"uid": first}).status_code == 200
    assert [h["uid"] for h in hands(api_user, match)] == [second]


def toast_form(page: str) -> Any:
    """The undo (or take-back) form of a match page."""
    forms = [n for n in parse(page).walk() if "toast" in n.classes()]
    assert forms, "no toast"
    return forms[0]


def two_phones(make_phone: Any, app: Flask) -> tuple[Phone, Phone, str]:
    """anna's match, joined by boris's phone: (anna, boris, the match's id)."""
    anna, boris = make_phone("anna"), make_phone("boris")
    match_id = anna.new_match()
    with app.app_context():
        code = db.session.get(Match, match_id).join_code
    assert boris.post("/join", {"code": code}, form_url="/").status_code == 302
    return anna, boris, match_id


def test_a_stale_undo_never_deletes_the_hand_another_phone_recorded_in_its_place(
    make_phone: Any, csrf_app: Flask
) -> None:
    anna, boris, match_id = two_phones(make_phone, csrf_app)
    for number in range(1, 5):
        assert boris.hand(match_id, number, **(BORIS_FORM if number % 2 else VERA_FORM)).status_code == 302
    assert anna.hand(match_id, 5, **BORIS_FORM).status_code == 302
    undo = toast_form(anna.get(f"/matches/{match_id}").text)  # anna's phone shows "Undo hand 5"
    assert "uid=" in undo.attrs["action"]
    delete = boris.post(f"/matches/{match_id}/hands/2/delete", {"confirm": "y"})
    assert delete.status_code == 302
    assert boris.hand(match_id, 5, **VERA_FORM).status_code == 302  # boris's own hand 5
    response = anna.post(undo.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True)
    assert any("no longer the hand you saw" in f for f in flashes(response.text))
    with csrf_app.app_context():
        match = db.session.get(Match, match_id)
        assert [h.number for h in match.hands] == [1, 2, 3, 4, 5]
        assert match.hands[4].created_by is not None and match.hands[4].created_by.username == "boris"


def test_a_late_undo_deletes_nothing_once_another_phone_recorded_the_next_hand(
    make_phone: Any, csrf_app: Flask
) -> None:
    anna, boris, match_id = two_phones(make_phone, csrf_app)
    assert anna.hand(match_id, 1, **BORIS_FORM).status_code == 302
    undo = toast_form(anna.get(f"/matches/{match_id}").text)  # anna's phone shows "Undo hand 1"
    assert boris.hand(match_id, 2, **VERA_FORM).status_code == 302  # boris's hand, dealt after hers
    # Anna's tap arrives late: hand 1 is still hers, but no longer the newest.
    response = anna.post(undo.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True)
    assert (
        "Hand 1 is no longer the newest: boris recorded hand 2 after it. Nothing was undone; "
        "to delete hand 1 anyway, tap its number on the sheet."
    ) in flashes(response.text)
    with csrf_app.app_context():
        match = db.session.get(Match, match_id)
        assert [(h.number, h.created_by.username) for h in match.hands] == [(1, "anna"), (2, "boris")]
    # The sheet's own delete (its pencil, then the box ticked) still deletes it.
    edit = f"/matches/{match_id}/hands/1/delete"
    assert anna.post(edit, {"confirm": "y"}).status_code == 302
    with csrf_app.app_context():
        assert [h.created_by.username for h in db.session.get(Match, match_id).hands] == ["boris"]


def test_a_late_undo_of_a_tichu_round_says_round(make_phone: Any, csrf_app: Flask) -> None:
    from .test_pages_tichu import new_tichu, post_round

    anna, boris = make_phone("anna"), make_phone("boris")
    match_id = new_tichu(anna)
    with csrf_app.app_context():
        code = db.session.get(Match, match_id).join_code
    assert boris.post("/join", {"code": code}, form_url="/").status_code == 302
    assert post_round(anna, match_id, first_out="0").status_code == 302
    undo = toast_form(anna.get(f"/matches/{match_id}").text)
    assert post_round(boris, match_id, first_out="1").status_code == 302
    response = anna.post(undo.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True)
    assert (
        "Round 1 is no longer the newest: boris recorded round 2 after it. Nothing was undone; "
        "to delete round 1 anyway, tap its number on the sheet."
    ) in flashes(response.text)


def test_the_edit_page_names_the_hand_in_its_form_and_its_delete_link(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    assert phone.hand(match_id, 1, **BORIS_FORM).status_code == 302
    assert phone.hand(match_id, 2, **VERA_FORM).status_code == 302
    with csrf_app.app_context():
        first, second = (h.uid for h in db.session.get(Match, match_id).hands)
    page = phone.get(f"/matches/{match_id}/hands/1/edit").text
    assert f'name="uid" type="hidden" value="{first}"' in page
    assert f"/matches/{match_id}/hands/1/delete?uid={first}" in page
    # The link followed after another phone deleted hand 1: hand 1 is the second hand now.
    phone.post(f"/matches/{match_id}/hands/1/delete", {"confirm": "y"})
    for number in (1, 2):  # hand 1 another hand now, hand 2 none: no question, the sheet again
        asked = phone.get(f"/matches/{match_id}/hands/{number}/delete?uid={first}", follow_redirects=True)
        assert "no longer the hand you saw" in " ".join(flashes(asked.text)), number
    response = phone.post(
        f"/matches/{match_id}/hands/1/delete?uid={first}", {"confirm": "y"}, form_url=f"/matches/{match_id}"
    )
    assert response.status_code == 302
    with csrf_app.app_context():
        assert [h.uid for h in db.session.get(Match, match_id).hands] == [second]
    # A correction made on the page of the hand deleted since: refused as such, nothing changed.
    data = {**form_of(1, 100, [30, None, 10]), "uid": first}
    response = phone.post(
        f"/matches/{match_id}/hands/1/edit", data, form_url=f"/matches/{match_id}", follow_redirects=True
    )
    assert "The hand you meant was deleted meanwhile: there is nothing to correct." in flashes(response.text)


def test_the_correction_form_asked_for_by_a_hands_uid_is_that_hands_wherever_it_moved(
    phone: Phone, csrf_app: Flask
) -> None:
    # The phone's queue ("Correct it again") asks for the form of the hand it meant: after
    # another phone deleted hand 1, hand 2 is hand 1 and the third hand is hand 2.
    match_id = phone.new_match()
    for number, form in enumerate((BORIS_FORM, VERA_FORM, BORIS_FORM), start=1):
        assert phone.hand(match_id, number, **form).status_code == 302
    with csrf_app.app_context():
        first, meant, third = (h.uid for h in db.session.get(Match, match_id).hands)
    phone.post(f"/matches/{match_id}/hands/1/delete?uid={first}", {"confirm": "y"}, form_url=f"/matches/{match_id}")
    moved = phone.get(f"/matches/{match_id}/hands/2/edit?uid={meant}")
    assert moved.status_code == 302 and moved.location == f"/matches/{match_id}/hands/1/edit?uid={meant}"
    page = phone.get(moved.location)
    assert "The hand you meant is hand 1 now: the sheet changed meanwhile." in flashes(page.text)
    assert f'name="uid" type="hidden" value="{meant}"' in page.text  # its form, not the third hand's
    assert phone.get(f"/matches/{match_id}/hands/2/edit?uid={third}").status_code == 200  # where it is
    # Deleted meanwhile: no form of another hand, the sheet and why.
    gone = phone.get(f"/matches/{match_id}/hands/2/edit?uid={first}", follow_redirects=True)
    assert gone.request.path == f"/matches/{match_id}"
    assert "The hand you meant was deleted meanwhile: there is nothing to correct." in flashes(gone.text)
    assert phone.get(f"/matches/{match_id}/hands/9/edit?uid={first}", follow_redirects=True).request.path == (
        f"/matches/{match_id}"
    )


def test_a_stale_pencil_on_the_sheet_opens_the_hand_the_player_saw_not_the_one_that_took_its_number(
    make_phone: Any, csrf_app: Flask
) -> None:
    anna, boris, match_id = two_phones(make_phone, csrf_app)
    for number, form in enumerate((BORIS_FORM, VERA_FORM, BORIS_FORM), start=1):
        assert boris.hand(match_id, number, **form).status_code == 302
    sheet = parse(anna.get(f"/matches/{match_id}").text)  # anna's phone shows hands 1 to 3
    pencil = next(n for n in sheet.walk() if n.tag == "a" and n.attrs.get("aria-label") == "Correct or delete hand 2")
    with csrf_app.app_context():
        first, meant, third = (h.uid for h in db.session.get(Match, match_id).hands)
    assert pencil.attrs["href"] == f"/matches/{match_id}/hands/2/edit?uid={meant}"
    delete = boris.post(f"/matches/{match_id}/hands/1/delete?uid={first}", {"confirm": "y"})
    assert delete.status_code == 302  # anna's sheet has not heard yet: she taps ✎ of hand 2
    opened = anna.get(pencil.attrs["href"], follow_redirects=True)
    assert opened.request.path == f"/matches/{match_id}/hands/1/edit"
    assert "The hand you meant is hand 1 now: the sheet changed meanwhile." in flashes(opened.text)
    assert f'name="uid" type="hidden" value="{meant}"' in opened.text and third not in opened.text


def test_a_stale_take_back_never_pushes_down_the_hand_another_phone_recorded_in_its_place(
    make_phone: Any, csrf_app: Flask
) -> None:
    anna, boris, match_id = two_phones(make_phone, csrf_app)
    for number in range(1, 5):
        assert anna.hand(match_id, number, **(BORIS_FORM if number % 2 else VERA_FORM)).status_code == 302
    undo = toast_form(anna.get(f"/matches/{match_id}").text)
    anna.post(undo.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}")
    take_back = toast_form(anna.get(f"/matches/{match_id}").text)  # "Take it back: restore hand 4"
    assert "hands=3" in take_back.attrs["action"]
    assert boris.hand(match_id, 4, **VERA_FORM).status_code == 302  # the right hand 4, on boris's phone
    response = anna.post(
        take_back.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True
    )
    assert any(
        f.startswith("The sheet changed after hand 4 was deleted: nothing was restored.")
        for f in flashes(response.text)
    )
    with csrf_app.app_context():
        match = db.session.get(Match, match_id)
        assert [h.number for h in match.hands] == [1, 2, 3, 4]
        assert match.hands[3].created_by is not None and match.hands[3].created_by.username == "boris"
    # From the history, asked for on purpose, the hand still comes back (as hand 4, boris's 5th).
    entry = take_back.attrs["action"].split("entry=")[1].split("&")[0]
    restored = anna.post(f"/matches/{match_id}/history/restore?entry={entry}", {"confirm": "y"})
    assert restored.status_code == 302
    restored_words = "The deleted hand is back as hand 4; the hands after it are recomputed."
    assert restored_words in flashes(anna.get(f"/matches/{match_id}").text)
    with csrf_app.app_context():
        assert len(db.session.get(Match, match_id).hands) == 5


def test_a_take_back_on_the_sheet_it_was_offered_on_restores_the_hand(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    assert phone.hand(match_id, 1, **BORIS_FORM).status_code == 302
    phone.post(toast_form(phone.get(f"/matches/{match_id}").text).attrs["action"], {"confirm": "y"}, form_url="/")
    take_back = toast_form(phone.get(f"/matches/{match_id}").text)
    assert "hands=0" in take_back.attrs["action"]
    forged = take_back.attrs["action"].replace("hands=0", "hands=x")
    refused = phone.post(forged, {"confirm": "y"}, form_url="/", follow_redirects=True)
    assert any(f.startswith("The sheet changed after hand 1") for f in flashes(refused.text))
    response = phone.post(take_back.attrs["action"], {"confirm": "y"}, form_url="/", follow_redirects=True)
    assert "The deleted hand is back as hand 1." in flashes(response.text)  # the newest: none after it
    twice = phone.post(take_back.attrs["action"], {"confirm": "y"}, form_url="/", follow_redirects=True)
    assert "The hand anna deleted was restored already." in flashes(twice.text)  # a second tap: said so


def test_a_correction_whose_version_the_page_did_not_write_is_refused_and_changes_nothing(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match()
    assert phone.hand(match_id, 1, **BORIS_FORM).status_code == 302
    with csrf_app.app_context():
        uid = db.session.get(Match, match_id).hands[0].uid
    for version in ("abc", "-1", "0", "１", "9" * 40):
        data = {**form_of(1, 120, [30, None, 10]), "uid": uid, "version": version}
        refused = phone.post(f"/matches/{match_id}/hands/1/edit", data, form_url=f"/matches/{match_id}")
        assert refused.status_code == 422, version
        assert any(
            e.startswith("This form was out of date or not sent from this site") for e in all_errors(refused.text)
        )
    with csrf_app.app_context():
        hand = db.session.get(Match, match_id).hands[0]
        assert (hand.record["bid"], hand.version) == (100, 1)
