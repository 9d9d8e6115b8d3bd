"""Budgets of the match page, measured in the browser as what does not depend on the machine's
load: bytes, requests and round trips (the times they make on slow 4G are a benchmark,
bench/budgets.py; figures in docs/performance.md).

The match page of a 40-hand, four-player match: its HTML at most 14 KB gzip-compressed, its
CSS and JS together at most 30 KB compressed. The sheet can paint after two round trips, the
HTML and its one stylesheet (the scripts are deferred); a saved hand is on the sheet after two,
the hand sent and the sheet it leads to, every file of the page from the cache.
"""

from __future__ import annotations

import gzip
from typing import Any

import pytest

from .helpers import Phone, api_match, api_user, fill_ordinary_hand, unique

HTML_BUDGET = 14 * 1024
ASSETS_BUDGET = 30 * 1024
RESOURCES = (
    "() => performance.getEntriesByType('resource').map(e => [e.initiatorType, e.renderBlockingStatus, e.transferSize])"
)
"""The page's files as Resource Timing has them: who asked, whether it held the paint up, bytes over the wire."""


def gz(data: bytes) -> int:
    """Size gzip-compressed (level 6, as the app sends it)."""
    return len(gzip.compress(data, compresslevel=6))


@pytest.fixture
def forty(new_phone: Any) -> tuple[Phone, str]:
    """A phone (service worker blocked: every byte comes over the network) logged in as a
    player of a four-player match of 40 hands."""
    phone = new_phone(service_workers="block")
    name = unique("budget")
    match_id = api_match(phone, api_user(phone, name), hands=40, seats=4)
    phone.log_in(name)
    return phone, match_id


def test_the_match_page_of_40_hands_fits_the_byte_budgets(forty: tuple[Phone, str]) -> None:
    phone, match_id = forty
    assets: list[Any] = []
    phone.page.on(
        "response", lambda r: assets.append(r) if r.request.resource_type in ("stylesheet", "script") else None
    )
    response = phone.page.goto(f"/matches/{match_id}")
    phone.page.wait_for_load_state("load")
    assert response.headers["content-encoding"] == "gzip"
    html = gz(response.body())
    sent = response.request.sizes()["responseBodySize"]
    code = sum(gz(r.body()) for r in assets)
    kinds = sorted(r.request.resource_type for r in assets)
    print(
        f"\nmatch page, 40 hands, 4 seats: HTML {len(response.body())} B, {html} B gzip "
        f"({sent} B sent); CSS+JS {code} B gzip {kinds}"
    )
    assert phone.page.locator("table.sheet tbody tr").count() == 40
    assert html <= HTML_BUDGET
    # app.js and offline.js (the hands kept offline), both deferred, one stylesheet
    assert kinds == ["script", "script", "stylesheet"] and code <= ASSETS_BUDGET


def test_the_sheet_paints_after_two_round_trips_and_a_saved_hand_is_on_it_after_two_more(
    forty: tuple[Phone, str],
) -> None:
    phone, match_id = forty
    page = phone.page
    page.goto("about:blank")
    cdp = phone.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.clearBrowserCache")
    page.goto(f"/matches/{match_id}")
    page.wait_for_load_state("load")
    # Cold: the HTML, then the one file that holds the paint up, the stylesheet.
    blocking = [(kind, size > 0) for kind, status, size in page.evaluate(RESOURCES) if status == "blocking"]
    assert blocking == [("link", True)]
    assert page.evaluate("[...document.scripts].every(s => s.src && s.defer)")

    fill_ordinary_hand(page, 41)
    # From the tap on save to the sheet: what went over the network (the page's own files
    # and requests; the browser's fetch of the home-screen icon aside).
    sent: dict[str, str] = {}
    cached: set[str] = set()
    on_page = ("Document", "Stylesheet", "Script", "Fetch", "XHR", "Font", "Image")
    cdp.on(
        "Network.requestWillBeSent",
        lambda e: (
            sent.update({e["requestId"]: f"{e['request']['method']} {e['request']['url']}"})
            if e.get("type") in on_page
            else None
        ),
    )
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    page.locator("button", has_text="Save hand 41").tap()
    page.wait_for_url(f"**/matches/{match_id}")
    page.wait_for_load_state("load")
    assert page.locator("table.sheet tbody tr:not(.queued)").count() == 41  # recorded, not waiting
    base = f"{phone.server}/matches/{match_id}"
    assert [request for rid, request in sent.items() if rid not in cached] == [
        f"POST {base}/hands/new",
        f"GET {base}",
    ]
    assert all(size == 0 for kind, _, size in page.evaluate(RESOURCES) if kind in ("link", "script"))
