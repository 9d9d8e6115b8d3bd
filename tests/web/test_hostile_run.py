"""The hostile run: every route of the app's URL map, as anonymous, a stranger, a member and
the holder of a watch link; NUL, control characters, huge numbers and wrong types in every
URL value, query and body field. No answer is a 500, and no refused request changes a row
(every row of every table compared). docs/security.md "Hostile run" has its figures; `-s`
prints them."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from conftest import ApiUser
from flask import Flask
from flask.testing import FlaskClient

from scoresheet.storage.extensions import db

from .helpers import played

TEXTS = ["\x00", "a\x00b", "\x01\x1f\x7f", "\u202e\u200b", "\ud800", "%", "x" * 300]
NUMBERS = [10**30, -(10**30), 2**31, 2**63, -1, 0]
WRONG_TYPES: list[Any] = [None, [], {}, "", False, True, 1.5, [None], {"a": {"b": []}}]
BODY_VALUES: list[Any] = [*TEXTS, *NUMBERS, *WRONG_TYPES]
FIELDS = [
    "username", "password", "current_password", "new_password", "players", "rules", "options", "target",
    "sheet", "first_dealer", "start_scores", "kind", "declarer", "bid", "points", "marriages", "sitter_points",
    "calls", "first_out", "double_victory", "card_points", "expected_hand", "version", "code", "seat", "entry",
    "remember", "language", "next", "file", "zeros", "barrel_miss", "one", "two", "hand", "dealer",
]  # fmt: skip
"""Every field a body or form of this app reads (and a few it does not)."""
INT_PARAMS = {"number", "seat", "entry_id"}
SESSION_ENDERS = {
    "pages.logout",
    "account.logout_everywhere",
    "account.delete_account",
    "api.revoke_token",
    "api.delete_me",
    "api.change_password",
    "account.change_password",
}
"""Run last for each caller: a success would end its session or token."""


@dataclass
class Figures:
    """What the run sent and saw."""

    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    compared: int = 0
    """Refused writing requests whose database was compared row by row, before and after."""
    rows: int = 0
    """Rows compared, added up."""
    changed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    rows_now: tuple[str, int] | None = None
    """The digest of every row after the last refused write, while no other request came since
    (the next refused write's "before": one reading of every table a request, not two)."""


def database_rows(app: Flask) -> tuple[str, int]:
    """A digest of every row of every table, and how many rows there are."""
    digest, count = hashlib.sha256(), 0
    with app.app_context():
        for table in db.metadata.sorted_tables:
            for row in db.session.execute(db.select(table).order_by(*table.primary_key.columns)).all():
                digest.update(repr(tuple(row)).encode())
                count += 1
        db.session.remove()
    return digest.hexdigest(), count


@dataclass
class Caller:
    """Who sends: a client (logged in or not) and the API token it adds, if any."""

    name: str
    client: FlaskClient
    token: str | None = None


def url_variants(rule: str, valid: dict[str, str]) -> list[str]:
    """The rule with valid values, then with each value in turn made hostile."""
    params = re.findall(r"<(?:[a-z]+:)?([a-z_]+)>", rule)

    def build(values: dict[str, str]) -> str:
        return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: values[m.group(1)], rule)

    urls = [build({p: valid.get(p, "x") for p in params})]
    for p in params:
        hostile = (
            [str(n) for n in NUMBERS if n >= 0]
            if p in INT_PARAMS
            else [quote(t, safe="", errors="surrogatepass") for t in TEXTS]
        )
        hostile += ["%00", "%ED%A0%80"]
        for value in hostile:
            urls.append(build({q: value if q == p else valid.get(q, "x") for q in params}))
    return urls


