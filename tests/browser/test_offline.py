"""Never lose a hand to a bad connection (issue 13): hands saved offline wait on the phone and
are sent in order when it is back, conflicts are shown, a following phone says it is offline,
and a new service worker takes over with a hand waiting.

Offline is `set_offline` for the pages plus an abort for every request of the service worker
(`set_offline` does not cut those). Background Sync never fires here: the hands go out on the
`online` event or on the next visit, which is what these tests prove.
"""

from __future__ import annotations

from typing import Any

from .helpers import Phone, api_match, api_user, unique

SENT_WITHIN_MS = 10_000
"""Proof 1: both hands recorded within 10 s of the connection coming back."""
SAYS_OFFLINE_WITHIN_MS = 10_000
CATCHES_UP_WITHIN_MS = 5_000
PAGES = "tysiacha-pages-1"


def _abort_worker(route: Any) -> None:
    """The service worker's requests fail as they would offline; the pages' are set_offline's."""
    if route.request.service_worker:
        route.abort("internetdisconnected")
    else:
        route.fallback()


def go_offline(phone: Phone) -> None:
    """The phone loses its connection: its pages and its service worker."""
    phone.context.route("**/*", _abort_worker)
    phone.context.set_offline(True)


def go_online(phone: Phone) -> None:
    """The connection is back."""
    phone.context.unroute("**/*", _abort_worker)
    phone.context.set_offline(False)


def kept(phone: Phone, *paths: str) -> None:
    """Wait until the service worker controls the page and keeps these pages for offline use."""
    phone.page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller")
    until(phone, """([name, paths]) => caches.open(name).then(c => c.keys())
      .then(keys => keys.map(k => new URL(k.url).pathname))
      .then(have => paths.every(p => have.includes(p)))""", [PAGES, list(paths)])


def until(phone: Phone, script: str, arg: Any = None, timeout_ms: int = 15_000) -> None:
    """Wait until an asynchronous check in the page answers true (asked every 100 ms)."""
    for _ in range(timeout_ms // 100):
        if phone.page.evaluate(script, arg):
            return
        phone.page.wait_for_timeout(100)
    raise AssertionError(f"still false after {timeout_ms} ms: {script}")


def table(new_phone: Any, hands: int) -> tuple[Phone, dict[str, str], str]:
    """A logged-in phone on the sheet of a three-player match of `hands` hands, with the sheet
    and the hand form kept for offline use: (phone, API auth, match id)."""
    phone = new_phone()
    name = unique("olga")
    auth = api_user(phone, name)
    match_id = api_match(phone, auth, hands=hands)
    phone.log_in(name)
    sheet = f"/matches/{match_id}"
    phone.page.goto(sheet)
    phone.page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller")
    phone.page.goto(f"{sheet}/hands/new")
    phone.page.goto(sheet)
    kept(phone, sheet, f"{sheet}/hands/new")
    return phone, auth, match_id


def enter(phone: Phone, number: int, declarer: str, bid: int, points: dict[int, int]) -> None:
    """From the sheet: open the form of hand `number`, fill in a played hand, save it."""
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector(f"h1:text-is('Hand {number}')")
    phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice",
                       has_text=declarer).first.tap()
    phone.page.fill("#bid", str(bid))
    for seat, value in points.items():
        phone.page.fill(f"#points_{seat}", str(value))
    phone.tap(f"button:text('Save hand {number}')")
    phone.page.wait_for_selector(f"#live tr.queued th:text-is('{number}')")


def waiting(phone: Phone) -> list[str]:
    """The hands waiting on the sheet, newest first as the sheet shows hands: 'number: what'."""
    return [f"{r.locator('th').inner_text()}: {r.locator('.entry').inner_text()}"
            f" ({r.locator('.queued-state').inner_text()})"
            for r in phone.page.locator("#live tr.queued").all()]


def server_hands(phone: Phone, auth: dict[str, str], match_id: str) -> list[tuple[int, int, int]]:
    """The hands the server holds: (number, declarer, bid)."""
    response = phone.context.request.get(f"/api/matches/{match_id}", headers=auth)
    assert response.status == 200, response.text()
    return [(h["number"], h["declarer"], h["bid"]) for h in response.json()["hands"]]


def forget_network_errors(phone: Phone) -> None:
    """Requests that failed while offline are logged by the browser; they are expected."""
    phone.errors[:] = [e for e in phone.errors if "net::ERR_" not in e and "Failed to fetch" not in e]


def test_hands_saved_offline_survive_a_reload_and_a_closed_tab_and_are_sent_once_in_order(
        new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    enter(phone, 4, "Boris", 130, {0: 10, 2: 15})
    expected = ["4: Boris · 130 (waiting to be sent)", "3: Anna · 120 (waiting to be sent)"]
    assert waiting(phone) == expected
    assert phone.page.locator(".offline-line").inner_text().endswith("— offline")

    phone.page.reload()
    phone.page.wait_for_selector("#live tr.queued >> nth=1")
    assert waiting(phone) == expected
    phone.page.close()
    phone.page = phone.open_page()
    phone.page.goto(f"/matches/{match_id}")
    phone.page.wait_for_selector("#live tr.queued >> nth=1")
    assert waiting(phone) == expected
    assert server_hands(phone, auth, match_id)[2:] == []

    go_online(phone)
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(3).wait_for(timeout=SENT_WITHIN_MS)
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120), (4, 1, 130)]
    assert phone.page.locator(".offline-line").is_hidden()
    forget_network_errors(phone)
