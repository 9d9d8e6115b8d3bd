"""At the table on a small phone: the sheet readable at a glance, names and scores
always on screen, the newest hand on screen when the page opens."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .helpers import PASSWORD, SEATS, Phone, api_match, api_user, unique

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
    new_phone: Any, matches: dict[int, tuple[str, str]], seats: int, size: str, shots: Path
) -> None:
    phone: Phone = new_phone(viewport=PHONES[size], screen=PHONES[size])
    name, match_id = matches[seats]
    phone.log_in(name)
    phone.page.goto(f"/matches/{match_id}")
    page = phone.page
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size]["width"]
    if seats == 3 and size == "360x640":
        phone.screenshot(shots, "sheet-360")
    rows = page.evaluate(ROWS_JS)
    assert len(rows) == 40
    # The newest hand is the first row, and it is on screen when the page opens.
    assert rows[0]["hand"].startswith("40") and rows[0]["bottom"] <= PHONES[size]["height"]
    # One compact row per hand: an ordinary hand (no event words) is one line of numbers.
    heights = [r["height"] for r in rows if not r["events"]]
    assert len(heights) >= 30 and max(heights) <= ROW_HEIGHT, heights
    print(
        f"\n{seats} players at {size}: newest row's bottom at {rows[0]['bottom']:.0f} px; "
        f"{len(heights)} ordinary rows {min(heights):.0f}–{max(heights):.0f} px tall, "
        f"all 40 rows {sum(r['height'] for r in rows):.0f} px"
    )
    # Scrolled to any hand, down to the oldest, the names and current scores are on screen.
    for index in (0, 10, 25, 39):
        page.locator("table.sheet tbody tr").nth(index).scroll_into_view_if_needed()
        header = page.evaluate(HEADER_JS)
        assert len(header["names"]) == seats
        assert all(n["seen"] for n in header["names"]), (index, header)
        row = page.evaluate(ROWS_JS)[index]
        assert row["top"] >= header["bottom"] - 1, (index, row, header)
        if index == 25 and seats == 4 and size == "360x640":
            phone.screenshot(shots, "sheet-360-scrolled")
    scores = page.locator(".standing .score").all_inner_texts()
    assert [n["score"] for n in header["names"]] == scores


def test_the_phone_may_be_turned_sideways_and_the_sheet_uses_the_width(
    new_phone: Any, matches: dict[int, tuple[str, str]]
) -> None:
    phone: Phone = new_phone(viewport={"width": 740, "height": 360}, screen={"width": 740, "height": 360})
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


# Every tap (pointer down) and key press on the page, kept across page loads of the tab.
TAP_RECORDER = """(() => {
  const keep = kind => {
    const taps = JSON.parse(sessionStorage.getItem("taps") || "[]");
    taps.push(kind);
    sessionStorage.setItem("taps", JSON.stringify(taps));
  };
  const what = e => (e.target.textContent || e.target.id || e.target.tagName).trim().slice(0, 20);
  addEventListener("pointerdown", e => keep("tap " + what(e)), true);
  addEventListener("keydown", e => keep("key " + e.key), true);
})()"""
ORDINARY_HAND_TAPS = 8
"""Declarer Boris, bid 120, defenders 35 and 45, Boris's hearts marriage, save."""


def three_at_the_table(new_phone: Any, size: dict[str, int], **options: Any) -> tuple[Phone, str, dict[str, str]]:
    """A phone of `size` logged in as a player of a new match of Anna, Boris and Vera on hand 1
    (Anna deals, so Boris opens the bidding): (phone, match id, the player's API header)."""
    phone: Phone = new_phone(viewport=size, screen=size, **options)
    name = unique("thumb")
    auth = api_user(phone, name)
    response = phone.context.request.post("/api/matches", headers=auth, data={"players": ["Anna", "Boris", "Vera"]})
    assert response.status == 201
    phone.log_in(name)
    return phone, response.json()["id"], auth


