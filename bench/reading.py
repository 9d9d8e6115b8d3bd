"""Benchmark: pages read on PostgreSQL without a transaction, against the same pages read in
one, side by side in one process.

Run:  DATABASE_URL=postgresql://… .venv/bin/python bench/reading.py   (--matches N, --hands N,
                                                                       --rounds N)

On PostgreSQL a reading request runs its statements without a transaction (`database`'s begin
hook puts the driver in autocommit): no BEGIN and no ROLLBACK round trip. This builds, through
the JSON API, `--matches` matches of `--hands` hands for one player (the engine benchmark's
generator), logs the player in, and times interleaved, round by round: `GET /healthz`, then
the match's sheet, the home page and the player's page, each once as the app reads it now and
once with every request taken for one that may write (`database._reading` made to answer
False: BEGIN … ROLLBACK, as before). Reports medians and their ratio to /healthz, wall clock
and CPU (`bench/timing.py`). A script, not a timed test: the ratios are what to compare.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.replay import build_match  # noqa: E402
from bench.timing import api_matches, bench_app, getter, interleaved, options, report  # noqa: E402
from scoresheet.storage import database  # noqa: E402


def in_a_transaction(call: Callable[[], None]) -> Callable[[], None]:
    """`call` with every request taken for one that may write (BEGIN … ROLLBACK)."""

    def with_transaction() -> None:
        reading = database._reading
        database._reading = lambda: False
        try:
            call()
        finally:
            database._reading = reading

    return with_transaction


def main() -> None:
    """Build the matches, time each page both ways interleaved, print a table."""
    args = options(__doc__, matches=10).parse_args()
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        raise SystemExit(
            "DATABASE_URL must name a PostgreSQL database (SQLite reads in a deferred transaction of its own)."
        )
    setup, records = build_match(args.hands)
    with tempfile.TemporaryDirectory() as instance:
        app = bench_app(instance, database_url)
        client = app.test_client()
        user = {"username": "bench", "password": "bench password"}
        token = client.post("/api/users", json=user).get_json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        match_id = api_matches(client, auth, setup, records, args.matches)[-1]
        assert client.post("/login", data=user).status_code == 302
        get = getter(client)
        pages = {
            "the sheet of a match": get(f"/matches/{match_id}"),
            "the home page": get("/"),
            "the player's page": get("/players/bench"),
        }
        timed: dict[str, Callable[[], None]] = {"GET /healthz": get("/healthz")}
        for name, call in pages.items():
            call()  # compile the templates, replay the match
            timed[f"{name}, no transaction"] = call
            timed[f"{name}, BEGIN … ROLLBACK"] = in_a_transaction(call)
        times = interleaved(timed, args.rounds)

    report(f"{args.matches} matches of {args.hands} hands, {args.rounds} interleaved rounds", database_url, times)


if __name__ == "__main__":
    main()
