"""The scoreboard as the table's own device: a tablet installs the board as an app of its own
(its manifest's id, start and scope are the board, not the whole app) and the board keeps the
tablet's screen on (a Screen Wake Lock, asked for again whenever the page is shown; headless
Chromium grants real locks on 127.0.0.1, so the test watches the real API, not a stand-in)."""

from __future__ import annotations

from typing import Any

from .test_scoreboard import TABLET, _watched_match

MANIFEST_JS = """async () => {
  const link = document.querySelector("link[rel=manifest]");
  const answer = await fetch(link.href);
  const m = await answer.json();
  const icons = await Promise.all(m.icons.map(async i => {
    const img = new Image(); img.src = i.src; await img.decode();
    return `${img.naturalWidth}x${img.naturalHeight}` === i.sizes; }));
  return {type: answer.headers.get("content-type"), store: answer.headers.get("cache-control"),
          id: m.id, start: m.start_url, scope: m.scope, display: m.display, name: m.name,
          short: m.short_name, icons};
}"""
# Every screen wake lock the page is granted, kept where the test can see it (the real API,
# watched: each request goes through to the browser's own).
LOCKS_SPY = """(() => {
  if (!("wakeLock" in navigator)) return;
  const real = navigator.wakeLock.request.bind(navigator.wakeLock);
  window.locks = [];
  navigator.wakeLock.request = type => real(type).then(lock => { window.locks.push(lock); return lock; });
})()"""
SHOWN_JS = """hidden => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
HELD = "() => (window.locks || []).filter(l => !l.released).length"


def test_the_board_installs_as_its_own_app_opened_at_the_board(new_phone: Any) -> None:
    anna = new_phone()
    _auth, _match_id, watch = _watched_match(anna)
    tablet = new_phone(**TABLET)
    board = watch.removeprefix(anna.server) + "/board"
    tablet.page.goto(board)
    manifest = tablet.page.evaluate(MANIFEST_JS)
    assert manifest == {
        "type": "application/manifest+json",
        "store": "no-store",
        "id": board,
        "start": board,
        "scope": board,
        "display": "fullscreen",
        "name": "Scoreboard: Anna · Boris · Vera",
        "short": "Scoreboard",
        "icons": [True, True],
    }
    # The phone's app is another app: its manifest is the whole site's.
    anna.page.goto("/login")
    assert anna.page.evaluate(MANIFEST_JS)["id"] == "/"
    # The service worker the board registers covers the board (an installable app needs one).
    scope = tablet.page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert f"{tablet.server}{board}".startswith(scope)
    # In the board's language; a token that does not work has no manifest.
    german = tablet.context.request.get(f"{board}.webmanifest?lang=de").json()
    assert (german["name"], german["short_name"]) == ("Anzeigetafel: Anna · Boris · Vera", "Anzeigetafel")
    assert tablet.context.request.get("/watch/not-a-token/board.webmanifest").status == 404


def test_the_board_keeps_the_screen_on_and_asks_again_when_shown_again(new_phone: Any) -> None:
    anna = new_phone()
    _auth, _match_id, watch = _watched_match(anna)
    tablet = new_phone(**TABLET)
    tablet.context.add_init_script(LOCKS_SPY)
    tablet.page.goto(watch + "/board")
    page = tablet.page
    page.wait_for_function(HELD)
    assert page.evaluate("window.locks.map(l => l.type)") == ["screen"]
    # Put away: the browser lets the lock go (here: released as the browser would); nothing is
    # asked while hidden; shown again, the board asks for a new one at once.
    page.evaluate("window.locks[0].release()")
    page.evaluate(SHOWN_JS, True)
    page.wait_for_timeout(200)
    assert page.evaluate(HELD) == 0 and page.evaluate("window.locks.length") == 1
    page.evaluate(SHOWN_JS, False)
    page.wait_for_function(HELD)
    assert page.evaluate("window.locks.length") == 2
    page.evaluate(SHOWN_JS, False)  # shown again while a lock is held: no second lock
    page.wait_for_timeout(200)
    assert page.evaluate("window.locks.length") == 2


def test_a_browser_without_wake_lock_shows_the_board_without_an_error(new_phone: Any) -> None:
    anna = new_phone()
    _auth, _match_id, watch = _watched_match(anna)
    tablet = new_phone(**TABLET)
    # An older browser: no Screen Wake Lock API at all (the phone's fixture fails on any error).
    tablet.context.add_init_script("delete Navigator.prototype.wakeLock")
    tablet.page.goto(watch + "/board")
    tablet.page.wait_for_load_state("load")
    assert tablet.page.evaluate("'wakeLock' in navigator") is False
    assert tablet.page.locator(".board-side").count() == 3
