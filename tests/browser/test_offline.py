"""Never lose a hand to a bad connection: hands saved offline wait on the phone and
are sent in order when it is back, conflicts are shown, a following phone says it is offline,
and a new service worker takes over with a hand waiting.

Offline is `set_offline` for the pages plus an abort for every request of the service worker
(`set_offline` does not cut those). Background Sync never fires here: the hands go out on the
`online` event or on the next visit, which is what these tests prove.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .helpers import PASSWORD, Phone, api_match, api_tichu_match, api_user, unique

SENT_WITHIN_MS = 10_000
"""Proof 1: both hands recorded within 10 s of the connection coming back."""
SAYS_OFFLINE_WITHIN_MS = 10_000
CATCHES_UP_WITHIN_MS = 5_000
PAGES = "tysiacha-pages-1"
PREVIOUS_WORKER = Path(__file__).with_name("previous_sw.js")
"""`static/sw.js` of the release before the offline sheets (commit 9cd21cd; it kept only the
versioned static files and the offline page), kept here for the upgrade test to serve."""


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


def controlled(phone: Phone) -> None:
    """Wait until the service worker controls the page. It claims the open pages once it is
    active; should it not within 10 s (seen once on CI's loaded machine: no control in 30 s), the
    page is loaded again, which a worker active by then always controls."""
    for _ in range(3):
        try:
            phone.page.wait_for_function(
                "() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=10_000
            )
            return
        except PlaywrightTimeoutError:
            phone.page.reload()
    raise AssertionError("the service worker never took control of the page")


def kept(phone: Phone, *paths: str) -> None:
    """Wait until the service worker controls the page and keeps these pages for offline use."""
    controlled(phone)
    until(
        phone,
        """([name, paths]) => caches.open(name).then(c => c.keys())
      .then(keys => keys.map(k => new URL(k.url).pathname))
      .then(have => paths.every(p => have.includes(p)))""",
        [PAGES, list(paths)],
    )


def until(phone: Phone, script: str, arg: Any = None, timeout_ms: int = 15_000) -> None:
    """Wait until an asynchronous check in the page answers true (asked every 100 ms)."""
    for _ in range(timeout_ms // 100):
        if phone.page.evaluate(script, arg):
            return
        phone.page.wait_for_timeout(100)
    raise AssertionError(f"still false after {timeout_ms} ms: {script}")


def table(new_phone: Any, hands: int, seats: int = 3) -> tuple[Phone, dict[str, str], str]:
    """A logged-in phone on the sheet of a match of `hands` hands (three players, or `seats`),
    with the sheet and the hand form kept for offline use: (phone, API auth, match id)."""
    phone = new_phone()
    name = unique("olga")
    auth = api_user(phone, name)
    match_id = api_match(phone, auth, hands=hands, seats=seats)
    phone.log_in(name)
    sheet = f"/matches/{match_id}"
    phone.page.goto(sheet)
    controlled(phone)
    phone.page.goto(f"{sheet}/hands/new")
    phone.page.goto(sheet)
    kept(phone, sheet, f"{sheet}/hands/new")
    return phone, auth, match_id


def enter(phone: Phone, number: int, declarer: str, bid: int, points: dict[int, int], waits: bool = True) -> None:
    """From the sheet: open the form of hand `number`, fill in a played hand, save it (and see
    it waiting on the sheet, unless `waits` is false)."""
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector(f"h1:text-is('Hand {number}')")
    phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice", has_text=declarer).first.tap()
    phone.page.fill("#bid", str(bid))
    for seat, value in points.items():
        phone.page.fill(f"#points_{seat}", str(value))
    phone.tap(f"button:text('Save hand {number}')")
    if waits:
        phone.page.wait_for_selector(f"#live tr.queued th:text-is('{number}')")


def kept_hands(phone: Phone) -> int:
    """How many hands this phone keeps in IndexedDB."""
    return int(
        phone.page.evaluate("""() => new Promise(done => {
      const open = indexedDB.open('tysiacha-offline');
      open.onsuccess = () => open.result.transaction('hands').objectStore('hands').count()
        .onsuccess = e => done(e.target.result); })""")
    )


def waiting(phone: Phone) -> list[str]:
    """The hands waiting on the sheet, newest first as the sheet shows hands: 'number: what'."""
    return [
        f"{r.locator('th').inner_text()}: {r.locator('.entry').inner_text()}"
        f" ({r.locator('.queued-state').inner_text()})"
        for r in phone.page.locator("#live tr.queued").all()
    ]


def server_hands(phone: Phone, auth: dict[str, str], match_id: str) -> list[tuple[int, int, int]]:
    """The hands the server holds: (number, declarer, bid)."""
    response = phone.context.request.get(f"/api/matches/{match_id}", headers=auth)
    assert response.status == 200, response.text()
    return [(h["number"], h["declarer"], h["bid"]) for h in response.json()["hands"]]


WATCH_ROWS = """() => {
  // Every state each waiting row of the sheet shows, in order: {"3": ["waiting", ...], ...},
  // and the rows as the sheet showed them together: "log": ["3 waiting, 4 waiting", ...].
  const seen = window.rowStates = {log: []};
  const note = () => {
    const now = [];
    document.querySelectorAll('#live tr.queued').forEach(tr => {
      const number = tr.querySelector('th').textContent;
      const state = [...tr.classList].find(c => c.startsWith('state-')).slice(6);
      const states = seen[number] = seen[number] || [];
      if (states[states.length - 1] !== state) states.push(state);
      now.unshift(number + ' ' + state);
    });
    const line = now.join(', ');
    if (line && seen.log[seen.log.length - 1] !== line) seen.log.push(line);
  };
  note();
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true});
}"""


def row_states(phone: Phone) -> dict[str, list[str]]:
    """The states each waiting row went through since WATCH_ROWS ran (and "log": each change)."""
    return dict(phone.page.evaluate("window.rowStates"))


def left_ms(deadline: float) -> float:
    """What is left of a deadline (time.monotonic()), in milliseconds, for a Playwright wait."""
    return max(1.0, (deadline - time.monotonic()) * 1000)


def forget_network_errors(phone: Phone, *expected: str) -> None:
    """Requests that failed while offline (and answers such as the expected 409 of a
    conflict) are logged by the browser as errors; they are part of the test."""
    known = ("net::ERR_", "Failed to fetch", *expected)
    phone.errors[:] = [e for e in phone.errors if not any(k in e for k in known)]


def test_hands_saved_offline_survive_a_reload_and_a_closed_tab_and_are_sent_once_in_order(new_phone: Any) -> None:
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

    # Online again: one deadline of 10 s for both hands, each seen going from waiting to
    # recorded, hand 3 before hand 4, and then on the sheet as any other hand.
    phone.page.evaluate(WATCH_ROWS)
    deadline = time.monotonic() + SENT_WITHIN_MS / 1000
    go_online(phone)
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(3).wait_for(timeout=left_ms(deadline))
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=left_ms(deadline))
    assert time.monotonic() <= deadline
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120), (4, 1, 130)]
    states = row_states(phone)
    for number in ("3", "4"):
        seen = [s for s in states[number] if s != "sending"]
        assert seen == ["waiting", "recorded"], states
    # In order: hand 4 went out only once hand 3 was recorded.
    assert "3 recorded, 4 sending" in states["log"], states
    assert not any("3 waiting, 4 sending" in line or "3 sending, 4 sending" in line for line in states["log"]), states
    assert phone.page.locator(".offline-line").is_hidden()
    forget_network_errors(phone)


def record_elsewhere(phone: Phone, auth: dict[str, str], match_id: str, number: int) -> None:
    """A second phone at the table, online, records hand `number` (Boris 100, made)."""
    request = phone.context.request
    code = request.get(f"/api/matches/{match_id}", headers=auth).json()["join_code"]
    boris = api_user(phone, unique("boris"))
    assert request.post("/api/matches/join", headers=boris, data={"code": code}).status == 200
    hand = {
        "kind": "played",
        "declarer": 1,
        "bid": 100,
        "points": [15, None, 10],
        "marriages": [[], ["spades"], []],
        "expected_hand": number,
    }
    response = request.post(f"/api/matches/{match_id}/hands", headers=boris, data=hand)
    assert response.status == 201, response.text()


def test_a_hand_another_phone_recorded_meanwhile_is_a_conflict_and_goes_in_as_the_next_hand(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    record_elsewhere(phone, auth, match_id, 3)

    go_online(phone)
    conflict = phone.page.locator("#live tr.queued.state-conflict")
    conflict.wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100)]  # the other phone's only
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for()
    assert "Anna · 120" in conflict.inner_text() and "not sent" in conflict.inner_text()
    assert "hand 3" in conflict.locator(".queued-message").inner_text().lower()

    # The player adds theirs as hand 4: the form under the new deal, filled in, previewed.
    conflict.locator("button", has_text="Add as the next hand").tap()
    phone.page.wait_for_selector("h1:text-is('Hand 4')")
    assert phone.page.locator("input[name=declarer]:checked").get_attribute("value") == "0"
    assert phone.page.input_value("#bid") == "120"
    assert phone.page.input_value("#points_1") == "20"
    assert phone.page.input_value("#points_2") == "30"
    assert phone.page.input_value("#points_0") == ""
    phone.page.locator(".preview", has_text="Preview:").wait_for(timeout=5_000)
    phone.tap("button:text('Save hand 4')")
    phone.page.wait_for_selector("li.flash:has-text('Hand 4 recorded.')")
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100), (4, 0, 120)]
    assert phone.page.locator("#live tr.queued").count() == 0
    forget_network_errors(phone, "status of 409 (CONFLICT)")


def test_a_following_phone_says_it_is_offline_shows_its_last_sheet_and_catches_up(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    line = phone.page.locator(".offline-line")
    go_offline(phone)
    line.wait_for(timeout=SAYS_OFFLINE_WITHIN_MS)
    assert re.fullmatch(r"as of \d\d:\d\d — offline", line.inner_text())
    record_elsewhere(phone, auth, match_id, 3)
    phone.page.reload()  # the sheet kept on the phone
    line.wait_for(timeout=SAYS_OFFLINE_WITHIN_MS)
    assert re.fullmatch(r"as of \d\d:\d\d — offline", line.inner_text())
    assert phone.page.locator("#live table.sheet tbody tr").count() == 2

    # One deadline of 5 s to catch up: the hand recorded meanwhile shown, the line gone.
    deadline = time.monotonic() + CATCHES_UP_WITHIN_MS / 1000
    go_online(phone)
    phone.page.locator("#live table.sheet tbody tr").nth(2).wait_for(timeout=left_ms(deadline))
    line.wait_for(state="hidden", timeout=left_ms(deadline))
    assert time.monotonic() <= deadline
    forget_network_errors(phone)


def test_a_new_service_worker_takes_over_with_a_hand_waiting_and_the_hand_is_sent(new_phone: Any) -> None:
    phone = new_phone()
    previous = PREVIOUS_WORKER.read_text(encoding="utf-8")
    phone.context.route(
        "**/sw.js",
        lambda route: route.fulfill(
            body=previous, content_type="text/javascript", headers={"Cache-Control": "no-cache"}
        ),
    )
    name = unique("olga")
    auth = api_user(phone, name)
    match_id = api_match(phone, auth, hands=2)
    phone.log_in(name)
    phone.page.goto(f"/matches/{match_id}/hands/new")
    phone.page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    worker = phone.context.service_workers[0]
    assert worker.evaluate("typeof PAGES") == "undefined"  # the previous release's worker

    # Offline with the previous worker: the hand waits; the sheet cannot be shown (that worker
    # kept no sheets), its offline page is.
    go_offline(phone)
    phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice", has_text="Vera").first.tap()
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
    until(
        phone,
        """() => navigator.serviceWorker.getRegistration()
      .then(r => r.active && !r.installing && !r.waiting)
      .then(ok => ok && fetch('/sw.js').then(x => x.text())
      .then(t => t.includes('tysiacha-pages-1')))""",
    )
    new = [w for w in phone.context.service_workers if w.evaluate("typeof PAGES") == "string"]
    assert new, "the new worker is not running"
    assert kept_hands(phone) == 1
    assert server_hands(phone, auth, match_id)[2:] == []

    phone.page.goto(f"/matches/{match_id}")  # the next visit sends it
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 2, 110)]
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    forget_network_errors(phone)


def test_logging_out_says_hands_are_waiting_and_keeps_nothing_of_the_account(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    phone.page.close()  # back online straight onto the log-out question: no sheet
    go_online(phone)  # open meanwhile that would send the hand
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
    until(
        phone,
        """() => caches.match('/offline').then(r => r.text())
      .then(t => t.includes('<html lang="pl"'))""",
    )
    go_offline(phone)
    phone.page.goto("/matches/new")  # never opened: the offline page
    assert phone.page.locator("h1").inner_text() == "Brak połączenia"
    forget_network_errors(phone)


def test_the_app_opened_offline_from_the_home_screen_links_the_sheets_the_phone_kept(new_phone: Any) -> None:
    phone, _auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    phone.page.goto("/")  # the installed app's start page, never kept: the offline page
    link = phone.page.locator("#kept-sheets a")
    link.first.wait_for()
    assert [a.get_attribute("href") for a in link.all()] == [f"/matches/{match_id}"]
    assert link.inner_text().endswith("· Tysiacha")  # the sheet's own title: its players
    link.tap()
    phone.page.wait_for_url(f"**/matches/{match_id}")
    assert phone.page.locator("#live table.sheet tbody tr").count() == 2  # the kept copy
    go_online(phone)
    forget_network_errors(phone)


def test_online_a_hand_the_rules_refuse_comes_back_with_its_error_and_is_not_kept(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    enter(phone, 3, "Anna", 120, {1: 80, 2: 60}, waits=False)
    phone.page.locator(".has-error .errors li", has_text="120").first.wait_for()
    assert phone.page.url.endswith(f"/matches/{match_id}/hands/new")
    assert kept_hands(phone) == 0
    assert server_hands(phone, auth, match_id)[2:] == []
    forget_network_errors(phone, "status of 422 (UNPROCESSABLE ENTITY)")


def correct_hand_2_offline(phone: Phone, match_id: str) -> None:
    """Offline, correct hand 2 to Anna 120 (the defenders 20 and 30): it waits on the sheet."""
    phone.page.goto(f"/matches/{match_id}/hands/2/edit")
    go_offline(phone)
    phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice", has_text="Anna").first.tap()
    phone.page.fill("#bid", "120")
    for seat, value in {0: "", 1: "20", 2: "30"}.items():
        phone.page.fill(f"#points_{seat}", value)
    phone.tap("button:text('Save hand 2')")
    phone.page.wait_for_selector("#live tr.queued th:text-is('2 ✎')")


def test_a_correction_saved_offline_of_a_hand_changed_meanwhile_is_shown_and_made_again(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    correct_hand_2_offline(phone, match_id)

    # Meanwhile another phone corrects hand 2 (its version moves on to 2).
    other = {
        "kind": "played",
        "declarer": 1,
        "bid": 100,
        "points": [15, None, 10],
        "marriages": [[], ["spades"], []],
        "version": 1,
    }
    response = phone.context.request.put(f"/api/matches/{match_id}/hands/2", headers=auth, data=other)
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


def test_a_correction_saved_offline_of_a_hand_moved_meanwhile_is_made_again_on_that_hand_only(
    new_phone: Any,
) -> None:
    phone, auth, match_id = table(new_phone, hands=3)
    before = server_hands(phone, auth, match_id)
    correct_hand_2_offline(phone, match_id)

    # Meanwhile another phone deletes hand 1: the hand corrected is hand 1 now, and hand 2 is
    # the third hand, whose form "Correct it again" must not fill in.
    first = phone.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["hands"][0]["uid"]
    deleted = phone.context.request.delete(f"/api/matches/{match_id}/hands/1?uid={first}", headers=auth)
    assert deleted.status == 200, deleted.text()

    go_online(phone)
    conflict = phone.page.locator("#live tr.queued.state-conflict")
    conflict.wait_for(timeout=SENT_WITHIN_MS)
    conflict.locator("button", has_text="Correct it again").tap()
    phone.page.wait_for_selector("h1:text-is('Correct hand 1')")
    phone.page.locator("li.flash", has_text="The hand you meant is hand 1 now").wait_for()
    assert phone.page.input_value("#bid") == "120"
    phone.tap("button:text('Save hand 1')")
    phone.page.wait_for_selector("li.flash:has-text('Hand 1 corrected')")
    assert server_hands(phone, auth, match_id) == [(1, 0, 120), (2, *before[2][1:])]
    assert phone.page.locator("#live tr.queued").count() == 0
    forget_network_errors(phone, "status of 409 (CONFLICT)")


def test_a_correction_saved_offline_of_a_hand_deleted_meanwhile_says_so_and_offers_only_to_drop_it(
    new_phone: Any,
) -> None:
    phone, auth, match_id = table(new_phone, hands=3)
    correct_hand_2_offline(phone, match_id)
    second = phone.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["hands"][1]["uid"]
    deleted = phone.context.request.delete(f"/api/matches/{match_id}/hands/2?uid={second}", headers=auth)
    assert deleted.status == 200, deleted.text()

    go_online(phone)  # not "no longer the hand you saw" beside the hand that took its number
    gone = phone.page.locator("#live tr.queued.state-gone")
    gone.wait_for(timeout=SENT_WITHIN_MS)
    assert "The hand you meant was deleted meanwhile: there is nothing to correct." in gone.inner_text()
    assert [b.inner_text() for b in gone.locator("button").all()] == ["Drop it"]
    gone.locator("button", has_text="Drop it").tap()
    phone.page.locator("#live tr.queued").first.wait_for(state="detached")
    assert kept_hands(phone) == 0 and len(server_hands(phone, auth, match_id)) == 2
    forget_network_errors(phone, "status of 404 (NOT FOUND)")


def test_offline_the_preview_says_the_hand_will_be_scored_later_instead_of_old_numbers(new_phone: Any) -> None:
    phone, _auth, match_id = table(new_phone, hands=2)
    phone.page.goto(f"/matches/{match_id}/hands/new")
    phone.choose("Declarer", "Anna")
    phone.page.fill("#bid", "120")
    phone.page.fill("#points_1", "20")
    phone.page.fill("#points_2", "30")
    preview = phone.page.locator(".preview")
    preview.locator("li").first.wait_for()  # online: the engine's numbers
    go_offline(phone)
    phone.page.fill("#points_2", "35")
    offline = "Offline: this hand will be scored when the connection is back."
    phone.page.locator(".preview .offline-preview", has_text=offline).wait_for(timeout=2_000)
    assert preview.inner_text().strip() == offline  # no number from before
    assert preview.locator("li").count() == 0
    go_online(phone)
    preview.locator("li").first.wait_for(timeout=5_000)  # scored again
    assert "Preview:" in preview.inner_text()
    forget_network_errors(phone)


def test_a_conflict_can_be_dropped_and_the_hand_behind_it_goes_out_as_the_next_hand(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    enter(phone, 4, "Boris", 130, {0: 10, 2: 15})
    record_elsewhere(phone, auth, match_id, 3)

    go_online(phone)
    conflict = phone.page.locator("#live tr.queued.state-conflict")
    conflict.wait_for(timeout=SENT_WITHIN_MS)
    # Hand 4 waits behind the conflict, and says so: nothing of this phone is recorded yet.
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100)]
    assert "4: Boris · 130 (waits until the one not sent is settled)" in waiting(phone)
    conflict.locator("button", has_text="Drop it").tap()
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(3).wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100), (4, 1, 130)]
    assert kept_hands(phone) == 0
    forget_network_errors(phone, "status of 409 (CONFLICT)")


def test_a_hand_kept_while_another_phone_ended_the_match_can_only_be_dropped(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    assert phone.context.request.post(f"/api/matches/{match_id}/end", headers=auth).status == 200  # elsewhere

    go_online(phone)
    conflict = phone.page.locator("#live tr.queued.state-conflict")
    conflict.wait_for(timeout=SENT_WITHIN_MS)
    assert conflict.locator(".queued-message").inner_text() == "No more hands can be entered in this match."
    # No "Add as the next hand": the form would only send the phone back here, the hand still kept.
    assert conflict.locator("button").all_inner_texts() == ["Drop it"]
    conflict.locator("button", has_text="Drop it").tap()
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    assert kept_hands(phone) == 0 and len(server_hands(phone, auth, match_id)) == 2
    forget_network_errors(phone, "status of 409 (CONFLICT)")


def test_a_queued_hand_the_rules_refuse_is_shown_and_opens_in_its_form_with_the_refusal(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 80, 2: 60})  # 140 taken by defenders: refused
    go_online(phone)
    refused = phone.page.locator("#live tr.queued.state-refused")
    refused.wait_for(timeout=SENT_WITHIN_MS)
    assert "not sent" in refused.inner_text()
    assert "120" in refused.locator(".queued-message").inner_text()
    assert server_hands(phone, auth, match_id)[2:] == []
    assert kept_hands(phone) == 1

    refused.locator("button", has_text="Open it in the form").tap()
    phone.page.wait_for_selector("h1:text-is('Hand 3')")
    assert phone.page.input_value("#bid") == "120"
    assert phone.page.input_value("#points_1") == "80"
    assert phone.page.input_value("#points_2") == "60"
    phone.page.locator(".preview.refused", has_text="120").wait_for(timeout=5_000)
    phone.page.fill("#points_1", "20")
    phone.page.fill("#points_2", "30")
    phone.page.locator(".preview:not(.refused)", has_text="Preview:").wait_for(timeout=5_000)
    phone.tap("button:text('Save hand 3')")
    phone.page.wait_for_selector("li.flash:has-text('Hand 3 recorded.')")
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]
    assert phone.page.locator("#live tr.queued").count() == 0
    assert kept_hands(phone) == 0
    forget_network_errors(phone, "status of 422 (UNPROCESSABLE ENTITY)")


def wait_offline_hand(phone: Phone, match_id: str) -> None:
    """Save hand 3 offline, then close the tab and come back online with no sheet open (one
    would send the hand)."""
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    phone.page.close()
    go_online(phone)
    phone.page = phone.open_page()


def nothing_kept(phone: Phone, match_id: str) -> bool:
    """No hand in IndexedDB and no kept copy of the match's sheet."""
    return kept_hands(phone) == 0 and not phone.page.evaluate(
        "path => caches.match(path).then(Boolean)", f"/matches/{match_id}"
    )


