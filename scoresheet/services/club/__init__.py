"""Club nights on the server (CLUB.md): events, their roster and rounds, every table an ordinary match.

`events` holds the commands and queries of CLUB.md §1 and §4, `results` what a table's result
and the standings are (ranked from the tables' kept results by every change that alters them,
and kept on the event: derived, never the truth), `tables` what the
matches' own commands ask about a match that is an event's table, `serialize` the data forms
the API answers with. The seating and the standings are the engine's (`scoresheet.club`).
"""
