"""Players' pages: "I am Anna" on the match page, the creator giving seats, a
player's page and the leaderboard, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from sqlalchemy import update

from scoresheet.storage.extensions import db
from scoresheet.storage.models import PlayerTotal, RatingSummary

from .page_helpers import errors_next_to, flashes, parse, played
from .test_pages_tichu import new_tichu, post_round


def seated_win(make_phone: Any) -> tuple[Any, Any, str]:
    """Anna starts a match from 870, Boris joins; Anna claims her seat, gives Boris his and
    wins in one hand, and banks it."""
    anna, boris = make_phone("anna"), make_phone("boris")
    match_id = anna.new_match(**{"start_scores-0": "870"})
    code = re.search(r'class="code" translate="no">(\w+)<', anna.get(f"/matches/{match_id}").text)
    assert code
    boris.post("/join", {"code": code.group(1)}, form_url="/")
    page = anna.get(f"/matches/{match_id}").text
    assert "I am Anna" in page and "I am Boris" in page
    seat_url = f"/matches/{match_id}/seats"
    response = anna.post(f"{seat_url}/0/claim", {}, form_url=f"/matches/{match_id}")
    assert response.status_code == 302
    anna.post(f"{seat_url}/1/assign", {"username": "boris"}, form_url=f"/matches/{match_id}")
    page = anna.get(f"/matches/{match_id}").text
    assert "I am" not in page  # Anna has a seat now
    assert 'href="/players/boris"' in page and 'href="/players/anna"' in page
    anna.hand(match_id, 1, **played(0, 140, [None, 20, 20], {0: ["hearts"]}))
    anna.post(f"/matches/{match_id}/bank", {"confirm": "y"})
    return anna, boris, match_id


def figure_rows(phone: Any, name: str, language: str = "en") -> dict[str, str]:
    """The rows of a player's page in this language: each figure's label and value."""
    page = parse(phone.get(f"/players/{name}", headers={"Accept-Language": language}).text)
    return {r.children[0].text(): r.children[1].text() for r in page.walk() if r.tag == "tr" and len(r.children) == 2}


def test_seats_are_claimed_and_given_on_the_match_page(make_phone: Any) -> None:
    anna, boris, match_id = seated_win(make_phone)
    response = boris.post(f"/matches/{match_id}/seats/0/claim", {}, form_url=f"/matches/{match_id}")
    assert flashes(boris.get(f"/matches/{match_id}").text) == ["anna has claimed this seat already."]
    assert response.status_code == 302


def test_the_player_page_shows_figures_rating_and_head_to_head(make_phone: Any) -> None:
    anna, boris, _match_id = seated_win(make_phone)
    page = boris.get("/players/anna")
    assert page.status_code == 200
    rows = [n for n in parse(page.text).walk() if n.tag == "tr"]
    figures = {
        cells[0].text(): cells[1].text() for cells in ([c for c in r.children if isinstance(c, type(r))] for r in rows)
    }
    assert figures["Matches played"] == "1" and figures["Won"] == "1"
    assert figures["Win rate"] == "100 %" and figures["Highest bid made"] == "140"
    assert "You and anna: 1 banked match together." in page.text
    line = next(n.text() for n in parse(page.text).walk() if "head-to-head" in n.classes())
    assert line.endswith("You finished ahead 0 times, anna 1 time."), line  # plural forms
    for language, said in (
        ("ru", "Вы были впереди 0 раз, anna — 1 раз."),
        ("uk", "Ви були попереду 0 разів, anna — 1 раз."),
        ("pl", "Ty — wyżej 0 razy, anna — 1 raz."),
    ):
        translated = boris.get("/players/anna", headers={"Accept-Language": language}).text
        assert next(n.text() for n in parse(translated).walk() if "head-to-head" in n.classes()).endswith(said), (
            language
        )
    assert "<polyline" in page.text
    rating = next(n.text() for n in parse(page.text).walk() if "rating" in n.classes())
    assert re.fullmatch(r"-?\d+\.\d", rating), rating
    assert figures["Average place"] == "1.0"
    for language in ("de", "ru", "uk", "pl"):  # decimals as the language writes them
        translated = parse(boris.get("/players/anna", headers={"Accept-Language": language}).text)
        assert next(n.text() for n in translated.walk() if "rating" in n.classes()) == rating.replace(".", ","), (
            language
        )
        assert "1,0" in [n.text() for n in translated.walk() if n.tag == "td"], language
    board = anna.get("/leaderboard").text
    assert board.index('href="/players/anna"') < board.index('href="/players/boris"')


def test_a_kept_player_page_shows_what_changed_since(make_phone: Any) -> None:
    """The body of a player's page is rendered once per language and figures and kept
    (`player_pages._figures`): read again after a seat was claimed and a match banked, in
    another language, or by someone else, it shows what is true now for that reader."""
    anna, boris, _match_id = seated_win(make_phone)

    def cells(phone: Any, language: str = "en") -> dict[str, str]:
        return figure_rows(phone, "anna", language)

    assert cells(anna)["Matches played"] == "1" and cells(anna, "de")["Gespielte Partien"] == "1"
    match_id = anna.new_match(**{"start_scores-0": "870"})
    anna.post(f"/matches/{match_id}/seats/0/claim", {}, form_url=f"/matches/{match_id}")
    assert (cells(anna)["Matches played"], cells(anna)["Banked"]) == ("2", "1")
    anna.hand(match_id, 1, **played(0, 140, [None, 20, 20], {0: ["hearts"]}))
    anna.post(f"/matches/{match_id}/bank", {"confirm": "y"})
    assert (cells(anna)["Banked"], cells(anna)["Won"]) == ("2", "2")
    assert cells(anna, "de")["Gewonnen"] == "2"
    own, seen = anna.get("/players/anna").text, boris.get("/players/anna").text
    assert "You and anna" not in own and "Guests at your table" in own
    assert "You and anna: 1 banked match together." in seen and "Guests at your table" not in seen


def test_a_player_page_is_kept_by_the_rows_it_was_made_from(make_phone: Any, csrf_app: Flask) -> None:
    """The kept body's key holds the rows read for it (`players.figure_rows`), not what was
    made of them: a kept total or a rating history changed behind the app's back (no bank,
    no claim) shows at once; were it kept by the name, or without the history, it would not."""
    anna, _boris, _match_id = seated_win(make_phone)
    zeros = int(figure_rows(anna, "anna")["Zeros"])

    def rating() -> str:
        page = parse(anna.get("/players/anna").text)
        return next(n.text() for n in page.walk() if "rating" in n.classes())

    assert rating() != "12.5"
    for change in (
        update(RatingSummary).values(points=[[1, "elsewhere", 12.5]]),
        update(PlayerTotal).values(zeros=PlayerTotal.zeros + 7),
    ):
        with csrf_app.app_context():
            db.session.execute(change)
            db.session.commit()
        assert rating() == "12.5"
    assert int(figure_rows(anna, "anna")["Zeros"]) == zeros + 7


def test_a_stranger_finds_no_player(make_phone: Any) -> None:
    seated_win(make_phone)
    vera = make_phone("vera")
    vera.get("/")  # past the welcome
    hidden, missing = vera.get("/players/anna"), vera.get("/players/nobody")
    assert hidden.status_code == missing.status_code == 404
    main = [[n.text() for n in parse(r.text).walk() if n.tag == "main"] for r in (hidden, missing)]
    assert main[0] == main[1] and "There is no such player." in main[0][0]


def test_a_tichu_players_page_counts_calls_by_kind_and_double_victories(make_phone: Any) -> None:
    anna = make_phone("anna")
    match_id = new_tichu(anna, **{"start_scores-0": "900"})
    anna.post(f"/matches/{match_id}/seats/0/claim", {}, form_url=f"/matches/{match_id}")
    post_round(
        anna, match_id, first_out="0", calls_0="tichu", calls_1="grand", card_points="35"
    )  # Anna & Vera 1035: they win
    anna.post(f"/matches/{match_id}/bank", {"confirm": "y"})
    for language, rows in (
        (
            "en",
            {"Won": "1", "Tichu: won / called": "1 / 1", "Grand Tichu: won / called": "0 / 0", "Double victories": "0"},
        ),
        (
            "de",
            {
                "Gewonnen": "1",
                "Tichu: geschafft / angesagt": "1 / 1",
                "Großes Tichu: geschafft / angesagt": "0 / 0",
                "Doppelsiege": "0",
            },
        ),
    ):
        cells = figure_rows(anna, "anna", language)
        assert {k: cells.get(k) for k in rows} == rows, (language, cells)
        assert not [k for k in cells if "Great Grand" in k or "Großes Großes" in k]  # not called


def test_the_leaderboard_compares_any_two_players_of_my_table(make_phone: Any) -> None:
    """Head to head of any two people of the viewer's table: Vera, who shares a
    match with Anna and with Boris, compares them; a name outside one's table answers as a
    missing player; the same player twice is refused next to the field."""
    anna, boris, _match_id = seated_win(make_phone)
    vera = make_phone("vera")
    match_id = vera.new_match()
    code = re.search(r'class="code" translate="no">(\w+)<', vera.get(f"/matches/{match_id}").text)
    assert code
    for phone in (anna, boris):
        phone.post("/join", {"code": code.group(1)}, form_url="/")
    board = parse(vera.get("/leaderboard").text)
    offered = {
        n.attrs["id"]: [o.attrs["value"] for o in n.walk() if o.tag == "option"]
        for n in board.walk()
        if n.tag == "select" and n.attrs["id"] != "period"  # the period's choices are the same for everyone
    }
    assert offered == {"one": ["anna", "boris"], "two": ["anna", "boris"]}  # the rated ones
    page = vera.get("/head-to-head?one=boris&two=ANNA")
    assert page.status_code == 200
    line = next(n.text() for n in parse(page.text).walk() if "head-to-head" in n.classes())
    assert line == (
        "boris and anna: 1 banked match together. boris finished ahead 0 times. anna finished ahead 1 time."
    )
    russian = vera.get("/head-to-head?one=boris&two=anna", headers={"Accept-Language": "ru"})
    assert next(n.text() for n in parse(russian.text).walk() if "head-to-head" in n.classes()) == (
        "boris и anna: 1 общая закрытая партия. boris — впереди 0 раз. anna — впереди 1 раз."
    )
    same = vera.get("/head-to-head?one=anna&two=anna")
    assert same.status_code == 422
    assert errors_next_to(same.text, "two") == ["Choose two different players."]
    assert vera.get("/head-to-head").status_code == 200  # the picker alone
    dmitri = make_phone("dmitri")
    dmitri.get("/")  # past the welcome
    hidden, missing = (dmitri.get(f"/head-to-head?one=anna&two={name}") for name in ("boris", "nobody"))
    assert hidden.status_code == missing.status_code == 404
    main = [[n.text() for n in parse(r.text).walk() if n.tag == "main"] for r in (hidden, missing)]
    assert main[0] == main[1] and "There is no such player." in main[0][0]


def test_notices_the_history_and_the_leaderboard_name_players_as_the_sheet_does(make_phone: Any) -> None:
    """Once anna claimed the seat the table wrote as "Anna", the other phones' notice, the
    history and the leaderboard say Anna; a change of seats keeps the account's name."""
    anna, boris, match_id = seated_win(make_phone)
    board = next(n for n in parse(anna.get("/leaderboard").text).walk() if "leaderboard" in n.classes())
    assert [a.text() for a in board.walk() if a.tag == "a"] == ["Anna", "Boris"]
    assert "(anna)" not in board.text()  # one Anna: no account name needed
    history = anna.get(f"/matches/{match_id}/history").text
    assert "Anna recorded hand 1" in history and "Anna banked the match" in history
    assert "anna is Anna on the sheet now" in history  # the seat itself: the account
    second = anna.new_match()
    code = re.search(r'class="code" translate="no">(\w+)<', anna.get(f"/matches/{second}").text)
    assert code
    boris.post("/join", {"code": code.group(1)}, form_url="/")
    anna.post(f"/matches/{second}/seats/0/claim", {}, form_url=f"/matches/{second}")
    anna.hand(second, 1, **played(0, 100, [None, 20, 20], {0: ["hearts"]}))
    undo = next(n for n in parse(anna.get(f"/matches/{second}").text).walk() if "toast" in n.classes())
    anna.post(undo.attrs["action"], {"confirm": "y"}, form_url=f"/matches/{second}")
    assert "Anna deleted hand 1" in boris.get(f"/matches/{second}").text
