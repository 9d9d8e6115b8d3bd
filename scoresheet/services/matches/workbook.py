"""The sheet as a workbook (.xlsx) that a spreadsheet opens in its own language: the CSV's rows
(export.py) with the headers and outcome words in the reader's language, numbers as numbers,
the header row frozen, names written as text (never run as a formula), and a second sheet with
the standings. XlsxWriter writes it: 2.2 times less CPU than openpyxl for a 200-hand sheet, about the
same size (bench/workbook.py, docs/performance.md)."""

from __future__ import annotations

import io
from typing import Any

from ...rules import MatchState, TichuRound
from ...words import _
from ...words.vocabulary import CALL_NAMES, FORFEIT_WORDS, OUTCOME_WORDS, SHEET_COLUMNS, WORDS
from .export import HOUSE_EVENTS, sheet_rows


def sheet_xlsx(sheet: MatchState) -> bytes:
    """The workbook of `sheet`: the sheet (one row per hand, then the totals) and the standings."""
    import xlsxwriter  # only when a workbook is asked for: it costs a tenth of a second to load

    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    bold = book.add_format({"bold": True})
    rows = sheet_rows(sheet)
    _write(book.add_worksheet(_safe_title(_("Sheet"))), [_header(sheet, rows[0]), *_body(sheet, rows)], bold)
    _write(book.add_worksheet(_safe_title(_("Standings"))), _standings(sheet), bold)
    book.close()
    return out.getvalue()


def rows_xlsx(sheets: list[tuple[str, list[list[Any]]]]) -> bytes:
    """A workbook of these worksheets (title, rows), written as the sheet's: the first row bold
    and frozen, numbers as numbers, every text as text (a player's record, `players.export`;
    a club night's standings, `club.exports`)."""
    import xlsxwriter

    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    bold = book.add_format({"bold": True})
    for title, rows in sheets:
        _write(book.add_worksheet(_safe_title(title)), rows, bold)
    book.close()
    return out.getvalue()


def _header(sheet: MatchState, header: list[str | int]) -> list[str | int]:
    """The CSV's header in the reader's words: the fixed columns, then each player's four."""
    events = header[-1] == "events"
    fixed = [str(SHEET_COLUMNS[str(key)]) for key in header[: len(header) - 4 * len(sheet.standings) - events]]
    players: list[str | int] = []
    for st in sheet.standings:
        players += [
            st.name,
            _("%(name)s: sheet total", name=st.name),
            _("%(name)s: owed", name=st.name),
            _("%(name)s: score", name=st.name),
        ]
    return [*fixed, *players, *([str(SHEET_COLUMNS["events"])] if events else [])]


def _body(sheet: MatchState, rows: list[list[str | int]]) -> list[list[str | int]]:
    """The hands' rows and the totals' row, their words in the reader's language."""
    players = sheet.setup.players
    forfeit = str(FORFEIT_WORDS.get(sheet.setup.rules, _("Forfeit")))
    events = rows[0][-1] == "events"
    body = []
    for h, row in zip(sheet.hands, rows[1:-1], strict=True):
        row = list(row)
        r = h.record
        if isinstance(r, TichuRound):
            row[3] = "; ".join(f"{players[i]}: {CALL_NAMES.get(c, c)}" for i, c in enumerate(r.calls) if c)
        else:
            row[4] = forfeit if row[4] == "forfeit" else str(OUTCOME_WORDS.get(str(row[4]), row[4]))
        if events:
            words = WORDS["events"]
            row[-1] = "; ".join(
                f"{players[i]}: {words[e]}" for i, s in enumerate(h.results) for e in s.events if e in HOUSE_EVENTS
            )
        body.append(row)
    return [*body, [_("Total"), *rows[-1][1:]]]


def _standings(sheet: MatchState) -> list[list[str | int]]:
    """Place, name, score, sheet total and owed points of each seat (Tichu: team), best first."""
    order = sorted(sheet.standings, key=lambda st: -st.score)
    header: list[str | int] = [_("Place"), _("Name"), _("Score"), _("Sheet total"), _("Owed")]
    rows: list[list[str | int]] = [
        [1 + sum(o.score > st.score for o in order), st.name, st.score, st.total, st.owed] for st in order
    ]
    return [header, *rows]


def _write(worksheet: Any, rows: list[list[Any]], bold: Any) -> None:
    """The rows, the first bold and frozen; numbers as numbers, every text as text."""
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            style = bold if r == 0 else None
            if isinstance(value, int | float) and not isinstance(value, bool):
                worksheet.write_number(r, c, value, style)
            elif value != "":
                worksheet.write_string(r, c, str(value), style)
    worksheet.freeze_panes(1, 0)
    worksheet.set_column(0, max(len(row) for row in rows) - 1, 12)


def _safe_title(title: str) -> str:
    """A worksheet's name as Excel allows it: at most 31 characters, none of []:*?/\\."""
    return "".join(c for c in title if c not in "[]:*?/\\")[:31]
