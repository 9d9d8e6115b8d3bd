"""A player's records (highest final score and biggest comeback, a Tichu team's apart; longest
winning streak, wins from the barrel, best Tichu calls), each with its match, in a range of
bank times, on the page and through the API, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Flask

from scoresheet.services.players.records import records_of
from scoresheet.storage.extensions import db
from scoresheet.storage.models import SeatFigure, User

from .helpers import WINNING_HAND, WINNING_START, played
from .page_helpers import Phone, parse


def seated_match(owner: Any, others: list[Any], players: list[str], **setup: Any) -> str:
    """`owner` starts a match, the others join it, everyone claims the seat of their order."""
    match = owner.new_match(players=players, **setup)
    for u in others:
        assert u.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    for seat, u in enumerate([owner, *others]):
        assert u.post(f"/api/matches/{match['id']}/seats/{seat}/claim").status_code == 200
    return str(match["id"])


def banked(owner: Any, match_id: str, hands: list[dict[str, Any]]) -> str:
    """Play these hands and bank the match."""
    for hand in hands:
        owner.add_hand(match_id, hand)
    assert owner.post(f"/api/matches/{match_id}/bank").status_code == 200
    return match_id


def four_matches(make_user: Any) -> tuple[Any, dict[str, str]]:
    """anna wins two Tysiacha matches (the second from the barrel), loses a third, then wins a
    Tichu match from −70; her user and the matches' ids by name."""
    anna, boris, vera, gleb = (make_user(n) for n in ("anna", "boris", "vera", "gleb"))
    three = ["Anna", "Boris", "Vera"]
    ids = {
        # 870 + 140 = 1010: a win straight past the barrel.
        "first": banked(anna, seated_match(anna, [boris, vera], three, start_scores=WINNING_START), [WINNING_HAND]),
        # 850 + 100 = 950, held at 880 on the barrel; 120 more from it: a win at 1000.
        "barrel": banked(
            anna,
            seated_match(anna, [boris, vera], three, start_scores=[850, 0, 0]),
            [played(0, 100, [None, 10, 10]), played(0, 120, [None, 0, 0])],
        ),
        # Boris wins with 140 from 870; anna takes 20: lost, the streak of two ends.
        "lost": banked(
            anna,
            seated_match(anna, [boris, vera], three, start_scores=[0, 870, 0]),
            [played(1, 140, [20, None, 20], marriages=[[], ["hearts"], []])],
        ),
    }
    tichu = [
        # anna's Tichu fails, Boris out first: her team −100 + 30 = −70, theirs 70.
        {"calls": ["tichu", None, None, None], "first_out": 1, "double_victory": False, "card_points": [30, 70]},
        # Twice her Grand Tichu and a double victory: −70 + 400 = 330, then 730 ≥ 500.
        {"calls": ["grand", None, None, None], "first_out": 0, "double_victory": True},
        {"calls": ["grand", None, None, None], "first_out": 0, "double_victory": True},
    ]
    ids["tichu"] = banked(
        anna,
        seated_match(
            anna, [boris, vera, gleb], ["Anna", "Boris", "Vera", "Gleb"], rules="tichu", options={"target": 500}
        ),
        tichu,
    )
    return anna, ids


def banked_at(app: Flask, match_id: str) -> datetime:
    with app.app_context():
        return db.session.execute(
            db.select(SeatFigure.banked_at).where(SeatFigure.match_id == match_id).limit(1)
        ).scalar_one()


def summary(app: Flask, since: datetime | None = None, until: datetime | None = None) -> dict[str, Any]:
    """anna's records as (value, of, match id) per record, in that range of bank times."""
    with app.app_context():
        anna = db.session.execute(db.select(User).where(User.username == "anna")).scalar_one()
        r = records_of(anna, since=since, until=until)
        return {"matches": r.matches} | {
            name: None if rec is None else (rec.value, rec.of, rec.match_id)
            for name, rec in (
                ("highest_score", r.highest_score),
                ("highest_team_score", r.highest_team_score),
                ("comeback", r.comeback),
                ("team_comeback", r.team_comeback),
                ("streak", r.streak),
                ("barrel_wins", r.barrel_wins),
                ("tichu_calls", r.tichu_calls),
            )
        }


def test_records_are_the_best_of_the_banked_matches_each_with_its_match(app: Flask, make_user: Any) -> None:
    _anna, ids = four_matches(make_user)
    assert summary(app) == {
        "matches": 4,
        "highest_score": (1010, 0, ids["first"]),
        "highest_team_score": (730, 0, ids["tichu"]),
        "comeback": None,  # the −70 was her Tichu team's, not a score of her own
        "team_comeback": (-70, 0, ids["tichu"]),
        "streak": (2, 0, ids["barrel"]),  # won, won, lost, won
        "barrel_wins": (1, 0, ids["barrel"]),
        "tichu_calls": (2, 3, ids["tichu"]),  # one Tichu lost, two Grand Tichus made
    }


