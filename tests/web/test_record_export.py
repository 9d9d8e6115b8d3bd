"""My record to download: my banked matches and my statistics as CSV and as a workbook, mine
only, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Flask
from openpyxl import load_workbook

from scoresheet.services.matches.export import safe_cell

from .page_helpers import Phone
from .test_player_records import four_matches

STATISTICS_HEADER = (
    "rules,played,banked,won,win_rate,average_place,declared,made,bid_made_sum,bid_made_max,"
    "barrel_on,barrel_won,barrel_fell,zeros,forfeits,tichu_called,tichu_made,grand_called,grand_made,"
    "great_grand_called,great_grand_made,double_victories"
)


def rows(response: Any) -> list[list[str]]:
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff") and "\r\n" in text
    return list(csv.reader(io.StringIO(text[1:])))


def test_my_matches_csv_has_a_row_per_banked_match_in_bank_order(make_user: Any) -> None:
    anna, ids = four_matches(make_user)
    answer = anna.get("/api/my-record/matches.csv")
    assert 'filename="record-' in answer.headers["Content-Disposition"]
    header, *body = rows(answer)
    assert header == ["banked_at", "match", "rules", "players", "place", "score", "won"]
    assert all(r[0].endswith("+00:00") for r in body)
    # A match id starting with "-" is written "'-…" as every text a spreadsheet would run is.
    assert [r[1:] for r in body] == [
        [safe_cell(ids["first"]), "squarescores", "Anna; Boris; Vera", "1", "1010", "1"],
        [safe_cell(ids["barrel"]), "squarescores", "Anna; Boris; Vera", "1", "1000", "1"],
        # Boris 1010; anna and Vera 20 each share the second place.
        [safe_cell(ids["lost"]), "squarescores", "Anna; Boris; Vera", "2", "20", "0"],
        [safe_cell(ids["tichu"]), "tichu", "Anna; Boris; Vera; Gleb", "1", "730", "1"],
    ]


def test_my_statistics_csv_has_a_row_per_ruleset_as_my_page_counts(make_user: Any) -> None:
    anna, _ids = four_matches(make_user)
    header, *body = rows(anna.get("/api/my-record/statistics.csv"))
    assert ",".join(header) == STATISTICS_HEADER
    # SquareScores: won 2 of 3, places 1 + 1 + 2; she declared 140, then 100 and 120, all made;
    # once on the barrel and won from it. Tichu: one Tichu lost, two Grand Tichus made, each
    # with a double victory.
    assert body == [
        ["squarescores", "3", "3", "2", "0.667", "1.333", "3", "3", "360", "140", "1", "1", "0", "0", "0"] + ["0"] * 7,
        ["tichu", "1", "1", "1", "1.0", "1.0", "0", "0", "0", "0", "0", "0", "0", "0", "0"]
        + ["1", "0", "2", "2", "0", "0", "2"],
    ]


def test_the_workbook_speaks_the_readers_language_with_numbers_as_numbers(make_user: Any) -> None:
    anna, ids = four_matches(make_user)
    answer = anna.client.get("/api/my-record.xlsx", headers={**anna.headers, "Accept-Language": "ru"})
    assert answer.status_code == 200 and answer.headers["Content-Disposition"].endswith('.xlsx"')
    book = load_workbook(io.BytesIO(answer.data))
    matches, statistics = book.worksheets
    assert (matches.title, statistics.title) == ("Мои партии", "Моя статистика")
    values = [list(r) for r in matches.iter_rows(values_only=True)]
    assert values[0][1:4] == ["Партия", "Правила", "Игроки"]
    assert values[3][1:] == [ids["lost"], "SquareScores", "Anna; Boris; Vera", 2, 20, "нет"]
    assert values[4][2] == "Тичу" and values[4][-1] == "да"
    stats = [list(r) for r in statistics.iter_rows(values_only=True)]
    assert stats[1][:6] == ["SquareScores", 3, 3, 2, 0.667, 1.333]


def test_the_record_is_only_ever_my_own(csrf_app: Flask, make_user: Any) -> None:
    four_matches(make_user)
    zoe = make_user("zoe")
    header, *body = rows(zoe.get("/api/my-record/matches.csv"))
    assert body == []  # zoe's own, empty: nobody else's record is reachable
    browser = Phone(csrf_app.test_client())
    assert browser.post("/login", {"username": "anna", "password": "correct horse"}).status_code == 302
    own = browser.get("/players/anna").text
    assert 'href="/my-record/matches.csv"' in own and 'href="/my-record.xlsx"' in own
    assert 'href="/my-record' not in browser.get("/players/boris").text
    assert len(rows(browser.get("/my-record/matches.csv"))) == 5
    assert browser.get("/my-record/statistics.csv").status_code == 200
    assert csrf_app.test_client().get("/my-record/matches.csv").status_code == 302  # to log in
