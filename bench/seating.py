"""Benchmark: the club-night seating search (CLUB.md §3) — its quality and its time.

Run:  .venv/bin/python bench/seating.py            (add --quick for a short smoke run)

Simulates club nights of Tysiacha at tables of three (`seating: "fours"`): every player has a
skill, every table's final scores are skill plus noise, the standings follow (CLUB.md §5) and
the next round is seated from them. Reports:

1. Against the exact optimum, 7 to 15 players: for nights of 2 to 6 rounds, the next round
   seated by the search (`anneal`, used above 12 players) and by the exact enumeration
   (`exact`, used up to 12; above it takes seconds, so fewer nights): how often the search
   finds a seating as good (and the annealing alone, before its exact polish of three
   neighbouring tables: up to 11 players, three tables, the polish alone is exact), and by
   how much it misses otherwise.
2. Against random seating, 30, 60 and 120 players over 6 rounds (round 1 drawn for both; then
   the Swiss seating or a fresh random draw): repeated pairs over the night, and the spread
   sum per round (its floor, every table made of neighbours in the standings, beside it);
   and the app's rounds seated again, on the same standings and meetings, by a search ten
   times as long: what more time would buy.
3. Time: seating round 6 of 60 players, and of 120 players (target: 1 s here).

A script, not a timed test: timings belong on a quiet machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoresheet.club import EXACT_UP_TO, Round, Seating, Table, seat_round  # noqa: E402
from scoresheet.club.search import LEAST_SWAPS, SEARCH_STEPS, anneal, chunks, cost, exact  # noqa: E402

# The benchmark seats the same round several ways: it reaches the engine's own steps.
from scoresheet.club.seating import _draft, _finish  # noqa: E402

ROUNDS = 6
Seater = Callable[[list[str], list[Round], int], Seating]
"""Seats the next round of a night: present players, rounds so far, the night's seed."""


def swiss(players: list[str], rounds: list[Round], seed: int) -> Seating:
    """The app's seating (CLUB.md §3)."""
    return seat_round(players, rounds, game="tysiacha", seed=seed)


def drawn(players: list[str], rounds: list[Round], seed: int) -> Seating:
    """Random seating every round: the table sizes of §3, players drawn (measured the same way)."""
    draft = _draft(players, rounds, game="tysiacha", seating="fours", seed=seed, reseat=0, teams=None)
    order = list(range(len(draft.seated)))
    random.Random(f"{seed}:{len(rounds)}:random").shuffle(order)
    return _finish(draft, [[order[u] for u in t] for t in chunks(len(order), draft.problem.sizes)])


def results(seating: Seating, skill: dict[str, float], rng: random.Random) -> Round:
    """The round played: each player's final score is their skill plus noise."""
    tables = tuple(
        Table(players=t, scores=tuple(round(600 * skill[p] + rng.gauss(500, 250)) for p in t)) for t in seating.tables
    )
    return Round(tables=tables, byes=seating.byes)


def night(n: int, seater: Seater, seed: int, rounds: int = ROUNDS) -> list[tuple[Seating, float, Round]]:
    """A night of `rounds` rounds for `n` players: each round's seating, the seconds it took, and
    the round as played."""
    players = [f"P{i:03d}" for i in range(n)]
    rng = random.Random(seed)
    skill = {p: rng.random() for p in players}
    played: list[Round] = []
    seated = []
    for _ in range(rounds):
        start = time.perf_counter()
        seating = seater(players, played, seed)
        took = time.perf_counter() - start
        played.append(results(seating, skill, rng))
        seated.append((seating, took, played[-1]))
    return seated


