"""Benchmark: the home page of a user with many matches, in a cold process, against GET /healthz.

Run:  .venv/bin/python bench/home.py       (--matches N, --hands N, --rounds N; DATABASE_URL
                                            to use PostgreSQL)

Builds, through the JSON API, `--matches` matches of `--hands` hands each for one user (the
engine benchmark's generator), logs that user in on a page client, then times interleaved,
round by round: `GET /healthz`, the home page `GET /`, the home page of a user with no match
(the price of the page itself), a route this benchmark adds that only says the logged-in user's
name (the price of being logged in: the session and its user), and `GET /api/matches`. Before each timed request the
process's replay cache is emptied, so each home page and list is what a COLD process pays:
"cold" means a process whose replay cache is empty, templates compiled, and one warm-up request
to another page made (docs/performance.md). Reports medians and their ratio to /healthz, wall
clock and CPU (`bench/timing.py`). A script, not a timed test: the ratios are what to compare.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask_login import current_user, login_required  # noqa: E402

from bench.replay import build_match  # noqa: E402
from bench.timing import (  # noqa: E402
    api_matches,
    bench_app,
    getter,
    interleaved,
    options,
    page_client,
    report,
)


def _empty_replay_cache() -> Callable[[], None]:
    """What empties this process's replay cache (`replay_cache`; `sheets` in older versions)."""
    for name in ("scoresheet.services.matches.replay_cache", "scoresheet.sheets"):
        try:
            return importlib.import_module(name)._cache.clear  # type: ignore[no-any-return]
        except ModuleNotFoundError:
            continue
    raise SystemExit("No replay cache module found.")


def main() -> None:
    """Build the matches, time the three requests interleaved, print a table."""
    args = options(__doc__, matches=100).parse_args()

    empty_cache = _empty_replay_cache()
    setup, records = build_match(args.hands)
    with tempfile.TemporaryDirectory() as instance:
        app = bench_app(instance, os.environ.get("DATABASE_URL", f"sqlite:///{instance}/bench.sqlite"))

        @app.get("/bench/logged-in")
        @login_required
        def logged_in() -> str:
            """The floor of any page for a logged-in player: the session and its user, no
            template, no query of its own (registered by this benchmark only)."""
            return str(current_user.username)

        client = app.test_client()
        user = {"username": "bench", "password": "bench password"}
        token = client.post("/api/users", json=user).get_json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        api_matches(client, auth, setup, records, args.matches)
        assert client.post("/login", data=user).status_code == 302
        empty = page_client(app, "nobody")  # the same page without any match
        get = getter(client)
        client.get("/")  # compile the templates
        empty_cache()
        client.get("/matches/new")  # the warm-up request to another page
        timed: dict[str, Callable[[], None]] = {
            "GET /healthz": get("/healthz"),
            "GET / (home), cold": get("/"),
            "GET / with no match": lambda: empty.get("/"),
            "a logged-in page that says one word": get("/bench/logged-in"),
            "GET /api/matches, cold": get("/api/matches", auth),
        }
        times = interleaved(timed, args.rounds, before_each=empty_cache)

    report(
        f"{args.matches} matches of {args.hands} hands, {args.rounds} interleaved rounds",
        app.config["SQLALCHEMY_DATABASE_URI"],
        times,
    )


if __name__ == "__main__":
    main()
