"""The match page right after a change: undo in one tap for whoever saved the hand,
take it back after an undo, a few words for the other phones; nothing of it stored."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import AuditEntry, Match
from scoresheet.web.pages.news import UNDO_SECONDS

from .page_helpers import Phone, flashes, parse, played

HAND = played(1, 120, [35, None, 45], {1: ["hearts"]})


def toast(page: str) -> str:
    """The text of the page's undo or take-back button, '' if it has none."""
    forms = [n for n in parse(page).walk() if "toast" in n.classes()]
    return forms[0].text() if forms else ""


def age_history(app: Flask, seconds: int) -> None:
    """Move every history entry `seconds` into the past (as if the player waited)."""
    with app.app_context():
        for entry in db.session.execute(db.select(AuditEntry)).scalars():
            entry.at = entry.at - timedelta(seconds=seconds)
        db.session.commit()


def test_the_player_who_saved_the_hand_can_undo_it_and_take_the_undo_back(make_phone: Any, csrf_app: Flask) -> None:
    anna, boris = make_phone("anna"), make_phone("boris")
    match_id = anna.new_match()
    with csrf_app.app_context():
        code = db.session.get(Match, match_id).join_code
    assert boris.post("/join", {"code": code}, form_url="/").status_code == 302
    anna.hand(match_id, 1, **HAND)
    assert make_phone("vera").post("/join", {"code": code}, form_url="/").status_code == 302  # a player joins
    page = anna.get(f"/matches/{match_id}").text
    assert toast(page) == "Undo hand 1"  # the join aside
    assert toast(boris.get(f"/matches/{match_id}").text) == ""  # only for who saved it

    # One tap: the form of the button, as it is on the page.
    undo = [n for n in parse(page).walk() if "toast" in n.classes()][0]
    response = anna.post(undo.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True)
    assert "Hand 1 undone." in flashes(response.text)  # the newest hand: none after it to recompute
    assert toast(response.text) == "Take it back: restore hand 1"
    boris.post(f"/matches/{match_id}/seats/1/claim", {}, form_url=f"/matches/{match_id}")
    news = [n for n in parse(boris.get(f"/matches/{match_id}").text).walk() if "news" in n.classes()]
    assert news and news[0].text() == "anna deleted hand 1"  # a seat claimed since: still news

    response = anna.get(f"/matches/{match_id}")
    assert toast(response.text) == "Take it back: restore hand 1"  # boris's claim aside
    take_back = [n for n in parse(response.text).walk() if "toast" in n.classes()][0]
    response = anna.post(
        take_back.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True
    )
    assert "The deleted hand is back as hand 1" in " ".join(flashes(response.text))
    assert toast(response.text) == ""  # a restore is not undone in one tap
    assert "anna restored hand 1" in boris.get(f"/matches/{match_id}").text


def test_the_undo_is_offered_only_for_a_few_seconds_and_only_for_the_last_hand(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **HAND)
    phone.hand(match_id, 2, **played(2, 100, [20, 20, None]))
    assert toast(phone.get(f"/matches/{match_id}").text) == "Undo hand 2"
    age_history(csrf_app, UNDO_SECONDS)
    assert toast(phone.get(f"/matches/{match_id}").text) == ""
    phone.post(
        f"/matches/{match_id}/hands/1/edit", {**HAND, "bid": "125"}, form_url=f"/matches/{match_id}/hands/1/edit"
    )
    page = phone.get(f"/matches/{match_id}").text
    assert toast(page) == ""  # a correction: use ✎ again
    assert "anna corrected hand 1" in page


def test_a_tichu_round_is_undone_and_named_as_a_round(make_phone: Any) -> None:
    from .test_pages_tichu import new_tichu, post_round

    anna = make_phone("anna")
    match_id = new_tichu(anna)
    assert post_round(anna, match_id, first_out="0").status_code == 302
    page = anna.get(f"/matches/{match_id}").text
    assert toast(page) == "Undo round 1"
    undo = [n for n in parse(page).walk() if "toast" in n.classes()][0]
    response = anna.post(undo.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True)
    assert "Round 1 undone." in flashes(response.text)
    assert toast(response.text) == "Take it back: restore round 1"
    assert "anna deleted round 1" in response.text
    take_back = [n for n in parse(response.text).walk() if "toast" in n.classes()][0]
    response = anna.post(
        take_back.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{match_id}", follow_redirects=True
    )
    assert "The deleted round is back as round 1." in flashes(response.text)  # the newest: none after it
    assert post_round(anna, match_id, first_out="1").status_code == 302
    question = anna.get(f"/matches/{match_id}/hands/1/delete").text
    assert "every later round moves up one number" in question
    last = anna.post(f"/matches/{match_id}/hands/2/delete", {"confirm": "y"}, follow_redirects=True)
    assert "Round 2 deleted." in flashes(last.text)