def againstexact(nights: int, sizes: Sequence[int]) -> None:
    """Table 1: the search against the exact optimum (the app seats up to 12 exactly; above,
    the exact enumeration takes seconds, so fewer nights are measured)."""
    print("\n1. The search against the exact optimum (the next round after 1 to 5 rounds played)")
    print(
        "| players | rounds seated | annealing alone as good | search as good "
        "| search worse by (repeats, spread): mean; worst | exact, ms |"
    )
    print("|---|---|---|---|---|---|")
    for n in sizes:
        same, annealed, misses, exact_ms = 0, 0, [], []
        players = [f"P{i:03d}" for i in range(n)]
        for seed in range(nights if n <= EXACT_UP_TO else max(1, nights // 4)):
            played = [r for _, _, r in night(n, swiss, seed, rounds=ROUNDS - 1)]
            for k in range(1, len(played) + 1):
                draft = _draft(players, played[:k], game="tysiacha", seating="fours", seed=seed, reseat=0, teams=None)
                start = time.perf_counter()
                best = cost(draft.problem, exact(draft.problem))
                exact_ms.append(1000 * (time.perf_counter() - start))
                alone = cost(draft.problem, anneal(draft.problem, random.Random(seed), polish=False))
                annealed += alone == best
                found = cost(draft.problem, anneal(draft.problem, random.Random(seed)))
                if found == best:
                    same += 1
                else:
                    misses.append((found[0] - best[0], found[1] - best[1]))
        worse = "—"
        if misses:
            mean = statistics.mean(m[0] for m in misses), statistics.mean(m[1] for m in misses)
            worse = f"({mean[0]:.2f}, {mean[1]:.1f}); {max(misses)}"
        cases, ms = len(exact_ms), f"{statistics.median(exact_ms):.1f} (max {max(exact_ms):.0f})"
        print(f"| {n} | {cases} | {annealed}/{cases} | {same}/{cases} | {worse} | {ms} |")


def against_random(nights: int, sizes: Sequence[int]) -> None:
    """Table 2: Swiss seating against random seating; and the Swiss rounds seated again by a
    search ten times as long (same standings, same meetings so far)."""
    print(f"\n2. Nights of {ROUNDS} rounds, mean of {nights} nights (round 1 is drawn for both)")
    print("| players | seating | repeated pairs, rounds 1–6 | spread per round, rounds 2–6 | floor |")
    print("|---|---|---|---|---|")
    players = {n: [f"P{i:03d}" for i in range(n)] for n in sizes}
    for n in sizes:
        rows: dict[str, tuple[list[int], list[float]]] = {}
        for seed in range(nights):
            for name, seater in (("random", drawn), ("Swiss (the app)", swiss)):
                rounds = night(n, seater, seed)
                repeats, spreads = rows.setdefault(name, ([], []))
                repeats.append(sum(s.repeats for s, _, _ in rounds))
                spreads.append(statistics.mean(s.spread for s, _, _ in rounds[1:]))
            played = [r for _, _, r in rounds]
            costs = []
            for k in range(1, ROUNDS):
                draft = _draft(
                    players[n], played[:k], game="tysiacha", seating="fours", seed=seed, reseat=0, teams=None
                )
                costs.append(
                    cost(
                        draft.problem,
                        anneal(draft.problem, random.Random(seed), steps=10 * max(SEARCH_STEPS, -(-LEAST_SWAPS // n))),
                    )
                )
            repeats, spreads = rows.setdefault("the app's rounds 2–6, 10× search", ([], []))
            repeats.append(rounds[0][0].repeats + sum(c[0] for c in costs))
            spreads.append(statistics.mean(c[1] for c in costs))
        for name, (repeats, spreads) in rows.items():
            floor = n - n // 3
            print(f"| {n} | {name} | {statistics.mean(repeats):.1f} | {statistics.mean(spreads):.1f} | {floor} |")


def timing(repeat: int) -> None:
    """Table 3: the time to seat round 6 of 60 and of 120 players."""
    print(f"\n3. Time to seat round {ROUNDS} (median and worst of {repeat} nights)")
    print("| players | median, ms | worst, ms |")
    print("|---|---|---|")
    for n in (60, 120):
        times = [1000 * night(n, swiss, seed)[-1][1] for seed in range(repeat)]
        print(f"| {n} | {statistics.median(times):.0f} | {max(times):.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer nights: a smoke run")
    quick = parser.parse_args().quick
    print(
        f"Python {platform.python_version()} on {platform.machine()}; "
        f"search: {SEARCH_STEPS} swaps per player, at least {LEAST_SWAPS}"
    )
    againstexact(3 if quick else 20, range(7, 13) if quick else range(7, 16))
    against_random(1 if quick else 5, (30, 60) if quick else (30, 60, 120))
    timing(2 if quick else 5)


if __name__ == "__main__":
    main()
