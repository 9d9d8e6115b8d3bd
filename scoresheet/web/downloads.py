"""Files a page or the API hands out: the sheet as CSV (services/matches/export.py writes it) and
as a workbook in the reader's language (services/matches/workbook.py)."""

from __future__ import annotations

from flask import Response

from ..rules.tichu import TICHU
from ..services.matches.export import sheet_csv
from ..services.matches.queries import sheet_of
from ..services.matches.workbook import sheet_xlsx
from ..services.players import export
from ..storage.models import Match, User, utcnow

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def csv_response(match: Match) -> Response:
    """The CSV download of a match's sheet."""
    return _download(match, Response(sheet_csv(sheet_of(match)), content_type="text/csv; charset=utf-8"), "csv")


def xlsx_response(match: Match) -> Response:
    """The workbook download of a match's sheet, in the reader's language."""
    return _download(match, Response(sheet_xlsx(sheet_of(match)), content_type=XLSX), "xlsx")


def _download(match: Match, response: Response, suffix: str) -> Response:
    """`response` as a file to save, named by the game, the day the match began and its id."""
    game = "tichu" if match.setup["rules"] == TICHU else "tysiacha"
    filename = f"{game}-{match.created_at:%Y-%m-%d}-{match.id}.{suffix}"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def record_response(user: User, part: str) -> Response:
    """A player's own record to save: `matches.csv`, `statistics.csv` or the workbook `xlsx`
    of both, named by the account and the day."""
    if part == "xlsx":
        response = Response(export.record_xlsx(user), content_type=XLSX)
    else:
        rows = export.match_rows(user) if part == "matches.csv" else export.statistics_rows(user)
        response = Response(export.rows_csv(rows), content_type="text/csv; charset=utf-8")
    filename = f"record-{user.id}-{utcnow():%Y-%m-%d}.{part}"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
