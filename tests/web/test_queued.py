"""Hands a phone kept offline and sends later: the same hand form, answered in JSON
that the phone's script reads; a fresh CSRF token at send time; the offline page in the
player's language."""

from __future__ import annotations

from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import AuditEntry, Hand

from .page_helpers import Phone, count_hands, flashes, played

JSON = {"Accept": "application/json"}


def send(phone: Phone, url: str, fields: dict[str, Any], csrf: str | None = None) -> Any:
    """Post a kept hand as static/offline.js does: a token fetched now, JSON wanted."""
    token = csrf if csrf is not None else phone.get("/csrf-token").json["csrf_token"]
    return phone.client.post(url, data={**fields, "csrf_token": token}, headers=JSON)


def test_a_kept_hand_is_recorded_with_201_and_its_flash_waits_for_the_sheet(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.get(f"/matches/{match_id}")  # "Match started." shown
    answer = send(phone, f"/matches/{match_id}/hands/new", {**played(1, 100, [40, None, 20]), "expected_hand": "1"})
    assert answer.status_code == 201 and answer.json == {"ok": True, "number": 1}
    assert count_hands(csrf_app) == 1
    assert flashes(phone.get(f"/matches/{match_id}").text) == ["Hand 1 recorded."]


def test_a_kept_hand_whose_number_was_taken_meanwhile_is_a_conflict_naming_the_next_hand(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match()
    phone.get(f"/matches/{match_id}")  # "Match started." shown
    assert phone.hand(match_id, 1, **played(0, 100, [None, 10, 20])).status_code == 302
    phone.get(f"/matches/{match_id}")  # "Hand 1 recorded." shown
    answer = send(phone, f"/matches/{match_id}/hands/new", {**played(1, 100, [40, None, 20]), "expected_hand": "1"})
    assert answer.status_code == 409
    assert answer.json["conflict"] is True and answer.json["next"] == 2
    assert answer.json["message"]
    assert count_hands(csrf_app) == 1
    assert flashes(phone.get(f"/matches/{match_id}").text) == []  # the phone shows it instead


def test_a_kept_hand_or_correction_of_a_match_ended_meanwhile_is_a_conflict_that_says_it_is_closed(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match()
    assert phone.hand(match_id, 1, **played(0, 100, [None, 10, 20])).status_code == 302
    open_conflict = send(
        phone, f"/matches/{match_id}/hands/new", {**played(1, 100, [40, None, 20]), "expected_hand": "1"}
    )
    assert open_conflict.json["closed"] is False  # the match goes on: add it as the next hand
    assert (
        phone.post(f"/matches/{match_id}/end", {"confirm": "y"}, form_url=f"/matches/{match_id}/end").status_code == 302
    )
    for url, data in (
        (f"/matches/{match_id}/hands/new", {**played(1, 100, [40, None, 20]), "expected_hand": "2"}),
        (f"/matches/{match_id}/hands/1/edit", {**played(0, 110, [None, 10, 20]), "version": "1"}),
    ):
        answer = send(phone, url, data)
        assert answer.status_code == 409 and answer.json["closed"] is True and answer.json["next"] is None
        assert answer.json["message"] in (
            "No more hands can be entered in this match.",
            "This match is closed: its hands can no longer change.",
        )
    assert count_hands(csrf_app) == 1


def test_a_kept_hand_the_rules_refuse_is_422_with_the_forms_own_sentence(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    answer = send(phone, f"/matches/{match_id}/hands/new", {**played(1, 100, [80, None, 60]), "expected_hand": "1"})
    assert answer.status_code == 422 and answer.json["conflict"] is False
    assert "120" in answer.json["message"]
    assert count_hands(csrf_app) == 0


def test_a_kept_correction_of_a_hand_changed_meanwhile_is_a_conflict(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    url = f"/matches/{match_id}/hands/1/edit"
    assert send(phone, url, {**played(1, 100, [45, None, 20]), "version": "1"}).status_code == 201
    stale = send(phone, url, {**played(1, 100, [30, None, 20]), "version": "1"})
    assert stale.status_code == 409 and stale.json["conflict"] is True


def test_a_correction_of_a_hand_deleted_meanwhile_is_gone_and_says_so_on_the_page_too(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    phone.hand(match_id, 2, **played(2, 100, [40, 20, None]))
    with csrf_app.app_context():
        first = db.session.execute(db.select(Hand.uid).where(Hand.number == 1)).scalar_one()
    phone.post(f"/matches/{match_id}/hands/1/delete", {"confirm": "y"}, form_url=f"/matches/{match_id}")
    correction = {**played(1, 120, [40, None, 20]), "version": "1", "uid": first}  # of the hand deleted
    url = f"/matches/{match_id}/hands/1/edit"
    words = "The hand you meant was deleted meanwhile: there is nothing to correct."
    kept = send(phone, url, correction)
    assert kept.status_code == 404 and kept.json == {"ok": False, "conflict": False, "deleted": True, "message": words}
    phone.get(f"/matches/{match_id}")  # the deletion's flash read
    typed = phone.post(url, correction, form_url=url, follow_redirects=True)
    assert flashes(typed.text) == [words]
    with csrf_app.app_context():
        assert db.session.execute(db.select(Hand.record)).scalar_one()["bid"] == 100  # hand 2, now 1, as it was


def test_a_kept_hand_sent_again_after_its_answer_was_lost_is_recorded_once_and_answered_201(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match()
    hand = {**played(1, 100, [40, None, 20]), "expected_hand": "1"}
    assert send(phone, f"/matches/{match_id}/hands/new", hand).status_code == 201
    # The answer never reached the phone: it sends the same hand again.
    again = send(phone, f"/matches/{match_id}/hands/new", hand)
    assert again.status_code == 201 and again.json == {"ok": True, "number": 1}
    assert count_hands(csrf_app) == 1
    assert "already recorded" not in " ".join(flashes(phone.get(f"/matches/{match_id}").text))
    # Another hand in that place is still a conflict: it is not the hand sent.
    other = send(phone, f"/matches/{match_id}/hands/new", {**played(2, 100, [40, 20, None]), "expected_hand": "1"})
    assert other.status_code == 409 and other.json["next"] == 2
    assert count_hands(csrf_app) == 1


def test_a_kept_correction_sent_again_after_its_answer_was_lost_is_made_once_and_answered_201(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    url = f"/matches/{match_id}/hands/1/edit"
    correction = {**played(1, 100, [45, None, 20]), "version": "1"}
    assert send(phone, url, correction).status_code == 201
    again = send(phone, url, correction)
    assert again.status_code == 201 and again.json == {"ok": True, "number": 1}
    with csrf_app.app_context():
        hand = db.session.execute(db.select(Hand)).scalar_one()
        edits = db.session.execute(db.select(AuditEntry).where(AuditEntry.action == "hand_edited")).scalars().all()
    assert hand.version == 2 and hand.record["points"] == [45, None, 20] and len(edits) == 1


def test_a_kept_hand_needs_a_valid_token_and_the_token_needs_a_log_in(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    refused = send(phone, f"/matches/{match_id}/hands/new", played(1, 100, [40, None, 20]), csrf="not a token")
    assert refused.status_code == 400 and count_hands(csrf_app) == 0
    # In JSON, saying it was the token (the phone fetches another; the hand is not "gone").
    assert refused.json["csrf"] is True and refused.json["message"]
    token = phone.get("/csrf-token")
    assert "no-store" in token.headers["Cache-Control"]
    stranger = csrf_app.test_client().get("/csrf-token")
    assert stranger.status_code == 302 and "/login" in stranger.location


def test_the_offline_page_speaks_the_language_the_worker_asks_for(client: Any) -> None:
    assert 'lang="pl"' in client.get("/offline?lang=pl").text
    assert "Brak połączenia" in client.get("/offline?lang=pl").text
    assert 'lang="en"' in client.get("/offline?lang=xx").text


def test_every_refusal_of_a_kept_hand_is_json_and_only_a_refused_token_says_csrf(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    fields = {**played(1, 100, [40, None, 20]), "expected_hand": "1"}
    gone = send(phone, "/matches/999999/hands/new", fields)
    assert gone.status_code == 404 and gone.json["csrf"] is False
    assert gone.json["message"] == "There is no such match."
    no_hand = send(phone, f"/matches/{match_id}/hands/7/edit", {**fields, "version": "1"})
    assert no_hand.status_code == 404 and "hand 7" in no_hand.json["message"]
    assert count_hands(csrf_app) == 0
    # The page answers stay pages.
    page = phone.client.post(f"/matches/{match_id}/hands/new", data={**fields, "csrf_token": "not a token"})
    assert page.status_code == 400 and "text/html" in page.content_type