def test_logging_out_everywhere_says_hands_are_waiting_and_keeps_nothing_of_the_account(new_phone: Any) -> None:
    phone, _auth, match_id = table(new_phone, hands=2)
    wait_offline_hand(phone, match_id)
    phone.page.goto("/account")
    everywhere = phone.page.locator("section:has(#everywhere-title) .log-out-drops")
    assert "still waiting to be sent: 1. Logging out drops them." in everywhere.inner_text()
    deleting = phone.page.locator("section:has(#delete-title) .log-out-drops")
    assert "still waiting to be sent: 1. Deleting your account drops them." in deleting.inner_text()
    assert kept_hands(phone) == 1  # the account page sends nothing
    forget_network_errors(phone)
    phone.tap("section:has(#everywhere-title) button[type=submit]")
    phone.page.wait_for_url("**/login")
    phone.page.wait_for_selector("li.flash:has-text('You are logged out on every phone')")
    assert phone.page.evaluate("caches.has('tysiacha-pages-1')") is False
    assert nothing_kept(phone, match_id)
    # (its API token ended too: the hand's absence is asked of the log-out test's server)


def test_deleting_the_account_forgets_it_on_the_phone_only_once_it_is_deleted(new_phone: Any) -> None:
    phone, _auth, match_id = table(new_phone, hands=2)
    wait_offline_hand(phone, match_id)
    phone.page.goto("/account")
    phone.page.fill("#password", "not the password")
    phone.tap("section:has(#delete-title) button[type=submit]")
    phone.page.locator("section:has(#delete-title) .errors li").wait_for()
    phone.page.locator("section:has(#delete-title) .log-out-drops").wait_for()
    assert kept_hands(phone) == 1  # refused: nothing is lost
    assert phone.page.evaluate("path => caches.match(path).then(Boolean)", f"/matches/{match_id}")

    phone.page.fill("#password", PASSWORD)
    phone.tap("section:has(#delete-title) button[type=submit]")
    phone.page.wait_for_url("**/login")
    phone.page.wait_for_selector("li.flash:has-text('Your account is deleted')")
    until(phone, "() => caches.has('tysiacha-pages-1').then(has => !has)")
    assert nothing_kept(phone, match_id)
    assert phone.page.locator(".log-in-drops").count() == 0
    forget_network_errors(phone, "status of 422")


