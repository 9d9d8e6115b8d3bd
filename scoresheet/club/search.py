"""The search behind the Swiss seating (CLUB.md §3): seatings of units weighed by (repeats, spread).

A `Problem` is a round as the search sees it: units (a Tysiacha player, or a Tichu team) in
standings order, their standing places and how often their players met. `exact` enumerates
every seating (the app's choice up to 12 present players); `anneal` searches (above 12):
greedy start, simulated annealing, exact polish of neighbouring tables. docs/club.md explains
both, and bench/seating.py measures them.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

SEARCH_STEPS = 200
"""Swaps the annealing tries per seated unit (120 players: 0.25–0.4 s here, bench/seating.py)."""
LEAST_SWAPS = 24_000
"""Swaps the annealing tries at least: fewer players get the time of 120 (a closer search)."""
NEAR = 4
"""Nine swaps in ten pair a unit with one at most this many tables' worth of places away."""
HOT = 4.0
"""The annealing's first temperature, in least spreads of the largest table (+1): early on, a
swap that spreads a table by a few places is often taken; it cools to `COLD`."""
COLD = 0.3
"""The annealing's last temperature: by then a swap that costs one place is taken 1 time in 28."""
WINDOW = 3
"""The search ends by re-seating every run of this many neighbouring tables exactly."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """The search's view of a round: units in standings order, their places and meetings."""

    sizes: tuple[int, ...]
    """Units at each table."""
    low: tuple[int, ...]
    """Each unit's best standing place (its players' lowest place number)."""
    high: tuple[int, ...]
    """Each unit's worst standing place."""
    met: tuple[tuple[int, ...], ...]
    """`met[u][v]`: meetings so far between a player of unit u and a player of unit v."""
    per_unit: int
    """Players in a unit: 1 (Tysiacha) or 2 (a Tichu team)."""

    def floor(self, size: int) -> int:
        """The least spread of a table of `size` units: its players' places are distinct."""
        return size * self.per_unit - 1


def problem_of(
    units: Sequence[tuple[str, ...]], sizes: tuple[int, ...], place: Mapping[str, int], met: Counter[frozenset[str]]
) -> Problem:
    """The search's view of these units (in standings order) at tables of these sizes."""
    return Problem(
        sizes=sizes,
        low=tuple(min(place[p] for p in u) for u in units),
        high=tuple(max(place[p] for p in u) for u in units),
        met=tuple(tuple(sum(met[frozenset((p, q))] for p in u for q in v) for v in units) for u in units),
        per_unit=len(units[0]),
    )


def table_cost(p: Problem, table: Sequence[int]) -> tuple[int, int]:
    """A table's repeated meetings and its spread of places."""
    repeats = sum(p.met[u][v] for u, v in combinations(table, 2))
    return repeats, max(p.high[u] for u in table) - min(p.low[u] for u in table)


def cost(p: Problem, tables: Iterable[Sequence[int]]) -> tuple[int, int]:
    """A seating's repeated meetings and spread sum: what the search makes least, in that order."""
    repeats = spread = 0
    for table in tables:
        r, s = table_cost(p, table)
        repeats += r
        spread += s
    return repeats, spread


