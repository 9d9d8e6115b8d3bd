"""What a player's phone gets, measured in a real browser: no zooming at 360 px, thumb-sized
tap targets, the numeric keypad, dark mode, contrast for sunlight, JavaScript optional, an
installable app that works offline, nothing fetched from elsewhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import Phone, api_match, api_user, unique

NARROW = {"viewport": {"width": 360, "height": 740}, "screen": {"width": 360, "height": 740}}
TAP = 44 - 0.5
"""Tap targets: at least 44 CSS pixels each way (a rounding half pixel allowed)."""
AAA = 7.0
"""Text contrast that stays readable in sunlight (WCAG AAA)."""

# Every text colour on the page against the background it is drawn on, computed in the page.
CONTRAST_JS = """() => {
  const parse = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const background = el => {
    for (; el; el = el.parentElement) {
      const c = parse(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const worst = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || box.width === 0 || el.closest(".visually-hidden, svg")) continue;
    const a = lum(parse(getComputedStyle(el).color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    worst.push([Math.round(ratio * 100) / 100, el.tagName + "." + el.className + ": "
                + el.textContent.trim().slice(0, 30)]);
  }
  return worst.sort((x, y) => x[0] - y[0]).slice(0, 5);
}"""

# Every control a thumb can hit; a visually hidden radio or checkbox is hit through its label.
TARGETS_JS = """tap => {
  const small = [];
  for (const el of document.querySelectorAll("a, button, input, select, textarea, label")) {
    if (el.type === "hidden" || el.hidden) continue;
    let target = el;
    if (el.tagName === "INPUT" && el.closest("label")) target = el.closest("label");
    if (el.tagName === "LABEL" && !el.querySelector("input")) continue;  // a field's caption
    const style = getComputedStyle(target);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const box = (target.matches("label.choice, label.toggle")
                 ? target.querySelector("span") : target).getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width < tap || box.height < tap)
      small.push(`${target.tagName}.${target.className} "${target.textContent.trim().slice(0, 20)}" `
                 + `${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return small;
}"""


@pytest.fixture
def table(new_phone: Any) -> tuple[Phone, str]:
    """A phone logged in as a player of a four-player match of 12 hands: (phone, match id)."""
    phone = new_phone(**NARROW)
    name = unique("gleb")
    auth = api_user(phone, name)
    match_id = api_match(phone, auth, hands=12, seats=4)
    phone.log_in(name)
    return phone, match_id


def pages(match_id: str) -> list[str]:
    """The main pages of a player who is logged in."""
    return [
        "/",
        "/matches/new",
        f"/matches/{match_id}",
        f"/matches/{match_id}/hands/new",
        f"/matches/{match_id}/hands/1/edit",
        f"/matches/{match_id}/hands/1/delete",
        f"/matches/{match_id}/end",
        "/offline",
    ]


def test_no_page_needs_zooming_or_sideways_scrolling_at_360_px(table: tuple[Phone, str], new_phone: Any) -> None:
    phone, match_id = table
    stranger = new_phone(**NARROW)
    for who, url in [(stranger, "/login"), (stranger, "/register"), *((phone, u) for u in pages(match_id))]:
        who.page.goto(url)
        width = who.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{url} is {width} px wide"
        assert who.page.evaluate("window.visualViewport.scale") == 1


def test_every_control_on_the_hand_form_and_the_sheet_is_thumb_sized(
    table: tuple[Phone, str],
) -> None:
    phone, match_id = table
    for url in (f"/matches/{match_id}/hands/new", f"/matches/{match_id}/hands/1/edit", f"/matches/{match_id}"):
        phone.page.goto(url)
        phone.page.wait_for_load_state("load")
        assert phone.page.evaluate(TARGETS_JS, TAP) == [], url
        assert phone.page.locator("a, button, input:not([type=hidden]), select").count() > 10


def test_numbers_are_typed_on_the_numeric_keypad(table: tuple[Phone, str]) -> None:
    phone, match_id = table
    for url in (f"/matches/{match_id}/hands/new", "/matches/new"):
        phone.page.goto(url)
        numbers = phone.page.locator("#bid, [id^=points_], [id^=start_scores-]")
        assert numbers.count() >= 4
        for i in range(numbers.count()):
            assert numbers.nth(i).get_attribute("inputmode") == "numeric"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_colours_follow_the_phone_and_stay_readable_in_sunlight(new_phone: Any, scheme: str, shots: Path) -> None:
    phone = new_phone(color_scheme=scheme)
    name = unique("vera")
    match_id = api_match(phone, api_user(phone, name), hands=14)
    phone.log_in(name)
    for url in (f"/matches/{match_id}", f"/matches/{match_id}/hands/new", "/"):
        phone.page.goto(url)
        phone.page.wait_for_load_state("load")
        background = phone.page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(255, 255, 255)" if scheme == "light" else "rgb(13, 15, 18)")
        worst = phone.page.evaluate(CONTRAST_JS)
        assert worst and worst[0][0] >= AAA, (url, worst)
    if scheme == "dark":
        phone.page.goto(f"/matches/{match_id}")
        phone.screenshot(shots, "sheet-dark")


def test_a_hand_can_be_entered_with_javascript_off(new_phone: Any) -> None:
    phone = new_phone(java_script_enabled=False)
    phone.register("nojs")
    phone.page.goto("/matches/new")
    for seat, name in enumerate(["Ira", "Oleg", "Pavel"]):
        phone.page.fill(f"#players-{seat}", name)
    phone.tap("button:text('Start the match')")
    phone.tap("a.button:text('Enter hand 1')")
    assert phone.page.locator("button[data-step-for]").first.is_hidden()  # no script, no −/+
    phone.choose("Declarer", "Oleg")
    phone.page.fill("#bid", "100")
    phone.page.fill("#points_0", "20")
    phone.page.fill("#points_2", "15")
    phone.tap("label.toggle:has(input[name=marriages_1][value=hearts])")
    phone.tap("button:text('Save hand 1')")
    phone.page.wait_for_selector("li.flash:has-text('Hand 1 recorded.')")
    assert phone.page.locator(".outcome-made").inner_text() == "100✓"
    assert "made 185" in phone.page.locator("table.sheet tbody th").inner_text()
    # A Rospisat' hides the card points without a script too (CSS :has).
    phone.tap("a.button:text('Enter hand 2')")
    phone.choose("What happened", "Rospisat'")
    assert phone.page.locator(".play").is_hidden()


def test_the_app_installs_and_shows_a_friendly_page_offline(new_phone: Any) -> None:
    phone = new_phone()
    phone.register("ira")
    manifest = phone.page.evaluate("""async () => {
      const link = document.querySelector('link[rel=manifest]');
      const m = await (await fetch(link.href)).json();
      const icons = await Promise.all(m.icons.map(async i => {
        const img = new Image(); img.src = i.src; await img.decode();
        return `${img.naturalWidth}x${img.naturalHeight}` === i.sizes; }));
      return {display: m.display, start: m.start_url, icons};
    }""")
    assert manifest == {"display": "standalone", "start": "/", "icons": [True, True]}
    scope = phone.page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{phone.server}/"
    phone.page.reload()  # now the worker controls the page and keeps its static files
    cached = phone.page.evaluate("""async () => {
      const keys = await (await caches.open('tysiacha-static-1')).keys();
      return keys.map(k => new URL(k.url).pathname + new URL(k.url).search).sort(); }""")
    assert "/offline" in cached
    assert any(k.startswith("/static/app.css?v=") for k in cached)
    assert all(k == "/offline" or "?v=" in k for k in cached)  # sheets: their own cache
    phone.context.set_offline(True)
    phone.page.goto("/matches/new")
    assert phone.page.locator("h1").inner_text() == "No connection"
    assert phone.page.evaluate("getComputedStyle(document.body).margin") == "0px"  # styled
    phone.context.set_offline(False)


def test_a_thinking_table_is_asked_every_1_5_s_however_long_it_thinks(new_phone: Any) -> None:
    """Polling (where the server does not push): every 1.5 s while the page is visible, and
    still every 1.5 s after ten minutes without a change (no back-off: a hand saved after any
    idle time is on the phone within 2 s, test_idle_table.py; what it costs the server:
    docs/performance.md)."""
    phone = new_phone()
    name = unique("olga")
    auth = api_user(phone, name)
    match_id = api_match(phone, auth, hands=2)
    phone.log_in(name)
    version = f"/matches/{match_id}/version"
    answered: list[str] = []
    for done in ("requestfinished", "requestfailed"):
        phone.context.on(done, lambda r: answered.append(r.url))
    phone.page.clock.install()  # the page's timers and Date run only when the test says
    phone.page.goto(f"/matches/{match_id}")
    phone.page.clock.pause_at((phone.page.evaluate("() => Date.now()") + 1500) / 1000)  # s

    def polls() -> int:
        return sum(u.endswith(version) for u in phone.requests)

    def settle() -> None:  # a poll's answer arrives in real time: wait for it
        for _ in range(300):
            if polls() == sum(u.endswith(version) for u in answered):
                return
            phone.page.wait_for_timeout(10)

    def think(seconds: int) -> int:  # the polls of that many seconds of the page's clock
        before = polls()
        for _ in range(seconds * 4):
            phone.page.clock.run_for(250)
            settle()
        return polls() - before

    assert 19 <= think(30) <= 21  # every 1.5 s while the sheet has just changed
    for _ in range(20):  # ten minutes without a change
        phone.page.clock.run_for(30_000)
        settle()
    assert 19 <= think(30) <= 21  # and every 1.5 s still: 20 where the old back-off made 2–3

    reply = phone.context.request.post(
        f"/api/matches/{match_id}/hands", headers=auth, data={"kind": "redeal", "expected_hand": 3}
    )
    assert reply.status == 201, reply.text()
    think(2)  # the next poll hears it
    for _ in range(300):
        if int(phone.page.evaluate("() => document.querySelectorAll('#live tbody tr').length")) >= 3:
            break
        phone.page.wait_for_timeout(10)
    assert int(phone.page.evaluate("() => document.querySelectorAll('#live tbody tr').length")) >= 3


def test_the_sheet_stops_asking_for_news_while_the_phone_is_put_away(new_phone: Any) -> None:
    phone = new_phone()
    name = unique("oleg")
    match_id = api_match(phone, api_user(phone, name), hands=2)
    phone.log_in(name)
    phone.page.goto(f"/matches/{match_id}")

    def polls() -> int:
        return sum(u.endswith(f"/matches/{match_id}/version") for u in phone.requests)

    phone.page.wait_for_timeout(3_500)
    assert polls() >= 1  # visible: every 1.5 s
    phone.page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
      document.dispatchEvent(new Event('visibilitychange')); }""")
    before = polls()
    phone.page.wait_for_timeout(4_000)
    assert polls() == before  # hidden: not one request
    phone.page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
      document.dispatchEvent(new Event('visibilitychange')); }""")
    for _ in range(12):  # back: asks at once, well before the next poll's 1.5 s
        if polls() > before:
            break
        phone.page.wait_for_timeout(100)
    assert polls() == before + 1
