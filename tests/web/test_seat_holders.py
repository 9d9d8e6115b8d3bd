"""A claimed seat is its holder's: nobody, the creator neither, claims or gives it away (409)
until it is a guest again; a holder whose seat someone else changed is told on their next
page, once, in their language."""

from __future__ import annotations

from typing import Any

from flask import Flask

from scoresheet.storage import models
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match, User

from .page_helpers import Phone, flashes
from .test_statement_counts import kinds, statements


def seats_url(match: dict[str, Any]) -> str:
    """The seats of a match."""
    return f"/api/matches/{match['id']}/seats"


def test_the_creator_cannot_take_or_give_a_seat_someone_else_claimed(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match()
    assert boris.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    assert boris.post(f"{seats_url(match)}/1/claim").status_code == 200
    for response in (
        anna.post(f"{seats_url(match)}/1/claim"),
        anna.put(f"{seats_url(match)}/1", json={"username": "anna"}),
    ):
        assert response.status_code == 409 and response.json["error"] == "boris has claimed this seat already."
    assert [s["username"] for s in anna.get(seats_url(match)).json["seats"]] == [None, "boris", None]


def seat_page(csrf_app: Flask) -> tuple[Phone, Phone, str]:
    """anna's match, boris a member of it, each on their phone."""
    anna, boris = Phone(csrf_app.test_client()), Phone(csrf_app.test_client())
    anna.register("anna")
    boris.register("boris")
    match_id = anna.new_match()
    with csrf_app.app_context():
        code = db.session.get(Match, match_id).join_code
    assert boris.post("/join", {"code": code}, form_url="/").status_code == 302
    return anna, boris, match_id


RELEASED = "anna made the seat of Boris a guest again in the match Anna · Boris · Vera: it is no longer yours."
"""What boris is told once anna made the seat he claimed a guest again (`released_seat`)."""


def released_seat(csrf_app: Flask) -> tuple[Phone, Phone, str]:
    """`seat_page`, then boris claims the seat of Boris and anna makes it a guest again; the
    match page's address."""
    anna, boris, match_id = seat_page(csrf_app)
    at = f"/matches/{match_id}"
    boris.post(f"{at}/seats/1/claim", {}, form_url=at)
    anna.post(f"{at}/seats/1/release", {}, form_url=at)
    return anna, boris, at


def test_a_holder_is_told_once_when_the_creator_makes_their_seat_a_guest(csrf_app: Flask) -> None:
    anna, boris, at = released_seat(csrf_app)
    assert RELEASED in flashes(boris.get("/").text)
    assert RELEASED not in flashes(boris.get("/").text)  # once
    assert RELEASED not in flashes(anna.get("/").text)  # only the holder
    boris.post(f"{at}/seats/2/claim", {}, form_url=at)  # his next change forgets it
    with csrf_app.app_context():
        assert db.session.execute(db.select(models.Notice)).first() is None


def test_a_page_asks_for_notices_only_when_a_newer_one_waits(csrf_app: Flask) -> None:
    """The user's newest notice is read with the user: a page whose browser has shown it asks
    nothing more, and a notice that comes later is still told."""
    anna, boris, at = released_seat(csrf_app)
    assert RELEASED in flashes(boris.get("/").text)
    with statements(csrf_app) as sent:
        assert flashes(boris.get("/").text) == []
    assert "SELECT notices" not in kinds(sent), sent
    anna.post(f"{at}/seats/2/assign", {"username": "boris"}, form_url=at)
    assert flashes(boris.get("/").text) == ["anna gave you the seat of Vera in the match Anna · Boris · Vera."]


def test_a_member_given_a_seat_is_told_in_their_own_language(csrf_app: Flask) -> None:
    anna, boris, match_id = seat_page(csrf_app)
    at = f"/matches/{match_id}"
    with csrf_app.app_context():
        user = db.session.execute(db.select(User).filter_by(username="boris")).scalar_one()
        user.language = "de"
        db.session.commit()
    anna.post(f"{at}/seats/2/assign", {"username": "boris"}, form_url=at)
    assert any(f.startswith("anna hat dir den Platz von Vera") for f in flashes(boris.get("/").text))
