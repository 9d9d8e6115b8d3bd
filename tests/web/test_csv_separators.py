"""The CSV starts no formula whichever list separator a spreadsheet reads it with: "," or ";"
(a name such as "Vera;=1+1" is written "Vera;'=1+1")."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NAMES = ["Anna;=1+1", "Bo; +SUM(A1)", 'Ve;"-2+3;@x', "Gleb ;=HYPERLINK(1)"]


def cells(text: str, separator: str) -> list[str]:
    """Every cell of the CSV text as a spreadsheet with this list separator reads it."""
    return [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=separator) for cell in row]


def starts_formula(cell: str) -> bool:
    """A spreadsheet would run the cell as a formula (a number such as -135 is a number)."""
    cell = cell.lstrip(" ")
    return cell.startswith(FORMULA_START) and not cell.lstrip("-").isdigit()


@pytest.mark.parametrize("rules", ["tichu", "squarescores"])
def test_no_cell_starts_a_formula_with_either_list_separator(api_user: Any, rules: str) -> None:
    if rules == "tichu":
        match = api_user.new_match(players=NAMES, rules="tichu")
        api_user.add_hand(
            match["id"], {"calls": ["tichu", "grand", "tichu", None], "first_out": 0, "card_points": [60, 40]}
        )
    else:
        match = api_user.new_match(players=NAMES[:3], rules="squarescores")
        api_user.add_hand(match["id"], {"kind": "played", "declarer": 0, "bid": 100, "points": [None, 30, 10]})
    response = api_user.get(f"/api/matches/{match['id']}/sheet.csv")
    assert response.status_code == 200
    text = response.data.decode("utf-8")
    for separator in (",", ";"):
        found = cells(text, separator)
        assert found and not [cell for cell in found if starts_formula(cell)], separator
    assert "Anna;'=1+1" in cells(text, ",")  # the name, its formula neutralised