def test_another_account_on_the_phone_never_sees_the_earlier_ones_hands_or_sheets(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    olga = phone.page.evaluate("document.getElementById('offline-words').dataset.user")
    # Olga's session runs out with a hand waiting; she logs in again: the hand is still hers
    # and goes out.
    wait_offline_hand(phone, match_id)
    phone.context.clear_cookies()
    phone.log_in(olga)
    deadline = time.monotonic() + SENT_WITHIN_MS / 1000
    while server_hands(phone, auth, match_id)[2:] != [(3, 0, 120)]:
        assert time.monotonic() < deadline, "the hand kept over the new log-in was not sent"
        phone.page.wait_for_timeout(100)

    # Another hand waits; her session runs out again and Boris logs in on the phone.
    phone.page.goto(f"/matches/{match_id}/hands/new")
    phone.page.goto(f"/matches/{match_id}")
    until(
        phone,
        """path => caches.match(path).then(r => r ? r.text() : '')
      .then(t => t.includes('Save hand 4'))""",
        f"/matches/{match_id}/hands/new",
    )
    go_offline(phone)
    enter(phone, 4, "Boris", 130, {0: 10, 2: 15})
    phone.page.close()
    go_online(phone)
    phone.page = phone.open_page()
    phone.context.clear_cookies()
    phone.page.goto("/register")
    phone.page.locator(".log-in-drops").wait_for()
    phone.page.goto("/login")
    warning = phone.page.locator(".log-in-drops")
    assert warning.inner_text() == (
        f"Hands {olga} saved on this phone are still waiting to be sent: 1. Logging in as someone else drops them."
    )
    boris = unique("boris")
    api_user(phone, boris)
    phone.log_in(boris)
    until(
        phone,
        "([path]) => new Promise(done => { const open = indexedDB.open('tysiacha-offline');"
        " open.onsuccess = () => open.result.transaction('hands').objectStore('hands').count()"
        ".onsuccess = e => done(e.target.result === 0); }).then(none => none && caches.match(path)"
        ".then(hit => !hit))",
        [f"/matches/{match_id}"],
    )
    # Offline, Olga's sheet is not there for Boris to read: the offline page is.
    go_offline(phone)
    phone.page.goto(f"/matches/{match_id}")
    assert phone.page.locator("h1").inner_text() == "No connection"
    go_online(phone)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]
    forget_network_errors(phone)


