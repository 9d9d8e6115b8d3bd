"""Seating a round of a club night (CLUB.md §3): table sizes, byes, the draw and the Swiss search.

Round 1 is drawn from the event's seed. Later rounds order the present players by the
standings (§5) and pick, among every seating with the table sizes of §3, one with the fewest
repeated meetings, then the smallest spread of standing places inside the tables: exactly
with up to `EXACT_UP_TO` present players, by a seeded local search above (`_search`;
docs/club.md explains it and `bench/seating.py` measures it).

Tichu seats teams: the search works on *units* (a Tysiacha player, or a Tichu team of two),
and a unit's standing places are those of its players.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..rules.tichu import TICHU, team_of
from .errors import ClubError, TooFewPlayers
from .records import TICHU_TABLE, TICHU_TEAMS, Game, Round, SeatingRule, check_game, check_seating, check_table
from .standings import standings_after

EXACT_UP_TO = 12
"""With up to this many present players the Swiss seating is the exact best (CLUB.md §3)."""
TABLE = 3
"""A Tysiacha table's usual size; players left over make tables of four or get byes (CLUB.md §3)."""
FOUR = TABLE + 1
"""A Tysiacha table of four: the dealer sits out each hand (RULES.md §1)."""
LEAST_TEAMS = 2
"""A Tichu round needs at least two present teams (CLUB.md §6)."""
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
class Layout:
    """How a round's present players are split: table sizes and byes (CLUB.md §3)."""

    tables: tuple[int, ...]
    """Players at each table, tables of four first."""
    byes: int
    """Players who get a bye (Tichu: two for the odd team, or none)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Seating:
    """A seated round (CLUB.md §3, §6): who sits where, who has a bye, and what the search weighed."""

    tables: tuple[tuple[str, ...], ...]
    """Each table's players in seat order (seat 0 deals first; Tichu: seats 0 and 2 are partners)."""
    byes: tuple[str, ...]
    """Players with a bye, in standings order."""
    repeats: int
    """Pairs of players at one table who already met at one (a pair met twice counts twice)."""
    spread: int
    """The sum over tables of the highest minus the lowest standing place at the table."""


