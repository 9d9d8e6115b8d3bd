"""The score race's geometry (scoresheet/chart.py) and its SVG on the match page."""

from __future__ import annotations

import re

import pytest

from scoresheet.rules import HandRecord, Setup, hand_from_dict, replay, setup_from_dict
from scoresheet.services.matches.chart import HEIGHT, LEFT, TOP, WIDTH, race

from .page_helpers import Phone
from .page_helpers import played as played_form


def setup(rules: str = "squarescores", sheet: str = "deferred", start: list[int] | None = None) -> Setup:
    """Three players, A, B and C."""
    data = {"players": ["A", "B", "C"], "rules": rules, "options": {"sheet": sheet}}
    return setup_from_dict({**data, "start_scores": start} if start else data)


def played(declarer: int, bid: int, points: list[int | None]) -> HandRecord:
    """A played hand without marriages."""
    return hand_from_dict({"kind": "played", "declarer": declarer, "bid": bid, "points": points})


def pairs(points: str) -> list[tuple[float, float]]:
    """The (x, y) pairs of a polyline's points attribute."""
    return [(float(x), float(y)) for x, y in (p.split(",") for p in points.split())]


def test_each_seat_runs_from_its_start_score_through_every_hand() -> None:
    sheet = replay(setup(start=[0, 500, 870]), [played(1, 100, [40, None, 20]), HandRecord("redeal")])
    chart = race(sheet)
    assert [s.name for s in chart.series] == ["A", "B", "C"]
    assert [s.score for s in chart.series] == [s.score for s in sheet.standings]
    for s in chart.series:
        xs = [x for x, _ in pairs(s.points)]
        assert len(xs) == 3 and xs[0] == LEFT and xs == sorted(xs) and xs[-1] == s.end[0]
    a, b, c = (pairs(s.points) for s in chart.series)
    assert a[0][1] > b[0][1] > c[0][1]  # higher scores are drawn higher up
    assert a[1][1] == a[2][1]  # a redeal changes nobody's score


@pytest.mark.parametrize(
    ("rules", "guides"),
    [
        ("squarescores", {"target": 1000, "barrel": 880}),
        ("classic", {"target": 1000, "barrel": 880}),
        ("polish", {"target": 1000, "lock": 900}),
        ("ggtables", {"target": 1000}),
        ("tyzicha", {"target": 1001}),
    ],
)
def test_the_target_barrel_and_lock_lines_follow_the_rules(rules: str, guides: dict[str, int]) -> None:
    chart = race(replay(setup(rules), []))
    assert {g.kind: g.value for g in chart.guides} == guides
    assert all(TOP <= g.y < HEIGHT for g in chart.guides)
    assert chart.zero is None and chart.low == 0


def test_a_score_below_zero_gets_a_zero_line_and_stays_inside() -> None:
    chart = race(replay(setup(sheet="signed", start=[-100, 0, 0]), []))
    assert chart.low == -100 and chart.zero is not None
    for s in chart.series:
        assert all(LEFT <= x <= WIDTH and TOP <= y <= chart.bottom for x, y in pairs(s.points))


def test_the_match_page_draws_the_race_as_inline_svg_without_style_attributes(
    phone: Phone,
) -> None:
    match_id = phone.new_match()
    assert "race-chart" not in phone.get(f"/matches/{match_id}").text  # nothing to draw yet
    phone.hand(match_id, 1, **played_form(1, 100, [40, None, 20]))
    page = phone.get(f"/matches/{match_id}").text
    svg = re.search(r'<svg class="race-chart".*?</svg>', page, re.S)  # (not the invite's QR)
    assert svg and 'role="img"' in svg.group(0)
    assert svg.group(0).count("<polyline") == 3
    assert "guide-barrel" in svg.group(0) and "guide-target" in svg.group(0)
    assert "style=" not in svg.group(0) and "<script" not in svg.group(0)
    assert "Score race over 1 hand: Anna 40, Boris −100, Vera 20" in page


def test_the_barrel_line_follows_the_barrel_gap() -> None:
    # RULES.md §11.11: with a gap of 100 the barrel sits at 900.
    data = {"players": ["A", "B", "C"], "options": {"barrel_gap": 100}}
    chart = race(replay(setup_from_dict(data), []))
    assert {g.kind: g.value for g in chart.guides} == {"target": 1000, "barrel": 900}
