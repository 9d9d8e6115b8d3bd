"""Hand bodies and match set-ups shared by the web tests."""

from __future__ import annotations

import http.client
import json
from typing import Any

from sqlalchemy import column, table

from scoresheet.storage import models


def call_json(
    port: int, method: str, path: str, body: Any = None, token: str | None = None, timeout: float = 30
) -> tuple[int, Any]:
    """One JSON request to a real server on 127.0.0.1, on a fresh connection: (status, answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    return response.status, json.loads(data) if data else None


def played(declarer: int, bid: int, points: list[int | None], **kw: Any) -> dict[str, Any]:
    """A played hand's API body; marriages default to none."""
    return {
        "kind": "played",
        "declarer": declarer,
        "bid": bid,
        "points": points,
        "marriages": kw.pop("marriages", [[] for _ in points]),
        **kw,
    }


WINNING_START = [870, 0, 0]
"""Start scores from which seat 0 wins with `WINNING_HAND` (870 + 140 ≥ 1000)."""
WINNING_HAND = played(0, 140, [None, 20, 20], marriages=[["hearts"], [], []])


def create_match(user: Any, body: dict[str, Any]) -> Any:
    """`commands.create_match` from an API body, read as the API reads it."""
    from scoresheet.rules import setup_from_dict
    from scoresheet.services.matches import commands

    return commands.create_match(user, setup_from_dict(body))


def add_hand(match: Any, user: Any, body: dict[str, Any]) -> Any:
    """`commands.add_hand` from an API body (with its optional `expected_hand`)."""
    from scoresheet.services.matches import commands
    from scoresheet.web import request_bodies

    record, expected, _ = request_bodies.hand_body(body, match.setup["rules"])
    return commands.add_hand(match, user, record, expected)


def edit_hand(match: Any, user: Any, number: int, body: dict[str, Any], version: int | None = None) -> Any:
    """`commands.edit_hand` from an API body (`version` here, or in the body)."""
    from scoresheet.services.matches import commands
    from scoresheet.web import request_bodies

    record, _, in_body = request_bodies.hand_body(body, match.setup["rules"], correction=True)
    return commands.edit_hand(match, user, number, record, version or in_body)


OLD_HANDS = table("hands", *(column(c.name, c.type) for c in models.Hand.__table__.columns if c.name != "uid"))
"""The hands table as migrations before 0014 left it (no `uid`): what the migration tests write
into an old database (the model's own table would add a `uid`)."""


def missing_at_first(monkeypatch: Any, owner: Any, name: str, misses: int, missed: Any) -> list[bool]:
    """Make `owner.name` answer `missed` for its first `misses` calls: a look-up made before a
    twin request stored its rows (the race of two sends at once, on demand). Its calls,
    counted."""
    real = getattr(owner, name)
    calls: list[bool] = []

    def looked(*args: Any) -> Any:
        calls.append(True)
        return real(*args) if len(calls) > misses else missed

    monkeypatch.setattr(owner, name, looked)
    return calls
