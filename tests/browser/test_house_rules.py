"""House rules on a phone in a real browser (issue 14): chosen in the closed section of the
new-match page, shown as the table's rule card, played through the hand form (a 555 dump with
the ace marriage)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import unique
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
