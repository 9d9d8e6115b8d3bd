"""Hypothesis properties of the club engine over random nights (CLUB.md §2, §3, §5): everyone
present is seated once, at tables of the sizes of §3; byes are fair; the standings are a total
order with ties only where every criterion is equal; the Swiss seating is the exact best."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoresheet.club import Round, Seating, Table, layout, match_points, seat_round, standings_after, table_scores
from scoresheet.club.records import Game, SeatingRule

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Every night seats its rounds while it is drawn (the search above 12 players takes a while)."""


@dataclass(frozen=True)
class Step:
    """One round of a random night: who was present, what came before, how it was seated."""

    present: list[str]
    before: list[Round]
    seating: Seating
    game: Game
    rule: SeatingRule
    teams: dict[str, str] | None
    seed: int
    after: list[Round]
    """The night up to this round's results."""


@st.composite
def nights(draw: st.DrawFn, most: int = 16) -> list[Step]:
    """A night of 1–4 rounds: a roster, players absent now and then, random final scores."""
    game: Game = draw(st.sampled_from(["tysiacha", "tichu"]))
    rule: SeatingRule = draw(st.sampled_from(["fours", "byes"]))
    if game == "tichu":
        team_count = draw(st.integers(2, most // 2))
        roster = [f"T{i}{side}" for i in range(team_count) for side in "ab"]
        teams: dict[str, str] | None = {name: name[:-1] for name in roster}
        least = 4
    else:
        roster = [f"P{i:02d}" for i in range(draw(st.integers(3, most)))]
        teams, least = None, 3
    seed = draw(st.integers(0, 2**31))
    scores = random.Random(seed)
    rounds: list[Round] = []
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        absent = set(draw(st.lists(st.sampled_from(roster), max_size=max(0, len(roster) - least))))
        if teams:
            absent |= {p for p in roster if any(teams[p] == teams[a] for a in absent)}
        present = [p for p in roster if p not in absent]
        if len(present) < least:
            present = roster
        seating = seat_round(present, rounds, game=game, seating=rule, seed=seed, teams=teams)
        steps.append(Step(present, list(rounds), seating, game, rule, teams, seed, []))
        played = tuple(
            Table(players=t, scores=tuple(scores.randrange(-200, 1200, 10) for _ in range(2 if teams else len(t))))
            for t in seating.tables
        )
        rounds.append(Round(tables=played, byes=seating.byes))
        steps[-1].after.extend(rounds)
    return steps


def places(step: Step) -> dict[str, int]:
    """Each present player's place among the present players, in standings order (CLUB.md §3)."""
    roster = sorted({*step.present, *(p for r in step.before for t in r.tables for p in t.players)})
    roster = sorted({*roster, *(p for r in step.before for p in r.byes)})
    rows = standings_after(roster, step.before, game=step.game, seed=step.seed)
    return {name: i + 1 for i, name in enumerate(r.name for r in rows if r.name in step.present)}


@SETTINGS
@given(nights())
def test_every_present_player_is_seated_once_at_a_table_or_with_a_bye(night: list[Step]) -> None:
    for step in night:
        seated = [p for table in step.seating.tables for p in table] + list(step.seating.byes)
        assert sorted(seated) == sorted(step.present)


@SETTINGS
@given(nights())
def test_tables_are_of_the_sizes_of_section_3(night: list[Step]) -> None:
    for step in night:
        shape = layout(len(step.present), game=step.game, seating=step.rule)
        assert Counter(len(t) for t in step.seating.tables) == Counter(shape.tables)
        assert len(step.seating.byes) == shape.byes
        assert all(len(t) in ((4,) if step.game == "tichu" else (3, 4)) for t in step.seating.tables)


@SETTINGS
@given(nights())
def test_byes_go_to_the_fewest_byes_so_far_then_the_lowest_in_the_standings(night: list[Step]) -> None:
    for step in night:
        if not step.before:
            continue  # round 1: drawn, and nobody has had a bye
        roster = sorted({*step.present, *(p for r in step.before for t in r.tables for p in t.players)})
        rows = standings_after(
            sorted({*roster, *(p for r in step.before for p in r.byes)}), step.before, game=step.game, seed=step.seed
        )
        # Tichu gives byes to teams: a team's byes are its partners' (the same, teams being
        # fixed here), its place its better-placed partner's.
        team = step.teams or {p: p for p in step.present}
        had = {team[r.name]: r.byes for r in rows if r.name in team}
        place: dict[str, int] = {}
        for name, number in places(step).items():
            place[team[name]] = min(number, place.get(team[name], number))
        bye = {team[p] for p in step.seating.byes}
        for x in bye:
            for y in set(place) - bye:
                assert had[x] < had[y] or (had[x] == had[y] and place[x] > place[y]), (x, y)


@SETTINGS
@given(nights())
def test_the_standings_are_a_total_order_with_ties_only_where_every_criterion_is_equal(night: list[Step]) -> None:
    step = night[-1]
    rounds = step.after
    roster = sorted({*(p for r in rounds for t in r.tables for p in t.players), *(p for r in rounds for p in r.byes)})
    rows = standings_after(roster, rounds, game=step.game, seed=step.seed)
    assert sorted(r.name for r in rows) == sorted({r.name for r in rows})
    for i, (above, below) in enumerate(zip(rows, rows[1:], strict=False)):
        assert above.criteria >= below.criteria
        if above.criteria == below.criteria:
            assert below.place == above.place
        else:
            assert below.place == i + 2
    assert not rows or rows[0].place == 1


def _splits(units: list[str], sizes: list[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to split the units into tables of these sizes (each split once)."""
    if not units:
        yield []
        return
    first, rest = units[0], units[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [u for u in rest if u not in others]
            for split in _splits(remaining, left):
                yield [(first, *others), *split]


@settings(SETTINGS, max_examples=80)
@given(nights(most=12))
def test_later_rounds_are_the_exact_best_by_repeats_then_spread(night: list[Step]) -> None:
    # Against a brute force over every split of the seated players (Tichu: of the teams).
    for step in night:
        if not step.before or len(step.present) > 12:
            continue
        team = step.teams or {p: p for p in step.present}
        met = Counter(
            frozenset(pair)
            for r in step.before
            for t in r.tables
            for pair in combinations(t.players, 2)
            if team.get(pair[0], pair[0]) != team.get(pair[1], pair[1])  # partners never count
        )
        place = places(step)

        def cost(
            tables: list[tuple[str, ...]], met: Counter[frozenset[str]] = met, place: dict[str, int] = place
        ) -> tuple[int, int]:
            repeats = sum(met[frozenset(pair)] for t in tables for pair in combinations(t, 2))
            return repeats, sum(max(place[p] for p in t) - min(place[p] for p in t) for t in tables)

        members = {u: [p for p in step.present if team[p] == u] for u in set(team.values())}
        units = sorted({team[p] for t in step.seating.tables for p in t})
        per_unit = 2 if step.teams else 1
        sizes = [len(t) // per_unit for t in step.seating.tables]
        best = min(
            cost([tuple(p for u in table for p in members[u]) for table in split]) for split in _splits(units, sizes)
        )
        assert cost(list(step.seating.tables)) == best == (step.seating.repeats, step.seating.spread)


@SETTINGS
@given(nights(most=16))
def test_the_same_arguments_seat_the_same_round_whatever_the_order_of_the_roster(night: list[Step]) -> None:
    for step in night:
        again = seat_round(
            list(reversed(step.present)),
            step.before,
            game=step.game,
            seating=step.rule,
            seed=step.seed,
            teams=step.teams,
        )
        assert again == step.seating


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-500, 1500), min_size=2, max_size=4))
def test_a_tables_match_points_add_up_to_its_players_and_its_table_scores_to_zero(scores: list[int]) -> None:
    # Each of the n(n−1)/2 pairs hands out 2 ÷ (n − 1) points: n in all (ties split them).
    assert sum(match_points(scores)) == len(scores)
    assert sum(table_scores(scores)) == 0
    assert all(0 <= p <= 2 for p in match_points(scores))
    assert all(isinstance(p, Fraction) for p in match_points(scores))
