"""The whole ordinary hand on one screen: on a 360 × 640 phone, in each of the five languages,
the hand form opened shows every control an ordinary hand of three needs — what happened, the
declarer, the bid (its − / + and quick bids), each player's card points and marriages — and
Save, without a scroll; once the hand is typed, the preview is on screen too, in full and in
type as large as the form's. The Tichu round form likewise: who went out first, every call,
the double victory, the card points, Save and the preview."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scoresheet.web.i18n import LANGUAGES

from .helpers import SEATS, Phone, api_user, unique
from .test_narrow_pages import speak

PHONE = {"viewport": {"width": 360, "height": 640}, "screen": {"width": 360, "height": 640}}
HAND = 12
"""The hand (round) the forms are opened for: two-digit numbers, in "Save hand 12" too."""
READABLE_PX = 16
"""The preview's type: at least the size of the page's own text."""

# Each control's box (a radio or a toggle by the face the thumb sees), and the save bar's top.
BOXES_JS = """selectors => {
  const box = el => {
    const target = el.matches("input[type=radio], input[type=checkbox]") && el.closest("label.choice, label.toggle")
      ? el.closest("label").querySelector("span") : el;
    const b = target.getBoundingClientRect();
    return {what: (el.id || el.name || el.textContent || "").trim().slice(0, 30) + " " + (el.value || ""),
            top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width};
  };
  const controls = selectors.flatMap(s => [...document.querySelectorAll(s)]).map(box);
  return {controls, bar: document.querySelector(".save-bar").getBoundingClientRect().top,
          save: box(document.querySelector(".save-bar button[type=submit]")),
          scrolled: scrollY, height: innerHeight, width: innerWidth};
}"""
HAND_CONTROLS = [
    "input[name=kind]",
    "input[name=declarer]",
    "#bid",
    "button[data-step-for=bid]",
    ".quick-bids button",
    "input[data-seat-points]",
    "input[name^=marriages_]",
]
ROUND_CONTROLS = [
    "input[name=first_out]",
    "input[name^=calls_]",
    "#double_victory",
    "#card_points",
    "button[data-step-for=card_points]",
    "button[data-sign-for=card_points]",
]
PREVIEW_JS = """() => {
  const p = document.querySelector(".preview");
  const b = p.getBoundingClientRect();
  const sizes = [...p.querySelectorAll("p, li")].map(e => parseFloat(getComputedStyle(e).fontSize));
  return {top: b.top, bottom: b.bottom, bar: document.querySelector(".save-bar").getBoundingClientRect().top,
          smallest: Math.min(...sizes), lines: p.querySelectorAll("li").length, scrolled: scrollY};
}"""


@pytest.fixture(scope="module")
def table(browser: Any, playwright: Any, server: str) -> Iterator[tuple[Phone, dict[str, str]]]:
    """A 360 × 640 phone logged in as a player of a match of three and a Tichu match, both at
    hand (round) 12: (phone, the two hand forms' URLs)."""
    device = {k: v for k, v in playwright.devices["Pixel 7"].items() if k != "default_browser_type"}
    device.update(has_touch=True, base_url=server, **PHONE)
    phone = Phone(browser.new_context(**device), server)
    name = unique("onescreen")
    auth = api_user(phone, name)
    urls = {}
    for rules, players in (("squarescores", SEATS[:3]), ("tichu", SEATS)):
        response = phone.context.request.post("/api/matches", headers=auth, data={"players": players, "rules": rules})
        assert response.status == 201, response.text()
        match_id = response.json()["id"]
        for _ in range(HAND - 1):  # hand 12: the numbers of a match well under way
            hand = (
                {"kind": "redeal"}
                if rules != "tichu"
                else {"calls": [None] * 4, "first_out": 0, "card_points": [50, 50]}
            )
            assert phone.context.request.post(f"/api/matches/{match_id}/hands", headers=auth, data=hand).status == 201
        urls[rules] = f"/matches/{match_id}/hands/new"
    phone.log_in(name)
    yield phone, urls
    phone.context.close()
    assert not phone.errors, phone.errors


def all_on_screen(page: Any, selectors: list[str], count: int) -> None:
    """Every control `selectors` find (`count` of them) and Save lie inside the screen without a
    scroll, the controls above the save bar (which covers what is under it)."""
    seen = page.evaluate(BOXES_JS, selectors)
    assert seen["scrolled"] == 0
    assert len(seen["controls"]) == count, seen["controls"]
    hidden = [
        c
        for c in seen["controls"]
        if c["top"] < 0 or c["bottom"] > seen["bar"] or c["left"] < 0 or c["right"] > seen["width"] or not c["width"]
    ]
    assert not hidden, (seen["bar"], hidden)
    save = seen["save"]
    assert save["top"] >= seen["bar"] and save["bottom"] <= seen["height"] and save["right"] <= seen["width"]


def preview_on_screen(page: Any, lines: int) -> None:
    """The preview shows the engine's answer (`lines` lines, one a seat or team), whole, above
    the save bar, with nothing scrolled, in readable type."""
    page.locator(".preview li").nth(lines - 1).wait_for()
    preview = page.evaluate(PREVIEW_JS)
    assert preview["lines"] == lines and preview["scrolled"] == 0, preview
    assert preview["top"] >= 0 and preview["bottom"] <= preview["bar"], preview
    assert preview["smallest"] >= READABLE_PX, preview


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_an_ordinary_hand_and_a_tichu_round_fit_one_360_by_640_screen(
    table: tuple[Phone, dict[str, str]], language: str
) -> None:
    phone, urls = table
    speak(phone, language)
    page = phone.page

    page.goto(urls["squarescores"])
    page.locator(".quick-bids").wait_for()
    # 3 kinds, 3 declarers, the bid, − and +, 6 quick bids, 3 boxes, 3 × 4 marriages.
    all_on_screen(page, HAND_CONTROLS, 3 + 3 + 1 + 2 + 6 + 3 + 12)
    page.locator("label.choice:has(input[name=declarer][value='1'])").tap()
    page.locator(".quick-bids button[data-bid='120']").tap()
    page.keyboard.type("35")
    page.keyboard.type("45")
    page.locator("label.toggle:has(input[name=marriages_1][value=hearts])").tap()
    page.locator(".preview.made").wait_for()
    preview_on_screen(page, 3)
    all_on_screen(page, HAND_CONTROLS, 30)  # typing scrolled nothing away

    page.goto(urls["tichu"])
    page.locator("button[data-sign-for]").wait_for()
    # 4 out first, 4 × 3 calls, the double victory, the card points, −, + and ±.
    all_on_screen(page, ROUND_CONTROLS, 4 + 12 + 1 + 1 + 3)
    page.locator("label.choice:has(input[name=first_out][value='1'])").tap()
    preview_on_screen(page, 2)
