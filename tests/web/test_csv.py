"""The sheet as CSV: BOM, header, rows, total, formula cells neutralised, numbers left alone."""

from __future__ import annotations

import csv
import io
from typing import Any

from scoresheet.services import accounts
from scoresheet.services.matches.export import safe_cell
from scoresheet.storage.extensions import db
from scoresheet.storage.models import User

from .helpers import played


def rows(response: Any) -> list[list[str]]:
    """The CSV rows of a response, after checking the BOM."""
    text = response.data.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_csv_has_bom_header_rows_and_total(api_user: Any) -> None:
    match = api_user.new_match(players=["Аня", "Борис", "Вера"], start_scores=[650, 420, 300])
    api_user.add_hand(match["id"], played(1, 160, [42, None, 23], marriages=[[], ["hearts", "clubs"], []]))
    api_user.add_hand(match["id"], played(2, 120, [30, 30, None]))
    response = api_user.get(f"/api/matches/{match['id']}/sheet.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment; filename=") and disposition.endswith('.csv"')
    header, first, second, total = rows(response)
    assert header == [
        "hand",
        "dealer",
        "declarer",
        "bid",
        "outcome",
        "Аня",
        "Аня total",
        "Аня owed",
        "Аня score",
        "Борис",
        "Борис total",
        "Борис owed",
        "Борис score",
        "Вера",
        "Вера total",
        "Вера owed",
        "Вера score",
    ]
    assert first == [
        "1",
        "Аня",
        "Борис",
        "160",
        "made",
        "40",
        "690",
        "0",
        "690",
        "160",
        "580",
        "0",
        "580",
        "25",
        "325",
        "0",
        "325",
    ]
    assert second[:5] == ["2", "Борис", "Вера", "120", "missed"]
    assert second[13:] == ["0", "325", "120", "205"]
    assert total == [
        "total",
        "",
        "",
        "",
        "",
        "720",
        "720",
        "0",
        "720",
        "610",
        "610",
        "0",
        "610",
        "325",
        "325",
        "120",
        "205",
    ]


def test_forfeit_and_redeal_rows(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], {"kind": "redeal"})
    api_user.add_hand(match["id"], {"kind": "forfeit", "declarer": 1, "bid": 100})
    _, redeal, forfeit, _ = rows(api_user.get(f"/api/matches/{match['id']}/sheet.csv"))
    assert redeal[:5] == ["1", "Anna", "", "", "redeal"]
    assert forfeit[:5] == ["2", "Anna", "Boris", "100", "forfeit"]


def test_formula_looking_names_are_quoted_but_numbers_are_not(api_user: Any) -> None:
    names = ["=cmd|' /C calc'!A0", "+Boris", "@Vera", "-Gena"]
    match = api_user.new_match(players=names, options={"sheet": "signed"})
    api_user.add_hand(match["id"], played(1, 100, [None, None, 20, 20]))
    header, hand, total = rows(api_user.get(f"/api/matches/{match['id']}/sheet.csv"))
    for i, name in enumerate(names):
        assert header[5 + 4 * i : 9 + 4 * i] == [f"'{name}", f"'{name} total", f"'{name} owed", f"'{name} score"]
    assert hand[1:3] == [f"'{names[0]}", f"'{names[1]}"]
    assert hand[9] == "-100" and total[9] == "-100"
    assert not any(cell.startswith("'") for cell in hand[5:] + total)


def test_every_formula_start_is_quoted_and_no_number_ever_is() -> None:
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert safe_cell(f"{start}1+1") == f"'{start}1+1"
    assert safe_cell("-120") == "'-120"  # a name that looks like a number is still text
    for number in (-120, -1, 0, 120):
        assert safe_cell(number) == number
    assert safe_cell("Anna = 1") == "Anna = 1" and safe_cell("") == ""


def test_names_with_commas_and_quotes_survive(api_user: Any) -> None:
    match = api_user.new_match(players=['Anna "A", the 1st', "B", "C"])
    header = rows(api_user.get(f"/api/matches/{match['id']}/sheet.csv"))[0]
    assert header[5] == 'Anna "A", the 1st'


def log_in(app: Any, client: Any, username: str) -> None:
    """Put a user's session on a test client (the log-in page belongs to the pages)."""
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(username=username)).scalar_one()
        session_id = user.get_id()
    with client.session_transaction() as session:
        session["_user_id"] = session_id
        session["_fresh"] = True


def test_page_download_serves_the_same_csv(app: Any, api_user: Any, stranger: Any) -> None:
    match = api_user.new_match(players=["Аня", "=B", "C"])
    api_user.add_hand(match["id"], played(1, 100, [20, None, 20]))
    page = app.test_client()
    log_in(app, page, "anna")
    response = page.get(f"/matches/{match['id']}/sheet.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.data == api_user.get(f"/api/matches/{match['id']}/sheet.csv").data
    log_in(app, page, "stranger")
    assert page.get(f"/matches/{match['id']}/sheet.csv").status_code == 404
    assert page.get("/matches/nosuchmatch/sheet.csv").status_code == 404


def test_page_download_needs_a_session(app: Any, api_user: Any) -> None:
    match = api_user.new_match()
    response = app.test_client().get(f"/matches/{match['id']}/sheet.csv")
    assert response.status_code in (302, 401)
    assert not response.data.startswith("\ufeff".encode())


def test_a_session_with_an_old_secret_is_logged_out(app: Any, api_user: Any) -> None:
    match = api_user.new_match()
    page = app.test_client()
    log_in(app, page, "anna")
    with app.app_context():
        user = db.session.execute(db.select(User).filter_by(username="anna")).scalar_one()
        accounts.end_sessions(user)
    assert page.get(f"/matches/{match['id']}/sheet.csv").status_code in (302, 401)


def test_csv_lists_the_house_rules_events_in_a_last_column(api_user: Any) -> None:
    match = api_user.post(
        "/api/matches",
        json={"players": ["Anna", "Boris", "Vera"], "start_scores": [455, 0, 0], "options": {"dump_555": "plus"}},
    ).json
    api_user.post(f"/api/matches/{match['id']}/hands", json={"declarer": 0, "bid": 100, "points": [None, 10, 10]})
    header, hand, total = rows(api_user.get(f"/api/matches/{match['id']}/sheet.csv"))
    assert header[-1] == "events" and hand[-1] == "Anna dump"
    assert hand[5:9] == ["0", "455", "455", "0"] and total[-1] == ""
    plain = api_user.post("/api/matches", json={"players": ["Anna", "Boris", "Vera"]}).json
    header = rows(api_user.get(f"/api/matches/{plain['id']}/sheet.csv"))[0]
    assert header[-1] == "Vera score"
