"""The score race's markers (RULES.md §11): a dump, a knock-off, a fall off the barrel and a
third fall back to 0, each on its seat's line at its hand, titled in words, with a key entry."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoresheet.rules import hand_from_dict, replay, setup_from_dict
from scoresheet.services.matches.chart import race, shape

from .page_helpers import Phone

MARK = re.compile(
    r'<path class="race-mark mark-(\w+) seat-(\d)" data-seat="\d" data-hand="(\d+)" '
    r'd="[^"]+"><title>([^<]+)</title></path>'
)
SHEET = re.compile(
    r'<span class="ev"><svg class="ev-mark" viewBox="0 0 12 12" aria-hidden="true">'
    r'<path d="[^"]+"/></svg>([^<]+)</span>'
)
KEY = re.compile(
    r'<svg class="swatch mark-swatch"[^>]*><path class="race-mark mark-(\w+)"[^>]*/></svg>'
    r"([^<]+)</li>"
)

BORIS_MOUNTS, ANNA_MAKES = (1, 120, [0, None, 0]), (0, 100, [None, 0, 20])
FALLS = (
    {"dump_555": "plus", "barrel_hands": 1, "three_falls_reset": True, "zeros": "off"},
    [455, 800, 0],
    [
        (0, 100, [None, 10, 10]),
        (1, 100, [10, None, 10]),
        (0, 100, [None, 10, 10]),
        BORIS_MOUNTS,
        ANNA_MAKES,
        BORIS_MOUNTS,
        ANNA_MAKES,
    ],
)
"""Anna 455 makes 100: 555, dumped to 0; Boris mounts, falls (hand 3), again (5), and the third fall
(hand 7) puts him at 0."""
KNOCK_OFF = ({"barrel_knock_off": True}, [0, 800, 800], [(1, 100, [10, None, 10]), (2, 100, [10, 10, None])])
"""Boris mounts; Vera mounts in hand 2 and knocks him off."""
NOTHING = ({}, [800, 0, 0], [(0, 100, [None, 10, 10]), (0, 120, [None, 10, 10])])
"""Anna mounts and misses off the barrel: a miss is not a fall, nothing is marked."""


def page_of(api_user: Any, match: tuple[dict[str, Any], list[int], list[Any]], language: str = "en") -> str:
    """Play a match through the API, then read its page in a language."""
    options, start, hands = match
    match_id = api_user.new_match(options=options, start_scores=start)["id"]
    for declarer, bid, points in hands:
        api_user.add_hand(match_id, {"declarer": declarer, "bid": bid, "points": points})
    phone = Phone(api_user.client)
    assert phone.post("/login", {"username": "anna", "password": "correct horse"}).status_code == 302
    return str(phone.get(f"/matches/{match_id}", headers={"Accept-Language": language}).text)


FELL = "fell off the barrel"


@pytest.mark.parametrize(
    ("match", "marks", "key", "sheet"),
    [
        (
            FALLS,
            [
                ("dump", 0, 1, "Anna: dump → 0, hand 1"),
                ("barrel_fall", 1, 3, "Boris: fell off the barrel, hand 3"),
                ("barrel_fall", 1, 5, "Boris: fell off the barrel, hand 5"),
                ("barrel_reset", 1, 7, "Boris: fell off the barrel, third fall → 0, hand 7"),
            ],
            [("dump", "dump → 0"), ("barrel_fall", FELL), ("barrel_reset", "third fall → 0")],
            [FELL, "third fall: back to 0", FELL, FELL, "dump: back to 0"],
        ),
        (
            KNOCK_OFF,
            [("knocked_off", 1, 2, "Boris: knocked off the barrel, hand 2")],
            [("knocked_off", "knocked off the barrel")],
            ["knocked off the barrel"],
        ),
        (NOTHING, [], [], []),
    ],
)
def test_each_event_is_marked_on_its_seat_at_its_hand_with_a_key_entry(
    api_user: Any, match: Any, marks: list[tuple[str, int, int, str]], key: list[tuple[str, str]], sheet: list[str]
) -> None:
    page = page_of(api_user, match)
    assert SHEET.findall(page) == sheet  # the sheet, newest hand first: the marker, the words
    assert [(k, int(s), int(h), t) for k, s, h, t in MARK.findall(page)] == marks
    assert KEY.findall(page) == key
    # role="img" hides the markers' own titles from screen readers: the chart's title says it
    told = re.search(r'<title id="race-title">([^<]+)</title>', page)
    assert told and all(f"; {title}" in told.group(1) for *_, title in marks)
    assert page.count('class="race-mark ') == len(marks) + len(key)


@pytest.mark.parametrize("language", ["ru", "uk", "pl", "de"])
def test_the_markers_speak_the_players_language(api_user: Any, language: str) -> None:
    page = page_of(api_user, FALLS, language)
    found = MARK.findall(page)
    assert len(found) == 4 and len(KEY.findall(page)) == 3
    words = " ".join(title for *_, title in found) + " ".join(w for _, w in KEY.findall(page))
    for english in ("fell off the barrel", "third fall", "hand 7", "dump"):
        assert english not in words, (language, words)
    assert "Boris" in words and "7" in words and "→ 0" in words


def test_a_marker_sits_on_its_seat_s_line_where_the_hand_left_it() -> None:
    options, start, hands = FALLS
    sheet = replay(
        setup_from_dict({"players": ["A", "B", "C"], "options": options, "start_scores": start}),
        [hand_from_dict({"kind": "played", "declarer": d, "bid": b, "points": p}) for d, b, p in hands],
    )
    chart = race(sheet)
    for m in chart.marks:
        x, y = chart.series[m.seat].points.split()[m.hand].split(",")
        assert m.d == shape(m.kind, float(x), float(y))
    assert [m.events for m in chart.marks][-1] == ("barrel_fall", "barrel_reset")
