"""Every page opens once: a smoke of the whole site for the fast tier (its SQLite half; the
PostgreSQL half runs with the web tier). The pages' own tests say what is on them."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Event

from .page_helpers import Phone, played

NOT_PAGES = {"static", "healthz", "offline.csrf_token", "offline.favicon", "offline.manifest", "offline.service_worker"}
"""GET routes that are no page: files, probes, tokens. (A club night's API and board need an event:
tests/web/test_api_club.py opens them.)"""
WATCH = re.compile(r'id="watch-link" href="http://localhost(/watch/[A-Za-z0-9_-]+)"')


def test_every_page_opens(phone: Phone, make_phone: Any, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    match = f"/matches/{match_id}"
    for number in (1, 2):
        assert phone.hand(match_id, number, **played(1, 100, [40, None, 20])).status_code == 302
    assert phone.post(f"{match}/hands/2/delete", {"confirm": "y"}).status_code == 302
    restore = re.search(r'href="([^"]*/history/restore\?entry=\d+)"', phone.get(f"{match}/history").text)
    assert restore is not None
    phone.post(f"{match}/watch", {}, form_url=match)
    watch = WATCH.search(phone.get(match).text)
    assert watch is not None
    code = re.search(r'href="http://localhost/join/(\w+)"', phone.get(match).text)
    assert code is not None
    night = club_night(phone)
    pages = [
        *["/", "/account", "/guests", "/head-to-head", "/leaderboard", "/players/anna", "/matches/new"],
        "/players/anna/records",
        "/claim-past",
        *["/my-record/matches.csv", "/my-record/statistics.csv", "/my-record.xlsx"],
        *[match, f"{match}/live", f"{match}/hands/new", f"{match}/hands/1/edit", f"{match}/hands/1/delete"],
        f"{match}/history",
        *[restore[1], f"{match}/rules", f"{match}/bank", f"{match}/end"],
        *[f"{match}/sheet.csv", f"{match}/sheet.xlsx", f"{match}/backup.json", f"{match}/version", "/backup.json"],
        *["/import", "/events/import"],
        *["/rules", "/rules/classic", "/offline", "/logout", watch[1], f"{watch[1]}/board"],
        *[f"{watch[1]}/sheet.csv", f"{watch[1]}/sheet.xlsx", f"{watch[1]}/version", f"{watch[1]}/board.webmanifest"],
        f"{watch[1]}/live",
        *["/events/new", night, f"{night}/version", f"{night}/cards", f"{night}/rounds/1", f"{night}/rounds/1/close"],
        f"{night}/rounds/1/reseat",
        *[f"{night}/rounds/1/tables/1/result", f"/events/join/{night_code(csrf_app, night)}"],
    ]
    for url in pages:
        assert phone.get(url).status_code == 200, url
    assert make_phone("boris").get(f"/join/{code[1]}").status_code == 200  # not at the table yet
    logged_out = ["/login", "/register", "/welcome"]
    for url in logged_out:
        assert csrf_app.test_client().get(url).status_code == 200, url
    opened = {
        csrf_app.url_map.bind("localhost").match(url.split("?")[0])[0] for url in [*pages, *logged_out, "/join/x"]
    }
    routes = {r.endpoint for r in csrf_app.url_map.iter_rules() if "GET" in (r.methods or ())}
    assert {e for e in routes - opened - NOT_PAGES if not e.startswith(("api.", "live.", "club."))} == set(), (
        "open it here"
    )


def night_code(app: Flask, night: str) -> str:
    """The check-in code of the night at this path."""
    with app.app_context():
        event = db.session.get(Event, night.rsplit("/", 1)[1])
        assert event is not None
        return event.code


def club_night(phone: Phone) -> str:
    """A club night of the phone's, its first round seated: its page's path."""
    data = {"name": "Friday", "rules": "squarescores", "target": "", "rounds": "2", "seating": "fours"}
    night = str(phone.post("/events/new", data).location)
    for guest in ("Dana", "Egor", "Fima"):
        assert phone.post(f"{night}/roster", {"guest": guest}, form_url=night).status_code == 302
    assert phone.post(f"{night}/rounds", {}, form_url=night).status_code == 302
    return night