def asked(phone: Phone, *paths: str) -> list[str]:
    """A list that fills with what the phone's page (not its service worker) asks for of
    `paths` from now on, as "METHOD path"."""
    seen: list[str] = []
    phone.page.on(
        "request",
        lambda r: (
            seen.append(f"{r.method} {r.url.removeprefix(phone.server)}")
            if r.url.removeprefix(phone.server) in paths
            else None
        ),
    )
    return seen


def fill_and_preview(phone: Phone) -> None:
    """In the open hand form: Anna plays 120, the defenders take 20 and 30; wait until the
    preview shows it and every preview these fields asked for has gone out."""
    phone.choose("Declarer", "Anna")
    phone.page.fill("#bid", "120")
    phone.page.fill("#points_1", "20")
    phone.page.fill("#points_2", "30")
    phone.page.locator(".preview", has_text="Preview:").wait_for()
    phone.page.wait_for_timeout(1000)


def test_a_hand_saved_online_goes_out_with_its_forms_token_in_one_round_trip(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    hand, sheet = f"/matches/{match_id}/hands/new", f"/matches/{match_id}"
    seen = asked(phone, hand, "/csrf-token", sheet)
    # Each page counts how often it opens the phone's IndexedDB (in sessionStorage, by path).
    phone.page.add_init_script("""(() => { const open = indexedDB.open.bind(indexedDB);
        indexedDB.open = (...args) => { const key = 'opens ' + location.pathname;
            sessionStorage.setItem(key, String(Number(sessionStorage.getItem(key)) + 1));
            return open(...args); }; })()""")
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30}, waits=False)
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]
    # The form, its one post, the sheet: no GET /csrf-token on the way (on slow 4G, 150 ms).
    assert seen == [f"GET {hand}", f"POST {hand}", f"GET {sheet}"]
    # The form page opened the queue once, for reading it and for keeping and sending the hand.
    assert phone.page.evaluate("k => sessionStorage.getItem(k)", f"opens {hand}") == "1"


