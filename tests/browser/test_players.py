"""A player's page on a phone in a real browser: each person taps "I am …" on the
match page, the match is won and banked, and a tablemate opens the winner's page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import PASSWORD, api_user, unique


def test_claimed_seats_lead_to_a_players_page_on_a_phone(new_phone: Any, shots: Path) -> None:
    anna, boris = new_phone(), new_phone()
    anna_name, boris_name = unique("anna"), unique("boris")
    anna.register(anna_name)
    boris.register(boris_name)

    anna.tap("a.button:text('Start a match')")
    for seat, name in enumerate(["Anna", "Boris", "Vera"]):
        anna.page.fill(f"#players-{seat}", name)
    anna.page.fill("#start_scores-0", "850")
    anna.tap("button:text('Start the match')")
    anna.page.wait_for_selector("li.flash:has-text('Match started')")
    match_url = anna.page.url
    code = anna.page.locator(".code").inner_text()
    boris.page.fill("#code", code)
    boris.tap("button:text('Join')")
    boris.page.wait_for_selector("li.flash:has-text('You joined the match')")
    # Anna's open page follows, as it follows a hand: Boris among the members, no reload.
    anna.page.wait_for_selector(f"#members li:has-text('{boris_name}')", timeout=8_000)
    assert anna.page.url == match_url

    anna.tap("button:text('I am Anna')")  # one tap
    anna.page.wait_for_selector("li.flash:has-text('seat is claimed')")
    boris.page.goto(match_url)
    assert boris.page.locator("button:text('I am Anna')").count() == 0  # Anna's already
    boris.tap("button:text('I am Boris')")
    boris.page.wait_for_selector(f"#seats a:text('{boris_name}')")
    anna.page.wait_for_selector(f"#seats a:text('{boris_name}')", timeout=8_000)  # on hers too

    # The hands through the API (the hand form has tests of its own): Anna reaches the
    # barrel, then wins from it taking 120; the match is banked.
    request = anna.context.request
    token = request.post("/api/tokens", data={"username": anna_name, "password": PASSWORD})
    auth = {"Authorization": f"Bearer {token.json()['token']}"}
    match_id = match_url.rsplit("/", 1)[1]
    for hand in (
        {"declarer": 0, "bid": 100, "points": [None, 10, 10]},
        {"declarer": 1, "bid": 100, "points": [30, None, 0]},
        {"declarer": 0, "bid": 120, "points": [None, 0, 0]},
    ):
        response = request.post(f"/api/matches/{match_id}/hands", headers=auth, data={"kind": "played", **hand})
        assert response.status == 201, response.text()
    assert request.post(f"/api/matches/{match_id}/bank", headers=auth).status == 200

    boris.page.goto(match_url)
    boris.tap(f"#seats a:text('{anna_name}')")
    boris.page.wait_for_selector(f"h1:text('{anna_name}')")
    page = boris.page
    figures = dict(
        zip(
            page.locator("table.figures th").all_inner_texts(),
            page.locator("table.figures td").all_inner_texts(),
            strict=True,
        )
    )
    assert figures["Matches played"] == "1" and figures["Win rate"] == "100 %"
    assert figures["Won from the barrel"].startswith("1")
    assert "1 banked match together" in page.locator(".head-to-head").inner_text()
    assert page.locator("svg.rating-chart polyline").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    boris.screenshot(shots, "player")

    anna.page.goto("/")
    anna.tap("a:text('My statistics')")
    anna.page.wait_for_selector(f"h1:text('{anna_name}')")
    anna.tap("a:text('Leaderboard')")
    anna.page.wait_for_selector("h1:text('Leaderboard')")
    names = anna.page.locator("ol.leaderboard a").all_inner_texts()
    assert names == ["Anna", "Boris"]  # as the sheet names them, not by their accounts


def test_a_seat_given_by_the_creator_shows_on_the_open_page_of_who_was_given_it(new_phone: Any) -> None:
    anna, boris = new_phone(), new_phone()
    anna_name, boris_name = unique("anna"), unique("boris")
    auth = api_user(anna, anna_name)
    api_user(boris, boris_name)
    request = anna.context.request
    match = request.post("/api/matches", headers=auth, data={"players": ["Anna", "Boris", "Vera"]}).json()
    boris.log_in(boris_name)
    boris.page.fill("#code", match["join_code"])
    boris.tap("button:text('Join')")
    boris.page.wait_for_selector("li.flash:has-text('You joined the match')")

    given = request.put(f"/api/matches/{match['id']}/seats/1", headers=auth, data={"username": boris_name})
    assert given.status == 200, given.text()
    # Boris's page, open all along: the seat under Who is who and Anna's word for it, no reload.
    boris.page.wait_for_selector(f"#seats a:text('{boris_name}')", timeout=8_000)
    boris.page.wait_for_selector(f"li.flash:has-text('{anna_name} gave you the seat of Boris')", timeout=8_000)