def layout(present: int, *, game: Game, seating: SeatingRule = "fours") -> Layout:
    """The table sizes and byes for this many present players (CLUB.md §3).

    >>> layout(11, game="tysiacha")
    Layout(tables=(4, 4, 3), byes=0)
    >>> layout(11, game="tysiacha", seating="byes")
    Layout(tables=(3, 3, 3), byes=2)
    >>> layout(10, game="tichu")
    Layout(tables=(4, 4), byes=2)
    """
    check_game(game)
    check_seating(seating)
    if game == TICHU:
        teams, alone = divmod(present, TICHU_TEAMS)
        if alone:
            raise ClubError("roster", "tichu_odd", n=present)
        if teams < LEAST_TEAMS:
            raise TooFewPlayers("roster", "too_few_teams", least=LEAST_TEAMS, n=teams)
        return Layout(tables=(TICHU_TABLE,) * (teams // TICHU_TEAMS), byes=TICHU_TEAMS * (teams % TICHU_TEAMS))
    if present < TABLE:
        raise TooFewPlayers("roster", "too_few_players", least=TABLE, n=present)
    tables, over = divmod(present, TABLE)
    if seating == "byes" or over > tables:  # 5 players: a table of three and two byes, also under "fours"
        return Layout(tables=(TABLE,) * tables, byes=over)
    return Layout(tables=(FOUR,) * over + (TABLE,) * (tables - over), byes=0)


def seat_round(
    present: Sequence[str],
    rounds: Sequence[Round],
    *,
    game: Game,
    seating: SeatingRule = "fours",
    seed: int,
    reseat: int = 0,
    teams: Mapping[str, str] | None = None,
) -> Seating:
    """Seat the next round (number `len(rounds) + 1`) for the present players (CLUB.md §3).

    `rounds` are the rounds seated before this one (their tables' results, where they count,
    order the standings); `teams` names each Tichu player's team. The same arguments always
    give the same seating, whatever the order of `present`; `reseat` counts re-seats of this
    round (§3).

    >>> s = seat_round(["Anna", "Boris", "Vera", "Gleb", "Dana"], [], game="tysiacha", seed=2026)
    >>> [len(t) for t in s.tables], len(s.byes)
    ([3], 2)
    >>> s == seat_round(["Gleb", "Dana", "Vera", "Boris", "Anna"], [], game="tysiacha", seed=2026)
    True
    """
    draft = _draft(present, rounds, game=game, seating=seating, seed=seed, reseat=reseat, teams=teams)
    if not rounds:
        chosen = _chunks(len(draft.seated), draft.problem.sizes)  # round 1: as drawn
    elif len(present) <= EXACT_UP_TO:
        chosen = _exact(draft.problem)
    else:
        chosen = _search(draft.problem, random.Random(f"{seed}:{len(rounds) + 1}:{reseat}:search"))
    return _finish(draft, chosen)


@dataclass(frozen=True, slots=True)
class _Draft:
    """A round before its tables are chosen: who has a bye, and what the search weighs."""

    seated: list[tuple[str, ...]]
    """The units to seat (players, or Tichu teams), in standings order (round 1: as drawn)."""
    byes: list[tuple[str, ...]]
    """The units with a bye."""
    place: dict[str, int]
    """Each present player's standing place among the present players."""
    problem: _Problem
    """The search's view of the seated units."""
    draw: random.Random
    """The round's draw (seed, round, re-seat): round 1's order, then the seats at each table."""


def _draft(
    present: Sequence[str],
    rounds: Sequence[Round],
    *,
    game: str,
    seating: str,
    seed: int,
    reseat: int,
    teams: Mapping[str, str] | None,
) -> _Draft:
    """Check the input, order the present players, give the byes and state the search (CLUB.md §3)."""
    known_game = check_game(game)
    for name in present:
        if present.count(name) > 1:
            raise ClubError("roster", "player_twice", name=name)
    for round_ in rounds:
        for table in round_.tables:
            check_table(table, known_game)
    units = _units(present, known_game, teams)  # before the count: a team short says more
    shape = layout(len(present), game=known_game, seating=check_seating(seating))
    roster = sorted(set(present).union(*(t.players for r in rounds for t in r.tables), *(r.byes for r in rounds)))
    rows = {row.name: row for row in standings_after(roster, rounds, game=known_game, seed=seed)}
    # Places among the present players, in standings order (ties ordered by the lot, §5).
    here = set(present)
    place = {name: i + 1 for i, name in enumerate(n for n in rows if n in here)}
    draw = random.Random(f"{seed}:{len(rounds) + 1}:{reseat}")
    if not rounds:
        draw.shuffle(units)  # round 1: a draw from the seed (CLUB.md §3)
        byes, seated = _split(units, shape, lambda u: 0)
    else:
        units.sort(key=lambda u: min(place[p] for p in u))  # Swiss: standings order
        byes, seated = _split(units, shape, lambda u: max(rows[p].byes for p in u))
    sizes = tuple(size // len(seated[0]) for size in shape.tables)
    problem = _problem(seated, sizes, place, meetings(rounds, known_game))
    return _Draft(seated=seated, byes=byes, place=place, problem=problem, draw=draw)


def _finish(draft: _Draft, chosen: Sequence[Sequence[int]]) -> Seating:
    """The seating of the chosen tables: top table first, seats drawn, byes in standings order."""
    repeats, spread = _cost(draft.problem, chosen)
    return Seating(
        tables=tuple(_seats([draft.seated[u] for u in table], draft.draw) for table in sorted(chosen, key=min)),
        byes=tuple(sorted((p for u in draft.byes for p in u), key=draft.place.__getitem__)),
        repeats=repeats,
        spread=spread,
    )


def meetings(rounds: Iterable[Round], game: Game) -> Counter[frozenset[str]]:
    """How often each pair of players met at a table (Tichu: as opponents; partners never count)."""
    met: Counter[frozenset[str]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            for (i, a), (j, b) in combinations(enumerate(table.players), 2):
                if game != TICHU or team_of(i) != team_of(j):
                    met[frozenset((a, b))] += 1
    return met


def _units(present: Sequence[str], game: Game, teams: Mapping[str, str] | None) -> list[tuple[str, ...]]:
    """What is seated: each player (Tysiacha), or each team of two present partners (Tichu)."""
    if game != TICHU:
        return [(name,) for name in sorted(present)]
    by_team: dict[str, list[str]] = {}
    for name in sorted(present):
        team = (teams or {}).get(name)
        if team is None:
            raise ClubError("roster", "no_team", name=name)
        by_team.setdefault(team, []).append(name)
    for team, partners in by_team.items():
        if len(partners) != TICHU_TEAMS:
            raise ClubError("roster", "team_not_two", team=team, n=len(partners))
    return [tuple(partners) for _, partners in sorted(by_team.items())]


def _split(
    units: list[tuple[str, ...]], shape: Layout, byes_had: Callable[[tuple[str, ...]], int]
) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The units with a bye and those seated (CLUB.md §3): fewest byes so far, then lowest placed.

    `units` are in standings order (round 1: drawn); the seated keep that order.
    """
    count = shape.byes // len(units[0])
    ranked = sorted(range(len(units)), key=lambda i: (byes_had(units[i]), -i))
    bye = set(ranked[:count])
    return [units[i] for i in sorted(bye)], [u for i, u in enumerate(units) if i not in bye]


@dataclass(frozen=True, slots=True)
class _Problem:
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


def _problem(
    units: Sequence[tuple[str, ...]], sizes: tuple[int, ...], place: Mapping[str, int], met: Counter[frozenset[str]]
) -> _Problem:
    """The search's view of these units (in standings order) at tables of these sizes."""
    return _Problem(
        sizes=sizes,
        low=tuple(min(place[p] for p in u) for u in units),
        high=tuple(max(place[p] for p in u) for u in units),
        met=tuple(tuple(sum(met[frozenset((p, q))] for p in u for q in v) for v in units) for u in units),
        per_unit=len(units[0]),
    )


def _table_cost(p: _Problem, table: Sequence[int]) -> tuple[int, int]:
    """A table's repeated meetings and its spread of places."""
    repeats = sum(p.met[u][v] for u, v in combinations(table, 2))
    return repeats, max(p.high[u] for u in table) - min(p.low[u] for u in table)


def _cost(p: _Problem, tables: Iterable[Sequence[int]]) -> tuple[int, int]:
    """A seating's repeated meetings and spread sum: what the search makes least, in that order."""
    repeats = spread = 0
    for table in tables:
        r, s = _table_cost(p, table)
        repeats += r
        spread += s
    return repeats, spread


def _chunks(count: int, sizes: Sequence[int]) -> list[list[int]]:
    """Units 0..count-1 cut in order into tables of these sizes."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    assert start == count
    return tables


def _exact(p: _Problem) -> list[list[int]]:
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
                r, s = _table_cost(p, table)
                sizes[size] -= 1
                tables.append(table)
                extend(tuple(u for u in rest if u not in others), sizes, tables, repeats + r, spread + s)
                tables.pop()
                sizes[size] += 1

    extend(tuple(range(len(p.low))), Counter(p.sizes), [], 0, 0)
    return best


def _search(p: _Problem, rng: random.Random, steps: int = SEARCH_STEPS, polish: bool = True) -> list[list[int]]:
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
    costs = [_table_cost(p, table) for table in tables]
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
        cost_a, cost_b = _table_cost(p, new_a), _table_cost(p, new_b)
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


def _polish(p: _Problem, tables: list[list[int]]) -> list[list[int]]:
    """Re-seat each run of `WINDOW` tables neighbouring in the standings exactly (`_exact` on
    their units), until no run improves: the annealing's last mistakes are local ones."""
    improved = True
    while improved:
        improved = False
        tables.sort(key=min)
        for start in range(max(1, len(tables) - WINDOW + 1)):
            window = tables[start : start + WINDOW]
            units = sorted(u for t in window for u in t)
            sub = _Problem(
                sizes=tuple(sorted((len(t) for t in window), reverse=True)),
                low=tuple(p.low[u] for u in units),
                high=tuple(p.high[u] for u in units),
                met=tuple(tuple(p.met[u][v] for v in units) for u in units),
                per_unit=p.per_unit,
            )
            better = [[units[i] for i in t] for t in _exact(sub)]
            if _cost(p, better) < _cost(p, window):
                tables[start : start + WINDOW] = better
                improved = True
    return tables


def _greedy(p: _Problem) -> list[list[int]]:
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


def _seats(units: Sequence[tuple[str, ...]], draw: random.Random) -> tuple[str, ...]:
    """A table's seat order, drawn (CLUB.md §3); Tichu partners opposite (seats 0 and 2, 1 and 3)."""
    units = list(units)
    draw.shuffle(units)
    if len(units[0]) == 1:
        return tuple(u[0] for u in units)
    first, second = (draw.sample(u, len(u)) for u in units)
    return (first[0], second[0], first[1], second[1])