def test_a_connection_the_browser_closed_unannounced_is_opened_again_and_the_sent_hand_dropped(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    # Right after a hand goes out, the page's IndexedDB connection is closed under it, with no
    # event (as a browser may): the dropping of the hand the server just recorded meets it.
    phone.page.add_init_script("""(() => {
        let closeNext = false;
        const transaction = IDBDatabase.prototype.transaction;
        IDBDatabase.prototype.transaction = function (...args) {
            if (closeNext) { closeNext = false; this.close(); }
            return transaction.apply(this, args); };
        const send = window.fetch;
        window.fetch = (url, options) => { const sent = send(url, options);
            if (options && options.method === 'POST' && /hands[/]new$/.test(url)) closeNext = true;
            return sent; }; })()""")
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30}, waits=False)
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for(timeout=SENT_WITHIN_MS)
    phone.page.wait_for_timeout(500)  # a hand left on the phone would go out again by now
    assert kept_hands(phone) == 0
    assert phone.page.locator("#live tr.queued").count() == 0
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]


def test_a_hand_whose_answer_was_lost_goes_out_again_and_is_recorded_once_with_no_conflict(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    lost: list[Any] = []

    def lose_the_answer(route: Any) -> None:
        """The first save reaches the server, which records it; its answer never comes back,
        and the signal stays gone for the tries that follow (a weak signal at the table)."""
        if route.request.method != "POST":
            route.fallback()
        elif not lost:
            lost.append(route.fetch())
            route.abort("connectionreset")
        else:
            route.abort("internetdisconnected")

    phone.context.route("**/hands/new", lose_the_answer)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    assert lost and lost[0].status == 201
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]
    phone.context.unroute("**/hands/new", lose_the_answer)

    phone.page.reload()  # the next visit sends what waits: the same hand 3 again
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    assert kept_hands(phone) == 0
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]
    assert phone.page.locator("#live .banner a.button").inner_text() == "Enter hand 4"
    forget_network_errors(phone)


def test_a_hand_saved_while_its_preview_is_still_to_be_asked_asks_for_no_preview(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector("h1:text-is('Hand 3')")
    fill_and_preview(phone)
    held: list[Any] = []

    def hold(route: Any) -> None:
        """The save is slow to answer (a slow link): it waits here until released."""
        if route.request.method == "POST":
            held.append(route)
        else:
            route.fallback()

    phone.context.route("**/hands/new", hold)
    previews = asked(phone, f"/matches/{match_id}/hands/preview")
    # The last key press and the tap on save in one go: the preview it asked for is still
    # 250 ms off when the hand goes out.
    phone.page.evaluate("""() => { const form = document.querySelector('form.hand');
        form.dispatchEvent(new Event('input', {bubbles: true}));
        form.querySelector('button[type=submit]').click(); }""")
    deadline = time.monotonic() + SENT_WITHIN_MS / 1000
    while not held:
        assert time.monotonic() < deadline, "the hand did not go out"
        phone.page.wait_for_timeout(50)
    phone.page.wait_for_timeout(600)
    assert previews == []
    held[0].fallback()
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for(timeout=SENT_WITHIN_MS)
    phone.context.unroute("**/hands/new", hold)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]


