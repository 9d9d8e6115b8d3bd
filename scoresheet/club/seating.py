"""Seating a round of a club night (CLUB.md §3): table sizes, byes, the draw and the Swiss search.

Round 1 is drawn from the event's seed. Later rounds order the present players by the
standings (§5) and pick, among every seating with the table sizes of §3, one with the fewest
repeated meetings, then the smallest spread of standing places inside the tables: exactly
with up to `EXACT_UP_TO` present players, by a seeded search above (`search.py`;
docs/club.md explains it and `bench/seating.py` measures it).

Tichu seats teams: the search works on *units* (a Tysiacha player, or a Tichu team of two),
and a unit's standing places are those of its players.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..rules.tichu import TICHU, team_of
from .errors import ClubError, TooFewPlayers
from .records import TICHU_TABLE, TICHU_TEAMS, Game, Round, SeatingRule, check_game, check_seating, check_table
from .search import Problem, anneal, chunks, cost, exact, problem_of
from .standings import standings_after

EXACT_UP_TO = 12
"""With up to this many present players the Swiss seating is the exact best (CLUB.md §3)."""
TABLE = 3
"""A Tysiacha table's usual size; players left over make tables of four or get byes (CLUB.md §3)."""
FOUR = TABLE + 1
"""A Tysiacha table of four: the dealer sits out each hand (RULES.md §1)."""
LEAST_TEAMS = 2
"""A Tichu round needs at least two present teams (CLUB.md §6)."""


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
        chosen = chunks(len(draft.seated), draft.problem.sizes)  # round 1: as drawn
    elif len(present) <= EXACT_UP_TO:
        chosen = exact(draft.problem)
    else:
        chosen = anneal(draft.problem, random.Random(f"{seed}:{len(rounds) + 1}:{reseat}:search"))
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
    problem: Problem
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
    problem = problem_of(seated, sizes, place, meetings(rounds, known_game))
    return _Draft(seated=seated, byes=byes, place=place, problem=problem, draw=draw)


def _finish(draft: _Draft, chosen: Sequence[Sequence[int]]) -> Seating:
    """The seating of the chosen tables: top table first, seats drawn, byes in standings order."""
    repeats, spread = cost(draft.problem, chosen)
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


def _seats(units: Sequence[tuple[str, ...]], draw: random.Random) -> tuple[str, ...]:
    """A table's seat order, drawn (CLUB.md §3); Tichu partners opposite (seats 0 and 2, 1 and 3)."""
    units = list(units)
    draw.shuffle(units)
    if len(units[0]) == 1:
        return tuple(u[0] for u in units)
    first, second = (draw.sample(u, len(u)) for u in units)
    return (first[0], second[0], first[1], second[1])
