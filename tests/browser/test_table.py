"""A whole match played as a table would, on two phones in a real browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import Phone, bank_and_download

LIVE_WAIT_MS = 8_000
"""The other phone polls every 1.5 s: it must show a new hand well within this."""


def enter_played(
    phone: Phone, declarer: str, bid: int, points: dict[int, int], marriages: dict[int, list[str]] | None = None
) -> None:
    """Fill in a played hand on the open hand form by tapping (points typed on the keypad)."""
    phone.choose("What happened", "Played")
    phone.choose("Declarer", declarer)
    phone.page.fill("#bid", str(bid))
    for seat, value in points.items():
        phone.page.locator(f"#points_{seat}").tap()
        phone.page.fill(f"#points_{seat}", str(value))
    for seat, suits in (marriages or {}).items():
        for suit in suits:
            phone.tap(f"label.toggle:has(input[name=marriages_{seat}][value={suit}])")


def save(phone: Phone, number: int) -> None:
    """Tap save and land back on the sheet."""
    phone.tap(f"button:text('Save hand {number}')")
    phone.page.wait_for_selector(f"li.flash:has-text('Hand {number}')")


def open_hand_form(phone: Phone, number: int) -> None:
    """From the sheet, tap 'Enter hand n'."""
    phone.tap(f"a.button:text('Enter hand {number}')")
    phone.page.wait_for_selector(f"h1:text('Hand {number}')")


def wait_for_preview(phone: Phone, text: str) -> None:
    """The preview (the engine's answer) shows `text`."""
    phone.page.locator(".preview", has_text=text).wait_for(timeout=5_000)


def correct(phone: Phone, word: str, number: int, field: str, value: str, preview: str) -> None:
    """Correct one field of hand (or round) `number` through its ✎ link: the preview shows
    `preview`, the save flashes."""
    phone.tap(f"a[aria-label='Correct or delete {word} {number}']")
    phone.page.wait_for_selector(f"h1:text('Correct {word} {number}')")
    phone.page.fill(field, value)
    wait_for_preview(phone, preview)
    phone.tap(f"button:text('Save {word} {number}')")
    phone.page.wait_for_selector(f"li.flash:has-text('{word.capitalize()} {number} corrected')")


def standings(phone: Phone) -> dict[str, str]:
    """Name → score as the standings show them."""
    names = phone.page.locator(".standing .name").all_inner_texts()
    scores = phone.page.locator(".standing .score").all_inner_texts()
    return dict(zip(names, scores, strict=True))


def test_a_table_plays_a_match_on_two_phones(new_phone: Any, shots: Path) -> None:
    anna = new_phone()
    anna.register("anna")
    anna.screenshot(shots, "home")

    # Anna starts the match: three players, scores carried over from a paper sheet.
    anna.tap("a.button:text('Start a match')")
    for seat, name in enumerate(["Anna", "Boris", "Vera"]):
        anna.page.fill(f"#players-{seat}", name)
    for seat, score in enumerate([780, 300, 420]):
        anna.page.fill(f"#start_scores-{seat}", str(score))
    anna.screenshot(shots, "new-match")
    anna.tap("button:text('Start the match')")
    anna.page.wait_for_selector("li.flash:has-text('Match started')")
    code = anna.page.locator(".code").inner_text()

    # Boris joins on his own phone with the code read out at the table.
    boris = new_phone()
    boris.register("boris")
    boris.page.fill("#code", code.lower())
    boris.tap("button:text('Join')")
    boris.page.wait_for_selector("li.flash:has-text('You joined the match')")
    boris.page.evaluate("window.stillTheSamePage = true")

    # Hand 1: Anna declares 100 with the hearts marriage and climbs onto the barrel.
    open_hand_form(anna, 1)
    enter_played(anna, "Anna", 100, {1: 30, 2: 20}, {0: ["hearts"]})
    wait_for_preview(anna, "Anna made 100: took 170.")
    wait_for_preview(anna, "Anna: +100 → 880, on the barrel")
    anna.screenshot(shots, "hand-form")
    save(anna, 1)
    boris.page.locator(".mark.barrel", has_text="3 hands left").wait_for(timeout=LIVE_WAIT_MS)
    assert boris.page.evaluate("window.stillTheSamePage") is True  # swapped in, not reloaded

    # Hand 2: Boris calls his 120 off (Rospisat'): each opponent +60, but Anna is on the barrel.
    open_hand_form(anna, 2)
    anna.choose("What happened", "Rospisat'")
    anna.choose("Declarer", "Boris")
    anna.page.fill("#bid", "120")
    wait_for_preview(anna, "Rospisat': Boris calls 120 off.")
    save(anna, 2)

    # Hand 3: all four nines: a redeal.
    open_hand_form(anna, 3)
    anna.choose("What happened", "Redeal")
    wait_for_preview(anna, "nobody scores")
    save(anna, 3)

    # Hand 4: Vera makes 100 with the clubs marriage; Anna's second barrel hand.
    open_hand_form(anna, 4)
    enter_played(anna, "Vera", 100, {0: 20, 1: 15}, {2: ["clubs"]})
    save(anna, 4)
    boris.page.locator("#live .banner", has_text="Hand 5").wait_for(timeout=LIVE_WAIT_MS)
    barrel = boris.page.locator(".standing .mark.barrel")
    assert barrel.locator("[aria-hidden=true]").inner_text() == "barrel: 1 left"  # short, on its card
    assert barrel.locator(".visually-hidden").text_content() == "on the barrel: 1 hand left"
    assert standings(boris) == {"Anna": "880", "Boris": "345", "Vera": "600"}

    # Someone misread hand 1: Vera had 25, not 20. Correct it; the later hands follow.
    correct(anna, "hand", 1, "#points_2", "25", "Vera: +25")
    boris.page.locator(".standing", has_text="Vera").locator(".score", has_text="605").wait_for(timeout=LIVE_WAIT_MS)
    boris.screenshot(shots, "sheet-live")

    # Hand 5: on the barrel, Anna takes 120 or more and wins.
    open_hand_form(anna, 5)
    enter_played(anna, "Anna", 120, {1: 30, 2: 20}, {0: ["hearts"]})
    wait_for_preview(anna, "Anna made 120")
    save(anna, 5)
    anna.page.wait_for_selector(".banner.win:has-text('Anna wins with 1000!')")
    boris.page.locator(".banner.win", has_text="Anna wins").wait_for(timeout=LIVE_WAIT_MS)
    assert boris.page.evaluate("window.stillTheSamePage") is True
    anna.page.locator("svg.race-chart").scroll_into_view_if_needed()
    anna.screenshot(shots, "race")

    # Anna banks it, and downloads the sheet.
    rows = bank_and_download(anna)
    assert rows[0][:5] == ["hand", "dealer", "declarer", "bid", "outcome"]
    assert [r[4] for r in rows[1:6]] == ["made", "forfeit", "redeal", "made", "made"]
    assert rows[1][5 + 8] == "25"  # Vera's corrected entry in hand 1
    assert rows[-1][0] == "total" and rows[-1][5 + 3] == "1000"  # Anna's score
