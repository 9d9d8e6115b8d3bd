"""A player's own record to download: their banked matches (date banked, ruleset, players,
place, score, won) and their statistics per ruleset, as CSV (English keys, as the match's CSV)
and as a workbook in the reader's language (`matches.workbook`)."""

from __future__ import annotations

import csv
import io
from datetime import datetime

from ...rules.figures import COUNTS
from ...storage.extensions import db
from ...storage.models import Match, Seat, SeatFigure, User, isoformat
from ...words import _
from ...words.vocabulary import RECORD_COLUMNS, RULESET_NAMES
from ..matches.export import safe_cell
from ..matches.workbook import rows_xlsx
from . import profiles

Cell = str | int | float
MATCH_COLUMNS = ("banked_at", "match", "rules", "players", "place", "score", "won")
"""The columns of a player's match list, in order."""
STATISTICS_COLUMNS = ("rules", "played", "banked", "won", "win_rate", "average_place", *COUNTS)
"""The columns of a player's statistics (a row per ruleset), in order."""


def match_rows(user: User, since: datetime | None = None, until: datetime | None = None) -> list[list[Cell]]:
    """The header and a row per banked match of the user's claimed seats banked in
    [`since`, `until`), in bank order: players joined by "; ", `won` 1 or 0."""
    query = (
        db.select(SeatFigure, Match.setup)
        .join(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .join(Match, Match.id == SeatFigure.match_id)
        .where(Seat.user_id == user.id)
        .order_by(SeatFigure.banked_at, SeatFigure.match_id)
    )
    if since is not None:
        query = query.where(SeatFigure.banked_at >= since)
    if until is not None:
        query = query.where(SeatFigure.banked_at < until)
    rows: list[list[Cell]] = [list(MATCH_COLUMNS)]
    for f, setup in db.session.execute(query).all():
        score: Cell = "" if f.score is None else f.score
        players = "; ".join(setup["players"])
        rows.append([isoformat(f.banked_at), f.match_id, f.rules, players, f.place, score, int(f.won)])
    return rows


def statistics_rows(user: User) -> list[list[Cell]]:
    """The header and a row per ruleset of the user's statistics, as their page counts them
    (a rate with nothing to divide by is empty; rates to three decimals)."""
    rows: list[list[Cell]] = [list(STATISTICS_COLUMNS)]
    for r in profiles.profile(user, user).rulesets:
        rates: list[Cell] = ["" if v is None else round(v, 3) for v in (r.win_rate, r.average_place)]
        rows.append([r.rules, r.played, r.banked, r.won, *rates, *(r.counts[name] for name in COUNTS)])
    return rows


def rows_csv(rows: list[list[Cell]]) -> str:
    """Rows as the match's CSV writes them: BOM, commas, CRLF, every formula neutralised."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(
        [[c if isinstance(c, float) else safe_cell(c) for c in row] for row in rows]
    )
    return "\ufeff" + out.getvalue()


def record_xlsx(user: User) -> bytes:
    """The user's matches and statistics as a workbook of two sheets, in the reader's language:
    headers and ruleset names translated, `won` as the word, numbers as numbers."""
    matches = match_rows(user)
    statistics = statistics_rows(user)
    yes, no = _("yes"), _("no")
    for row in matches[1:]:
        row[2] = str(RULESET_NAMES.get(str(row[2]), row[2]))
        row[-1] = yes if row[-1] else no
    for row in statistics[1:]:
        row[0] = str(RULESET_NAMES.get(str(row[0]), row[0]))
    return rows_xlsx(
        [
            (_("My matches"), [[str(RECORD_COLUMNS[str(k)]) for k in matches[0]], *matches[1:]]),
            (_("My statistics"), [[str(RECORD_COLUMNS[str(k)]) for k in statistics[0]], *statistics[1:]]),
        ]
    )
