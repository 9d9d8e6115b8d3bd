"""Benchmark: what a 200-hand match costs the web app, against GET /healthz (issue 3).

Run:  .venv/bin/python bench/web.py            (--rounds N, --hands N; DATABASE_URL to use PostgreSQL)

Builds a 200-hand match through the JSON API, then times in one process, interleaved round
by round: GET /healthz, adding hand 201, fetching the match JSON and the CSV (as the other
phones do right after), and the match JSON once more with this process's sheet cache emptied
(what a worker that has not seen the match yet pays: a full replay). Between rounds hand 201 is
deleted again and the match fetched once, untimed, as a polling phone would.
Reports medians and their ratio to /healthz. A script, not a timed test: the ratios are what
to compare, the machine is noisy.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.replay import build_match  # noqa: E402
from scoresheet import create_app, sheets  # noqa: E402
from scoresheet.rules import hand_to_dict  # noqa: E402


def main() -> None:
    """Build the match, time the four requests interleaved, print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()

    setup, records = build_match(args.hands + 1)
    *stored, extra = records
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance, "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
                          "RATELIMIT_ENABLED": False,
                          "SQLALCHEMY_DATABASE_URI": os.environ.get(
                              "DATABASE_URL", f"sqlite:///{instance}/bench.sqlite")})
        client = app.test_client()
        token = client.post("/api/users", json={"username": "bench", "password": "benchbench"}
                            ).get_json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        match = client.post("/api/matches", headers=auth, json={
            "players": list(setup.players), "rules": setup.rules}).get_json()
        url = f"/api/matches/{match['id']}"
        for record in stored:
            assert client.post(f"{url}/hands", headers=auth, json=hand_to_dict(record)
                               ).status_code == 201
        body = hand_to_dict(extra) | {"expected_hand": args.hands + 1}

        def add() -> None:
            assert client.post(f"{url}/hands", headers=auth, json=body).status_code == 201

        def undo() -> None:
            assert client.delete(f"{url}/hands/{args.hands + 1}", headers=auth).status_code == 200
            client.get(url, headers=auth)

        def cold() -> None:
            sheets._cache.clear()
            client.get(url, headers=auth)

        timed: dict[str, Callable[[], object]] = {
            "GET /healthz": lambda: client.get("/healthz"),
            f"POST hand {args.hands + 1}": add,
            "GET match JSON": lambda: client.get(url, headers=auth),
            "GET sheet.csv": lambda: client.get(f"{url}/sheet.csv", headers=auth),
            "GET match, cold": cold,
        }
        times: dict[str, list[float]] = {name: [] for name in timed}
        for _ in range(args.rounds):
            for name, call in timed.items():
                start = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - start)
            undo()

    base = statistics.median(times["GET /healthz"])
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{app.config['SQLALCHEMY_DATABASE_URI'].split(':')[0]}, {args.hands} hands, "
          f"{args.rounds} interleaved rounds")
    print(f"{'request':<20} {'median ms':>10} {'p90 ms':>8} {'× healthz':>10}")
    for name, samples in times.items():
        med = statistics.median(samples)
        p90 = statistics.quantiles(samples, n=10)[-1]
        print(f"{name:<20} {med * 1000:>10.3f} {p90 * 1000:>8.3f} {med / base:>10.1f}")


if __name__ == "__main__":
    main()
