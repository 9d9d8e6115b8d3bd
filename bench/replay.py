"""Benchmark: replay a realistic long match through the engine.

Run:  .venv/bin/python bench/replay.py            (add --quick for a short smoke run)

Reports microseconds per hand for a 200-hand SquareScores match (3 and 4 seats), side by side
in one run with the engine of an earlier commit (`--baseline`, default 63158d1, where the speed-up work
started): that engine is read from a temporary `git worktree` of the commit, imported under
another name and the worktree removed again, so nothing is copied into the repository. Both
engines replay the same hands (converted through the JSON shapes), interleaved, best of 5.
Then the same kind of match with every house rule of RULES.md §11 switched on against none
(at most 1.2×), per round for a 100-round Tichu match (with its ratio to the 3-seat
Tysiacha hand), and
the memory per hand (tracemalloc) for 50, 200 and 800 hands: the output kept (the
MatchState) and the peak while replaying. A script, not a timed test: timings belong on a
quiet machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoresheet.rules import (  # noqa: E402
    SUITS,
    HandRecord,
    Options,
    Record,
    Refused,
    Replay,
    Setup,
    TichuRound,
    hand_to_dict,
    replay,
    setup_to_dict,
)
from scoresheet.rules.house import HOUSE_RULES  # noqa: E402

BASELINE = "63158d1"
"""The commit the engine's speed-up started from: what it is measured against."""


def load_engine(commit: str) -> ModuleType:
    """The `scoresheet.rules` package of `commit`, imported as `baseline_rules_<commit>`.

    Read from a temporary `git worktree` (removed again once every module is imported). Each
    commit gets its own name: two engines loaded under one would share submodules.
    """
    name = "baseline_rules_" + "".join(c if c.isalnum() else "_" for c in commit)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), commit], check=True
        )
        try:
            package = tree / "scoresheet" / "rules"
            spec = importlib.util.spec_from_file_location(
                name, package / "__init__.py", submodule_search_locations=[str(package)]
            )
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
    return module


HOUSE_RULES_ON = {
    "zeros": "consecutive",
    "zero_penalty": 100,
    "dump_555": "both",
    "barrel_knock_off": True,
    "barrel_miss": "stays",
    "barrel_hands": 5,
    "three_falls_reset": True,
    "declarer_rounding": True,
    "forfeit_pays": "half_bid",
    "blind_doubles": "declarer",
    "ace_marriage": True,
    "barrel_gap": 100,
    "barrel_jump": "mounts",
    "barrel_clash": "one_stays",
    "barrel_defender_wins": True,
    "barrel_win_score": "added",
    "barrel_zeros": True,
    "forfeit_penalty": False,
    "dump_at": 550,
}
"""Every house rule of RULES.md §11 away from its default (squarescores)."""


