"""axe-core finds no WCAG 2.x A or AA violation on any page a player can reach, in light and
in dark, on a 360×640 phone.

The pages come from the app's URL map: every GET route that answers a page must have a stop
on the tour below (test_the_tour_visits_every_page_of_the_url_map fails on a new page nobody
added), and some pages are visited in more than one state (a section opened, a form's errors
shown, a preview, a flash message). axe-core is the npm package package-lock.json pins
(`npm ci` installs it, conftest.axe_script).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from werkzeug.exceptions import NotFound

from scoresheet import create_app
from scoresheet.rules import RULESETS
from scoresheet.rules.tichu import TICHU

from .helpers import Phone, api_match, api_tichu_match, api_user, unique
from .test_narrow_pages import house_match

PHONE = {"viewport": {"width": 360, "height": 640}, "screen": {"width": 360, "height": 640}}
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
"""axe-core's tags of the WCAG 2.0, 2.1 and 2.2 success criteria at levels A and AA."""

NOT_PAGES = {
    "healthz",
    "offline.csrf_token",
    "live.version",
    "invite.watch_version",
    "club.board_version",
    "offline.service_worker",
    "offline.manifest",
    "offline.favicon",
    "live.events",
    "live.watch_events",
    "nights.version",
    "pages.live_part",
    "invite.watch_live",
}
"""GET routes that answer JSON, a file, an event stream or a page's live part (a fragment its
page swaps in: the page itself is on the tour), not a page (besides the API, static files and the
routes whose last part names a file: sheet.csv, backup.json)."""