def test_a_phone_holding_100_hands_refuses_one_more_and_previews_it_again(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    # A hundred corrections on the phone that the player has not settled yet.
    phone.page.evaluate(
        """([match]) => new Promise(done => {
        const words = document.getElementById('offline-words').dataset;
        const open = indexedDB.open('tysiacha-offline', 1);
        open.onsuccess = () => {
            const tx = open.result.transaction('hands', 'readwrite');
            for (let i = 0; i < 100; i++) tx.objectStore('hands').put({
                user: words.user, account: words.account, match, kind: 'correct', number: 1,
                action: `/matches/${match}/hands/1/edit`, fields: [], summary: 'kept',
                savedAt: new Date().toISOString(), state: 'conflict', message: ''});
            tx.oncomplete = () => { open.result.close(); done(); }; }; })""",
        [match_id],
    )
    phone.page.goto(f"/matches/{match_id}/hands/new")
    fill_and_preview(phone)
    previews = asked(phone, f"/matches/{match_id}/hands/preview")
    phone.page.evaluate("""() => { const form = document.querySelector('form.hand');
        form.querySelector('#bid').value = '125';
        form.dispatchEvent(new Event('input', {bubbles: true}));
        form.querySelector('button[type=submit]').click(); }""")
    assert phone.page.locator(".offline-refusal").inner_text() == (
        "100 hands are already waiting on this phone: send them before adding more."
    )
    # Still on the form, whose preview the save had let go: it is asked for what is typed now.
    phone.page.locator(".preview", has_text="125").wait_for()
    assert len(previews) == 1
    assert kept_hands(phone) == 100 and server_hands(phone, auth, match_id)[2:] == []


def test_a_hand_saved_in_a_form_from_an_earlier_session_goes_out_with_a_fresh_token(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector("h1:text-is('Hand 3')")
    # Meanwhile (another tab) the player logs out and in again: the form's token is stale.
    request = phone.context.request
    token = request.get("/csrf-token").json()["csrf_token"]
    assert request.post("/logout", form={"csrf_token": token}).ok
    login = request.get("/login").text()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', login).group(1)
    name = phone.page.evaluate("document.getElementById('offline-words').dataset.user")
    assert request.post("/login", form={"csrf_token": token, "username": name, "password": PASSWORD}).ok
    phone.choose("Declarer", "Anna")
    phone.page.fill("#bid", "120")
    phone.page.fill("#points_1", "20")
    phone.page.fill("#points_2", "30")
    hand, sheet = f"/matches/{match_id}/hands/new", f"/matches/{match_id}"
    seen = asked(phone, hand, "/csrf-token", sheet)
    phone.tap("button:text('Save hand 3')")
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for(timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]
    assert phone.page.locator("#live tr.queued").count() == 0
    # The form's own token is refused (400), a fresh one is fetched, the hand goes once more.
    assert seen == [f"POST {hand}", "GET /csrf-token", f"POST {hand}", f"GET {sheet}"]
    forget_network_errors(phone, "status of 400")


def test_a_refused_token_or_a_403_keeps_the_hand_waiting_and_it_goes_out_later(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    posts: list[str] = []

    def answer(route: Any) -> None:
        """The first try meets a 403 page (a proxy, a Wi-Fi sign-in); the second goes with a
        token the server refuses (the session changed); then the hand passes."""
        if route.request.method != "POST":
            route.fallback()
            return
        posts.append(route.request.post_data or "")
        if len(posts) == 1:
            route.fulfill(status=403, body="<h1>Sign in to the train's Wi-Fi</h1>", content_type="text/html")
        elif len(posts) == 2:
            route.fallback(post_data=re.sub(r"csrf_token=[^&]*", "csrf_token=stale", route.request.post_data or ""))
        else:
            route.fallback()

    phone.context.route("**/hands/new", answer)
    go_online(phone)
    deadline = time.monotonic() + SENT_WITHIN_MS / 1000
    while not posts:
        assert time.monotonic() < deadline, "the hand was not sent when the connection came back"
        phone.page.wait_for_timeout(50)
    phone.page.wait_for_function(
        "() => document.querySelector('#live tr.queued.state-waiting')"
        " && !document.querySelector('#live tr.queued.state-sending')"
    )
    assert len(posts) == 1
    assert waiting(phone) == ["3: Anna · 120 (waiting to be sent)"]  # not "not sent", not gone
    assert kept_hands(phone) == 1 and server_hands(phone, auth, match_id)[2:] == []

    tokens = len([u for u in phone.requests if u.endswith("/csrf-token")])
    phone.page.reload()  # the next visit: sent after all
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(2).wait_for(timeout=SENT_WITHIN_MS)
    assert len(posts) == 3  # the refused token, then a fresh one
    assert len([u for u in phone.requests if u.endswith("/csrf-token")]) == tokens + 2
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 120)]
    phone.context.unroute("**/hands/new", answer)
    forget_network_errors(phone, "status of 403", "status of 400")


def test_a_phone_logged_out_everywhere_from_another_drops_its_sheets_and_hands_and_says_so(
    new_phone: Any,
) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    sheet = f"/matches/{match_id}"
    (name,) = phone.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["members"]
    wait_offline_hand(phone, match_id)
    other = new_phone()  # the same player, on another phone: log out everywhere
    other.log_in(name)
    other.page.goto("/account")
    other.tap("section:has(#everywhere-title) button[type=submit]")
    other.page.wait_for_url("**/login")

    phone.page.goto(sheet)  # online: the server sends the phone to log in
    phone.page.wait_for_url("**/login**")
    warning = phone.page.locator(".session-ended-drops")
    warning.wait_for()
    assert "logged out of this phone from elsewhere" in warning.inner_text()
    assert warning.inner_text().endswith("dropped: 1.")
    until(phone, "() => caches.has('tysiacha-pages-1').then(has => !has)")
    assert nothing_kept(phone, match_id)

    go_offline(phone)  # offline, the sheet (with its join code) is no longer on the phone
    phone.page.goto(sheet)
    assert "/hands/new" not in phone.page.content()
    assert phone.page.locator(".code").count() == 0
    go_online(phone)
    forget_network_errors(phone)


def test_an_open_sheet_whose_session_was_ended_elsewhere_says_its_waiting_hands_cannot_go_out(
    new_phone: Any,
) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    (name,) = phone.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["members"]
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})  # the sheet stays open, the hand waiting
    other = new_phone()  # the same player, on another phone: log out everywhere
    other.log_in(name)
    other.page.goto("/account")
    other.tap("section:has(#everywhere-title) button[type=submit]")
    other.page.wait_for_url("**/login")

    go_online(phone)  # the hand goes out and finds the session ended: no promise to send it
    note = phone.page.locator(".log-in-to-send")
    note.wait_for(timeout=SENT_WITHIN_MS)
    assert "logged out of this phone from elsewhere" in note.inner_text()
    assert "cannot be sent, and the next page drops them: 1." in note.inner_text()
    assert "Log in again to send" not in note.inner_text()
    assert waiting(phone) == ["3: Anna · 120 (waiting to be sent)"]  # still there to note down
    forget_network_errors(phone)


