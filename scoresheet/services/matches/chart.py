"""The score race: every seat's true score after each hand, as SVG geometry.

Computed on the server from the engine's `MatchState` (no scoring here, no chart library, no
script); `templates/_chart.html` draws it and `static/app.css` colours it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import RULESETS, MatchState
from ...rules.events import Event

WIDTH, HEIGHT = 340, 190
LEFT, RIGHT, TOP, BOTTOM = 42, 8, 8, 20  # room for "-1000" in 13-unit labels
"""Room for the score labels on the left and the hand numbers below."""


@dataclass(frozen=True, slots=True)
class Series:
    """One seat's (Tichu: one team's) line."""

    seat: int
    """Seat number (its colour class is `seat-<n>`)."""
    name: str
    points: str
    """The polyline's `points` attribute: "x,y x,y …", one pair per hand (and the start)."""
    end: tuple[float, float]
    """Where the line ends (a dot is drawn there)."""
    score: int
    """The seat's score now."""


@dataclass(frozen=True, slots=True)
class Guide:
    """A horizontal line across the chart: the target, the barrel or the lock."""

    kind: str
    """`target`, `barrel` or `lock` (its CSS class)."""
    value: int
    y: float
    label: str


MARKED = (Event.DUMP, Event.KNOCKED_OFF, Event.BARREL_FALL, Event.BARREL_RESET)
"""The events marked on a line (RULES.md §11.2, §11.3, §4, §11.6), in the key's order; of two
in one hand (a fall that is a third fall) the later one gives the marker its shape."""
MARK_R = 5.0
"""A marker's half size in user units (the end dot's radius is 3.5)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A house-rule event or barrel fall on a seat's line, where the hand left the seat."""

    seat: int
    name: str
    hand: int
    """The hand's number (as on the sheet)."""
    kind: str
    """Its shape and key entry: the last of `MARKED` among `events`."""
    events: tuple[str, ...]
    """Every marked event of the seat in that hand, for its title."""
    d: str
    """The shape's path, drawn at the point."""


@dataclass(frozen=True, slots=True)
class Chart:
    """Everything the template needs to draw the race."""

    width: int
    height: int
    left: int
    right: float
    """The x of the plot's right edge."""
    bottom: float
    """The y of the zero line's position or the plot's bottom edge."""
    hands: int
    series: tuple[Series, ...]
    guides: tuple[Guide, ...]
    zero: float | None
    """The y of the zero line when some score went below zero, else None."""
    low: int
    """The lowest score shown (at `bottom`)."""
    marks: tuple[Mark, ...]
    """The markers, hand by hand, seat by seat."""
    key: tuple[tuple[str, str], ...]
    """Each kind of marker present (in `MARKED` order) and its shape for the key (a 12×12 box)."""


def shape(kind: str, x: float, y: float, r: float = MARK_R) -> str:
    """A marker's path centred on (x, y): a triangle pointing down for the dump, a diamond for
    a knock-off, a square for a fall, a cross for a fall back to 0 (told apart without colour)."""
    if kind == "dump":
        corners = [(-r, -0.8 * r), (r, -0.8 * r), (0, r)]
    elif kind == "knocked_off":
        corners = [(0, -r), (r, 0), (0, r), (-r, 0)]
    elif kind == "barrel_fall":
        corners = [(-0.8 * r, -0.8 * r), (0.8 * r, -0.8 * r), (0.8 * r, 0.8 * r), (-0.8 * r, 0.8 * r)]
    else:  # a plus sign turned by 45°: arms of half-width a, reaching r·1.4 along the diagonals
        a, e = 0.35 * r, 1.4 * r / 2**0.5
        plus = [
            (a, -e),
            (a, -a),
            (e, -a),
            (e, a),
            (a, a),
            (a, e),
            (-a, e),
            (-a, a),
            (-e, a),
            (-e, -a),
            (-a, -a),
            (-a, -e),
        ]
        corners = [((px - py) / 2**0.5, (px + py) / 2**0.5) for px, py in plus]
    return "M" + " L".join(f"{round(x + cx, 1):g},{round(y + cy, 1):g}" for cx, cy in corners) + " Z"


def event_mark(event: str) -> str | None:
    """The marker of an event the race marks, in a 12×12 box (the key's and the sheet's); None
    for an event it does not mark."""
    return shape(event, 6, 6) if event in MARKED else None


def race(sheet: MatchState) -> Chart:
    """The score race of a sheet: one line per seat (Tichu: per team), guide lines where the
    rules have them."""
    setup = sheet.setup
    target = setup.options.target
    rs = RULESETS.get(setup.rules)  # None for Tichu: no barrel, no lock
    runs = [[start] + [h.results[i].score for h in sheet.hands] for i, start in enumerate(setup.start_scores)]
    low = min(0, *(min(r) for r in runs))
    high = max(target, *(max(r) for r in runs))
    n = len(sheet.hands)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / max(n, 1), 1)

    def y(v: int) -> float:
        return round(TOP + plot_h * (high - v) / (high - low), 1)

    series = tuple(
        Series(i, name, " ".join(f"{x(k):g},{y(v):g}" for k, v in enumerate(run)), (x(n), y(run[-1])), run[-1])
        for i, (name, run) in enumerate(zip((s.name for s in sheet.standings), runs, strict=True))
    )
    guides = [Guide("target", target, y(target), f"{target}")]
    if rs is not None:
        barrel = rs.barrel_at(target, sheet.setup.options.barrel_gap)  # §11.11
        for kind, value in (("barrel", barrel), ("lock", rs.lock_at(target))):
            if value is not None:
                guides.append(Guide(kind, value, y(value), f"{value}"))
    marks = tuple(
        Mark(i, s.name, h.number, said[-1], said, shape(said[-1], x(k), y(res.score)))
        for k, h in enumerate(sheet.hands, start=1)
        for i, (s, res) in enumerate(zip(series, h.results, strict=True))
        if (said := tuple(e for e in MARKED if e in res.events))
    )
    kinds = {m.kind for m in marks}
    key = tuple((kind, shape(kind, 6, 6)) for kind in MARKED if kind in kinds)
    return Chart(
        WIDTH,
        HEIGHT,
        LEFT,
        WIDTH - RIGHT,
        HEIGHT - BOTTOM,
        n,
        series,
        tuple(guides),
        y(0) if low < 0 else None,
        low,
        marks,
        key,
    )
