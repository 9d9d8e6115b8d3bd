"""House rules on a phone in a real browser: chosen in the closed section of the
new-match page, shown as the table's rule card, played through the hand form (a 555 dump with
the ace marriage); a ruleset's and a table's rules pages, the start form's barrel figures
moving with the target, the standings' extras and the usual rules' one-tap start, at 360 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scoresheet.rules import RULESETS
from scoresheet.web.i18n import LANGUAGES

from .helpers import PASSWORD, Phone, unique
from .test_narrow_pages import MISFITS_JS, speak
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
    anna.tap("#house-dump summary")
    anna.page.select_option("#dump_555", "plus")
    anna.tap("#house-penalties summary")
    anna.page.select_option("#zeros", "consecutive")
    anna.tap("#house-bids summary")
    anna.tap("label.check:has(#ace_marriage)")
    assert house.get_attribute("open") is not None
    anna.tap("button:text('Start the match')")
    anna.page.wait_for_selector("li.flash:has-text('Match started')")
    card = anna.page.locator(".rule-card").inner_text()
    assert "The dump: exactly 555 goes back to 0" in card
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
    anna.tap("#house-barrel summary")
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
    anna.tap("#house-penalties summary")
    anna.page.select_option("#zero_penalty", "100")
    anna.tap("#house-barrel summary")
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


PHONE_640 = {"width": 360, "height": 640}


def test_the_house_rules_section_fits_one_screen_with_its_groups_closed_in_every_language(
    new_phone: Any, shots: Path
) -> None:
    # 18 house rules in four groups (RULES.md §11): opened, the section is its hint and the
    # groups' names, on one 360×640 screen whatever the language.
    phone = new_phone(viewport=PHONE_640, screen=PHONE_640)
    phone.register(unique("anna"))
    for language in LANGUAGES:
        speak(phone, language)
        phone.page.goto("/matches/new")
        phone.tap("details.house-rules summary")
        groups = phone.page.locator("details.house-group")
        assert groups.count() == 4
        assert all(groups.nth(i).get_attribute("open") is None for i in range(4)), language
        assert not phone.page.locator("#dump_at").is_visible()  # closed until opened
        section = phone.page.locator("details.house-rules")
        section.evaluate("node => node.scrollIntoView()")
        box = section.bounding_box()
        assert box is not None and box["height"] <= PHONE_640["height"], (language, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE_640["width"], (language, box)
        assert phone.page.evaluate(MISFITS_JS) == [], language
        last = groups.nth(3).locator("summary").bounding_box()
        assert last is not None and last["y"] + last["height"] <= PHONE_640["height"], language  # all on screen
        if language == "en":
            phone.screenshot(shots, "house-rules-groups-360")


def test_a_group_opens_its_rules_and_the_match_plays_them(new_phone: Any, shots: Path) -> None:
    anna = new_phone(viewport=PHONE_640, screen=PHONE_640)
    anna.register(unique("anna"))
    anna.page.goto("/matches/new")
    for seat, name in enumerate(["Anna", "Boris", "Vera"]):
        anna.page.fill(f"#players-{seat}", name)
    anna.tap("details.house-rules summary")
    anna.tap("#house-barrel summary")
    assert anna.page.locator("#house-barrel").get_attribute("open") is not None
    assert anna.page.locator("#house-dump").get_attribute("open") is None  # one group at a time
    knock_off = anna.page.locator("label.check:has(#barrel_knock_off)")
    assert knock_off.inner_text().strip().endswith("to 760")
    anna.page.select_option("#barrel_gap", "100")  # the barrel at 900: a fall to 780
    assert knock_off.inner_text().strip().endswith("to 780")
    assert "stays at 900," in anna.page.locator("#barrel_miss option[value=stays]").inner_text()
    anna.tap("label.check:has(#barrel_knock_off)")
    anna.page.select_option("#barrel_clash", "all_fall")
    anna.tap("#house-dump summary")
    plus = anna.page.locator("#dump_555 option[value=plus]")
    assert plus.inner_text() == "exactly 555 goes back to 0"
    assert anna.page.input_value("#dump_at") == "555"
    anna.page.select_option("#dump_555", "plus")
    anna.page.fill("#dump_at", "552")  # not a multiple of 5: refused next to the box
    assert plus.inner_text() == "exactly 552 goes back to 0"  # the words follow it
    anna.tap("button:text('Start the match')")
    error = anna.page.locator(".field.has-error:has(#dump_at) .errors")
    assert error.inner_text().endswith("The dump score is a multiple of 5 from 100 to 875.")
    assert anna.page.url.endswith("/matches/new")  # nothing started
    anna.errors[:] = [e for e in anna.errors if "status of 422" not in e]  # the refused form's answer
    assert anna.page.locator("#house-dump").get_attribute("open") is not None  # the error shows
    assert anna.page.locator("#house-barrel").get_attribute("open") is not None  # what was chosen too
    assert anna.page.locator("#house-penalties").get_attribute("open") is None
    error.scroll_into_view_if_needed()
    anna.screenshot(shots, "house-rules-dump-refused-360")
    anna.page.fill("#dump_at", "")  # an empty box is the usual 555: the + steps from there
    anna.tap("button[data-step-for=dump_at][data-step='1']")
    assert anna.page.input_value("#dump_at") == "560"
    anna.page.fill("#dump_at", "545")
    anna.tap("button[data-step-for=dump_at][data-step='1']")  # the + beside the box: 5 more
    assert anna.page.input_value("#dump_at") == "550"
    assert plus.inner_text() == "exactly 550 goes back to 0"
    anna.tap("button:text('Start the match')")
    anna.page.wait_for_selector("li.flash:has-text('Match started')")
    card = anna.page.locator(".rule-card").inner_text()
    assert "Where the barrel sits: 100 below the target" in card
    assert "Knock-off: climbing on the barrel drops whoever is on it to 780" in card
    assert "Two players climbing on the barrel in the same hand: all fall off" in card
    assert "The dump: exactly 550 goes back to 0" in card
    assert "555" not in card and "760" not in card and "880" not in card
    fits(anna, ".rule-card li")
    anna.screenshot(shots, "house-rules-round-two-card-360")
