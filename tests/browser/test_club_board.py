"""The club night's board on a TV of 1280×800 (CLUB.md §4): a hand saved at one table shows on
the board by itself, without the page reloading, and axe-core finds nothing to say."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from .helpers import api_user, unique
from .test_accessibility import AXE_RUN, WCAG

TV = {"viewport": {"width": 1280, "height": 800}, "screen": {"width": 1280, "height": 800}}
TV_DEVICE = {**TV, "is_mobile": False, "has_touch": False, "device_scale_factor": 1}
GUESTS = ["Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"]
HAND = {"kind": "played", "declarer": 1, "bid": 140, "points": [20, None, 20], "marriages": [[], ["hearts"], []]}


def _night(phone: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """A night of six guests with round 1 seated (two tables) and a 45-minute countdown: the
    event, round 1 and the director's API header."""
    request = phone.context.request
    auth = api_user(phone, unique("director"))
    body = {"name": "Friday club", "game": {"rules": "squarescores"}, "rounds": 3, "time_limit": 45, "seed": 5}
    event = request.post("/api/events", headers=auth, data=body).json()
    for name in GUESTS:
        assert request.post(f"/api/events/{event['id']}/roster", headers=auth, data={"guest": name}).status == 201
    round_ = request.post(f"/api/events/{event['id']}/rounds", headers=auth, data={})
    assert round_.status == 201, round_.text()
    return event, round_.json(), auth


def test_a_hand_saved_at_a_table_shows_on_the_board_by_itself(new_phone: Any) -> None:
    from playwright.sync_api import expect

    tv = new_phone(**TV_DEVICE)
    event, round_, auth = _night(tv)
    page = tv.page
    page.goto(urlsplit(event["watch_url"]).path)
    second = page.locator(".club-card").nth(1)
    players = round_["tables"][1]["players"]
    assert second.locator("th").all_inner_texts() == players
    assert second.locator("td").all_inner_texts() == ["0", "0", "0"]
    page.evaluate("window.notReloaded = true")
    # The second table saves a hand: seat 1 bids 140 with the hearts marriage and makes it, the
    # others take 20 card points each (140, 20 and 20 on the sheet).
    saved = tv.context.request.post(f"/api/matches/{round_['tables'][1]['match_id']}/hands", headers=auth, data=HAND)
    assert saved.status == 201, saved.text()
    expect(second.locator("td")).to_have_text(["20", "140", "20"], timeout=10_000)
    assert page.evaluate("window.notReloaded") is True  # swapped in, not a reload
    assert "1 hand" in second.inner_text()
    assert page.locator(".club-card").nth(0).locator("td").all_inner_texts() == ["0", "0", "0"]
    assert "45 minutes left" in page.locator("h2").first.inner_text()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_the_board_at_1280_by_800(new_phone: Any, axe_script: Path, scheme: str) -> None:
    tv = new_phone(**TV_DEVICE, bypass_csp=True)  # axe-core is added as an inline script
    event, round_, auth = _night(tv)
    tv.context.request.post(f"/api/matches/{round_['tables'][0]['match_id']}/hands", headers=auth, data=HAND)
    page = tv.page
    page.emulate_media(color_scheme=scheme)
    page.goto(urlsplit(event["watch_url"]).path)
    page.add_script_tag(path=str(axe_script))
    found = page.evaluate(AXE_RUN, WCAG)
    assert not found, found
    # Every card and the standings' first rows fit the screen without scrolling sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    # Printed, the standings alone show: the round's cards and the language switch are hidden.
    page.emulate_media(media="print")
    assert page.locator(".club-round").is_hidden()
    assert page.locator("table.club-standings").is_visible()
    assert page.locator("footer.languages").is_hidden()