def chunks(count: int, sizes: Sequence[int]) -> list[list[int]]:
    """Units 0..count-1 cut in order into tables of these sizes."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    assert start == count
    return tables


def exact(p: Problem) -> list[list[int]]:
    """The best seating by (repeats, spread), first in standings order among equals (CLUB.md §3).

    Every seating is a choice of companions for the best-placed unit still free, table by
    table, so each is met once (12 players at tables of three: 15,400); a branch is cut as soon
    as it cannot beat the best so far.
    """
    best: list[list[int]] = []
    best_cost = (math.inf, math.inf)

    def extend(free: tuple[int, ...], sizes: Counter[int], tables: list[list[int]], repeats: int, spread: int) -> None:
        nonlocal best, best_cost
        if not free:
            if (repeats, spread) < best_cost:
                best, best_cost = [list(t) for t in tables], (repeats, spread)
            return
        if (repeats, spread + sum(p.floor(s) * k for s, k in sizes.items())) >= best_cost:
            return
        first, rest = free[0], free[1:]
        for size in sorted((s for s, k in sizes.items() if k), reverse=True):
            for others in combinations(rest, size - 1):
                table = [first, *others]
                r, s = table_cost(p, table)
                sizes[size] -= 1
                tables.append(table)
                extend(tuple(u for u in rest if u not in others), sizes, tables, repeats + r, spread + s)
                tables.pop()
                sizes[size] += 1

    extend(tuple(range(len(p.low))), Counter(p.sizes), [], 0, 0)
    return best


def anneal(p: Problem, rng: random.Random, steps: int = SEARCH_STEPS, polish: bool = True) -> list[list[int]]:
    """A good seating by (repeats, spread) for many players: greedy, annealing, then polish.

    Start (`_greedy`): down the standings, the best-placed free unit opens a table and takes
    the next free units it adds no repeat with. Then `steps` × units swaps (at least
    `LEAST_SWAPS`) of two units at different tables, nine in ten between units close in the
    standings: simulated annealing on the cost repeats × weight + spread, where one repeat
    weighs more than any one table's spread. The best seating seen, by (repeats, spread), is
    kept, and `_polish` ends it. The swaps are drawn from `rng`, seeded from the event's seed,
    round and re-seat count.
    """
    n = len(p.low)
    tables = _greedy(p)
    where = [0] * n
    for t, table in enumerate(tables):
        for u in table:
            where[u] = t
    weight = max(p.high) + 1
    costs = [table_cost(p, table) for table in tables]
    repeats = sum(c[0] for c in costs)
    spread = sum(c[1] for c in costs)
    best = ((repeats, spread), [list(t) for t in tables])
    steps = max(steps * n, LEAST_SWAPS)
    near = NEAR * max(p.sizes)
    hot = HOT * p.floor(max(p.sizes)) + 1
    unbeatable = (0, sum(p.floor(s) for s in p.sizes))
    for step in range(steps):
        if best[0] == unbeatable:
            break
        u = rng.randrange(n)
        v = rng.randrange(max(0, u - near), min(n, u + near + 1)) if rng.random() < 0.9 else rng.randrange(n)
        a, b = where[u], where[v]
        if a == b:
            continue
        new_a = [v if x == u else x for x in tables[a]]
        new_b = [u if x == v else x for x in tables[b]]
        cost_a, cost_b = table_cost(p, new_a), table_cost(p, new_b)
        d_repeats = cost_a[0] + cost_b[0] - costs[a][0] - costs[b][0]
        d_spread = cost_a[1] + cost_b[1] - costs[a][1] - costs[b][1]
        delta = d_repeats * weight + d_spread
        temperature = hot * (COLD / hot) ** (step / steps)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            tables[a], tables[b], costs[a], costs[b] = new_a, new_b, cost_a, cost_b
            where[u], where[v] = b, a
            repeats, spread = repeats + d_repeats, spread + d_spread
            if (repeats, spread) < best[0]:
                best = ((repeats, spread), [list(t) for t in tables])
    return _polish(p, best[1]) if polish else best[1]


def _polish(p: Problem, tables: list[list[int]]) -> list[list[int]]:
    """Re-seat each run of `WINDOW` tables neighbouring in the standings exactly (`exact` on
    their units), until no run improves: the annealing's last mistakes are local ones."""
    improved = True
    while improved:
        improved = False
        tables.sort(key=min)
        for start in range(max(1, len(tables) - WINDOW + 1)):
            window = tables[start : start + WINDOW]
            units = sorted(u for t in window for u in t)
            sub = Problem(
                sizes=tuple(sorted((len(t) for t in window), reverse=True)),
                low=tuple(p.low[u] for u in units),
                high=tuple(p.high[u] for u in units),
                met=tuple(tuple(p.met[u][v] for v in units) for u in units),
                per_unit=p.per_unit,
            )
            better = [[units[i] for i in t] for t in exact(sub)]
            if cost(p, better) < cost(p, window):
                tables[start : start + WINDOW] = better
                improved = True
    return tables


def _greedy(p: Problem) -> list[list[int]]:
    """Tables filled down the standings, each unit joining the first table it repeats nobody at."""
    free = list(range(len(p.low)))
    tables = []
    for size in p.sizes:
        table = [free.pop(0)]
        while len(table) < size:
            pick = min(range(len(free)), key=lambda i: (sum(p.met[free[i]][x] for x in table), i))
            table.append(free.pop(pick))
        tables.append(table)
    return tables
