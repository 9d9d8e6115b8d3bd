"""What the web benchmarks share: timing requests interleaved round by round, and the table of
medians against GET /healthz.

Each call is timed twice: wall-clock time, and the CPU time of this process (the test client
runs the app in this process). On a machine shared with other work the wall-clock time of a
longer request grows with every time slice it waits for, a short one often fits in one; the
CPU time does not wait, so its ratio is the steadier figure there.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable

Samples = dict[str, tuple[list[float], list[float]]]
"""Per request: the wall-clock and the CPU seconds of every call."""


def interleaved(timed: dict[str, Callable[[], object]], rounds: int,
                before_each: Callable[[], object] = lambda: None,
                after_round: Callable[[], object] = lambda: None) -> Samples:
    """Time each request once per round, round after round (`before_each`, untimed, runs
    before every timed call; `after_round` after every round)."""
    times: Samples = {name: ([], []) for name in timed}
    for _ in range(rounds):
        for name, call in timed.items():
            before_each()
            wall, cpu = time.perf_counter(), time.process_time()
            call()
            times[name][1].append(time.process_time() - cpu)
            times[name][0].append(time.perf_counter() - wall)
        after_round()
    return times


def report(title: str, database_url: str, times: Samples) -> None:
    """Print medians, p90s and each median's ratio to GET /healthz's, wall clock and CPU."""
    base_wall, base_cpu = (statistics.median(s) for s in times["GET /healthz"])
    width = max(len(name) for name in times) + 2
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{database_url.split(':')[0]}, {title}")
    print(f"{'request':<{width}} {'median ms':>10} {'p90 ms':>8} {'× healthz':>10} "
          f"{'CPU ms':>8} {'CPU × healthz':>14}")
    for name, (wall, cpu) in times.items():
        med, med_cpu = statistics.median(wall), statistics.median(cpu)
        p90 = statistics.quantiles(wall, n=10)[-1]
        print(f"{name:<{width}} {med * 1000:>10.3f} {p90 * 1000:>8.3f} {med / base_wall:>10.1f} "
              f"{med_cpu * 1000:>8.3f} {med_cpu / base_cpu:>14.1f}")