def bodies(api: bool) -> list[dict[str, Any]]:
    """Request keyword arguments: for the API, a JSON body with every field of each value (and
    the value as the whole body); for a page, a form with every field of each text or number."""
    if api:
        return (
            [{"json": {f: v for f in FIELDS}} for v in BODY_VALUES]
            + [{"json": v} for v in BODY_VALUES[:4]]
            + [{"data": b"\xff\xfe\x00", "content_type": "application/json"}]
        )
    forms = [{f: str(v) for f in FIELDS} for v in [*TEXTS, *NUMBERS] if v != "\ud800"]
    return [{"data": f} for f in forms] + [
        {"data": b"a=%ED%A0%80&b=\x00", "content_type": "application/x-www-form-urlencoded"}
    ]


def send(app: Flask, figures: Figures, caller: Caller, method: str, url: str, endpoint: str, **kw: Any) -> None:
    """Send one request; count its status; a refused write must leave every row as it was."""
    writes = method not in ("GET", "HEAD")
    before = (figures.rows_now or database_rows(app)) if writes else None
    figures.rows_now = None
    headers = {"Authorization": f"Bearer {caller.token}"} if caller.token and url.startswith("/api/") else {}
    response = caller.client.open(url, method=method, headers=headers, **kw)
    status = response.status_code
    response.close()  # an event stream ends here
    figures.requests += 1
    figures.statuses[status] += 1
    if status >= 500:
        figures.errors.append(f"{caller.name} {method} {url} {str(kw)[:80]} → {status}")
    if before is not None and status >= 400:
        after = database_rows(app)
        figures.compared += 1
        figures.rows += after[1]
        figures.rows_now = after
        if after != before:
            figures.changed.append(f"{caller.name} {method} {url} {str(kw)[:80]} → {status}")


def hostile_run(app: Flask, make_user: Any) -> Figures:
    """Every route, method, caller and hostile value (see the module)."""
    app.config["PROPAGATE_EXCEPTIONS"] = False  # an exception is the 500 it would be in production
    member: ApiUser = make_user("anna")
    stranger: ApiUser = make_user("stranger")
    match = member.new_match()
    member.add_hand(match["id"], played(1, 100, [40, None, 20]))
    watch = member.post(f"/api/matches/{match['id']}/watch").json["watch_url"].rsplit("/", 1)[1]
    callers = [Caller("watch-link holder", app.test_client()), Caller("anonymous", app.test_client())]
    for user in (stranger, member):
        client = app.test_client()
        assert client.post("/login", data={"username": user.username, "password": "correct horse"}).status_code == 302
        callers.append(Caller("member" if user is member else "stranger", client, user.token))
    valid = {
        "match_id": match["id"],
        "number": "1",
        "seat": "0",
        "entry_id": "1",
        "username": "anna",
        "other": "stranger",
        "token": watch,
        "code": match["join_code"],
        "game": "tysiacha",
        "name": "squarescores",
        "filename": "app.css",
    }
    rules = sorted(app.url_map.iter_rules(), key=lambda r: (r.endpoint in SESSION_ENDERS, r.rule))
    figures = Figures()
    for caller in callers:
        for rule in rules:
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                urls = url_variants(rule.rule, valid)
                for url in urls:
                    send(app, figures, caller, method, url, rule.endpoint)
                query = "?" + "&".join(f"{f}={quote(TEXTS[1], safe='')}" for f in ("one", "two", "next", "page", "q"))
                send(app, figures, caller, method, urls[0] + query, rule.endpoint)
                if method != "GET":
                    for kw in bodies(rule.rule.startswith("/api/")):
                        send(app, figures, caller, method, urls[0], rule.endpoint, **kw)
    return figures


def test_the_hostile_run_answers_no_500_and_changes_no_row_when_it_refuses(app: Flask, make_user: Any) -> None:
    figures = hostile_run(app, make_user)
    print(
        f"\nhostile run: {figures.requests} requests, statuses {dict(sorted(figures.statuses.items()))}, "
        f"{figures.compared} refused writes compared ({figures.rows} rows), changed {len(figures.changed)}"
    )
    assert figures.errors == [], "\n".join(figures.errors)
    assert figures.changed == [], "\n".join(figures.changed)
    assert figures.requests > 3000 and figures.compared > 1000
