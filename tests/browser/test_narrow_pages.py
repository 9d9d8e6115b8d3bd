"""Every page a player sees, at 360 px in each of the five languages, fits the phone: nothing
overflows sideways and nothing is cut off. One browser context per kind of visitor
(a player, a stranger who is logged out), reused for every page and language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from scoresheet.web.i18n import LANGUAGES

from .helpers import Phone, api_match, api_tichu_match, api_user, unique

MATCH_PAGE = 2
"""The three players' match among `visitors`' pages: each language's screenshot shows it."""
NARROW = {"viewport": {"width": 360, "height": 740}, "screen": {"width": 360, "height": 740}}

# What does not fit, measured in the page: the page wider than the screen; a box whose edge is
# past the screen's; content wider than the box that holds it (spilling over it, or hidden by
# it, or making it scroll sideways); a select whose chosen option is wider than it shows; a
# chart label outside its chart; a word broken over two lines.
MISFITS_JS = """() => {
  const screen = document.documentElement.clientWidth;
  const name = el => {
    const cls = typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\\s+/).join(".") : "";
    const text = (el.value || el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls} "${text}"`;
  };
  const inScroller = el => {     // a box that scrolls sideways answers for what it holds
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
      if (["auto", "scroll"].includes(getComputedStyle(a).overflowX)) return true;
    return false;
  };
  const found = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) found.push(`the page is ${doc.scrollWidth} px wide`);
  const canvas = document.createElement("canvas").getContext("2d");
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden"
        || el.closest(".visually-hidden, .choice input, .toggle input")) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (!inScroller(el) && (box.right > screen + 0.5 || box.left < -0.5))
      found.push(`${name(el)} spans ${Math.round(box.left)}–${Math.round(box.right)} px`);
    if (el instanceof SVGElement) {
      const svg = el.ownerSVGElement && el.ownerSVGElement.getBoundingClientRect();
      if (svg && el.tagName === "text" && (box.left < svg.left - 0.5 || box.right > svg.right + 0.5))
        found.push(`${name(el)} is cut off by its chart`);
      continue;
    }
    if (el.tagName === "SELECT") {
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        - 16;  // the select's arrow
      const shown = el.options[el.selectedIndex];   // the phone's own list shows the rest
      const text = shown ? canvas.measureText(shown.text).width : 0;
      if (text > room)
        found.push(`${name(shown)} in ${name(el)} needs ${Math.round(text)} of ${Math.round(room)} px`);
    } else if (style.display !== "inline" && el.scrollWidth > el.clientWidth + 1)
      found.push(`${name(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px`);
  }
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node; (node = texts.nextNode());) {
    if (node.parentElement.closest(".visually-hidden, svg, option, script")) continue;
    for (const word of node.data.matchAll(/[^\\s\\-\u2010-\u2015\\/]+/g)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0)
                            .map(r => Math.round(r.top)));
      if (lines.size > 1) found.push(`${name(node.parentElement)} breaks "${word[0]}" in two`);
    }
  }
  return found;
}"""


def misfits(phone: Phone, url: str) -> list[str]:
    """What does not fit on the page at `url` (empty when everything does)."""
    phone.page.goto(url)
    phone.page.wait_for_load_state()
    return phone.page.evaluate(MISFITS_JS)


def speak(phone: Phone, language: str) -> None:
    """Tap the language at the foot of a page (the account and the cookie remember it)."""
    phone.page.goto("/login")
    with phone.page.expect_navigation():
        phone.page.locator(f"footer button[value={language}]").tap()
    assert phone.page.get_attribute("html", "lang") == language


