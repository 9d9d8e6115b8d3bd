"""Pages for a Tichu table: start a match, enter, correct and delete rounds, the sheet per
team, the call statistics, the CSV."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Hand

from .page_helpers import Phone, all_errors, errors_next_to, flashes, group_errors, parse

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def new_tichu(phone: Phone, **fields: Any) -> str:
    """Start a Tichu match through the page; its id."""
    return phone.new_match(PLAYERS, rules="tichu", sheet="", **fields)


def post_round(phone: Phone, match_id: str, number: int | None = None, **fields: Any) -> Any:
    """Post the round form (new, or a correction of round `number`) with these fields."""
    url = f"/matches/{match_id}/hands/new" if number is None else f"/matches/{match_id}/hands/{number}/edit"
    data = {
        "calls_0": "",
        "calls_1": "",
        "calls_2": "",
        "calls_3": "",
        "card_points": "50",
        **{k: v for k, v in fields.items() if v is not None},
    }
    return phone.post(url, data)


def records(app: Flask) -> list[dict[str, Any]]:
    """The stored round records, in order."""
    with app.app_context():
        return [h.record for h in db.session.execute(db.select(Hand).order_by(Hand.number)).scalars()]


def standings(phone: Phone, match_id: str) -> list[tuple[str, int]]:
    """The standings shown: (name, score) per team."""
    page = parse(phone.get(f"/matches/{match_id}").text)
    names = [n.text() for n in page.walk() if "name" in n.classes() and n.tag == "div"]
    scores = [int(n.text().replace("\u2212", "-")) for n in page.walk() if "score" in n.classes() and n.tag == "div"]
    return list(zip(names, scores, strict=True))


def test_the_round_form_is_one_thumbs_work(phone: Phone) -> None:
    match_id = new_tichu(phone)
    page = phone.get(f"/matches/{match_id}/hands/new").text
    for seat, name in enumerate(PLAYERS):
        assert f'name="first_out" type="radio" value="{seat}"' in page
        for call in ("", "tichu", "grand"):
            assert f'name="calls_{seat}" type="radio" value="{call}"' in page
        assert f"{name} called" in page
    assert 'value="great_grand"' not in page
    assert 'name="double_victory" type="checkbox"' in page
    assert 'inputmode="numeric"' in page and 'name="card_points"' in page
    assert 'value="50"' in page  # a new round starts at 50 : 50
    assert "Boris &amp; Gleb" in page and "Card points Anna &amp; Vera" in page
    assert 'name="kind"' not in page and 'name="declarer"' not in page


def test_great_grand_is_offered_where_the_table_plays_it(phone: Phone) -> None:
    match_id = new_tichu(phone, great_grand_tichu="y")
    assert 'name="calls_1" type="radio" value="great_grand"' in phone.get(f"/matches/{match_id}/hands/new").text


def test_a_round_saved_from_the_form(phone: Phone, csrf_app: Flask) -> None:
    match_id = new_tichu(phone)
    response = post_round(
        phone, match_id, first_out="0", calls_0="tichu", calls_1="grand", card_points="35", expected_hand="1"
    )
    assert response.status_code == 302, all_errors(response.text)
    assert records(csrf_app) == [
        {"calls": ["tichu", "grand", None, None], "first_out": 0, "double_victory": False, "card_points": [35, 65]}
    ]
    assert standings(phone, match_id) == [("Anna & Vera", 135), ("Boris & Gleb", -135)]
    page = phone.get(f"/matches/{match_id}").text
    assert "Round 2: Boris deals." in parse(page).text()


def test_a_double_victory_sends_no_card_points(phone: Phone, csrf_app: Flask) -> None:
    match_id = new_tichu(phone)
    response = post_round(phone, match_id, first_out="1", double_victory="y", card_points="50")
    assert response.status_code == 302, all_errors(response.text)
    assert records(csrf_app)[0]["card_points"] is None
    assert standings(phone, match_id) == [("Anna & Vera", 0), ("Boris & Gleb", 200)]


def test_refusals_are_shown_next_to_their_field(phone: Phone, csrf_app: Flask) -> None:
    match_id = new_tichu(phone)
    called = post_round(phone, match_id, calls_2="tichu")
    assert called.status_code == 422
    assert errors_next_to(called.text, "first_out-0") == ["Vera called Tichu: say who went out first."]
    odd = post_round(phone, match_id, card_points="52")
    assert errors_next_to(odd.text, "card_points") == ["Card points go in fives; Anna & Vera have 52."]
    high = post_round(phone, match_id, card_points="130")
    assert "Card points are from -25 to 125" in errors_next_to(high.text, "card_points")[0]
    empty = post_round(phone, match_id, card_points="")
    assert errors_next_to(empty.text, "card_points")[0].startswith("Enter the card points")
    unknown = post_round(phone, match_id, calls_1="great_grand", first_out="1")
    assert errors_next_to(unknown.text, "calls_1-0") == ["Pick a call: none, Tichu or Grand."]
    assert records(csrf_app) == []


def test_a_table_that_plays_great_grand_names_it_in_the_call_refusal(phone: Phone, csrf_app: Flask) -> None:
    match_id = new_tichu(phone, great_grand_tichu="y")
    unknown = post_round(phone, match_id, calls_1="grandest", first_out="1")
    assert errors_next_to(unknown.text, "calls_1-0") == ["Pick a call: none, Tichu, Grand or Great Grand."]
    assert records(csrf_app) == []


def test_negative_card_points_have_a_sign_key_and_are_saved(phone: Phone, csrf_app: Flask) -> None:
    match_id = new_tichu(phone)
    page = parse(phone.get(f"/matches/{match_id}/hands/new").text)
    sign = [n for n in page.walk() if n.attrs.get("data-sign-for") == "card_points"]
    assert len(sign) == 1 and sign[0].text() == "±" and sign[0].attrs["aria-label"]
    assert post_round(phone, match_id, first_out="1", card_points="-15").status_code == 302
    assert records(csrf_app)[0]["card_points"] == [-15, 115]
    assert "cards −15 : 115" in parse(phone.get(f"/matches/{match_id}").text).text()  # the minus sign, as scores


def test_correct_and_delete_a_round(phone: Phone, csrf_app: Flask) -> None:
    match_id = new_tichu(phone)
    post_round(phone, match_id, card_points="60")
    post_round(phone, match_id, card_points="25")
    form = phone.get(f"/matches/{match_id}/hands/1/edit").text
    assert "Correct round 1" in form and 'value="60"' in form
    response = post_round(phone, match_id, 1, card_points="70", first_out="2", calls_2="grand", version="1")
    assert response.status_code == 302, all_errors(response.text)
    assert "Round 1 corrected; the rounds after it are recomputed." in flashes(phone.get(f"/matches/{match_id}").text)
    assert standings(phone, match_id) == [("Anna & Vera", 295), ("Boris & Gleb", 105)]
    response = phone.post(f"/matches/{match_id}/hands/1/delete", {"confirm": "y"})
    assert response.status_code == 302
    assert [r["card_points"] for r in records(csrf_app)] == [[25, 75]]
    # The newest round (now round 1): nothing after it moves or is recomputed.
    version = re.search(
        r'name="version" type="hidden" value="(\d+)"', phone.get(f"/matches/{match_id}/hands/1/edit").text
    )
    assert version and post_round(phone, match_id, 1, card_points="30", version=version[1]).status_code == 302
    assert "Round 1 corrected." in flashes(phone.get(f"/matches/{match_id}").text)
    question = phone.get(f"/matches/{match_id}/hands/1/delete").text
    assert "Round 1 is removed." in question and "later round" not in question


def test_the_match_page_per_team_with_call_statistics(phone: Phone) -> None:
    match_id = new_tichu(phone, **{"start_scores-0": "900", "start_scores-1": "-20"})
    post_round(phone, match_id, first_out="0", calls_0="tichu", calls_1="grand", card_points="35")
    page = phone.get(f"/matches/{match_id}").text
    text = parse(page).text()
    assert "Anna & Vera win with 1035!" in text
    assert "Anna: Tichu ✓" in text and "Boris: Grand Tichu ✗" in text
    assert "cards 35 : 65" in text
    table = next(n for n in parse(page).walk() if "calls-table" in n.classes())
    rows = [r.text() for r in table.walk() if r.tag == "tr"]
    assert rows[1:] == ["Anna 1 / 1 0 / 0", "Boris 0 / 0 0 / 1", "Vera 0 / 0 0 / 0", "Gleb 0 / 0 0 / 0"]
    assert "Double victories: Anna & Vera 0 · Boris & Gleb 0." in text
    assert 'class="run seat-0"' in page and 'class="run seat-1"' in page
    assert 'class="run seat-2"' not in page  # the race is per team
    chart = next(n for n in parse(page).walk() if "race" in n.classes())
    assert "Score race over 1 round:" in chart.text() and "round 1" in chart.text()
    assert "hand" not in chart.text()
    assert "Bank the match" in text


def test_the_csv_download_of_a_tichu_match(phone: Phone) -> None:
    match_id = new_tichu(phone)
    post_round(phone, match_id, card_points="60", first_out="3")
    text = phone.get(f"/matches/{match_id}/sheet.csv").data.decode("utf-8")
    assert text.splitlines()[0].startswith("\ufeffhand,dealer,first_out,calls,Anna & Vera,")
    assert text.splitlines()[1] == "1,Anna,Gleb,,60,60,0,60,40,40,0,40"


def test_starting_a_tichu_match_from_the_page(phone: Phone) -> None:
    data = {f"players-{i}": n for i, n in enumerate(PLAYERS)}
    gold = phone.post(
        "/matches/new", {**data, "rules": "tichu", "target": "", "sheet": "", "first_dealer": "0", "gold_set": "y"}
    )
    assert group_errors(gold.text, "Options") == ["Tichu has no gold set: that is a Tysiacha option."]
    grand = phone.post(
        "/matches/new",
        {**data, "rules": "squarescores", "target": "", "sheet": "", "first_dealer": "0", "great_grand_tichu": "y"},
    )
    assert group_errors(grand.text, "Options") == ["Great Grand Tichu is a Tichu call; SquareScores has none."]
    ok = phone.post("/matches/new", {**data, "rules": "tichu", "target": "1500", "sheet": "", "first_dealer": "0"})
    assert ok.status_code == 302
    three = phone.post(
        "/matches/new",
        {
            "players-0": "A",
            "players-1": "B",
            "players-2": "C",
            "rules": "tichu",
            "target": "",
            "sheet": "",
            "first_dealer": "0",
        },
    )
    assert three.status_code == 422
    assert group_errors(three.text, "Players, clockwise") == ["Tichu is played by 4 players, in two teams, not 3."]
    page = parse(phone.get(ok.location).text).text()
    assert "to 1500" in page and "Anna & Vera · Boris & Gleb" in page


def test_the_preview_shows_the_engine_result_per_team(phone: Phone) -> None:
    match_id = new_tichu(phone)
    fields = {
        "calls_0": "tichu",
        "calls_1": "grand",
        "calls_2": "",
        "calls_3": "",
        "first_out": "0",
        "card_points": "35",
    }
    answer = phone.post(f"/matches/{match_id}/hands/preview", fields, form_url=f"/matches/{match_id}/hands/new").json
    assert answer["ok"] is True
    assert answer["seats"] == ["Anna & Vera: +135 → 135, Tichu made", "Boris & Gleb: −135 → −135, Grand failed"]
    refused = phone.post(
        f"/matches/{match_id}/hands/preview", {**fields, "first_out": ""}, form_url=f"/matches/{match_id}/hands/new"
    ).json
    assert refused == {"ok": False, "field": "first_out", "message": "Anna called Tichu: say who went out first."}


def test_a_deleted_round_comes_back_from_the_history(phone: Phone, csrf_app: Flask) -> None:
    match_id = new_tichu(phone)
    post_round(phone, match_id, card_points="60", first_out="0", calls_0="tichu")
    phone.post(f"/matches/{match_id}/hands/1/delete", {"confirm": "y"})
    history = phone.get(f"/matches/{match_id}/history").text
    assert "Anna out first, Anna: Tichu, cards 60 : 40" in parse(history).text()
    assert "Restore this round…" in parse(history).text()
    assert records(csrf_app) == []


def test_a_german_table_reads_its_own_tichu_words(phone: Phone) -> None:
    match_id = new_tichu(phone)
    post_round(phone, match_id, first_out="0", calls_0="tichu", calls_1="grand", card_points="35")
    german = {"Accept-Language": "de"}
    form = parse(phone.get(f"/matches/{match_id}/hands/new", headers=german).text).text()
    for words in (
        "Runde 2",
        "Zuerst raus",
        "Ansage: Boris",
        "Keine Ansage",
        "Großes",
        "Doppelsieg: 1. und 2. raus, +200",
        "Kartenpunkte Anna & Vera",
        "Runde 2 speichern",
    ):
        assert words in form, words
    page = parse(phone.get(f"/matches/{match_id}", headers=german).text).text()
    for words in (
        "Runde 2: Boris gibt.",
        "Tichu geschafft",
        "Großes Tichu verloren",
        "Zuerst raus: Anna",
        "Karten 35 : 65",
        "Ansagen",
        "Doppelsiege:",
        "Punkteverlauf über 1 Runde:",
    ):
        assert words in page, words
