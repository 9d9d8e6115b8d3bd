"""What the web benchmarks share: timing requests interleaved round by round, and the table of
medians against GET /healthz."""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable


def interleaved(timed: dict[str, Callable[[], object]], rounds: int,
                before_each: Callable[[], object] = lambda: None,
                after_round: Callable[[], object] = lambda: None) -> dict[str, list[float]]:
    """Seconds per call of each request, round by round (`before_each`, untimed, runs before
    every timed call; `after_round` after every round)."""
    times: dict[str, list[float]] = {name: [] for name in timed}
    for _ in range(rounds):
        for name, call in timed.items():
            before_each()
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
        after_round()
    return times


def report(title: str, database_url: str, times: dict[str, list[float]]) -> None:
    """Print medians, p90s and each median's ratio to GET /healthz's."""
    base = statistics.median(times["GET /healthz"])
    width = max(len(name) for name in times) + 2
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{database_url.split(':')[0]}, {title}")
    print(f"{'request':<{width}} {'median ms':>10} {'p90 ms':>8} {'× healthz':>10}")
    for name, samples in times.items():
        med = statistics.median(samples)
        p90 = statistics.quantiles(samples, n=10)[-1]
        print(f"{name:<{width}} {med * 1000:>10.3f} {p90 * 1000:>8.3f} {med / base:>10.1f}")