def on_screen(page: Any, selector: str) -> dict[str, float]:
    """The element's box; it must lie inside the viewport."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box)
    return box


@pytest.mark.parametrize("size", PHONES)
def test_save_is_on_screen_and_the_field_being_typed_stays_clear_of_it(new_phone: Any, size: str) -> None:
    phone, match_id, _auth = three_at_the_table(new_phone, PHONES[size])
    page = phone.page
    page.goto(f"/matches/{match_id}/hands/new")
    assert page.evaluate("scrollY") == 0 and page.input_value("#bid") == "100"
    assert page.locator("input[name=declarer]:checked").count() == 0  # nobody assumed
    save = on_screen(page, "button:text('Save hand 1')")
    print(
        f"\nhand form at {size}: Save at y {save['y']:.0f}–{save['y'] + save['height']:.0f} px, "
        f"the form {page.evaluate('document.documentElement.scrollHeight')} px tall"
    )
    # With the keypad open, about half the screen is left: 360×360.
    page.set_viewport_size({"width": PHONES[size]["width"], "height": 360})
    for field in ("#bid", "#points_0", "#points_1", "#points_2"):
        page.locator(field).focus()
        page.keyboard.type("5")
        box = on_screen(page, field)
        bar = on_screen(page, ".save-bar")
        assert box["y"] + box["height"] <= bar["y"], (field, box, bar)
        on_screen(page, "button:text('Save hand 1')")


def test_an_ordinary_hand_takes_at_most_eight_taps(new_phone: Any, shots: Path) -> None:
    phone, match_id, auth = three_at_the_table(new_phone, PHONES["360x640"])
    page = phone.page
    phone.context.add_init_script(TAP_RECORDER)
    page.goto(f"/matches/{match_id}/hands/new")
    page.locator(".quick-bids").wait_for()
    phone.choose("Declarer", "Boris")
    assert page.evaluate("document.activeElement.id") == "points_0"  # the keypad is in Anna's box
    phone.tap(".quick-bids button:text('120')")
    assert page.evaluate("document.activeElement.id") == "points_0"  # and back there after the bid
    page.keyboard.type("35")
    page.keyboard.type("45")  # the keypad moved on to Vera by itself
    phone.tap("label.toggle:has(input[name=marriages_1][value=hearts])")
    page.locator(".preview", has_text="Boris made 120").wait_for()
    page.evaluate("scrollTo(0, 0)")  # README's picture: the whole form from its top
    phone.screenshot(shots, "hand-form-360")
    phone.tap("button:text('Save hand 1')")
    page.wait_for_selector("li.flash:has-text('Hand 1 recorded.')")
    taps = page.evaluate("JSON.parse(sessionStorage.getItem('taps'))")
    assert len(taps) <= ORDINARY_HAND_TAPS, taps
    hand = phone.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["hands"][0]
    assert hand["declarer"] == 1 and hand["bid"] == 120
    assert hand["points"] == [35, 40, 45] and hand["marriages"] == [[], ["hearts"], []]
    print(f"ordinary hand: {len(taps)} taps: {taps}")


def test_without_javascript_the_form_shows_no_dead_buttons_and_still_saves(new_phone: Any) -> None:
    phone, match_id, _auth = three_at_the_table(new_phone, PHONES["360x640"], java_script_enabled=False)
    page = phone.page
    page.goto(f"/matches/{match_id}/hands/new")
    for dead in ("button[data-step-for]", ".quick-bids"):
        assert page.locator(dead).first.evaluate("e => getComputedStyle(e).display") == "none"
    phone.choose("Declarer", "Boris")
    page.fill("#bid", "120")
    page.fill("#points_0", "35")
    page.fill("#points_2", "45")
    phone.tap("button:text('Save hand 1')")
    page.wait_for_selector("li.flash:has-text('Hand 1 recorded.')")


LIVE_WAIT_MS = 8_000
"""The other phone asks every 1.5 s: it must show news well within this."""


def test_undo_in_one_tap_take_it_back_and_the_other_phone_is_told(new_phone: Any, shots: Path) -> None:
    anna, match_id, _auth = three_at_the_table(new_phone, PHONES["360x640"])
    code = anna.page.goto(f"/matches/{match_id}") and anna.page.locator(".code").inner_text()
    boris: Phone = new_phone(viewport=PHONES["375x667"], screen=PHONES["375x667"])
    boris.register(unique("boris"))
    boris.page.fill("#code", code)
    boris.tap("button:text('Join')")
    boris.page.wait_for_selector("li.flash:has-text('You joined the match')")

    # Anna saves hand 1, then undoes it with one tap, then takes the undo back with one more.
    anna.tap("a.button:text('Enter hand 1')")
    anna.choose("Declarer", "Boris")
    anna.page.fill("#points_0", "35")
    anna.page.fill("#points_2", "45")
    anna.tap("button:text('Save hand 1')")
    anna.page.wait_for_selector("li.flash:has-text('Hand 1 recorded.')")
    anna.page.locator("button:text('Undo hand 1')").wait_for()
    anna.screenshot(shots, "undo-360")
    # Boris's old message no longer applies once the sheet has moved on.
    boris.page.locator("table.sheet").wait_for(timeout=LIVE_WAIT_MS)
    assert boris.page.locator("li.flash").count() == 0
    assert boris.page.locator(".news").is_hidden()  # a new hand is no news
    anna.tap("button:text('Undo hand 1')")
    anna.page.wait_for_selector("li.flash:has-text('Hand 1 undone.')")
    assert anna.page.locator("table.sheet").count() == 0
    boris.page.locator(".news", has_text="deleted hand 1").wait_for(timeout=LIVE_WAIT_MS)
    anna.tap("button:text('Take it back: restore hand 1')")
    anna.page.wait_for_selector("li.flash:has-text('back as hand 1')")
    assert anna.page.locator("table.sheet tbody tr").count() == 1
    boris.page.locator(".news", has_text="restored hand 1").wait_for(timeout=LIVE_WAIT_MS)
    assert boris.page.locator(".news").count() == 1

    # A correction: Boris's phone says who corrected which hand.
    anna.tap("a[aria-label='Correct or delete hand 1']")
    anna.page.fill("#points_2", "40")
    anna.tap("button:text('Save hand 1')")
    anna.page.wait_for_selector("li.flash:has-text('Hand 1 corrected')")
    boris.page.locator(".news", has_text="corrected hand 1").wait_for(timeout=LIVE_WAIT_MS)

    # The history keeps all of it.
    anna.page.goto(f"/matches/{match_id}/history")
    history = anna.page.locator("ol.history").inner_text()
    for words in ("recorded hand 1", "deleted hand 1", "restored a deleted hand as hand 1", "corrected hand 1"):
        assert words in history

    # Offline, Boris's sheet says it may be out of date (offline.js); back online, it goes.
    boris.context.set_offline(True)
    boris.page.locator(".offline-line").wait_for(timeout=LIVE_WAIT_MS)
    boris.context.set_offline(False)
    boris.page.locator(".offline-line").wait_for(state="hidden", timeout=LIVE_WAIT_MS)
    # The browser logs each question that could not leave the phone: expected here, not a bug.
    boris.errors[:] = [e for e in boris.errors if "ERR_INTERNET_DISCONNECTED" not in e]


# Each line of the chart and of its key: its colour and dashes as drawn; each label's size on
# screen (its font size times the SVG's scale).
CHART_JS = """() => {
  const look = el => { const s = getComputedStyle(el); return [s.stroke, s.strokeDasharray]; };
  const chart = [...document.querySelectorAll(".race-chart polyline.run")].map(look);
  const key = [...document.querySelectorAll(".race-key .run")].map(look);
  const target = [...document.querySelectorAll(".race-chart .guide-target")].map(look);
  const targetKey = [...document.querySelectorAll(".race-key .guide-target")].map(look);
  const barrelKey = [...document.querySelectorAll(".race-key .guide-barrel")].map(look);
  const labels = [...document.querySelectorAll(".race-chart text")].map(
    t => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize));
  return {chart, key, target, targetKey, barrelKey, labels};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chart_tells_players_apart_and_its_key_draws_their_lines(
    new_phone: Any, matches: dict[int, tuple[str, str]], scheme: str
) -> None:
    phone: Phone = new_phone(viewport=PHONES["360x640"], screen=PHONES["360x640"], color_scheme=scheme)
    name, match_id = matches[4]
    phone.log_in(name)
    phone.page.goto(f"/matches/{match_id}")
    drawn = phone.page.evaluate(CHART_JS)
    assert len(drawn["chart"]) == 4 and drawn["key"] == drawn["chart"]
    colours = [stroke for stroke, _dashes in drawn["chart"]]
    assert len(set(colours)) == 4 and drawn["target"][0][0] not in colours
    assert len({dashes for _stroke, dashes in drawn["chart"]}) == 4  # one line style each
    assert drawn["targetKey"] == drawn["target"]
    assert drawn["barrelKey"] and drawn["barrelKey"][0][1] not in ("none", "")  # dashed
    assert drawn["labels"] and min(drawn["labels"]) >= 12, drawn["labels"]


