"""The last rough edges at a 360 × 640 table: a Rospisat' has a mark of its own, which the
legend explains; once the match is over no barrel counts down, on the cards or on the board;
a rematch seats everyone where they sat, and another phone's Rematch reaches a banked sheet
without a reload."""

from __future__ import annotations

from typing import Any

from .helpers import Phone, api_user, unique

SMALL = {"viewport": {"width": 360, "height": 640}, "screen": {"width": 360, "height": 640}}
LANGUAGES = ["en", "ru", "uk", "pl", "de"]


def _post(phone: Phone, auth: dict[str, str], path: str, body: Any = None) -> Any:
    response = phone.context.request.post(path, headers=auth, data=body)
    assert response.status in (200, 201), response.text()
    return response.json()


def _hand(declarer: int, bid: int, points: list[int | None]) -> dict[str, Any]:
    """A made hand with the declarer's hearts marriage."""
    marriages: list[list[str]] = [[] for _ in points]
    marriages[declarer] = ["hearts"]
    return {"declarer": declarer, "bid": bid, "points": points, "marriages": marriages}


def test_a_rospisat_has_its_own_mark_and_the_legend_says_what_it_is(new_phone: Any) -> None:
    from playwright.sync_api import expect

    anna = new_phone(**SMALL)
    name = unique("anna")
    auth = api_user(anna, name)
    match = _post(anna, auth, "/api/matches", {"players": ["Anna", "Boris", "Vera"]})
    path = f"/api/matches/{match['id']}/hands"
    _post(anna, auth, path, {"kind": "forfeit", "declarer": 1, "bid": 120})
    _post(anna, auth, path, {"declarer": 2, "bid": 120, "points": [30, 60, None], "marriages": [[], [], []]})
    anna.log_in(name)
    anna.page.goto(f"/matches/{match['id']}")
    rows = anna.page.locator("table.sheet tbody tr")
    forfeit = rows.nth(1).locator("td.declarer .outcome-forfeit")  # hand 1, newest first
    expect(forfeit).to_have_text("120⊘")
    expect(rows.nth(1)).not_to_contain_text("✗")
    expect(rows.nth(0).locator("td.declarer .outcome-missed")).to_have_text("120✗")  # a missed bid
    colour = "el => getComputedStyle(el).color"
    assert forfeit.evaluate(colour) != rows.nth(0).locator(".outcome-missed").evaluate(colour)  # not a miss's red
    legend = anna.page.locator("p.legend")
    expect(legend).to_contain_text("120✓ or 120✗: the declarer's bid, made or missed")
    expect(legend).to_contain_text("120⊘: Rospisat', the bid called off.")
    # Each hand's entry reads beside the bold total: the page's own text colour, not a grey.
    entry = rows.nth(0).locator("td").nth(0).locator(".entry")
    expect(entry).to_have_text("+30")
    style = entry.evaluate("el => [getComputedStyle(el).color, parseFloat(getComputedStyle(el).fontSize)]")
    assert style[0] == anna.page.evaluate("getComputedStyle(document.body).color") and style[1] >= 13.5, style


