"""The table's language in a real browser: a whole match played in Russian and one in
Polish, with the history's times in the phone's own time zone, and no event or statistics label
that only fits a man (docs/glossary.md, "Words that fit every player")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations

from .helpers import Phone, unique

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scoresheet" / "translations"
NARROW = {"viewport": {"width": 360, "height": 740}, "screen": {"width": 360, "height": 740}}


def words(language: str) -> Any:
    """The committed catalog of a language, as gettext / ngettext with `%(…)` parameters."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo", "rb") as f:
        catalog = Translations(f)

    def t(message: str, **params: Any) -> str:
        return catalog.gettext(message) % params if params else catalog.gettext(message)

    t.n = lambda one, many, n: catalog.ngettext(one, many, n) % {"num": n}  # type: ignore[attr-defined]
    return t


def english_left(phone: Phone, language: str) -> list[str]:
    """English sentences of the catalog that the page still shows (untranslated)."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    shown = phone.page.evaluate("document.body.innerText")
    return [
        m.id
        for m in catalog
        if isinstance(m.id, str) and "%" not in m.id and len(m.id) > 12 and m.string != m.id and m.id in shown
    ]


MASCULINE_ONLY = {
    "ru": re.compile(
        r"\b(упал|слез|сбит|сидел|выиграл|сыграл|взял|занял|(?<!замок )снят|упёрся|(?<!кто )вышел)\b(?!\()",
        re.IGNORECASE,
    ),
    "pl": re.compile(
        r"\b(spadł|zrzucony|zszedł|zablokowany|odblokowany|osiągnął|(?<!kto )wyszedł|byłeś|grałeś|zalogowany|zajął)"
        r"\b(?!\()",
        re.IGNORECASE,
    ),
}
"""Past forms and participles that say the player is a man: Вика and Zosia read these labels too
(«замок снят» is the lock's, «Кто вышел первым» a question about anybody, «сыграл(а)» has both)."""
LABELS = (
    "fell off the barrel",
    "Fell off the barrel",
    "off the barrel",
    "knocked off the barrel",
    "on the barrel",
    "On the barrel",
    "Won from the barrel",
    "locked",
    "unlocked",
    "capped",
    "made %(took)d",
    "missed %(took)d",
    "%(name)s bid %(bid)s, made",
    "%(name)s bid %(bid)s, missed",
    "%(name)s out first",
    "Out first",
    "%(name)s has claimed this seat already.",
    "Stay logged in on this phone for 30 days",
)
"""The catalog's event, statistics and seat labels, whatever this match happens to show."""


def masculine_left(text: str, language: str) -> list[str]:
    """The masculine-only words in a text."""
    return MASCULINE_ONLY[language].findall(text)


def tap(phone: Phone, role: str, name: str) -> None:
    """Tap the button or link a player reads as `name` (no quoting of translated words)."""
    phone.page.get_by_role(role, name=name, exact=True).first.tap()


def choose(phone: Phone, legend: str, label: str) -> None:
    """Tap one of the big radio buttons of the group headed `legend`."""
    group = phone.page.locator("fieldset", has=phone.page.locator("legend", has_text=legend))
    group.locator("label.choice", has_text=label).first.tap()


def flash(phone: Phone, text: str) -> None:
    """Wait for a flash message."""
    phone.page.locator("li.flash", has_text=text).wait_for()


def enter_played(
    phone: Phone, t: Any, declarer: str, bid: int, points: dict[int, int], marriages: dict[int, list[str]] | None = None
) -> None:
    """Fill in a played hand by tapping, the labels read in the page's language."""
    choose(phone, t("What happened"), t("Played"))
    choose(phone, t("Declarer"), declarer)
    phone.page.fill("#bid", str(bid))
    for seat, value in points.items():
        phone.page.fill(f"#points_{seat}", str(value))
    for seat, suits in (marriages or {}).items():
        for suit in suits:
            phone.tap(f"label.toggle:has(input[name=marriages_{seat}][value={suit}])")


def play_hand(phone: Phone, t: Any, number: int, fill: Any) -> None:
    """From the sheet: open hand `number`, fill it in, see the preview, save, see the flash."""
    tap(phone, "link", t("Enter hand %(num)d", num=number))
    phone.page.get_by_role("heading", name=t("Hand %(num)d", num=number), exact=True).wait_for()
    fill()
    phone.page.locator(".preview", has_text=t("Preview:")).wait_for(timeout=5_000)
    tap(phone, "button", t("Save hand %(num)d", num=number))
    flash(phone, t("Hand %(num)d recorded.", num=number))


@pytest.mark.parametrize(
    ("language", "rules", "zone"), [("ru", "squarescores", "Europe/Moscow"), ("pl", "polish", "Europe/Warsaw")]
)
def test_a_whole_match_in_the_tables_language(
    new_phone: Any, shots: Path, language: str, rules: str, zone: str
) -> None:
    t = words(language)
    assert not [label for label in LABELS if masculine_left(t(label), language)], language
    phone = new_phone(locale=language, timezone_id=zone, **NARROW)
    phone.page.goto("/register")
    assert phone.page.get_attribute("html", "lang") == language  # the phone's language
    username = unique("anna")
    phone.page.fill("#username", username)
    phone.page.fill("#password", "correct horse battery")
    tap(phone, "button", t("Make my account"))
    phone.page.wait_for_selector("li.flash")

    # Start from a paper sheet, near the end: three players.
    tap(phone, "link", t("Start a match"))
    first = "Аня" if language == "ru" else "Ania"
    for seat, name in enumerate([first, "Boris", "Vera"]):
        phone.page.fill(f"#players-{seat}", name)
    phone.page.select_option("#rules", rules)
    for seat, score in enumerate([780, 300, 420]):
        phone.page.fill(f"#start_scores-{seat}", str(score))
    tap(phone, "button", t("Start the match"))
    flash(phone, t("Match started. Invite the table: share the link or let them scan the code."))

    play_hand(phone, t, 1, lambda: enter_played(phone, t, first, 100, {1: 30, 2: 20}, {0: ["hearts"]}))
    play_hand(phone, t, 2, lambda: choose(phone, t("What happened"), t("Redeal")))
    forfeit = t("Rospisat'") if rules == "squarescores" else t("Forfeit")
    play_hand(
        phone,
        t,
        3,
        lambda: (
            choose(phone, t("What happened"), forfeit),
            choose(phone, t("Declarer"), "Boris"),
            phone.page.fill("#bid", "120"),
        ),
    )
    play_hand(phone, t, 4, lambda: enter_played(phone, t, first, 120, {1: 0, 2: 0}, {0: ["spades"]}))
    banner = phone.page.locator(".banner.win").inner_text()
    assert first in banner
    assert not english_left(phone, language), english_left(phone, language)
    sheet = phone.page.evaluate("document.body.innerText")
    assert not masculine_left(sheet, language), masculine_left(sheet, language)
    phone.screenshot(shots, f"language-{language}")

    # Claim the first seat and bank it; the home page counts the hands in the language's plural.
    tap(phone, "button", t("I am %(name)s", name=first))
    phone.page.wait_for_selector("li.flash")
    tap(phone, "link", t("Bank the match"))
    phone.tap("label.check")
    tap(phone, "button", t("Bank the match"))
    flash(phone, t("Match banked."))
    tap(phone, "link", t("History"))
    phone.page.wait_for_url("**/history")
    phone.page.locator("[data-zone=local]").wait_for()
    times = phone.page.locator("time").all_inner_texts()
    assert times and not any(x.endswith("UTC") for x in times)  # the phone's own zone
    assert phone.page.locator("[data-zone=local]").is_visible()
    assert not english_left(phone, language), english_left(phone, language)
    history = phone.page.evaluate("document.body.innerText")
    assert not masculine_left(history, language), masculine_left(history, language)
    phone.page.goto("/")
    assert t.n("%(num)d hand", "%(num)d hands", 4) in phone.page.inner_text(".matches")  # type: ignore[attr-defined]
    assert not english_left(phone, language), english_left(phone, language)

    # The statistics of the claimed seat: every row a label for anybody.
    phone.page.goto(f"/players/{username}")
    phone.page.get_by_text(t("Won from the barrel"), exact=True).wait_for()
    figures = phone.page.evaluate("document.body.innerText")
    assert not masculine_left(figures, language), masculine_left(figures, language)
    assert not english_left(phone, language), english_left(phone, language)
