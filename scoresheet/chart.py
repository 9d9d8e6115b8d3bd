"""The score race: every seat's true score after each hand, as SVG geometry.

Computed on the server from the engine's `MatchState` (no scoring here, no chart library, no
script); `templates/_chart.html` draws it and `static/app.css` colours it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RULESETS, MatchState

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


def race(sheet: MatchState) -> Chart:
    """The score race of a sheet: one line per seat (Tichu: per team), guide lines where the
    rules have them."""
    setup = sheet.setup
    target = setup.options.target
    rs = RULESETS.get(setup.rules)  # None for Tichu: no barrel, no lock
    runs = [[start] + [h.results[i].score for h in sheet.hands]
            for i, start in enumerate(setup.start_scores)]
    low = min(0, *(min(r) for r in runs))
    high = max(target, *(max(r) for r in runs))
    n = len(sheet.hands)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / max(n, 1), 1)

    def y(v: int) -> float:
        return round(TOP + plot_h * (high - v) / (high - low), 1)

    series = tuple(
        Series(i, name, " ".join(f"{x(k):g},{y(v):g}" for k, v in enumerate(run)),
               (x(n), y(run[-1])), run[-1])
        for i, (name, run) in enumerate(zip((s.name for s in sheet.standings), runs,
                                            strict=True)))
    guides = [Guide("target", target, y(target), f"{target}")]
    if rs is not None:
        for kind, value in (("barrel", rs.barrel_at(target)), ("lock", rs.lock_at(target))):
            if value is not None:
                guides.append(Guide(kind, value, y(value), f"{value}"))
    return Chart(WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, n, series, tuple(guides),
                 y(0) if low < 0 else None, low)