EXPECTED_STATUS = re.compile(
    r"^Failed to load resource: (the server responded with a status "
    r"of (404 \(NOT FOUND\)|422 \(UNPROCESSABLE ENTITY\))|net::ERR_INTERNET_DISCONNECTED)$"
)
AXE_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                          resultTypes: ["violations"]});
  return result.violations.flatMap(v => v.nodes.map(n => ({
    id: v.id, impact: n.impact || v.impact, help: v.help, target: n.target.join(" "),
    summary: (n.failureSummary || "").split("\\n").slice(1).join(" ").trim()})));
}"""


@dataclass
class Stop:
    """One page of the tour: who opens it, where, and what they do there before the check."""

    what: str
    who: Phone
    url: str
    then: Callable[[Any], None] | None = None
    status: int = 200


@cache
def _url_map() -> Any:
    # Limits off as on the browser tests' server: Flask-Limiter's switch is one for every app
    # of the process, and an app made with its default (on) turned it on for that server too.
    return create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://", "RATELIMIT_ENABLED": False}).url_map


def page_endpoints() -> set[str]:
    """Every GET route of the app that answers a page (HTML)."""
    return {
        rule.endpoint
        for rule in _url_map().iter_rules()
        if "GET" in (rule.methods or ())
        and rule.endpoint not in NOT_PAGES
        and not rule.endpoint.startswith(("api.", "static"))
        and not rule.rule.startswith("/api/")  # JSON (a club night's API sits in its blueprint)
        and "." not in rule.rule.rsplit("/", 1)[-1]
    }


def endpoint_of(url: str) -> str | None:
    """The endpoint a path of the tour reaches (None for a path no route answers)."""
    try:
        endpoint, _args = _url_map().bind("localhost").match(urlsplit(url).path, method="GET")
    except NotFound:
        return None
    return str(endpoint)


def _api(phone: Phone, auth: dict[str, str], path: str, body: Any = None, method: str = "post") -> Any:
    response = getattr(phone.context.request, method)(path, headers=auth, data=body)
    assert response.status in (200, 201, 204), response.text()
    return response.json() if response.status != 204 else None


def _won_match(phone: Phone, auth: dict[str, str]) -> str:
    """Anna climbs on the barrel and takes her 120: a finished match waiting to be banked."""
    match = _api(phone, auth, "/api/matches", {"players": ["Anna", "Boris", "Vera"], "start_scores": [875, 0, 0]})
    for _ in range(2):
        match = _api(
            phone,
            auth,
            f"/api/matches/{match['id']}/hands",
            {"declarer": 0, "bid": 120, "points": [None, 10, 10], "marriages": [["hearts"], [], []]},
        )
    assert match["winner"] == 0
    return str(match["id"])


def _open_house_rules(page: Any) -> None:
    """The house rules and each of their groups opened: every field in them is checked."""
    page.locator("details.house-rules > summary").click()
    assert page.locator("details.house-rules").get_attribute("open") is not None
    groups = page.locator("details.house-group")
    for i in range(groups.count()):
        groups.nth(i).locator("> summary").click()
    assert page.locator("details.house-group:not([open])").count() == 0


def _bad_registration(page: Any) -> None:
    page.fill("#username", "x")
    page.fill("#password", "short")
    page.locator("form.stack button[type=submit]").first.click()
    page.wait_for_selector(".errors")


def _bad_start(page: Any) -> None:
    """The start form sent with no names: errors next to the fields."""
    page.locator("form button[type=submit]", has_text=re.compile("Start")).first.click()
    page.wait_for_selector(".errors")


def _saved(page: Any) -> None:
    """A hand saved: its flash and the one-tap undo on the sheet."""
    _type_hand(page, "30")
    page.locator("form.hand button[type=submit]").click()
    page.wait_for_selector("form.toast button:visible")


def _invited(page: Any) -> None:
    """Invite tapped: without a share sheet (headless Chromium) the link is copied, and said."""
    page.locator("a.button[data-share-url]").first.click()
    page.wait_for_selector("[data-share-status]:not(:empty)")


def _offline(page: Any) -> None:
    """The connection gone: the page says so (the tour brings it back at the next stop)."""
    page.context.set_offline(True)
    page.wait_for_selector(".offline-line:visible")


def _shared(page: Any) -> None:
    """Share the result tapped: the picture is drawn and saved (no share sheet headless)."""
    page.locator("button[data-share-result]").click()
    page.wait_for_selector(".share-result-status:not(:empty)")


def _type_hand(page: Any, points: str) -> None:
    """Anna declares (the bid stays at its minimum); Boris and Vera took `points`."""
    page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice").first.click()
    page.fill("#points_1", points)
    page.fill("#points_2", points)


def _bad_hand(page: Any) -> None:
    """A hand whose card points do not add up, sent: its errors next to the fields."""
    _type_hand(page, "200")
    page.locator("form.hand button[type=submit]").click()
    page.wait_for_selector(".errors")


def _preview(page: Any) -> None:
    """An ordinary hand typed in: the preview shows what it does to each score."""
    _type_hand(page, "30")
    page.wait_for_selector(".preview:has-text('Preview:')")


@pytest.fixture(scope="module")
def tour(browser: Any, playwright: Any, server: str) -> Iterator[list[Stop]]:
    """A player with matches of every kind, a stranger who is logged out, and the stops."""
    device = {k: v for k, v in playwright.devices["Pixel 7"].items() if k != "default_browser_type"}
    # The page's Content-Security-Policy (script-src 'self') blocks the script tag that brings
    # axe-core in; bypass_csp lets it run. The pages have no inline style or script, so
    # nothing else changes: the players' pages look and work as they do with the policy.
    device.update(
        has_touch=True, base_url=server, bypass_csp=True, **PHONE, permissions=["clipboard-read", "clipboard-write"]
    )  # Invite's copied link
    player, stranger = (Phone(browser.new_context(**device), server) for _ in range(2))
    name = unique("axe")
    auth = api_user(player, name)
    host = unique("host")
    other = api_user(player, host)
    four = api_match(player, auth, hands=12, seats=4)
    three = api_match(player, auth, hands=5)
    fresh = _api(player, auth, "/api/matches", {"players": ["Anna", "Boris", "Vera"]})["id"]
    house, tichu = house_match(player, auth), api_tichu_match(player, auth)
    won = _won_match(player, auth)
    banked = _won_match(player, auth)
    _api(player, auth, f"/api/matches/{banked}/bank")
    _api(player, auth, f"/api/matches/{three}/hands/5", method="delete")
    watch = _api(player, auth, f"/api/matches/{four}/watch")["watch_url"]
    watch_won = _api(player, auth, f"/api/matches/{won}/watch")["watch_url"]
    theirs = _api(player, other, "/api/matches", {"players": ["Dana", "Egor", "Fima"]})
    house_code = _api(player, auth, f"/api/matches/{house}", method="get")["join_code"]
    _api(player, other, "/api/matches/join", {"code": house_code})  # a tablemate to compare
    night = _api(player, auth, "/api/events", {"name": "Friday", "game": {"rules": "squarescores"}, "rounds": 3})
    for guest in ("Dana", "Egor", "Fima"):
        _api(player, auth, f"/api/events/{night['id']}/roster", {"guest": guest})
    _api(player, auth, f"/api/events/{night['id']}/rounds")
    nights = f"/events/{night['id']}"
    player.log_in(name)
    player.page.goto(f"/matches/{three}/history")

    def deleted_elsewhere(page: Any) -> None:
        """Another phone deletes the last hand: the live sheet says who deleted which."""
        response = player.context.request.get(f"/api/matches/{four}", headers=auth)
        last = response.json()["hands"][-1]["number"]
        _api(player, auth, f"/api/matches/{four}/hands/{last}", method="delete")
        page.wait_for_selector(".news:visible", timeout=10_000)

    restore = player.page.locator("a[href*='/history/restore']").first.get_attribute("href")
    assert restore
    stops = [
        Stop("log-in", stranger, "/login"),
        Stop("register", stranger, "/register"),
        Stop("register, its errors shown", stranger, "/register", _bad_registration),
        Stop("welcome (the first visit)", stranger, "/welcome"),
        Stop("join link, logged out: make an account or log in", stranger, f"/join/{theirs['join_code']}"),
        Stop("watch page", stranger, watch),
        Stop("watch page, offline", stranger, watch, _offline),
        Stop("scoreboard", stranger, f"{watch}/board"),
        Stop("scoreboard, offline", stranger, f"{watch}/board", _offline),
        Stop("watch page of a won match", stranger, watch_won),
        Stop("scoreboard of a won match", stranger, f"{watch_won}/board"),
        Stop("rules", stranger, "/rules"),
        Stop("error page (404), logged out", stranger, "/no-such-page", status=404),
        Stop("log-out question, logged out", stranger, "/logout"),
        Stop("offline page", stranger, "/offline"),
        Stop("a club night's board", stranger, urlsplit(night["watch_url"]).path),
        Stop("home", player, "/"),
        Stop("new match", player, "/matches/new"),
        Stop("new match, house rules open", player, "/matches/new", _open_house_rules),
        Stop("new match, its errors shown", player, "/matches/new", _bad_start),
        Stop("match without hands (invite on top)", player, f"/matches/{fresh}"),
        Stop("Tysiacha for 3, a hand deleted", player, f"/matches/{three}"),
        Stop("Tysiacha for 4", player, f"/matches/{four}"),
        Stop("Tysiacha for 4, Invite tapped", player, f"/matches/{four}", _invited),
        Stop("Tysiacha for 4, a hand deleted by another phone", player, f"/matches/{four}", deleted_elsewhere),
        Stop("Tysiacha for 4, offline", player, f"/matches/{four}", _offline),
        Stop("house rules match", player, f"/matches/{house}"),
        Stop("Tichu match", player, f"/matches/{tichu}"),
        Stop("finished match", player, f"/matches/{won}"),
        Stop("finished match, Share the result tapped", player, f"/matches/{won}", _shared),
        Stop("banked match", player, f"/matches/{banked}"),
        Stop("hand form", player, f"/matches/{four}/hands/new"),
        Stop("hand form, the preview shown", player, f"/matches/{three}/hands/new", _preview),
        Stop("hand form, its errors shown", player, f"/matches/{three}/hands/new", _bad_hand),
        Stop("hand saved: the sheet offers its undo", player, f"/matches/{three}/hands/new", _saved),
        Stop("hand correction", player, f"/matches/{three}/hands/3/edit"),
        Stop("hand deletion", player, f"/matches/{three}/hands/3/delete"),
        Stop("Tichu round form", player, f"/matches/{tichu}/hands/new"),
        Stop("Tichu round correction", player, f"/matches/{tichu}/hands/1/edit"),
        Stop("history", player, f"/matches/{three}/history"),
        Stop("restore", player, restore),
        Stop("bank", player, f"/matches/{won}/bank"),
        Stop("end", player, f"/matches/{four}/end"),
        Stop("the table's rules", player, f"/matches/{house}/rules"),
        Stop("rules", player, "/rules"),
        *[Stop(f"rules of {r}", player, f"/rules/{r}") for r in [*RULESETS, TICHU]],
        Stop("join page", player, f"/join/{theirs['join_code']}"),
        Stop("join page, no such code", player, "/join/NOSUCHCODE", status=404),
        Stop("account", player, "/account"),
        Stop("player", player, f"/players/{name}"),
        Stop("records", player, f"/players/{name}/records"),
        Stop("claim my past seats", player, "/claim-past"),
        Stop("leaderboard", player, "/leaderboard"),
        Stop("head to head, the picker", player, "/head-to-head"),
        Stop("head to head", player, f"/head-to-head?one={name}&two={host}"),
        Stop("head to head, the same player twice", player, f"/head-to-head?one={name}&two={name}", status=422),
        Stop("guests", player, "/guests"),
        Stop("a club night, its director's phone", player, nights),
        Stop("new club night", player, "/events/new"),
        Stop("a club night's table cards", player, f"{nights}/cards"),
        Stop("a club night's round", player, f"{nights}/rounds/1"),
        Stop("closing a club night's round", player, f"{nights}/rounds/1/close"),
        Stop("seating a club night's round again", player, f"{nights}/rounds/1/reseat"),
        Stop("a paper table's result", player, f"{nights}/rounds/1/tables/1/result"),
        Stop("check in to a club night", player, f"/events/join/{night['code']}"),
        Stop("import", player, "/import"),
        Stop("importing a club night", player, "/events/import"),
        Stop("offline page", player, "/offline"),
        Stop("error page (404)", player, "/matches/nosuchmatch", status=404),
        Stop("log-out question", player, "/logout"),
    ]
    yield stops
    for phone in (player, stranger):
        phone.context.close()
        # The 404 pages and the forms sent with errors (422) are meant to answer so, and a live
        # page asks on while its stop has cut the connection (`_offline`), until the next stop.
        errors = [e for e in phone.errors if not EXPECTED_STATUS.search(e)]
        assert not errors, errors


def test_the_tour_visits_every_page_of_the_url_map(tour: list[Stop]) -> None:
    visited = {endpoint_of(stop.url) for stop in tour}
    missing = sorted(page_endpoints() - visited)
    assert not missing, f"pages no stop of the accessibility tour opens: {missing}"
    assert None in visited  # the 404 page of a path no route answers


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_any_page(tour: list[Stop], axe_script: Path, scheme: str) -> None:
    found: list[str] = []
    checked = 0
    for stop in tour:
        page = stop.who.page
        stop.who.context.set_offline(False)
        page.emulate_media(color_scheme=scheme)
        response = page.goto(stop.url)
        assert response and response.status == stop.status, (stop.what, response)
        page.wait_for_load_state()
        if stop.then:
            stop.then(page)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        page.add_script_tag(path=str(axe_script))
        for v in page.evaluate(AXE_RUN, WCAG):
            found.append(
                f"{stop.what} ({stop.url}): {v['id']} [{v['impact']}] {v['target']} — {v['help']}: {v['summary']}"
            )
        checked += 1
    assert checked == len(tour)
    if found:
        pytest.fail(f"{len(found)} accessibility violations in {scheme}:\n" + "\n".join(found))


@pytest.mark.parametrize(("scheme", "colour"), [("light", "#7fb2ff"), ("dark", "#0a4596")])
def test_the_check_catches_a_violation(tour: list[Stop], axe_script: Path, scheme: str, colour: str) -> None:
    """The check can fail: a field without a label, and words in the other scheme's accent
    colour (too pale on white, too dark on black), are caught."""
    page = tour[0].who.page
    page.context.set_offline(False)
    page.emulate_media(color_scheme=scheme)
    page.goto("/login")
    page.evaluate(
        """(colour) => {
      const input = document.createElement("input");
      const words = document.createElement("p");
      input.id = "added-input";
      words.id = "added-words";
      words.textContent = "the other scheme's accent";
      words.style.color = colour;
      document.querySelector("main").append(input, words);
    }""",
        colour,
    )
    page.add_script_tag(path=str(axe_script))
    found = page.evaluate(AXE_RUN, WCAG)
    assert {(v["id"], v["target"]) for v in found} >= {("label", "#added-input"), ("color-contrast", "#added-words")}, (
        found
    )
    assert {v["target"] for v in found} == {"#added-input", "#added-words"}, found
