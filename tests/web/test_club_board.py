"""The club night's board behind the watch link (CLUB.md §4): a card per table with its live
scores, the countdown, the standings, and the version its live updates follow."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_api_club import add_guests, made, make_event, missed, patch


@pytest.fixture
def director(make_user: Any) -> Any:
    """The director of the events below."""
    return make_user("director")


def _token(event: dict[str, Any]) -> str:
    return str(event["watch_url"].rsplit("/", 1)[1])


def _cards(html: str) -> list[list[tuple[str, str]]]:
    """Each card's lines as (name, score), in table order."""
    cards = re.findall(r'<li class="club-card[^"]*">(.*?)</li>', html, re.S)
    return [re.findall(r'<th scope="row">([^<]*)</th><td>([^<]*)</td>', card) for card in cards]


def test_the_board_shows_a_card_per_table_with_each_players_score_as_it_stands(director: Any, client: Any) -> None:
    event = make_event(director, time_limit=45, seed=7)
    add_guests(director, event["id"], ["Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"])
    tables = director.post(f"/api/events/{event['id']}/rounds").json["tables"]
    director.add_hand(tables[0]["match_id"], made(0))  # 140, 20, 20
    director.add_hand(tables[1]["match_id"], missed(2))  # 20, 20, −100
    html = client.get(f"/events/watch/{_token(event)}").get_data(as_text=True)
    first, second = tables[0]["players"], tables[1]["players"]
    assert _cards(html) == [
        [(first[0], "140"), (first[1], "20"), (first[2], "20")],
        [(second[0], "20"), (second[1], "20"), (second[2], "−100")],
    ]
    assert "1 hand" in html
    assert "45 minutes left" in html
    assert "Round 1 of 3" in html
    # A club night's round is the word the night's other pages use (ru: тур), not a Tichu deal's
    # (ru: раунд): the two are different words in every language but English.
    russian = client.get(f"/events/watch/{_token(event)}", headers={"Accept-Language": "ru"})
    assert "Тур 1 из 3" in russian.get_data(as_text=True) and "Раунд" not in russian.get_data(as_text=True)


def test_the_board_version_moves_with_a_hand_a_round_seated_again_or_closed_and_the_roster_and_answers_304_otherwise(
    director: Any, client: Any, make_user: Any
) -> None:
    event = make_event(director, time_limit=45, seed=11)
    add_guests(director, event["id"], ["Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"])
    url = f"/events/watch/{_token(event)}/version"
    before = client.get(url)
    assert before.status_code == 200
    assert before.headers["Cache-Control"] == "no-cache, private"
    same = client.get(url, headers={"If-None-Match": f'"{before.json["version"]}"'})
    assert same.status_code == 304
    versions = [before.json["version"]]
    rounds = f"/api/events/{event['id']}/rounds"

    def moved() -> str:
        version = client.get(url).json["version"]
        assert version not in versions
        versions.append(version)
        return str(version)

    director.post(rounds)
    assert moved().endswith(".45")  # the countdown's minute too
    assert director.delete(f"{rounds}/1").status_code == 204
    moved()  # taken back: nothing seated
    table = director.post(rounds).json["tables"][0]  # seated again: new tables, new matches
    moved()
    director.add_hand(table["match_id"], made(0))
    moved()
    assert patch(director, f"/api/events/{event['id']}/roster/Ivan", {"status": "absent"}).status_code == 200
    moved()
    director.post(f"{rounds}/1/close")
    assert moved().count(".") == 0  # closed: no countdown
    add_guests(director, event["id"], ["Jana"])
    moved()
    corrected = director.put(f"/api/matches/{table['match_id']}/hands/1", json=missed(0))  # a closed round's table
    assert corrected.status_code == 200, corrected.json
    moved()
    result = f"{rounds}/1/tables/1/result"  # the first table, played and corrected above
    assert director.put(result, json={"scores": [100, 50, 0]}).status_code == 200
    moved()
    codirector = make_user("codirector")
    assert director.post(f"/api/events/{event['id']}/directors", json={"username": "codirector"}).status_code == 201
    moved()
    again = codirector.put(result, json={"scores": [100, 50, 0]})  # the same scores, entered by another
    assert again.json["tables"][0]["result"]["entered_by"] == "codirector"
    moved()
    # What the board page was rendered at is what the version answers.
    page = client.get(f"/events/watch/{_token(event)}").get_data(as_text=True)
    assert f'data-version="{client.get(url).json["version"]}"' in page
    assert client.get("/events/watch/nosuchtoken/version").status_code == 404


def test_a_tichu_board_shows_a_line_per_team_with_its_score(director: Any, client: Any) -> None:
    event = make_event(director, game={"rules": "tichu", "options": {}})
    for name, team in (("Dana", "North"), ("Egor", "North"), ("Fima", "East"), ("Gleb", "East")):
        assert director.post(f"/api/events/{event['id']}/roster", json={"guest": name, "team": team}).status_code == 201
    table = director.post(f"/api/events/{event['id']}/rounds").json["tables"][0]
    players = table["players"]
    html = client.get(f"/events/watch/{_token(event)}").get_data(as_text=True)
    assert _cards(html) == [[(f"{players[0]} &amp; {players[2]}", "0"), (f"{players[1]} &amp; {players[3]}", "0")]]
    played = {"calls": [None, None, None, None], "first_out": 0, "double_victory": False, "card_points": [60, 40]}
    director.add_hand(table["match_id"], played)
    html = client.get(f"/events/watch/{_token(event)}").get_data(as_text=True)
    # A table's deals are the game's rounds, under the night's "Round 1 of 3": English names them apart.
    assert re.findall(r'<span class="club-card-state">\s*([^<]*?)\s*</span>', html) == ["1 Tichu round"]


def test_the_board_has_the_whole_standings_and_a_print_style_that_keeps_only_them(director: Any, client: Any) -> None:
    event = make_event(director)
    add_guests(director, event["id"], ["Dana", "Egor", "Fima"])
    html = client.get(f"/events/watch/{_token(event)}").get_data(as_text=True)
    assert "The first round is not seated yet." in html
    assert html.count('<th scope="row">') == 3  # a row per roster entry
    css = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text(encoding="utf-8")
    assert css.index(".club-board .club-round,") > css.index("@media print")  # printed: no cards