def _api(phone: Phone, auth: dict[str, str], path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = phone.context.request.post(path, headers=auth, data=body)
    assert response.status in (200, 201), response.text()
    return response.json()  # type: ignore[no-any-return]


def _barrel_match(phone: Phone, auth: dict[str, str]) -> str:
    """Three players with everything a sheet cell and a standing can show: a marriage, the
    barrel, a redeal, a Rospisat', owed points, zeros."""
    match = _api(phone, auth, "/api/matches", {"players": ["Anna", "Boris", "Vera"], "start_scores": [780, 300, 0]})
    path = f"/api/matches/{match['id']}/hands"
    for hand in (
        {"declarer": 0, "bid": 100, "points": [None, 15, 10], "marriages": [["hearts"], [], []]},
        {"kind": "redeal"},
        {"kind": "forfeit", "declarer": 1, "bid": 120},
        {"declarer": 2, "bid": 120, "points": [0, 30, None]},
        {"declarer": 1, "bid": 110, "points": [0, None, 20]},
    ):
        _api(phone, auth, path, hand)
    return str(match["id"])


def _four_zeros_match(phone: Phone, auth: dict[str, str]) -> str:
    """Four players, Anna on the barrel defending (her card points not counted) and the
    others with zeros (a quarter of the phone holds each card's chips, in every language)."""
    players = ["Anna", "Boris", "Vera", "Gleb"]
    match = _api(phone, auth, "/api/matches", {"players": players, "start_scores": [780, 0, 0, 0]})
    for k in range(6):
        nxt = match["next"]
        playing = [s for s in range(4) if s != nxt["sitting_out"]]
        declarer = 0 if 0 in playing and k < 2 else next(s for s in playing if s != 0)  # Anna to 880, then defends
        points = [None if s in (declarer, nxt["sitting_out"]) else 0 for s in range(4)]
        hand = {"declarer": declarer, "bid": 100, "points": points}
        match = _api(phone, auth, f"/api/matches/{match['id']}/hands", hand)
    return str(match["id"])


HOUSE_HANDS = [
    (0, 100, [None, 10, 10]),
    (1, 100, [10, None, 10]),
    (2, 100, [10, 10, None]),
    *[(0, 100, [None, 10, 10])] * 2,
    (1, 100, [10, None, 10]),
    *[(0, 100, [None, 10, 10])] * 2,
    (1, 120, [0, None, 0]),
    *[(0, 100, [None, 10, 10])] * 2,
]
"""Anna's 555 dump (hand 1), Boris knocked off by Vera (3), Vera's fall (5), Boris's fall (8)
and his third fall back to 0 (11): every marker of the race and every word of the sheet's."""


def house_match(phone: Phone, auth: dict[str, str]) -> str:
    """Three players with house rules (RULES.md §11) and every event the race marks."""
    match = _api(
        phone,
        auth,
        "/api/matches",
        {
            "players": ["Anna", "Boris", "Vera"],
            "start_scores": [455, 800, 800],
            "options": {
                "dump_555": "plus",
                "barrel_knock_off": True,
                "three_falls_reset": True,
                "barrel_hands": 2,
                "zeros": "off",
            },
        },
    )
    for declarer, bid, points in HOUSE_HANDS:
        _api(phone, auth, f"/api/matches/{match['id']}/hands", {"declarer": declarer, "bid": bid, "points": points})
    return str(match["id"])


def _banked_matches(phone: Phone, auth: dict[str, str], tablemate: str) -> None:
    """A Tysiacha and a Tichu match won and banked, the player in seat 0 and `tablemate` (who
    joins) in seat 1, the rest guests: the player's page, a tablemate's with its head to head,
    both leaderboards and the guests' page have something in every row."""
    mate = api_user(phone, tablemate)
    for setup, hand in (
        (
            {"players": ["Anna", "Boris", "Vera"], "start_scores": [870, 0, 0]},
            {"declarer": 0, "bid": 140, "points": [None, 20, 20], "marriages": [["hearts"], [], []]},
        ),
        (
            {"players": ["Anna", "Boris", "Vera", "Gleb"], "rules": "tichu", "start_scores": [900, 0]},
            {"calls": ["tichu", "grand", None, None], "first_out": 0, "double_victory": True},
        ),
    ):
        match = _api(phone, auth, "/api/matches", setup)
        _api(phone, mate, "/api/matches/join", {"code": match["join_code"]})
        _api(phone, auth, f"/api/matches/{match['id']}/hands", hand)
        _api(phone, auth, f"/api/matches/{match['id']}/seats/0/claim", {})
        _api(phone, mate, f"/api/matches/{match['id']}/seats/1/claim", {})
        _api(phone, auth, f"/api/matches/{match['id']}/bank", {})


@pytest.fixture(scope="module")
def visitors(browser: Any, playwright: Any, server: str) -> Iterator[tuple[Phone, Phone, list[str]]]:
    """A logged-in player with three matches, a stranger, and the pages each of them sees."""
    device = {k: v for k, v in playwright.devices["Pixel 7"].items() if k != "default_browser_type"}
    device.update(has_touch=True, base_url=server, **NARROW)
    player, stranger = (Phone(browser.new_context(**device), server) for _ in range(2))
    name = unique("narrow")
    auth = api_user(player, name)
    four = api_match(player, auth, hands=12, seats=4)
    three, tichu = _barrel_match(player, auth), api_tichu_match(player, auth)
    house, zeros = house_match(player, auth), _four_zeros_match(player, auth)
    tablemate = unique("tablemate")
    _banked_matches(player, auth, tablemate)
    night = _api(player, auth, "/api/events", {"name": "Friday club", "game": {"rules": "squarescores"}, "rounds": 3})
    for entry in ({"username": name}, {"guest": "Dana"}, {"guest": "Egor"}):
        _api(player, auth, f"/api/events/{night['id']}/roster", entry)
    _api(player, auth, f"/api/events/{night['id']}/rounds", {})
    player.log_in(name)
    pages = [
        "/",
        "/matches/new",
        f"/matches/{three}",
        f"/matches/{four}",
        f"/matches/{house}",
        f"/matches/{zeros}",
        f"/matches/{tichu}",
        f"/matches/{four}/hands/new",
        f"/matches/{three}/hands/3/edit",
        f"/matches/{tichu}/hands/new",
        f"/matches/{three}/history",
        "/account",
        "/import",
        "/offline",
        f"/players/{name}",
        f"/players/{tablemate}",
        "/leaderboard",
        f"/head-to-head?one={name}&two={tablemate}",
        "/guests",
        f"/events/{night['id']}",
        "/events/new",
        f"/events/{night['id']}/rounds/1",
        f"/events/{night['id']}/rounds/1/reseat",
        f"/events/{night['id']}/rounds/1/tables/1/result",
        f"/events/{night['id']}/cards",
        f"/events/join/{night['code']}",
        urlparse(night["watch_url"]).path,  # the night's board: made for a TV, opened on phones too
    ]
    yield player, stranger, pages
    for phone in (player, stranger):
        phone.context.close()
        assert not phone.errors, phone.errors


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_page_fits_a_360_px_phone_in_every_language(
    visitors: tuple[Phone, Phone, list[str]],
    shots: Path,
    language: str,
) -> None:
    player, stranger, pages = visitors
    speak(player, language)
    speak(stranger, language)
    found = {url: misfits(player, url) for url in pages}
    found |= {url: misfits(stranger, url) for url in ("/login", "/register", "/welcome")}
    bad = [f"{url}: {what}" for url, misfit in found.items() for what in misfit]
    if bad:
        pytest.fail("\n".join(bad))
    player.page.goto(pages[MATCH_PAGE])  # README shows it (UPDATE_SCREENSHOTS=1 rewrites)
    player.screenshot(shots, f"match-{language}")


def test_a_refused_hands_error_leaves_the_names_beside_the_boxes_as_wide(
    visitors: tuple[Phone, Phone, list[str]],
) -> None:
    """The group's error outlines it and takes no room from the row: a name that fitted
    before the refusal ("Оксана" at 360 px) is not broken in two after it."""
    player, _stranger, pages = visitors
    speak(player, "uk")
    page = player.page
    page.goto(pages[MATCH_PAGE] + "/hands/new")
    names = "() => [...document.querySelectorAll('.seat:not([hidden]) .seat-name')].map(e => e.offsetWidth)"
    before = page.evaluate(names)
    page.locator("label.choice:has(#declarer-1)").click()
    page.fill("#points_0", "130")  # over the 120 of the pack: the group's refusal
    page.fill("#points_2", "10")
    page.locator("form.hand button[type=submit]").click()
    page.wait_for_selector("fieldset.has-error .errors li")
    assert page.evaluate(names) == before
    player.errors[:] = [e for e in player.errors if "status of 422" not in e]  # the refusal itself
