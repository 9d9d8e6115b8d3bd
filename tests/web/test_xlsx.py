"""The sheet as a workbook: read back with openpyxl, its numbers are numbers, its words are the
reader's, its header row is frozen, a name is text (never a formula), and the standings have a
sheet of their own."""

from __future__ import annotations

import csv
import io
from typing import Any

from openpyxl import load_workbook

from .helpers import played

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def workbook(response: Any) -> Any:
    """The workbook of a download, after checking it is one."""
    assert response.status_code == 200, response.data[:200]
    assert response.headers["Content-Type"] == XLSX
    assert response.headers["Content-Disposition"].endswith('.xlsx"')
    return load_workbook(io.BytesIO(response.data))


def csv_rows(api_user: Any, match_id: str) -> list[list[str]]:
    """The same sheet's CSV rows, to compare the numbers with."""
    text = api_user.get(f"/api/matches/{match_id}/sheet.csv").data.decode("utf-8")[1:]
    return list(csv.reader(io.StringIO(text)))


def a_match(api_user: Any) -> str:
    """Three hands: a made bid with marriages, a missed bid (owed points), a Rospisat'."""
    match = api_user.new_match(players=["=1+1", "Vera;=2", "Аня"], start_scores=[650, 0, 300])
    api_user.add_hand(match["id"], played(0, 120, [None, 42, 23], marriages=[["hearts"], [], []]))
    api_user.add_hand(match["id"], played(1, 200, [40, None, 20]))
    api_user.add_hand(match["id"], {"kind": "forfeit", "declarer": 2, "bid": 100})
    return str(match["id"])


def test_the_workbook_holds_the_sheets_numbers_as_numbers_and_names_as_text(api_user: Any) -> None:
    match_id = a_match(api_user)
    book = workbook(api_user.get(f"/api/matches/{match_id}/sheet.xlsx"))
    sheet = book.worksheets[0]
    cells = [list(row) for row in sheet.iter_rows()]
    expected = csv_rows(api_user, match_id)
    assert len(cells) == len(expected) == 5  # header, three hands, total
    for row, want in zip(cells[1:], expected[1:], strict=True):
        for cell, text in zip(row, want, strict=True):
            if text.lstrip("-").isdigit():
                assert cell.data_type == "n" and cell.value == int(text), (cell.coordinate, cell.value, text)
    names = [c.value for c in cells[0]]
    assert "=1+1" in names and "Vera;=2" in names  # the names as written, as text
    assert all(c.data_type == "s" for c in cells[0] if c.value is not None)
    assert not [c.coordinate for row in cells for c in row if c.data_type == "f"]  # no formula anywhere
    assert sheet.freeze_panes == "A2"


def test_the_workbook_speaks_the_readers_language(api_user: Any) -> None:
    match_id = a_match(api_user)
    book = workbook(
        api_user.client.get(
            f"/api/matches/{match_id}/sheet.xlsx", headers={**api_user.headers, "Accept-Language": "ru"}
        )
    )
    sheet, standings = book.worksheets
    header = [c.value for c in next(sheet.iter_rows())]
    assert header[:5] == ["№", "Сдающий", "Разыгрывающий", "Заказ", "Итог раздачи"]
    assert header[5:9] == ["=1+1", "=1+1: итог по записи", "=1+1: долг", "=1+1: счёт"]
    outcomes = [row[4].value for row in list(sheet.iter_rows())[1:4]]
    assert outcomes == ["сыгран", "не сыгран", "Роспись"]
    assert list(sheet.iter_rows())[-1][0].value == "Итого"
    assert (sheet.title, standings.title) == ("Запись", "Счёт")


def test_the_standings_sheet_ranks_by_score(api_user: Any) -> None:
    match_id = a_match(api_user)
    match = api_user.get(f"/api/matches/{match_id}").json
    book = workbook(api_user.get(f"/api/matches/{match_id}/sheet.xlsx"))
    rows = [[c.value for c in row] for row in book.worksheets[1].iter_rows()]
    assert rows[0] == ["Place", "Name", "Score", "Sheet total", "Owed"]
    best = sorted(match["standings"], key=lambda s: -s["score"])
    assert [r[1:] for r in rows[1:]] == [[s["name"], s["score"], s["sheet"], s["owed"]] for s in best]
    assert [r[0] for r in rows[1:]] == [1, 2, 3]


def test_the_match_page_and_the_watch_page_link_the_workbook(api_user: Any, app: Any) -> None:
    match_id = a_match(api_user)
    page = app.test_client()
    page.post("/login", data={"username": "anna", "password": "correct horse"})
    html = page.get(f"/matches/{match_id}").text
    assert f'href="/matches/{match_id}/sheet.xlsx"' in html
    assert workbook(page.get(f"/matches/{match_id}/sheet.xlsx")).worksheets[0].max_row == 5


def test_a_stranger_gets_no_workbook(api_user: Any, stranger: Any) -> None:
    match_id = a_match(api_user)
    assert stranger.get(f"/api/matches/{match_id}/sheet.xlsx").status_code == 404
