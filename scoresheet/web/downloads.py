"""Files a page or the API hands out: the sheet as CSV (services/matches/export.py writes it)."""

from __future__ import annotations

from flask import Response

from ..rules.tichu import TICHU
from ..services.matches.export import sheet_csv
from ..services.matches.queries import sheet_of
from ..storage.models import Match


def csv_response(match: Match) -> Response:
    """The CSV download of a match's sheet."""
    body = sheet_csv(sheet_of(match))
    response = Response(body, content_type="text/csv; charset=utf-8")
    game = "tichu" if match.setup["rules"] == TICHU else "tysiacha"
    filename = f"{game}-{match.created_at:%Y-%m-%d}-{match.id}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
