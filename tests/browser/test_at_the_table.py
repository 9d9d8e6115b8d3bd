"""At the table on a small phone (issue 12): the sheet readable at a glance, names and scores
always on screen, the newest hand on screen when the page opens."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Phone, api_match, api_user, unique

PHONES = {"360x640": {"width": 360, "height": 640}, "375x667": {"width": 375, "height": 667}}
ROW_HEIGHT = 56
"""An ordinary hand's row at most this tall (CSS px): the 44 px ✎ link plus a little."""

# For each hand row: its box, and the sticky header's box and its names' visibility.
ROWS_JS = """() => [...document.querySelectorAll("table.sheet tbody tr")].map(tr => {
  const box = tr.getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, height: box.height,
          events: tr.querySelectorAll(".ev").length,
          hand: tr.querySelector("th").textContent.trim()};
})"""
HEADER_JS = """() => {
  const head = document.querySelector("table.sheet thead").getBoundingClientRect();
  const names = [...document.querySelectorAll("table.sheet thead .seat-head")].map(th => {
    const b = th.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + 4);
    return {name: th.querySelector(".name").textContent, score: th.querySelector(".now").textContent,
            seen: b.top >= 0 && b.bottom <= innerHeight && b.right <= innerWidth && th.contains(hit)};
  });
  return {top: head.top, bottom: head.bottom, names};
}"""


@pytest.fixture(scope="module")
def matches(browser: Any, playwright: Any, server: str) -> dict[int, tuple[str, str]]:
    """A 40-hand match of three and one of four, with one member: seats → (username, match id)."""
    context = browser.new_context(base_url=server)
    phone = Phone(context, server)
    made = {}
    for seats in (3, 4):
        name = unique("table")
        made[seats] = (name, api_match(phone, api_user(phone, name), hands=40, seats=seats))
    context.close()
    return made


@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("seats", [3, 4])
def test_names_and_scores_stay_on_screen_over_one_compact_row_per_hand(
    new_phone: Any, matches: dict[int, tuple[str, str]], seats: int, size: str
) -> None:
    phone: Phone = new_phone(viewport=PHONES[size], screen=PHONES[size])
    name, match_id = matches[seats]
    phone.log_in(name)
    phone.page.goto(f"/matches/{match_id}")
    page = phone.page
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size]["width"]
    rows = page.evaluate(ROWS_JS)
    assert len(rows) == 40
    # The newest hand is the first row, and it is on screen when the page opens.
    assert rows[0]["hand"].startswith("40") and rows[0]["bottom"] <= PHONES[size]["height"]
    # One compact row per hand: an ordinary hand (no event words) is one line of numbers.
    heights = [r["height"] for r in rows if not r["events"]]
    assert len(heights) >= 30 and max(heights) <= ROW_HEIGHT, heights
    # Scrolled to any hand, down to the oldest, the names and current scores are on screen.
    for index in (0, 10, 25, 39):
        page.locator("table.sheet tbody tr").nth(index).scroll_into_view_if_needed()
        header = page.evaluate(HEADER_JS)
        assert len(header["names"]) == seats
        assert all(n["seen"] for n in header["names"]), (index, header)
        row = page.evaluate(ROWS_JS)[index]
        assert row["top"] >= header["bottom"] - 1, (index, row, header)
    scores = page.locator(".standing .score").all_inner_texts()
    assert [n["score"] for n in header["names"]] == scores


def test_the_phone_may_be_turned_sideways_and_the_sheet_uses_the_width(
    new_phone: Any, matches: dict[int, tuple[str, str]]
) -> None:
    phone: Phone = new_phone(viewport={"width": 740, "height": 360},
                             screen={"width": 740, "height": 360})
    name, match_id = matches[4]
    phone.log_in(name)
    manifest = phone.page.locator("link[rel=manifest]").get_attribute("href")
    assert phone.context.request.get(manifest).json()["orientation"] == "any"
    phone.page.goto(f"/matches/{match_id}")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 740
    sheet = phone.page.locator("table.sheet").bounding_box()
    main = phone.page.locator("main").bounding_box()
    assert sheet["width"] >= main["width"] * 0.9
    phone.page.locator("table.sheet tbody tr").last.scroll_into_view_if_needed()
    assert all(n["seen"] for n in phone.page.evaluate(HEADER_JS)["names"])