# Whatever at 200 % text is cut off: clipped by its own box, or reaching past the screen's
# sides without a sideways-scrolling box around it (the sheet's wrapper may scroll).
CUT_OFF_JS = """() => {
  const scrolls = el => { for (let a = el.parentElement; a; a = a.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(a).overflowX) && a !== document.documentElement
        && a !== document.body) return true; } return false; };
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
    const s = getComputedStyle(el);
    if (s.display === "none" || s.visibility === "hidden") continue;
    const b = el.getBoundingClientRect();
    if (b.width <= 1 || b.height <= 1) continue;      // visually hidden words for screen readers
    const clips = /hidden|clip/.test(s.overflowX) || s.textOverflow === "ellipsis";
    const what = el.tagName + "#" + el.id + "." + el.className + " "
      + (el.value || el.textContent || "").trim().slice(0, 30);
    if (el.tagName === "INPUT") {       // its value must fit inside the padding
      const pen = document.createElement("canvas").getContext("2d");
      pen.font = s.font;
      const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      if (pen.measureText(el.value).width > room + 1) out.push("clipped " + what);
    } else if (clips && el.scrollWidth > el.clientWidth + 1) {
      out.push("clipped " + what + " " + el.scrollWidth + ">" + el.clientWidth);
    } else if ((b.right > innerWidth + 1 || b.left < -1) && !scrolls(el)) out.push("outside " + what);
  }
  return out;
}"""


