"""Benchmark: where the match page's time goes, against GET /healthz.

Run:  .venv/bin/python bench/page_parts.py          (--hands N, --rounds N; DATABASE_URL to use PostgreSQL)

Plays a match of `--hands` hands through the JSON API, then times in one process, interleaved
round by round with GET /healthz, the match page of its creator (three guest seats: the
creator's page shows every seat's buttons) whole and with parts of it left out: each variant is
an app of its own on the same database whose templates of those parts are empty. What a part
costs is the whole page's figure less the figure without it. The lightest variants leave out
the page itself: the view's reads with no template at all, and the base page with no content
(`shared/base.html`: the header, the language switch). A script, not a timed test: the ratios
are what to compare, the machine is noisy.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from jinja2 import ChoiceLoader, DictLoader

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.replay import build_match  # noqa: E402
from bench.timing import api_matches, bench_app, getter, interleaved, report  # noqa: E402

LOGIN = {"username": "bench", "password": "bench password"}
EMPTY_PAGE = '{% extends "shared/base.html" %}'
VARIANTS = {
    "match page, whole": {},
    "  without the sheet's rows": {"shared/_sheet.html": ""},
    "  without the race": {"shared/_chart.html": ""},
    "  without the standings": {"shared/_standings.html": ""},
    "  without who is who": {"players/_seats.html": ""},
    "  without the members": {"pages/_members.html": ""},
    "  without the invitation": {"invite/_invite.html": ""},
    "  the base page, no content": {"pages/match.html": EMPTY_PAGE},
    "  the view's reads, no template": {"pages/match.html": ""},
}
"""Each variant's templates replaced: its name, and what each template it changes holds."""


def main() -> None:
    """Play the match, time every variant's page interleaved with /healthz, print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=150)
    args = parser.parse_args()

    setup, records = build_match(args.hands)
    with tempfile.TemporaryDirectory() as instance:
        url = os.environ.get("DATABASE_URL", f"sqlite:///{instance}/bench.sqlite")
        app = bench_app(instance, url)
        client = app.test_client()
        token = client.post("/api/users", json=LOGIN).get_json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        (match_id,) = api_matches(client, auth, setup, records, 1)

        timed: dict[str, Callable[[], object]] = {"GET /healthz": lambda: client.get("/healthz")}
        for name, templates in VARIANTS.items():
            variant = bench_app(instance, url)
            variant.jinja_env.loader = ChoiceLoader([DictLoader(templates), variant.jinja_env.loader])
            phone = variant.test_client()
            assert phone.post("/login", data=LOGIN).status_code == 302
            timed[name] = getter(phone)(f"/matches/{match_id}")
        times = interleaved(timed, args.rounds)

    report(f"the match page of {args.hands} hands, {args.rounds} interleaved rounds", url, times)


if __name__ == "__main__":
    main()
