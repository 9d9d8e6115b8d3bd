"""House rules on a phone in a real browser: chosen in the closed section of the
new-match page, shown as the table's rule card, played through the hand form (a 555 dump with
the ace marriage); a ruleset's and a table's rules pages, the start form's barrel figures
moving with the target, the standings' extras and the usual rules' one-tap start, at 360 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scoresheet.rules import RULESETS

from .helpers import PASSWORD, Phone, unique
from .test_table import enter_played, open_hand_form, save, standings, wait_for_preview


def test_a_table_plays_its_own_rules_on_a_phone(new_phone: Any, shots: Path) -> None:
    anna = new_phone()
    anna.register(unique("anna"))
    anna.tap("a.button:text('Start a match')")
    for seat, name in enumerate(["Anna", "Boris", "Vera"]):
        anna.page.fill(f"#players-{seat}", name)
    anna.page.fill("#start_scores-0", "455")
    house = anna.page.locator("details.house-rules")
    assert not anna.page.locator("#dump_555").is_visible()  # closed until asked for
    anna.tap("details.house-rules summary")
    anna.page.select_option("#dump_555", "plus")
    anna.page.select_option("#zeros", "consecutive")
    anna.tap("label.check:has(#ace_marriage)")
    assert house.get_attribute("open") is not None
    anna.tap("button:text('Start the match')")
    anna.page.wait_for_selector("li.flash:has-text('Match started')")
    card = anna.page.locator(".rule-card").inner_text()
    assert "555 dump: a score of exactly 555 goes back to 0" in card
    assert "three zeros in a row cost" in card and "Ace marriage" in card
    anna.screenshot(shots, "house-rules-card")

    # Anna, at 455, declares 100 and takes 30 card points plus the four aces: 555 -> 0.
    open_hand_form(anna, 1)
    enter_played(anna, "Anna", 100, {1: 50, 2: 40}, {0: ["aces"]})
    wait_for_preview(anna, "Anna")
    save(anna, 1)
    assert standings(anna)["Anna"] == "0"


PHONE_360 = {"width": 360, "height": 640}


def fits(phone: Phone, selector: str) -> None:
    """Nothing on the page is wider than the phone, and `selector` is on it, inside 360 px."""
    page = phone.page
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"], page.url
    for box in (page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, selector


def test_a_rulesets_rules_page_on_a_phone(new_phone: Any, shots: Path) -> None:
    phone = new_phone(viewport=PHONE_360, screen=PHONE_360)
    phone.page.goto("/rules/classic?target=2000")
    titles = phone.page.locator(".rule-topic h2").all_inner_texts()
    assert "The barrel" in titles and "The sheet" in titles
    text = phone.page.locator("main").inner_text()
    barrel, fall = RULESETS["classic"].barrel_at(2000), RULESETS["classic"].fall_to(2000)
    assert f"on the barrel at {barrel}." in text
    assert f"falls to {fall}" in text and "stays at" in text  # classic: a miss stays (§7)
    fits(phone, ".rule-topic")
    phone.screenshot(shots, "rules-classic-360")


def test_the_start_form_names_the_barrel_of_the_target_chosen(new_phone: Any) -> None:
    anna = new_phone(viewport=PHONE_360, screen=PHONE_360)
    anna.register(unique("anna"))
    anna.page.goto("/matches/new")
    anna.tap("details.house-rules summary")
    knock_off = anna.page.locator("label.check:has(#barrel_knock_off)")
    stays = anna.page.locator("#barrel_miss option[value=stays]")
    assert knock_off.inner_text().strip().endswith("to 760") and "880" in stays.inner_text()
    anna.page.select_option("#target", "3000")  # the page's script swaps the figures in
    assert knock_off.inner_text().strip().endswith("to 2760")
    assert "stays at 2880," in stays.inner_text()
    assert anna.page.locator("#barrel_knock_off").count() == 1  # the switch is still there
    anna.page.select_option("#target", "")
    assert knock_off.inner_text().strip().endswith("to 760")


def test_the_tables_rules_standings_and_usual_rules_on_a_phone(new_phone: Any, shots: Path) -> None:
    anna = new_phone(viewport=PHONE_360, screen=PHONE_360)
    username = unique("anna")
    anna.register(username)
    anna.tap("a.button:text('Start a match')")
    for seat, name in enumerate(["Anna", "Boris", "Vera"]):
        anna.page.fill(f"#players-{seat}", name)
    anna.page.fill("#start_scores-0", "800")
    anna.tap("details.house-rules summary")
    anna.page.select_option("#zero_penalty", "100")
    anna.page.select_option("#barrel_hands", "2")
    anna.tap("button:text('Start the match')")
    anna.page.wait_for_selector("li.flash:has-text('Match started')")
    match_url = anna.page.url
    # Anna mounts the barrel and plays one hand on it; Vera takes two zeros (the API, quickly).
    token = anna.context.request.post("/api/tokens", data={"username": username, "password": PASSWORD}).json()
    auth = {"Authorization": f"Bearer {token['token']}"}
    for points in ([100, None, 0], [10, None, 0]):
        response = anna.context.request.post(
            f"/api/matches/{match_url.rsplit('/', 1)[1]}/hands",
            headers=auth,
            data={"declarer": 1, "bid": 100, "points": points},
        )
        assert response.status == 201, response.text()
    anna.page.reload()
    marks = anna.page.locator(".standings .mark")
    barrel = anna.page.locator(".standing:has-text('Anna') .mark.barrel")
    assert barrel.locator("[aria-hidden=true]").inner_text() == "barrel: 1 left"  # short, on the card
    assert barrel.locator(".visually-hidden").text_content() == "on the barrel: 1 hand left"
    assert anna.page.locator(".standing:has-text('Vera') .mark").inner_text() == ("zeros 2: the next costs 100")
    assert all(marks.nth(i).is_visible() for i in range(marks.count()))
    fits(anna, ".standings .mark")
    anna.screenshot(shots, "house-rules-standings-360")

    # The table's own rules page, from the match page.
    anna.tap("p.hint a[href$='/rules']")
    anna.page.wait_for_selector("h1:has-text('scores')")
    text = anna.page.locator("main").inner_text()
    assert "Anna · Boris · Vera" in text
    assert "After 2 hands on the barrel without winning, the player falls to 760." in text
    fits(anna, ".rule-topic")

    # Saved as the usual rules, the next match starts from the home page in one tap.
    anna.page.goto(match_url)
    anna.tap("button:text('Save as our usual rules')")
    anna.page.wait_for_selector("li.flash:has-text('usual rules')")
    anna.page.goto("/")
    fits(anna, "button:text('Start with our usual rules')")
    anna.tap("button:text('Start with our usual rules')")
    anna.page.wait_for_selector("li.flash:has-text('Match started with your usual rules')")
    assert anna.page.url != match_url
    card = anna.page.locator(".rule-card").inner_text()
    assert "What a costly zero takes off: 100" in card
    assert "Hands on the barrel before the fall: 2" in card
    assert anna.page.locator(".standing .name").all_inner_texts() == ["Anna", "Boris", "Vera"]
    fits(anna, ".rule-card li")
