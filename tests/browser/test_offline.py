"""Never lose a hand to a bad connection (issue 13): hands saved offline wait on the phone and
are sent in order when it is back, conflicts are shown, a following phone says it is offline,
and a new service worker takes over with a hand waiting.

Offline is `set_offline` for the pages plus an abort for every request of the service worker
(`set_offline` does not cut those). Background Sync never fires here: the hands go out on the
`online` event or on the next visit, which is what these tests prove.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

from .helpers import Phone, api_match, api_user, unique

SENT_WITHIN_MS = 10_000
"""Proof 1: both hands recorded within 10 s of the connection coming back."""
SAYS_OFFLINE_WITHIN_MS = 10_000
CATCHES_UP_WITHIN_MS = 5_000
PAGES = "tysiacha-pages-1"
PREVIOUS_WORKER = "9cd21cd357634fcb7d2805c86fa32604c89e1a05"
"""The commit whose `static/sw.js` is the release before the offline sheets (it kept only the
versioned static files and the offline page): the upgrade test serves it from git history."""


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


def enter(phone: Phone, number: int, declarer: str, bid: int, points: dict[int, int],
          waits: bool = True) -> None:
    """From the sheet: open the form of hand `number`, fill in a played hand, save it (and see
    it waiting on the sheet, unless `waits` is false)."""
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector(f"h1:text-is('Hand {number}')")
    phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice",
                       has_text=declarer).first.tap()
    phone.page.fill("#bid", str(bid))
    for seat, value in points.items():
        phone.page.fill(f"#points_{seat}", str(value))
    phone.tap(f"button:text('Save hand {number}')")
    if waits:
        phone.page.wait_for_selector(f"#live tr.queued th:text-is('{number}')")


def kept_hands(phone: Phone) -> int:
    """How many hands this phone keeps in IndexedDB."""
    return int(phone.page.evaluate("""() => new Promise(done => {
      const open = indexedDB.open('tysiacha-offline');
      open.onsuccess = () => open.result.transaction('hands').objectStore('hands').count()
        .onsuccess = e => done(e.target.result); })"""))


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


def forget_network_errors(phone: Phone, *expected: str) -> None:
    """Requests that failed while offline (and answers such as the expected 409 of a
    conflict) are logged by the browser as errors; they are part of the test."""
    known = ("net::ERR_", "Failed to fetch", *expected)
    phone.errors[:] = [e for e in phone.errors if not any(k in e for k in known)]


def test_hands_saved_offline_survive_a_reload_and_a_closed_tab_and_are_sent_once_in_order(
        new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    assert phone.page.locator("#live .banner a.button").inner_text() == "Enter hand 4"
    enter(phone, 4, "Boris", 130, {0: 10, 2: 15})
    expected = ["4: Boris · 130 (waiting to be sent)", "3: Anna · 120 (waiting to be sent)"]
    assert waiting(phone) == expected
    assert phone.page.locator(".offline-line").inner_text().endswith("— offline")
    # The kept sheet comes with the very stylesheet it names (kept beside it).
    assert phone.page.evaluate("getComputedStyle(document.body).margin") == "0px"
    assert phone.page.evaluate("""() => caches.match(
      document.querySelector('link[rel=stylesheet]').href).then(r => Boolean(r))""")

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


def record_elsewhere(phone: Phone, auth: dict[str, str], match_id: str, number: int) -> None:
    """A second phone at the table, online, records hand `number` (Boris 100, made)."""
    request = phone.context.request
    code = request.get(f"/api/matches/{match_id}", headers=auth).json()["join_code"]
    boris = api_user(phone, unique("boris"))
    assert request.post("/api/matches/join", headers=boris, data={"code": code}).status == 200
    hand = {"kind": "played", "declarer": 1, "bid": 100, "points": [15, None, 10],
            "marriages": [[], ["spades"], []], "expected_hand": number}
    response = request.post(f"/api/matches/{match_id}/hands", headers=boris, data=hand)
    assert response.status == 201, response.text()


def test_a_hand_another_phone_recorded_meanwhile_is_a_conflict_and_goes_in_as_the_next_hand(
        new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    record_elsewhere(phone, auth, match_id, 3)

    go_online(phone)
    conflict = phone.page.locator("#live tr.queued.state-conflict")
    conflict.wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100)]     # the other phone's only
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for()
    assert "Anna · 120" in conflict.inner_text() and "not sent" in conflict.inner_text()
    assert "hand 3" in conflict.locator(".queued-message").inner_text().lower()

    # The player adds theirs as hand 4: the form under the new deal, filled in, previewed.
    conflict.locator("button", has_text="Add as the next hand").tap()
    phone.page.wait_for_selector("h1:text-is('Hand 4')")
    assert phone.page.locator("input[name=declarer]:checked").get_attribute("value") == "0"
    assert phone.page.input_value("#bid") == "120"
    phone.page.locator(".preview", has_text="Preview:").wait_for(timeout=5_000)
    phone.tap("button:text('Save hand 4')")
    phone.page.wait_for_selector("li.flash:has-text('Hand 4 recorded.')")
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100), (4, 0, 120)]
    assert phone.page.locator("#live tr.queued").count() == 0
    forget_network_errors(phone, "status of 409 (CONFLICT)")


def test_a_following_phone_says_it_is_offline_shows_its_last_sheet_and_catches_up(
        new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    line = phone.page.locator(".offline-line")
    go_offline(phone)
    line.wait_for(timeout=SAYS_OFFLINE_WITHIN_MS)
    assert re.fullmatch(r"as of \d\d:\d\d — offline", line.inner_text())
    record_elsewhere(phone, auth, match_id, 3)
    phone.page.reload()                                   # the sheet kept on the phone
    line.wait_for(timeout=SAYS_OFFLINE_WITHIN_MS)
    assert re.fullmatch(r"as of \d\d:\d\d — offline", line.inner_text())
    assert phone.page.locator("#live table.sheet tbody tr").count() == 2

    go_online(phone)
    phone.page.locator("#live table.sheet tbody tr").nth(2).wait_for(timeout=CATCHES_UP_WITHIN_MS)
    line.wait_for(state="hidden", timeout=CATCHES_UP_WITHIN_MS)
    forget_network_errors(phone)


def test_a_new_service_worker_takes_over_with_a_hand_waiting_and_the_hand_is_sent(
        new_phone: Any) -> None:
    phone = new_phone()
    previous = subprocess.run(["git", "show", f"{PREVIOUS_WORKER}:static/sw.js"],
                              cwd=Path(__file__).parent, check=True, capture_output=True,
                              text=True).stdout
    phone.context.route("**/sw.js", lambda route: route.fulfill(
        body=previous, content_type="text/javascript", headers={"Cache-Control": "no-cache"}))
    name = unique("olga")
    auth = api_user(phone, name)
    match_id = api_match(phone, auth, hands=2)
    phone.log_in(name)
    phone.page.goto(f"/matches/{match_id}/hands/new")
    phone.page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller")
    worker = phone.context.service_workers[0]
    assert worker.evaluate("typeof PAGES") == "undefined"       # the previous release's worker

    # Offline with the previous worker: the hand waits; the sheet cannot be shown (that worker
    # kept no sheets), its offline page is.
    go_offline(phone)
    phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice",
                       has_text="Vera").first.tap()
    phone.page.fill("#bid", "110")
    phone.page.fill("#points_0", "25")
    phone.page.fill("#points_1", "5")
    phone.tap("button:text('Save hand 3')")
    phone.page.wait_for_selector("h1:text-is('No connection')")

    # The new release: its worker replaces the previous one while the hand waits.
    phone.context.unroute("**/sw.js")
    go_online(phone)
    phone.page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    until(phone, "() => caches.keys().then(k => k.includes('tysiacha-static-1'))")
    until(phone, """() => navigator.serviceWorker.getRegistration()
      .then(r => r.active && !r.installing && !r.waiting)
      .then(ok => ok && fetch('/sw.js').then(x => x.text())
      .then(t => t.includes('tysiacha-pages-1')))""")
    new = [w for w in phone.context.service_workers if w.evaluate("typeof PAGES") == "string"]
    assert new, "the new worker is not running"
    assert kept_hands(phone) == 1
    assert server_hands(phone, auth, match_id)[2:] == []

    phone.page.goto(f"/matches/{match_id}")                      # the next visit sends it
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 2, 110)]
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    forget_network_errors(phone)


def test_logging_out_says_hands_are_waiting_and_keeps_nothing_of_the_account(
        new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    phone.page.close()             # back online straight onto the log-out question: no sheet
    go_online(phone)               # open meanwhile that would send the hand
    phone.page = phone.open_page()
    phone.page.goto("/logout")
    warning = phone.page.locator(".log-out-drops")
    assert "still waiting to be sent: 1" in warning.inner_text()
    phone.tap("form[action='/logout'] button[type=submit]")
    phone.page.wait_for_url("**/login")
    assert phone.page.evaluate("caches.has('tysiacha-pages-1')") is False
    assert kept_hands(phone) == 0
    assert server_hands(phone, auth, match_id)[2:] == []
    forget_network_errors(phone)


def test_the_offline_page_follows_the_language_the_player_chose(new_phone: Any) -> None:
    phone, _auth, match_id = table(new_phone, hands=1)
    phone.page.locator("footer.languages button[lang=pl]").tap()
    phone.page.wait_for_selector("html[lang=pl]")
    until(phone, """() => caches.match('/offline').then(r => r.text())
      .then(t => t.includes('<html lang="pl"'))""")
    go_offline(phone)
    phone.page.goto("/matches/new")                              # never opened: the offline page
    assert phone.page.locator("h1").inner_text() == "Brak połączenia"
    forget_network_errors(phone)


def test_online_a_hand_the_rules_refuse_comes_back_with_its_error_and_is_not_kept(
        new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    enter(phone, 3, "Anna", 120, {1: 80, 2: 60}, waits=False)
    phone.page.locator(".has-error .errors li", has_text="120").first.wait_for()
    assert phone.page.url.endswith(f"/matches/{match_id}/hands/new")
    assert kept_hands(phone) == 0
    assert server_hands(phone, auth, match_id)[2:] == []
    forget_network_errors(phone, "status of 422 (UNPROCESSABLE ENTITY)")


def test_a_correction_saved_offline_of_a_hand_changed_meanwhile_is_shown_and_made_again(
        new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    phone.page.goto(f"/matches/{match_id}/hands/2/edit")
    go_offline(phone)
    phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice",
                       has_text="Anna").first.tap()
    phone.page.fill("#bid", "120")
    for seat, value in {0: "", 1: "20", 2: "30"}.items():
        phone.page.fill(f"#points_{seat}", value)
    phone.tap("button:text('Save hand 2')")
    phone.page.wait_for_selector("#live tr.queued th:text-is('2 ✎')")

    # Meanwhile another phone corrects hand 2 (its version moves on to 2).
    other = {"kind": "played", "declarer": 1, "bid": 100, "points": [15, None, 10],
             "marriages": [[], ["spades"], []], "version": 1}
    response = phone.context.request.put(f"/api/matches/{match_id}/hands/2", headers=auth,
                                         data=other)
    assert response.status == 200, response.text()

    go_online(phone)
    conflict = phone.page.locator("#live tr.queued.state-conflict")
    conflict.wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[1] == (2, 1, 100)
    conflict.locator("button", has_text="Correct it again").tap()
    phone.page.wait_for_selector("h1:text-is('Correct hand 2')")
    assert phone.page.input_value("#bid") == "120"
    phone.page.locator(".preview", has_text="Preview:").wait_for(timeout=5_000)
    phone.tap("button:text('Save hand 2')")
    phone.page.wait_for_selector("li.flash:has-text('Hand 2 corrected')")
    assert server_hands(phone, auth, match_id)[1:] == [(2, 0, 120)]
    assert phone.page.locator("#live tr.queued").count() == 0
    forget_network_errors(phone, "status of 409 (CONFLICT)")