def test_records_count_only_the_matches_banked_in_the_range(app: Flask, make_user: Any) -> None:
    _anna, ids = four_matches(make_user)
    lost = banked_at(app, ids["lost"])
    assert summary(app, since=lost) == {  # the lost match and the Tichu match
        "matches": 2,
        "highest_score": (20, 0, ids["lost"]),  # the Tichu team's 730 is not anna's own score
        "highest_team_score": (730, 0, ids["tichu"]),
        "comeback": None,
        "team_comeback": (-70, 0, ids["tichu"]),
        "streak": (1, 0, ids["tichu"]),
        "barrel_wins": None,
        "tichu_calls": (2, 3, ids["tichu"]),
    }
    assert summary(app, until=lost) == {  # half-open: the lost match is not before itself
        "matches": 2,
        "highest_score": (1010, 0, ids["first"]),
        "highest_team_score": None,
        "comeback": None,
        "team_comeback": None,
        "streak": (2, 0, ids["barrel"]),
        "barrel_wins": (1, 0, ids["barrel"]),
        "tichu_calls": None,
    }


def test_a_guest_seat_sets_no_record(app: Flask, make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match(start_scores=WINNING_START)
    assert boris.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    banked(anna, match["id"], [WINNING_HAND])  # anna won, but as a guest: nobody claimed her seat
    assert summary(app)["matches"] == 0 and summary(app)["highest_score"] is None


def records_page(csrf_app: Flask, username: str, of: str) -> dict[str, tuple[str, list[str]]]:
    """The records page of `of` as `username` sees it: each row's title, its words and links."""
    browser = Phone(csrf_app.test_client())
    assert browser.post("/login", {"username": username, "password": "correct horse"}).status_code == 302
    page = parse(browser.get(f"/players/{of}/records").text)
    return {
        cells[0].text(): (cells[1].text(), [a.attrs.get("href") for a in cells[2].walk() if a.tag == "a"])
        for cells in ([c for c in r.children if not isinstance(c, str)] for r in page.walk() if r.tag == "tr")
    }


def test_the_records_page_links_each_record_to_its_match(csrf_app: Flask, make_user: Any) -> None:
    _anna, ids = four_matches(make_user)
    browser = Phone(csrf_app.test_client())
    assert browser.post("/login", {"username": "anna", "password": "correct horse"}).status_code == 302
    assert 'href="/players/anna/records"' in browser.get("/players/anna").text
    rows = records_page(csrf_app, "anna", "anna")
    assert rows == {
        "Highest final score": ("1010", [f"/matches/{ids['first']}"]),
        "Biggest comeback: won from": ("—", []),
        "Highest team score in Tichu": ("730", [f"/matches/{ids['tichu']}"]),
        "Biggest Tichu comeback: the team won from": ("−70", [f"/matches/{ids['tichu']}"]),
        "Longest winning streak": ("2 matches won in a row", [f"/matches/{ids['barrel']}"]),
        "Wins from the barrel, in all (the latest)": ("1", [f"/matches/{ids['barrel']}"]),
        "Best Tichu calls in one match": ("2 of 3 calls made", [f"/matches/{ids['tichu']}"]),
    }


def test_the_records_page_shows_a_games_own_records_only_to_its_players(csrf_app: Flask, make_user: Any) -> None:
    _anna, ids = four_matches(make_user)  # gleb played the Tichu match only, on the losing team
    assert records_page(csrf_app, "anna", "gleb") == {
        "Highest team score in Tichu": ("70", [f"/matches/{ids['tichu']}"]),
        "Biggest Tichu comeback: the team won from": ("—", []),
        "Longest winning streak": ("—", []),
        "Best Tichu calls in one match": ("—", []),
    }
    ivan, lena, olga = (make_user(n) for n in ("ivan", "lena", "olga"))
    three = ["Ivan", "Lena", "Olga"]
    banked(ivan, seated_match(ivan, [lena, olga], three, start_scores=WINNING_START), [WINNING_HAND])
    assert list(records_page(csrf_app, "ivan", "ivan")) == [  # Tysiacha only: no Tichu rows
        "Highest final score",
        "Biggest comeback: won from",
        "Longest winning streak",
        "Wins from the barrel, in all (the latest)",
    ]
    make_user("nina")
    nothing_yet = records_page(csrf_app, "nina", "nina")  # no match yet: every record, each empty
    assert len(nothing_yet) == 7 and {words for words, _links in nothing_yet.values()} == {"—"}


def test_a_stranger_has_no_records_page(csrf_app: Flask, make_user: Any) -> None:
    four_matches(make_user)
    make_user("zoe")
    browser = Phone(csrf_app.test_client())
    assert browser.post("/login", {"username": "zoe", "password": "correct horse"}).status_code == 302
    assert browser.get("/players/anna/records").status_code == 404


def test_the_api_gives_a_players_records_to_a_tablemate_only(make_user: Any) -> None:
    anna, ids = four_matches(make_user)
    boris = make_user("boris2")
    answer = anna.get("/api/players/anna/records")
    assert answer.status_code == 200
    body = answer.json
    assert (body["username"], body["matches"]) == ("anna", 4)
    keys = ("highest_score", "highest_team_score", "team_comeback", "streak", "barrel_wins")
    assert body["comeback"] is None and {k: body[k]["value"] for k in keys} == {
        "highest_score": 1010,
        "highest_team_score": 730,
        "team_comeback": -70,
        "streak": 2,
        "barrel_wins": 1,
    }
    assert (body["tichu_calls"]["value"], body["tichu_calls"]["of"], body["tichu_calls"]["match"]) == (
        2,
        3,
        ids["tichu"],
    )
    assert body["streak"]["match"] == ids["barrel"] and body["streak"]["banked_at"].endswith("+00:00")
    assert boris.get("/api/players/anna/records").status_code == 404