def test_at_200_percent_text_nothing_is_cut_off_on_any_page_at_the_table(
    new_phone: Any, matches: dict[int, tuple[str, str]]
) -> None:
    phone: Phone = new_phone(viewport=PHONES["360x640"], screen=PHONES["360x640"])
    name, match_id = matches[3]
    phone.log_in(name)
    request = phone.context.request
    auth = {
        "Authorization": "Bearer "
        + request.post("/api/tokens", data={"username": name, "password": PASSWORD}).json()["token"]
    }
    links = request.post(f"/api/matches/{match_id}/watch", headers=auth).json()
    tichu = request.post("/api/matches", headers=auth, data={"players": SEATS, "rules": "tichu"}).json()["id"]
    stranger = api_user(phone, unique("stranger"))
    other = request.post("/api/matches", headers=stranger, data={"players": ["Anna", "Boris", "Vera"]}).json()
    pages = {
        "home": "/",
        "new match": "/matches/new",
        "match": f"/matches/{match_id}",
        "hand form": f"/matches/{match_id}/hands/new",
        "round form": f"/matches/{tichu}/hands/new",
        "history": f"/matches/{match_id}/history",
        "account": "/account",
        "join": f"/join/{other['join_code']}",
        "watch": links["watch_url"],
        "board": links["watch_url"] + "/board",
    }
    for page_name, url in pages.items():
        response = phone.page.goto(url)
        assert response and response.status == 200, (page_name, url)
        phone.page.evaluate("document.documentElement.style.fontSize = '200%'")
        assert phone.page.evaluate(CUT_OFF_JS) == [], page_name
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360, page_name
        link = phone.page.locator("header.top a", has_text="Log out")
        if page_name in ("watch", "board"):
            continue  # no account on these views: nothing to log out of
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, (page_name, box)
        assert link.evaluate("a => a.scrollWidth <= a.clientWidth + 1"), page_name


JOIN_TAPS = 2
"""Joining from a link or QR code, for a player already logged in."""


def test_a_logged_in_player_joins_a_40_hand_match_by_link_in_two_taps_and_hears_of_a_correction(
    new_phone: Any, shots: Path
) -> None:
    anna: Phone = new_phone(viewport=PHONES["360x640"], screen=PHONES["360x640"])
    anna_name = unique("anna")
    auth = api_user(anna, anna_name)
    match_id = api_match(anna, auth, hands=40)
    link = anna.context.request.get(f"/api/matches/{match_id}/links", headers=auth).json()
    anna.log_in(anna_name)

    # Boris is logged in on his phone; the link comes from the chat; his taps are recorded.
    boris: Phone = new_phone(viewport=PHONES["360x640"], screen=PHONES["360x640"])
    boris.register(unique("boris"))
    boris.context.add_init_script(TAP_RECORDER)
    boris.page.goto(link["join_url"])
    boris.tap("button:text('Join')")
    boris.page.wait_for_selector("li.flash:has-text('You joined the match')")
    assert boris.page.url.endswith(f"/matches/{match_id}")
    taps = boris.page.evaluate("JSON.parse(sessionStorage.getItem('taps') || '[]')")
    assert 1 <= len(taps) <= JOIN_TAPS, taps
    print(f"\njoin by link, logged in, 40-hand match at 360x640: {len(taps)} taps: {taps}")
    assert boris.page.locator("table.sheet tbody tr").count() == 40

    # Anna corrects the newest hand; Boris's phone says so, on screen, without a reload.
    boris.page.evaluate("window.stillTheSamePage = true")
    anna.page.goto(f"/matches/{match_id}")
    anna.tap("a[aria-label='Correct or delete hand 40']")
    anna.page.fill("#bid", "110")
    anna.tap("button:text('Save hand 40')")
    anna.page.wait_for_selector("li.flash:has-text('Hand 40 corrected')")
    saved = time.monotonic()
    news = boris.page.locator(".news", has_text=f"{anna_name} corrected hand 40")
    news.wait_for(timeout=LIVE_WAIT_MS)
    print(
        f"the correction notice on the second phone {time.monotonic() - saved:.1f} s after "
        "Anna's sheet showed the correction"
    )
    on_screen(boris.page, ".news")
    assert boris.page.evaluate("window.stillTheSamePage") is True
    boris.screenshot(shots, "corrected-360")