def test_an_undo_tapped_with_no_connection_says_nothing_changed_and_changes_nothing(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30}, waits=False)
    undo = phone.page.locator("button:text('Undo hand 3')")
    undo.wait_for(timeout=SENT_WITHIN_MS)
    go_offline(phone)
    undo.tap()  # not the browser's own error page: the app's, which says nothing changed
    phone.page.wait_for_selector("h1:text-is('No connection')")
    assert "changed nothing: tap it again once the connection is back" in phone.page.inner_text("main")
    go_online(phone)
    assert [n for n, _declarer, _bid in server_hands(phone, auth, match_id)] == [1, 2, 3]
    forget_network_errors(phone)


def record_by_api(phone: Phone, auth: dict[str, str], match_id: str, number: int) -> None:
    """Another phone of the same player (the API) records hand `number`: Boris 100, made."""
    hand = {
        "kind": "played",
        "declarer": 1,
        "bid": 100,
        "points": [15, None, 10],
        "marriages": [[], ["spades"], []],
        "expected_hand": number,
    }
    response = phone.context.request.post(f"/api/matches/{match_id}/hands", headers=auth, data=hand)
    assert response.status == 201, response.text()


def sheet_hears(phone: Phone, match_id: str, hands: int) -> None:
    """The open sheet shows `hands` hands, and the copy kept for offline use is that sheet."""
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(hands - 1).wait_for(timeout=10_000)
    until(
        phone,
        """([path, next]) => caches.open('tysiacha-pages-1').then(c => c.match(path))
      .then(r => r ? r.text() : '').then(html => html.includes('data-next-hand="' + next + '"'))""",
        [f"/matches/{match_id}", hands + 1],
    )


def test_the_kept_sheet_follows_the_live_parts_and_is_kept_whole_where_it_cannot_take_them(new_phone: Any) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    sheet = f"/matches/{match_id}"
    record_by_api(phone, auth, match_id, 3)
    sheet_hears(phone, match_id, 3)  # the live part put into the kept page
    kept_page = """([name, path]) => caches.open(name).then(c => c.match(path)).then(r => r ? r.text() : '')"""
    html = phone.page.evaluate(kept_page, [PAGES, sheet])
    assert html.count("<!--live-->") == 1 and "Share and keep" in html  # the page around it kept too
    # No kept copy (dropped by the browser), then a copy of a release without the marks:
    # the next live part has nothing to go into, and the whole page is kept instead.
    phone.page.evaluate("([name, path]) => caches.open(name).then(c => c.delete(path))", [PAGES, sheet])
    record_by_api(phone, auth, match_id, 4)
    sheet_hears(phone, match_id, 4)
    phone.page.evaluate(
        """([name, path]) => caches.open(name).then(c => c.match(path).then(r => r.text()).then(html =>
            c.put(path, new Response(html.replace('<!--live-->', '').replace('<!--/live-->', ''),
                                     {headers: {'Content-Type': 'text/html; charset=utf-8'}}))))""",
        [PAGES, sheet],
    )
    record_by_api(phone, auth, match_id, 5)
    sheet_hears(phone, match_id, 5)
    assert phone.page.evaluate(kept_page, [PAGES, sheet]).count("<!--live-->") == 1


def test_the_first_hand_saved_offline_follows_the_newest_sheet_not_the_kept_form_and_goes_in_by_itself(
    new_phone: Any,
) -> None:
    # The form was kept at hand 3 (Vera deals); the sheet then heard of hands 3 and 4.
    phone, auth, match_id = table(new_phone, hands=2)
    record_by_api(phone, auth, match_id, 3)
    record_by_api(phone, auth, match_id, 4)
    sheet_hears(phone, match_id, 4)

    go_offline(phone)
    assert phone.page.locator("#live .banner a.button").inner_text() == "Enter hand 5"
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector("h1:text-is('Hand 5')")
    deal = phone.page.locator(".form-deal").inner_text()
    assert deal == "Boris deals. Offline: the dealer and the lowest bid are checked when this hand is sent."
    assert phone.page.input_value("input[name=expected_hand]") == "5"
    phone.page.go_back()
    enter(phone, 5, "Anna", 120, {1: 20, 2: 30})
    assert waiting(phone) == ["5: Anna · 120 (waiting to be sent)"]
    # The next one after it: hand 6, Vera's deal, said to be checked when it is sent.
    banner = phone.page.locator("#live .banner")
    assert banner.locator("a.button").inner_text() == "Enter hand 6"
    assert banner.locator("p.big").inner_text() == "Hand 6: Vera deals."
    assert banner.locator(".offline-deal").is_visible()

    # Back online it goes in by itself, as hand 5, no tap and no conflict.
    deadline = time.monotonic() + SENT_WITHIN_MS / 1000
    go_online(phone)
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=left_ms(deadline))
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100), (4, 1, 100), (5, 0, 120)]
    phone.page.locator("#live table.sheet tbody tr").nth(4).wait_for(timeout=left_ms(deadline))
    assert phone.page.locator("#live .banner a.button").inner_text() == "Enter hand 6"
    assert phone.page.locator("#live .banner .offline-deal").count() == 0
    forget_network_errors(phone)


def test_a_rematchs_first_hand_saved_offline_gets_the_next_hand_and_its_dealer(new_phone: Any) -> None:
    phone, auth, first = table(new_phone, hands=2)
    request = phone.context.request
    assert request.post(f"/api/matches/{first}/end", headers=auth).status == 200
    answer = request.post(f"/api/matches/{first}/rematch", headers=auth)
    assert answer.status == 201, answer.text()
    match_id = answer.json()["id"]
    sheet = f"/matches/{match_id}"
    phone.page.goto(f"{sheet}/hands/new")
    # The deal moves one seat on: Boris deals hand 1 of the rematch, Vera hand 2.
    assert phone.page.locator(".form-deal").inner_text() == "Boris deals."
    phone.page.goto(sheet)
    kept(phone, sheet, f"{sheet}/hands/new")
    record_by_api(phone, auth, match_id, 1)
    sheet_hears(phone, match_id, 1)

    go_offline(phone)
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector("h1:text-is('Hand 2')")
    assert phone.page.locator(".form-deal").inner_text().startswith("Vera deals.")
    phone.page.go_back()
    enter(phone, 2, "Anna", 120, {1: 20, 2: 30})
    go_online(phone)
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id) == [(1, 1, 100), (2, 0, 120)]
    forget_network_errors(phone)


