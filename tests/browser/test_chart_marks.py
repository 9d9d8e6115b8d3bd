"""The race's markers as a phone draws them (RULES.md §11): in their player's colour, one shape
per kind, inside the chart, standing out from the page in light and dark."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import Phone, api_user, unique
from .test_narrow_pages import NARROW, house_match

NON_TEXT = 3.0
"""Contrast of a chart's marks against the page (WCAG 1.4.11, graphics)."""

# Each marker: its kind, its fill and its line's stroke, its box inside the chart's, its
# contrast against the page; each key entry's kind and its box.
MARKS_JS = """() => {
  const parse = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const page = lum(parse(getComputedStyle(document.body).backgroundColor));
  const chart = document.querySelector(".race-chart").getBoundingClientRect();
  const marks = [...document.querySelectorAll(".race-chart .race-mark")].map(m => {
    const box = m.getBoundingClientRect(), fill = getComputedStyle(m).fill;
    const line = document.querySelector(`.race-chart polyline.seat-${m.dataset.seat}`);
    const a = lum(parse(fill));
    return {kind: m.classList[1], fill, line: getComputedStyle(line).stroke,
            inside: box.left >= chart.left && box.right <= chart.right + 0.5
                    && box.top >= chart.top && box.bottom <= chart.bottom + 0.5,
            size: Math.min(box.width, box.height),
            contrast: (Math.max(a, page) + 0.05) / (Math.min(a, page) + 0.05),
            d: m.getAttribute("d")};
  });
  const key = [...document.querySelectorAll(".race-key .mark-swatch")].map(
    s => [s.querySelector("path").classList[1], s.getBoundingClientRect().width > 0,
          s.querySelector("path").getAttribute("d")]);
  const sheet = [...document.querySelectorAll(".sheet .ev-mark")].map(s => {
    const box = s.getBoundingClientRect();
    return [s.querySelector("path").getAttribute("d"), Math.min(box.width, box.height)];
  });
  return {marks, key, sheet};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_markers_take_their_player_s_colour_and_a_shape_per_kind(new_phone: Any, shots: Path, scheme: str) -> None:
    phone: Phone = new_phone(color_scheme=scheme, **NARROW)
    name = unique("marks")
    match_id = house_match(phone, api_user(phone, name))
    phone.log_in(name)
    phone.page.goto(f"/matches/{match_id}")
    drawn = phone.page.evaluate(MARKS_JS)
    kinds = ["mark-dump", "mark-knocked_off", "mark-barrel_fall", "mark-barrel_fall", "mark-barrel_reset"]
    assert [m["kind"] for m in drawn["marks"]] == kinds
    assert [k[:2] for k in drawn["key"]] == [[k, True] for k in dict.fromkeys(kinds)]
    for m in drawn["marks"]:
        assert m["fill"] == m["line"] and m["inside"] and m["size"] >= 6, m
        assert m["contrast"] >= NON_TEXT, m
    shapes = {m["kind"]: outline(m["d"]) for m in drawn["marks"]}
    assert len(set(shapes.values())) == 4  # told apart without their colour
    # The sheet's rows (newest first) carry the key's shapes before their words.
    kind_of = {d: kind for kind, _shown, d in drawn["key"]}
    assert [kind_of.get(d) for d, _size in drawn["sheet"]] == [
        k
        for k in (
            "mark-barrel_fall",
            "mark-barrel_reset",
            "mark-barrel_fall",
            "mark-barrel_fall",
            "mark-knocked_off",
            "mark-dump",
        )
    ]
    assert all(size >= 8 for _d, size in drawn["sheet"]), drawn["sheet"]
    phone.page.locator(".race").screenshot(path=str(shots / f"race-marks-{scheme}.png"))


def outline(d: str) -> tuple[tuple[int, int], ...]:
    """A path's corners from its first one, to the whole unit: its shape, wherever drawn."""
    corners = [tuple(map(float, p.split(","))) for p in re.findall(r"[-\d.]+,[-\d.]+", d)]
    (x0, y0) = corners[0]
    return tuple((round(x - x0), round(y - y0)) for x, y in corners)
