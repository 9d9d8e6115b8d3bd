"""The sheet as CSV (API.md "CSV export"): one function for the page and the API."""

from __future__ import annotations

import csv
import io

from flask import Response

from .models import Match
from .queries import sheet_of
from .rules import MatchState

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these would run as a formula in a spreadsheet."""


def sheet_csv(sheet: MatchState) -> str:
    """The sheet as CSV text: BOM, header, one row per hand, then `total`."""
    names = sheet.setup.players
    header: list[str | int] = ["hand", "dealer", "declarer", "bid", "outcome"]
    for name in names:
        header += [name, f"{name} total", f"{name} owed", f"{name} score"]
    rows: list[list[str | int]] = [header]
    for h in sheet.hands:
        r = h.record
        outcome = r.kind if r.kind != "played" else ("made" if h.made else "missed")
        row: list[str | int] = [h.number, names[h.dealer],
                                "" if r.declarer is None else names[r.declarer],
                                "" if r.bid is None else r.bid, outcome]
        for s in h.results:
            row += [s.entry, s.total, s.owed, s.score]
        rows.append(row)
    total: list[str | int] = ["total", "", "", "", ""]
    for st in sheet.standings:
        total += [st.total, st.total, st.owed, st.score]
    rows.append(total)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([[safe_cell(c) for c in row] for row in rows])
    return "\ufeff" + out.getvalue()


def safe_cell(value: str | int) -> str | int:
    """Neutralise a text cell a spreadsheet would run as a formula; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_response(match: Match) -> Response:
    """The CSV download of a match's sheet."""
    body = sheet_csv(sheet_of(match))
    response = Response(body, content_type="text/csv; charset=utf-8")
    filename = f"tysiacha-{match.created_at:%Y-%m-%d}-{match.id}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