def test_back_online_with_a_conflict_the_banner_offers_the_servers_next_hand_and_says_nothing_of_offline(
    new_phone: Any,
) -> None:
    phone, auth, match_id = table(new_phone, hands=2)
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 2: 30})
    banner = phone.page.locator("#live .banner")
    assert banner.locator(".offline-deal").is_visible()  # offline, it says so
    record_by_api(phone, auth, match_id, 3)
    record_by_api(phone, auth, match_id, 4)

    go_online(phone)
    phone.page.locator("#live tr.queued.state-conflict").wait_for(timeout=SENT_WITHIN_MS)
    phone.page.locator("#live table.sheet tbody tr:not(.queued)").nth(3).wait_for(timeout=10_000)
    assert banner.locator("a.button").inner_text() == "Enter hand 5"
    assert banner.locator("p.big").inner_text() == "Hand 5: Boris deals."
    assert banner.locator(".offline-deal").count() == 0
    assert "Offline" not in banner.inner_text()
    forget_network_errors(phone, "status of 409 (CONFLICT)")


def test_with_four_at_the_table_a_kept_form_seats_the_next_dealer_out(new_phone: Any) -> None:
    phone = new_phone()
    name = unique("olga")
    auth = api_user(phone, name)
    match_id = api_match(phone, auth, hands=2, seats=4)  # hand 3: Vera deals and sits out
    phone.log_in(name)
    sheet = f"/matches/{match_id}"
    phone.page.goto(sheet)
    controlled(phone)
    phone.page.goto(f"{sheet}/hands/new")
    assert phone.page.locator(".form-deal").inner_text() == "Vera deals and sits out."
    phone.page.goto(sheet)
    kept(phone, sheet, f"{sheet}/hands/new")
    hand = {"kind": "played", "declarer": 0, "bid": 100, "points": [None, 15, None, 10], "expected_hand": 3}
    assert phone.context.request.post(f"/api/matches/{match_id}/hands", headers=auth, data=hand).status == 201
    sheet_hears(phone, match_id, 3)

    go_offline(phone)
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector("h1:text-is('Hand 4')")
    assert phone.page.locator(".form-deal").inner_text().startswith("Gleb deals and sits out.")
    assert phone.page.locator("#points_2").is_visible() and phone.page.locator("#points_3").is_hidden()
    assert phone.page.locator("p.sitting-out:visible").inner_text() == "Gleb sits out this hand."
    declarers = phone.page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice:visible")
    assert declarers.all_inner_texts() == ["Anna", "Boris", "Vera"]
    phone.page.go_back()
    enter(phone, 4, "Vera", 120, {0: 20, 1: 30})
    go_online(phone)
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    assert server_hands(phone, auth, match_id)[2:] == [(3, 0, 100), (4, 2, 120)]
    forget_network_errors(phone)


def test_with_four_at_the_table_a_conflict_added_as_the_next_hand_gives_the_new_sitter_nothing(
    new_phone: Any,
) -> None:
    phone, auth, match_id = table(new_phone, hands=2, seats=4)  # hand 3: Vera sits out; hand 4: Gleb
    go_offline(phone)
    enter(phone, 3, "Anna", 120, {1: 20, 3: 30})  # Gleb's 30: he plays hand 3
    hand = {"kind": "played", "declarer": 1, "bid": 100, "points": [15, None, None, 10], "expected_hand": 3}
    assert phone.context.request.post(f"/api/matches/{match_id}/hands", headers=auth, data=hand).status == 201

    go_online(phone)
    conflict = phone.page.locator("#live tr.queued.state-conflict")
    conflict.wait_for(timeout=SENT_WITHIN_MS)
    conflict.locator("button", has_text="Add as the next hand").tap()
    phone.page.wait_for_selector("h1:text-is('Hand 4')")
    assert phone.page.locator("#points_3").is_hidden()  # Gleb deals hand 4 and sits out
    assert phone.page.input_value("#points_3") == ""  # so his 30 of hand 3 is not kept
    assert phone.page.input_value("#points_1") == "20"
    phone.page.fill("#points_2", "30")
    phone.tap("button:text('Save hand 4')")
    phone.page.wait_for_selector("li.flash:has-text('Hand 4 recorded.')")
    assert server_hands(phone, auth, match_id)[2:] == [(3, 1, 100), (4, 0, 120)]
    forget_network_errors(phone, "status of 409 (CONFLICT)")


def test_a_tichu_round_saved_offline_follows_the_newest_sheet_and_its_dealer(new_phone: Any) -> None:
    phone = new_phone()
    name = unique("olga")
    auth = api_user(phone, name)
    match_id = api_tichu_match(phone, auth)  # two rounds: Vera deals round 3, Gleb round 4
    phone.log_in(name)
    sheet = f"/matches/{match_id}"
    phone.page.goto(sheet)
    controlled(phone)
    phone.page.goto(f"{sheet}/hands/new")
    assert phone.page.locator("h1 + p").inner_text() == "Vera deals."
    phone.page.goto(sheet)
    kept(phone, sheet, f"{sheet}/hands/new")
    round_3 = {"calls": [None, None, None, None], "first_out": 0, "card_points": [60, 40], "expected_hand": 3}
    assert phone.context.request.post(f"/api/matches/{match_id}/hands", headers=auth, data=round_3).status == 201
    sheet_hears(phone, match_id, 3)

    go_offline(phone)
    assert phone.page.locator("#live .banner a.button").inner_text() == "Enter round 4"
    phone.tap("#live .banner a.button")
    phone.page.wait_for_selector("h1:text-is('Round 4')")
    assert phone.page.locator("h1 + p").inner_text().startswith("Gleb deals.")
    phone.choose("Out first", "Boris")
    phone.tap("button:text('Save round 4')")
    phone.page.wait_for_selector("#live tr.queued th:text-is('4')")
    go_online(phone)
    phone.page.wait_for_selector("#live tr.queued", state="detached", timeout=SENT_WITHIN_MS)
    rounds = phone.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["hands"]
    assert [(r["number"], r["first_out"]) for r in rounds][2:] == [(3, 0), (4, 1)]
    forget_network_errors(phone)
