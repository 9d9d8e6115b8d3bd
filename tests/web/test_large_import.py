"""A large backup imports with a few statements per table, and its checks (schema, replays)
hold no write lock: another table's save goes through meanwhile (bench/import_backup.py
times the whole, docs/performance.md)."""

from __future__ import annotations

import copy
import sqlite3
from typing import Any

from flask import Flask
from sqlalchemy import event

from scoresheet.services.matches import backup
from scoresheet.storage.extensions import db

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
GRAND = {"calls": ["grand", None, None, None], "first_out": 0, "double_victory": True}


def banked_backup(api_user: Any, copies: int) -> dict[str, Any]:
    """A backup holding `copies` copies of one banked Tichu match (three rounds)."""
    match = api_user.new_match(players=PLAYERS, rules="tichu")
    for _ in range(3):
        api_user.add_hand(match["id"], GRAND)
    assert api_user.post(f"/api/matches/{match['id']}/bank").status_code == 200
    one = api_user.get(f"/api/matches/{match['id']}/backup").json
    doc = copy.deepcopy(one)
    # ids of their own: a match imported once is not imported again (`backup._imported_before`)
    doc["matches"] = [dict(one["matches"][0], id=f"c{copies}m{i}", join_code=f"{i:06d}") for i in range(copies)]
    return doc


def statements_of_import(app: Flask, api_user: Any, doc: dict[str, Any]) -> int:
    """How many statements importing `doc` sends (answered 201)."""
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement[:70])

    event.listen(engine, "before_cursor_execute", count)
    try:
        response = api_user.post("/api/matches/import", json=doc)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert response.status_code == 201, response.json
    return len(seen)


def test_an_import_sends_as_many_statements_for_many_matches_as_for_few(app: Flask, api_user: Any) -> None:
    few = statements_of_import(app, api_user, banked_backup(api_user, 2))
    many = statements_of_import(app, api_user, banked_backup(api_user, 60))
    assert many == few, (few, many)
    statistics = api_user.get("/api/players/anna").json
    assert statistics["username"] == "anna"


def test_the_checks_of_an_import_hold_no_write_lock(app: Flask, api_user: Any, monkeypatch: Any) -> None:
    doc = banked_backup(api_user, 3)
    other = api_user.new_match()
    checked = backup._checked_match
    saved: list[bool] = []

    def check_then_save_elsewhere(data: Any) -> Any:
        saved.append(write_at_once(app, other["id"]))
        return checked(data)

    monkeypatch.setattr(backup, "_checked_match", check_then_save_elsewhere)
    assert api_user.post("/api/matches/import", json=doc).status_code == 201
    assert saved == [True, True, True]


def write_at_once(app: Flask, match_id: str) -> bool:
    """Another connection writes to the database without waiting for a lock: done or not.
    (PostgreSQL locks rows, not the database: there, always done.)"""
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    if not url.startswith("sqlite"):
        return True
    connection = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=0, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("UPDATE matches SET revision = revision WHERE id = ?", (match_id,))
        connection.execute("COMMIT")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        connection.close()


def test_a_schema_fault_in_one_match_of_many_is_named_at_its_place(api_user: Any) -> None:
    doc = banked_backup(api_user, 40)
    doc["matches"][37]["colour"] = "red"
    doc["matches"][38]["status"] = 7
    response = api_user.post("/api/matches/import", json=doc)
    assert response.status_code == 400
    assert response.json["field"].startswith("/matches/37"), response.json
    assert "/matches/37/colour" in response.json["error"]
    assert api_user.get("/api/matches").json["matches"] and len(api_user.get("/api/matches").json["matches"]) == 1
