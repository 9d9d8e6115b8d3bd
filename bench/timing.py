"""What the web benchmarks share: their options and app, a logged-in page client, timing
requests interleaved round by round, and the table of medians against GET /healthz.

Each call is timed twice: wall-clock time, and the CPU time of this process (the test client
runs the app in this process). On a machine shared with other work the wall-clock time of a
longer request grows with every time slice it waits for, a short one often fits in one; the
CPU time does not wait, so its ratio is the steadier figure there.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from flask import Flask

from scoresheet import create_app
from scoresheet.rules import Record, Setup, hand_to_dict

Samples = dict[str, tuple[list[float], list[float]]]
"""Per request: the wall-clock and the CPU seconds of every call."""


def options(doc: str | None, matches: int, hands: int = 40, rounds: int = 100) -> argparse.ArgumentParser:
    """The options of a benchmark of many matches (`--matches`, `--hands`, `--rounds`), with
    these defaults and the script's docstring as its help."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--matches", type=int, default=matches)
    parser.add_argument("--hands", type=int, default=hands)
    parser.add_argument("--rounds", type=int, default=rounds)
    return parser


def bench_app(instance: str, database_url: str) -> Flask:
    """The app as the benchmarks run it: a cheap password hash, no rate limit, no CSRF check
    (the page clients post forms without one)."""
    return create_app(
        {
            "INSTANCE_PATH": instance,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
            "RATELIMIT_ENABLED": False,
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url,
        }
    )


def page_client(app: Flask, username: str) -> Any:
    """A test client of a new player `username`, made through the API and logged in on the
    pages (with no match: the price of a page itself)."""
    client = app.test_client()
    login = {"username": username, "password": "bench password"}
    assert client.post("/api/users", json=login).status_code == 201
    assert client.post("/login", data=login).status_code == 302
    return client


def api_matches(client: Any, auth: dict[str, str], setup: Setup, records: Sequence[Record], count: int) -> list[str]:
    """Start `count` matches of `setup` through the JSON API and record `records` in each, as
    a phone would; their ids."""
    ids = []
    for _ in range(count):
        match = client.post(
            "/api/matches", headers=auth, json={"players": list(setup.players), "rules": setup.rules}
        ).get_json()
        for record in records:
            assert (
                client.post(f"/api/matches/{match['id']}/hands", headers=auth, json=hand_to_dict(record)).status_code
                == 201
            )
        ids.append(match["id"])
    return ids


def getter(client: Any) -> Callable[..., Callable[[], None]]:
    """`get(url, headers=None)`: a call that GETs `url` with `client` and checks it is 200."""

    def get(url: str, headers: dict[str, str] | None = None) -> Callable[[], None]:
        def call() -> None:
            assert client.get(url, headers=headers).status_code == 200

        return call

    return get


def interleaved(
    timed: dict[str, Callable[[], object]],
    rounds: int,
    before_each: Callable[[], object] = lambda: None,
    after_round: Callable[[], object] = lambda: None,
) -> Samples:
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
    print(f"{platform.python_implementation()} {platform.python_version()}, {database_url.split(':')[0]}, {title}")
    print(f"{'request':<{width}} {'median ms':>10} {'p90 ms':>8} {'× healthz':>10} {'CPU ms':>8} {'CPU × healthz':>14}")
    for name, (wall, cpu) in times.items():
        med, med_cpu = statistics.median(wall), statistics.median(cpu)
        p90 = statistics.quantiles(wall, n=10)[-1]
        print(
            f"{name:<{width}} {med * 1000:>10.3f} {p90 * 1000:>8.3f} {med / base_wall:>10.1f} "
            f"{med_cpu * 1000:>8.3f} {med_cpu / base_cpu:>14.1f}"
        )