def build_match(
    n_hands: int, seats: int = 3, seed: int = 2, also: Sequence[Setup] = ()
) -> tuple[Setup, list[HandRecord]]:
    """A match that never ends: made and missed bids, marriages, zeros, forfeits, redeals.

    Declarers at 750 or more, or on the barrel, miss, and only seats below 600 declare
    marriages as defenders, so nobody reaches 1000; seats do climb onto the barrel (as
    declarer from 720..749, as defender from 820..879) and miss or fall off it again.
    """
    rng = random.Random(seed)
    setup = Setup(
        players=tuple(f"P{i}" for i in range(seats)),
        rules="squarescores",
        options=Options(target=1000, blind_bids=bool(also)),
        first_dealer=0,
        start_scores=(0,) * seats,
    )
    run = Replay(setup)  # the match so far, to pick legal hands as we go
    others = [Replay(s) for s in also]  # every hand must fit these set-ups too
    hands: list[HandRecord] = []
    while len(hands) < n_hands:
        state = run.state()
        deal = state.next
        assert deal is not None
        seat_state = state.standings
        sitting_out = deal.sitting_out
        order = [(deal.dealer + 1 + k) % seats for k in range(seats)]
        in_hand = [i for i in order if i != sitting_out]
        r = rng.random()
        if r < 0.03:
            record = HandRecord("redeal")
        else:
            declarer = rng.choice(in_hand)
            high = seat_state[declarer].score >= 750 or seat_state[declarer].barrel
            if r < 0.08 and not seat_state[declarer].barrel:
                record = HandRecord("forfeit", declarer=declarer, bid=100 + 5 * rng.randrange(0, 8))
            else:
                defenders = [i for i in in_hand if i != declarer]
                points: list[int | None] = [None] * seats
                left = 120
                for i in defenders:
                    p = 0 if rng.random() < 0.1 else rng.randrange(5, 60)
                    p = min(p, left)
                    points[i] = p
                    left -= p
                marriages: list[list[str]] = [[] for _ in range(seats)]
                for suit in SUITS:
                    owner = rng.choice([None, None, *in_hand])
                    if owner is not None and (owner == declarer or seat_state[owner].score < 600):
                        marriages[owner].append(suit)
                took = left + sum(SUITS[s] for s in marriages[declarer])
                if high:  # bid more than was taken: missed
                    bid = min(400, max(100, (took // 5 + 1) * 5 + 5 * rng.randrange(0, 10)))
                    if bid <= took:
                        marriages[declarer] = []
                        took = left
                        bid = max(100, (took // 5 + 1) * 5)
                else:
                    bid = 100 + 5 * rng.randrange(0, 13)
                record = HandRecord(
                    "played",
                    declarer=declarer,
                    bid=bid,
                    points=tuple(points),
                    marriages=tuple(tuple(m) for m in marriages),
                    blind=bool(also) and rng.random() < 0.1,
                )
        if others and not _fits(record, others):
            continue
        run.add(record)
        hands.append(record)
    sheet = replay(setup, hands)
    assert sheet.winner is None, "the benchmark match must not end"
    return setup, hands


def _fits(record: HandRecord, runs: list[Replay]) -> bool:
    """Add the hand to every replay if each takes it without a winner; else change nothing."""
    tried = [r.copy() for r in runs]
    for r in tried:
        try:
            r.add(record)
        except Refused:
            return False
        if r.winner is not None:
            return False
    runs[:] = tried
    return True


def house_rules_cost(seats: int, repeats: int) -> tuple[float, float]:
    """Microseconds per hand of one 200-hand match with no house rule and with every one on,
    taken in turns (the same hands, legal and without a winner under both)."""
    on = Setup(
        players=tuple(f"P{i}" for i in range(seats)),
        rules="squarescores",
        options=Options(target=1000, blind_bids=True, **HOUSE_RULES_ON),  # type: ignore[arg-type]
        first_dealer=0,
        start_scores=(0,) * seats,
    )
    plain, hands = build_match(200, seats, also=[on])
    off, every = float("inf"), float("inf")
    for _ in range(3):
        off = min(off, time_per_hand(plain, list(hands), repeats))
        every = min(every, time_per_hand(on, list(hands), repeats))
    return off, every


def build_tichu_match(n_rounds: int, seed: int = 2) -> tuple[Setup, list[Record]]:
    """A Tichu match that never ends: card points, made and failed calls, double victories.

    A team at 500 or more calls Grand Tichu and the other team goes out first, so nobody
    reaches the target of 1000.
    """
    rng = random.Random(seed)
    setup = Setup(
        players=("Anna", "Boris", "Vera", "Gleb"),
        rules="tichu",
        options=Options(target=1000, sheet_style="signed"),
        first_dealer=0,
        start_scores=(0, 0),
    )
    scores = [0, 0]
    rounds: list[Record] = []
    while len(rounds) < n_rounds:
        calls: list[str | None] = [None] * 4
        high = [t for t in (0, 1) if scores[t] >= 500]
        first_out = rng.randrange(4)
        if high:
            calls[high[0] + 2 * rng.randrange(2)] = "grand"
            first_out = 1 - high[0] + 2 * rng.randrange(2)
        elif rng.random() < 0.3:
            calls[rng.randrange(4)] = "tichu"
        double = not high and rng.random() < 0.05
        team0 = 5 * rng.randrange(-5, 26)
        record = TichuRound(
            calls=tuple(calls),
            first_out=first_out,
            double_victory=double,
            card_points=None if double else (team0, 100 - team0),
        )
        rounds.append(record)
        last = replay(setup, rounds).hands[-1]
        scores = [r.score for r in last.results]
    assert replay(setup, rounds).winner is None, "the benchmark match must not end"
    return setup, rounds


def _best_of_5(run: Callable[[], Any], repeats: int, n_hands: int) -> float:
    """Best-of-5 microseconds per hand over `repeats` calls of `run`."""
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(repeats):
            run()
        best = min(best, time.process_time() - t0)
    return best / repeats / n_hands * 1e6


def time_per_hand(setup: Setup, hands: list[Record], repeats: int) -> float:
    """Best-of-5 microseconds per hand over `repeats` replays."""
    return _best_of_5(lambda: replay(setup, hands), repeats, len(hands))


def side_by_side(base: ModuleType, setup: Setup, hands: Sequence[HandRecord], repeats: int) -> tuple[float, float]:
    """Microseconds per hand of the baseline engine and of this one, taken in turns.

    The baseline replays the same hands, rebuilt through the JSON shapes as its own objects;
    both must agree on every seat's score.
    """
    data = setup_to_dict(setup)
    # The baseline knows no house rule: every one is at its default here, today's rules.
    data["options"] = {k: v for k, v in data["options"].items() if k not in HOUSE_RULES}
    base_setup = base.setup_from_dict(data)
    base_hands = [base.hand_from_dict(hand_to_dict(h)) for h in hands]
    ours = replay(setup, hands)
    theirs = base.replay(base_setup, base_hands)
    assert [s.score for s in ours.standings] == [s.score for s in theirs.standings]
    before, now = float("inf"), float("inf")
    for _ in range(3):
        before = min(before, _best_of_5(lambda: base.replay(base_setup, base_hands), repeats, len(hands)))
        now = min(now, time_per_hand(setup, list(hands), repeats))
    return before, now


def memory_per_hand(setup: Setup, hands: list[HandRecord]) -> tuple[float, float]:
    """Bytes per hand: the MatchState kept afterwards, and the peak while replaying."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    sheet = replay(setup, hands)
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del sheet
    return (kept - base) / len(hands), (peak - base) / len(hands)


def main() -> None:
    """Print the figures as Markdown tables, ready for docs/performance.md."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="few repeats, for a smoke run")
    ap.add_argument("--baseline", default=BASELINE, help=f"commit whose engine to compare with (default {BASELINE})")
    args = ap.parse_args()
    repeats = 5 if args.quick else 100
    base = load_engine(args.baseline)
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(
        f"Python {platform.python_version()} on {platform.machine()} "
        f"({platform.processor() or platform.platform()}); this tree at {head}"
    )
    print(f"\n| µs per hand | {args.baseline} | now | now / {args.baseline} |\n|---|---|---|---|")
    per_hand = {}
    for seats in (3, 4):
        setup, hands = build_match(200, seats)
        before, per_hand[seats] = side_by_side(base, setup, hands, repeats)
        print(
            f"| squarescores, {seats} seats, {len(hands)} hands | {before:.2f} | "
            f"{per_hand[seats]:.2f} | {per_hand[seats] / before:.2f} |"
        )
    print("\n| µs per hand, 200 hands | no house rule | every house rule on | on / off |\n|---|---|---|---|")
    for seats in (3, 4):
        off, on = house_rules_cost(seats, repeats)
        print(f"| squarescores, {seats} seats | {off:.2f} | {on:.2f} | {on / off:.2f} |")
    setup, rounds = build_tichu_match(100)
    per_round = time_per_hand(setup, rounds, repeats)
    print(f"\n| match | records | µs per record |\n|---|---|---|\n| tichu (rounds) | {len(rounds)} | {per_round:.2f} |")
    print(f"\nTichu round / 3-seat Tysiacha hand: {per_round / per_hand[3]:.2f}")
    print(
        "\n| hands | output kept, bytes per hand | peak while replaying, bytes per hand "
        "| peak / kept |\n|---|---|---|---|"
    )
    for n in (50, 200, 800):
        setup, hands = build_match(n, 3)
        kept, peak = memory_per_hand(setup, hands)
        print(f"| {n} | {kept:,.0f} | {peak:,.0f} | {peak / kept:.2f} |")


if __name__ == "__main__":
    main()
