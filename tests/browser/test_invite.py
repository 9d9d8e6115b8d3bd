"""Bringing the table together on 360 px phones: Invite copies the join link where the phone
has no share sheet (headless Chromium on Linux has none), a logged-out phone follows the link
through registration into the match with one tap on our pages, the watch page follows the
sheet live without an account, and the start form names the first dealer as typed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .helpers import PASSWORD, api_user, unique

SMALL = {"viewport": {"width": 360, "height": 640}}


def test_invite_copies_the_link_and_a_logged_out_phone_joins_with_one_tap(
    new_phone: Any, server: str, shots: Path
) -> None:
    from playwright.sync_api import expect

    anna = new_phone(**SMALL, permissions=["clipboard-read", "clipboard-write"])
    anna.register(unique("anna"))
    anna.page.goto("/matches/new")
    for i, name in enumerate(["Anna", "Boris", "Vera"]):
        anna.page.fill(f"#players-{i}", name)
    anna.tap("button:text('Start the match')")
    anna.page.wait_for_selector("h1:text('Anna · Boris · Vera')")
    assert anna.page.evaluate("typeof navigator.share") == "undefined"
    invite = anna.page.locator("a[data-share-url]").first
    link = invite.get_attribute("data-share-url")
    assert link and link.startswith(f"{server}/join/")
    invite.tap()
    expect(anna.page.locator("[data-share-status]").first).to_have_text("Link copied: send it to the table.")
    assert anna.page.evaluate("navigator.clipboard.readText()") == link
    anna.page.locator("#invite").scroll_into_view_if_needed()
    box = anna.page.locator("#invite svg.qr").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    anna.screenshot(shots, "invite")

    boris = new_phone(**SMALL)
    boris.page.goto(link)  # opened from the chat: logged out, the table's match and the way in
    expect(boris.page.locator("main")).to_contain_text(
        "Make an account or log in to join the match of Anna · Boris · Vera."
    )
    boris.tap("a.button:text('Make an account')")
    boris.page.wait_for_url(re.compile(r"/register\?next=%2Fjoin%2F|/register\?next=/join/"))
    boris.page.fill("#username", unique("boris"))
    boris.page.fill("#password", PASSWORD)
    boris.tap("button:text('Make my account')")
    boris.page.wait_for_url(link)
    expect(boris.page.locator("h1")).to_have_text("Join this match?")
    expect(boris.page.locator("li.flash")).to_have_text(re.compile(r"^Welcome, boris\d+: your account is ready\.$"))
    boris.tap("button:text('Join')")  # the one tap after the account (the taps of a logged-in
    boris.page.wait_for_selector("h1:text('Anna · Boris · Vera')")  # join: test_at_the_table)
    expect(boris.page.locator("li.flash")).to_contain_text("You joined the match")


def test_the_watch_page_follows_the_sheet_live_without_an_account(new_phone: Any, shots: Path) -> None:
    from playwright.sync_api import expect

    anna = new_phone(**SMALL)
    auth = api_user(anna, unique("anna"))
    request = anna.context.request
    match = request.post("/api/matches", headers=auth, data={"players": ["Anna", "Boris", "Vera"]}).json()
    watch = request.post(f"/api/matches/{match['id']}/watch", headers=auth).json()["watch_url"]
    tablet = new_phone(**SMALL)
    tablet.page.goto(watch)
    expect(tablet.page.locator(".banner")).to_contain_text("Hand 1: Anna deals.")
    assert tablet.page.locator("form").count() == 1  # the language switch, nothing else
    hand = {"declarer": 1, "bid": 120, "points": [35, None, 45], "marriages": [[], ["hearts"], []]}
    assert request.post(f"/api/matches/{match['id']}/hands", headers=auth, data=hand).status == 201
    # The page asks for the version every few seconds and swaps the new sheet in.
    expect(tablet.page.locator(".banner")).to_contain_text("Hand 2: Boris deals.", timeout=20_000)
    expect(tablet.page.locator("table.sheet")).to_contain_text("made")
    fetched = [u.split("?")[0] for u in tablet.requests if "/watch/" in u]
    assert f"{watch}/live" in fetched and fetched.count(watch) == 1, fetched  # the live part, not the page again
    tablet.screenshot(shots, "watch")
    tablet.page.goto("about:blank")
    assert request.delete(f"/api/matches/{match['id']}/watch", headers=auth).status == 204
    assert tablet.context.request.get(watch).status == 404


def test_the_start_form_names_the_first_dealer_as_typed_and_fits_360_px(new_phone: Any) -> None:
    phone = new_phone(**SMALL)
    phone.register(unique("anna"))
    phone.page.goto("/matches/new")
    phone.page.fill("#players-0", "Łukasz")
    phone.page.fill("#players-1", "Борис")
    options = phone.page.locator("#first_dealer option").all_text_contents()
    assert options == ["Łukasz", "Борис", "Player 3", "Player 4"]
    rules = phone.page.locator("#rules")
    box = rules.bounding_box()
    assert box and box["x"] + box["width"] <= 360
    # The chosen ruleset's name fits its box (the text is not cut off).
    fits = phone.page.evaluate("""() => {
        const select = document.getElementById('rules');
        const style = getComputedStyle(select);
        const context = document.createElement('canvas').getContext('2d');
        context.font = style.font;
        return Array.from(select.options).every(o =>
            context.measureText(o.textContent).width <= select.clientWidth - 48);
    }""")
    assert fits
