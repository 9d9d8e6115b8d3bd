"""The sheet as CSV (API.md "CSV export"): one function for the page and the API; its rows for
the workbook too (workbook.py)."""

from __future__ import annotations

import csv
import io
import re

from ...rules import MatchState, TichuRound
from ...rules.events import Event
from ...rules.tichu import TICHU

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these would run as a formula in a spreadsheet."""
_AFTER_SEMICOLON = re.compile(r'(;[ "]*)(?=[=+\-@\t\r])')
"""A formula start after a ";" in a text cell (spaces and quotes between): a spreadsheet whose
list separator is ";" starts a cell there, quoted or not (a quote counts only at a cell's
start, and for such a spreadsheet the cell starts earlier in the line)."""
HOUSE_EVENTS = (Event.DUMP, Event.KNOCKED_OFF, Event.BARREL_RESET, Event.BARREL_CLASH)
"""The events of the house rules (RULES.md §11) the CSV lists in its `events` column."""


def _has_house_events(sheet: MatchState) -> bool:
    """The match plays a house rule that gives one of `HOUSE_EVENTS`."""
    o = sheet.setup.options
    return o.dump_555 != "off" or o.barrel_knock_off or o.three_falls_reset or o.barrel_clash != "all_stay"


def sheet_csv(sheet: MatchState) -> str:
    """The sheet as CSV text: BOM, header, one row per hand, then `total`. A Tichu sheet has
    its own columns before the teams' (API.md "Tichu")."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([[safe_cell(c) for c in row] for row in sheet_rows(sheet)])
    return "\ufeff" + out.getvalue()


def sheet_rows(sheet: MatchState) -> list[list[str | int]]:
    """The sheet's rows as the CSV writes them (API.md "CSV export"): the header of English
    keys and player names, one row per hand, then `total`; numbers as numbers."""
    players = sheet.setup.players
    tichu = sheet.setup.rules == TICHU
    header: list[str | int] = (
        ["hand", "dealer", "first_out", "calls"] if tichu else ["hand", "dealer", "declarer", "bid", "outcome"]
    )
    for name in (st.name for st in sheet.standings):
        header += [name, f"{name} total", f"{name} owed", f"{name} score"]
    events = not tichu and _has_house_events(sheet)
    if events:
        header.append("events")
    rows: list[list[str | int]] = [header]
    for h in sheet.hands:
        r = h.record
        row: list[str | int] = [h.number, players[h.dealer]]
        if isinstance(r, TichuRound):
            row += [
                "" if r.first_out is None else players[r.first_out],
                "; ".join(f"{players[i]} {c}" for i, c in enumerate(r.calls) if c),
            ]
        else:
            outcome = r.kind if r.kind != "played" else ("made" if h.made else "missed")
            row += ["" if r.declarer is None else players[r.declarer], "" if r.bid is None else r.bid, outcome]
        for s in h.results:
            row += [s.entry, s.total, s.owed, s.score]
        if events:
            row.append(
                "; ".join(f"{players[i]} {e}" for i, s in enumerate(h.results) for e in s.events if e in HOUSE_EVENTS)
            )
        rows.append(row)
    total: list[str | int] = ["total", *[""] * (len(header) - 4 * len(sheet.standings) - 1 - events)]
    for st in sheet.standings:
        total += [st.total, st.total, st.owed, st.score]
    if events:
        total.append("")
    rows.append(total)
    return rows


def safe_cell(value: str | int) -> str | int:
    """Neutralise a text cell a spreadsheet would run as a formula, read with "," or ";" as
    its list separator ("Vera;=1+1" → "Vera;'=1+1"); numbers stay numbers."""
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_START):
        value = "'" + value
    return _AFTER_SEMICOLON.sub(r"\1'", value)