def test_once_the_match_is_won_no_barrel_counts_down_on_the_cards_or_the_board(new_phone: Any) -> None:
    from playwright.sync_api import expect

    anna = new_phone(**SMALL)
    name = unique("anna")
    auth = api_user(anna, name)
    match = _post(anna, auth, "/api/matches", {"players": ["Anna", "Boris", "Vera"], "start_scores": [875, 875, 0]})
    path = f"/api/matches/{match['id']}/hands"
    _post(anna, auth, path, _hand(0, 120, [None, 10, 10]))  # Anna climbs on the barrel
    board_url = _post(anna, auth, f"/api/matches/{match['id']}/watch")["watch_url"] + "/board"
    anna.log_in(name)
    chip = anna.page.locator(".standing").nth(0).locator(".mark.barrel")  # (Boris is capped on it too)
    for language in LANGUAGES:  # the chip fits a third-width card: one line or two, never four
        anna.context.set_extra_http_headers({"Accept-Language": language})
        anna.page.goto(f"/matches/{match['id']}")
        assert anna.page.get_attribute("html", "lang") == language
        expect(chip).to_have_count(1)
        lines = chip.evaluate("el => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)")
        assert lines < 2.6, (language, chip.inner_text(), lines)
        # The title line breaks between its parts, never inside one ("w / toku").
        parts = anna.page.locator(".match-line > span").all()
        assert len(parts) == 2, language  # the target, the status
        for part in parts:
            tall = part.evaluate(
                "el => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)"
            )
            assert tall < 1.5, (language, part.inner_text(), tall)
    anna.context.set_extra_http_headers({"Accept-Language": "en"})
    anna.page.goto(f"/matches/{match['id']}")
    expect(chip.locator("[aria-hidden=true]")).to_have_text("barrel: 3 left")  # seen
    expect(chip.locator(".visually-hidden")).to_have_text("on the barrel: 3 hands left")  # heard
    tablet = new_phone(viewport={"width": 1280, "height": 800})
    tablet.page.goto(board_url)
    expect(tablet.page.locator(".board-side.seat-0 .mark.barrel")).to_have_text("on the barrel: 3 hands left")
    expect(tablet.page.locator(".board-side.seat-1 .mark.barrel")).to_have_text("on the barrel: 3 hands left")

    _post(anna, auth, path, _hand(1, 120, [10, None, 10]))  # Boris wins; Anna had 2 hands left
    expect(anna.page.locator(".banner.win")).to_contain_text("Boris wins with 1000!", timeout=20_000)
    expect(tablet.page.locator(".board-status")).to_contain_text("Boris wins with 1000!", timeout=20_000)
    expect(anna.page.locator(".standing .mark.barrel")).to_have_count(0)
    expect(tablet.page.locator(".mark.barrel")).to_have_count(0)
    expect(anna.page.locator("#live")).not_to_contain_text("hands left")
    _post(anna, auth, f"/api/matches/{match['id']}/bank")
    for phone, url in ((anna, f"/matches/{match['id']}"), (tablet, board_url)):
        phone.page.goto(url)
        expect(phone.page.locator("main")).not_to_contain_text("hands left")
        expect(phone.page.locator(".mark.barrel")).to_have_count(0)


def test_a_rematch_keeps_the_seats_and_reaches_a_banked_sheet_without_a_reload(new_phone: Any) -> None:
    from playwright.sync_api import expect

    anna, boris = new_phone(**SMALL), new_phone(**SMALL)
    names = unique("anna"), unique("boris")
    auth, boris_auth = api_user(anna, names[0]), api_user(boris, names[1])
    match = _post(anna, auth, "/api/matches", {"players": ["Anna", "Boris", "Vera"], "start_scores": [870, 0, 0]})
    _post(boris, boris_auth, "/api/matches/join", {"code": match["join_code"]})
    _post(anna, auth, f"/api/matches/{match['id']}/seats/0/claim")
    _post(boris, boris_auth, f"/api/matches/{match['id']}/seats/1/claim")
    _post(anna, auth, f"/api/matches/{match['id']}/hands", _hand(0, 140, [None, 20, 20]))  # Anna wins
    _post(anna, auth, f"/api/matches/{match['id']}/bank")
    for phone, name in ((anna, names[0]), (boris, names[1])):
        phone.log_in(name)
        phone.page.goto(f"/matches/{match['id']}")
        expect(phone.page.locator("button:text('Rematch')")).to_be_visible()
    anna.tap("button:text('Rematch')")
    anna.page.wait_for_selector("li.flash:has-text('Rematch started')")
    # Boris's banked sheet, opened before the tap and never reloaded, points to the new match.
    opened = boris.page.locator("a.button:text('Open the rematch')")
    expect(opened).to_be_visible(timeout=20_000)
    expect(boris.page.locator("button:text('Rematch')")).to_have_count(0)
    opened.tap()
    boris.page.wait_for_selector("h1:text('Anna · Boris · Vera')")
    assert boris.page.url != f"{boris.server}/matches/{match['id']}"
    seats = boris.page.locator("#seats li")
    expect(seats.nth(0)).to_contain_text(f"Anna: {names[0]}")
    expect(seats.nth(1)).to_contain_text(f"Boris: {names[1]}")
    expect(seats.nth(2)).to_contain_text("Vera: guest")
    expect(boris.page.locator("#seats button", has_text="I am")).to_have_count(0)  # nobody a guest again
