"""Storing the next hand of a match with what goes with it — its audit entries and the match's
new revision, summary and time — without the ORM's unit of work, in one round trip where the
database allows.

On PostgreSQL it is one statement: the hand and the entries are inserted by data-modifying
`WITH` clauses of the match's `UPDATE`, whose `RETURNING` announces the change on the change
feed (`feed.CHANNEL`, as `feed._announce` does for a flush: delivered when, and only if, the
transaction commits). SQLite, a file in the process, takes the three statements one by one.
The statements are built once per shape (`sqlalchemy`'s compiled cache then finds them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import Executable, Table, bindparam, func, insert, update
from sqlalchemy.orm.attributes import set_committed_value

from .extensions import db
from .feed import CHANNEL
from .models import AuditEntry, Hand, Match

_HANDS: Table = Hand.__table__  # type: ignore[assignment]
_ENTRIES: Table = AuditEntry.__table__  # type: ignore[assignment]
_MATCHES: Table = Match.__table__  # type: ignore[assignment]


def store_next_hand(
    match: Match, hand: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], changes: Mapping[str, Any]
) -> None:
    """Insert `hand` (every column but its id) and the audit `entries` (likewise), and set the
    match's columns `changes`; the match object then holds them as stored. Not committed; a
    hand number taken meanwhile raises the IntegrityError of the unique (match, number)."""
    keys = tuple(changes)
    connection = db.session.connection()  # the session's transaction, without its ORM steps
    if connection.dialect.name == "postgresql":
        params = {f"h_{k}": v for k, v in hand.items()} | {f"m_{k}": v for k, v in changes.items()}
        for i, entry in enumerate(entries):
            params |= {f"a{i}_{k}": v for k, v in entry.items()}
        statement = _one_statement(tuple(hand), tuple(entries[0]), len(entries), keys)
        connection.execute(statement, params | {"m_id": match.id}).all()
    else:
        connection.execute(_insert(_HANDS, tuple(hand), "h_"), {f"h_{k}": v for k, v in hand.items()})
        for entry in entries:
            connection.execute(_insert(_ENTRIES, tuple(entry), "a0_"), {f"a0_{k}": v for k, v in entry.items()})
        connection.execute(_update(keys), {f"m_{k}": v for k, v in changes.items()} | {"m_id": match.id})
    for key, value in changes.items():
        set_committed_value(match, key, value)


def _values(table: Any, columns: tuple[str, ...], prefix: str) -> dict[str, Any]:
    """Each column as a bound parameter of its own type, named `prefix` + its name."""
    return {c: bindparam(prefix + c, type_=table.c[c].type) for c in columns}


@cache
def _insert(table: Any, columns: tuple[str, ...], prefix: str) -> Any:
    """An INSERT of one row of these columns, built once."""
    return insert(table).values(_values(table, columns, prefix))


@cache
def _update(columns: tuple[str, ...]) -> Any:
    """The UPDATE of a match's columns, built once."""
    return update(_MATCHES).where(_MATCHES.c.id == bindparam("m_id")).values(_values(_MATCHES, columns, "m_"))


@cache
def _one_statement(hand: tuple[str, ...], entry: tuple[str, ...], count: int, changes: tuple[str, ...]) -> Executable:
    """PostgreSQL: the hand, `count` audit entries and the match's update in one statement,
    announcing the change (built once per shape)."""
    new_hand = insert(_HANDS).values(_values(_HANDS, hand, "h_")).cte("new_hand")
    rows = [_values(_ENTRIES, entry, f"a{i}_") for i in range(count)]
    # Several entries (the hand limit ends the match) in one VALUES, so that their ids keep
    # their order (separate INSERTs in WITH run in no set order); one entry as one row: an
    # INSERT of several rows has no cache key, and the statement would be compiled every time.
    new_entries = insert(_ENTRIES).values(rows[0] if count == 1 else rows).cte("new_entries")
    return _update(changes).add_cte(new_hand, new_entries).returning(func.pg_notify(CHANNEL, _MATCHES.c.id))
