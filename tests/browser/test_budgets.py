"""Budgets of the match page, measured in the browser (issue 6; figures in docs/performance.md).

The match page of a 40-hand, four-player match: its HTML at most 14 KB gzip-compressed, its
CSS and JS together at most 30 KB compressed. On emulated slow 4G (Lighthouse: 150 ms RTT,
1.6 Mbps down, 750 kbps up) with the CPU slowed 4×, the sheet is painted within 1.5 s of a
cold load and a saved hand is on the sheet within 1 s of the tap.
"""

from __future__ import annotations

import gzip
import time
from typing import Any

import pytest

from .helpers import Phone, api_match, api_user, unique

HTML_BUDGET = 14 * 1024
ASSETS_BUDGET = 30 * 1024
FCP_BUDGET_MS = 1500
SAVE_BUDGET_MS = 1000
# A function, not a bare expression: Playwright polls a bare expression with eval(), which
# the page's CSP (no 'unsafe-eval') refuses whenever the paint has not happened yet.
PAINTED = "() => performance.getEntriesByType('paint').some(p => p.name === 'first-contentful-paint')"
TAP_TO_PAINT = (
    "() => performance.timeOrigin + performance.getEntriesByType('paint')"
    ".find(p => p.name === 'first-contentful-paint').startTime"
    " - Number(sessionStorage.getItem('tapAt'))"
)
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}


def gz(data: bytes) -> int:
    """Size gzip-compressed (level 6, as the app sends it)."""
    return len(gzip.compress(data, compresslevel=6))


def slow_phone(phone: Phone, page: Any) -> Any:
    """Throttle the network to slow 4G and the CPU 4× for this page; an empty HTTP cache."""
    cdp = phone.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.clearBrowserCache")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return cdp


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
    # app.js and offline.js (the hands kept offline, issue 13), both deferred, one stylesheet
    assert kinds == ["script", "script", "stylesheet"] and code <= ASSETS_BUDGET


def test_on_slow_4g_the_sheet_paints_fast_and_a_saved_hand_shows_within_a_second(
    forty: tuple[Phone, str],
) -> None:
    phone, match_id = forty
    page = phone.page
    page.goto("about:blank")
    slow_phone(phone, page)
    page.goto(f"/matches/{match_id}")
    page.wait_for_function(PAINTED)
    paints = page.evaluate("Object.fromEntries(performance.getEntriesByType('paint').map(p => [p.name, p.startTime]))")
    fcp = paints["first-contentful-paint"]
    assert page.locator("#live table.sheet").is_visible()

    page.locator("a.button", has_text="Enter hand 41").tap()
    page.wait_for_selector("h1:text('Hand 41')")
    page.locator("label.choice", has_text="Played").first.tap()
    seats = page.locator("[id^=points_]")
    declarer = page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice").first
    declarer.tap()
    page.fill("#bid", "100")
    chosen = page.locator("input[name=declarer]:checked").get_attribute("value")
    for i in range(seats.count()):
        if seats.nth(i).get_attribute("id") != f"points_{chosen}":
            seats.nth(i).fill("10")
    page.locator(".preview", has_text="Preview:").wait_for()
    # Timed inside the browser: from the tap on save to the first paint of the sheet that
    # has the new hand (the page the save redirects to).
    page.evaluate(
        "document.addEventListener('click', () => sessionStorage.setItem('tapAt', String(Date.now())), {capture: true})"
    )
    start = time.perf_counter()
    page.locator("button", has_text="Save hand 41").tap()
    # Until the sheet has painted, the driver only listens for the URL and reads the paint
    # entries (PAINTED): its locators and wait_for_function run Playwright's own script in the
    # page, which on a CPU slowed 4x took up to 50 ms of the very frames being timed.
    page.wait_for_url(f"**/matches/{match_id}")
    while not page.evaluate(PAINTED):
        assert time.perf_counter() - start < 10, "the sheet never painted"
        page.wait_for_timeout(50)
    seen_ms = (time.perf_counter() - start) * 1000
    save_ms = page.evaluate(TAP_TO_PAINT)
    assert page.locator("table.sheet tbody tr:not(.queued)").count() == 41  # recorded, not waiting
    print(
        f"\nslow 4G + 4x CPU: first contentful paint {fcp:.0f} ms; "
        f"save to sheet {save_ms:.0f} ms ({seen_ms:.0f} ms as the test driver saw it)"
    )
    assert fcp <= FCP_BUDGET_MS
    assert save_ms <= SAVE_BUDGET_MS
