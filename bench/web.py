"""Benchmark: what a 200-hand match costs the web app, against GET /healthz.

Run:  .venv/bin/python bench/web.py            (--rounds N, --hands N; DATABASE_URL to use PostgreSQL)

Builds a 200-hand match through the JSON API, then times in one process, interleaved round by
round: GET /healthz, adding hand 201, fetching the match JSON and the CSV (as the other phones
do right after), hand 202 through the match page's form as the phone's queue sends it
(static/offline.js: the form's fields, answered in JSON), the match JSON once more with this
process's sheet cache emptied (what a worker that has not seen the match yet pays: a full
replay), and the live-update poll of a logged-in phone whose sheet is current (`GET
/matches/<id>/version`, 304: what every phone asks every few seconds;
`scoresheet/quick_poll.py` answers it), and the match page of a 40-hand match of the same
player, warm (what a phone opening the sheet pays). Between rounds hands 202 and 201 are
deleted again and the match fetched once, untimed, as a polling phone would. Reports medians
and their ratio to /healthz. A script, not a timed test: the ratios are what to compare, the
machine is noisy.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.replay import build_match  # noqa: E402
from bench.timing import interleaved, report  # noqa: E402
from scoresheet import create_app  # noqa: E402
from scoresheet.rules import hand_to_dict  # noqa: E402
from scoresheet.services.matches import replay_cache  # noqa: E402
from scoresheet.web.pages.forms import record_to_form_data  # noqa: E402


def main() -> None:
    """Build the matches, time the requests interleaved, print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--page-hands", type=int, default=40)
    args = parser.parse_args()

    setup, records = build_match(args.hands + 2)
    *stored, extra, by_form = records
    with tempfile.TemporaryDirectory() as instance:
        app = create_app(
            {
                "INSTANCE_PATH": instance,
                "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
                "RATELIMIT_ENABLED": False,
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": os.environ.get("DATABASE_URL", f"sqlite:///{instance}/bench.sqlite"),
            }
        )
        client = app.test_client()
        token = client.post("/api/users", json={"username": "bench", "password": "bench password"}).get_json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        match = client.post(
            "/api/matches", headers=auth, json={"players": list(setup.players), "rules": setup.rules}
        ).get_json()
        url = f"/api/matches/{match['id']}"
        for record in stored:
            assert client.post(f"{url}/hands", headers=auth, json=hand_to_dict(record)).status_code == 201
        page_match = client.post(
            "/api/matches", headers=auth, json={"players": list(setup.players), "rules": setup.rules}
        ).get_json()
        page_url = f"/api/matches/{page_match['id']}/hands"
        for record in stored[: args.page_hands]:
            assert client.post(page_url, headers=auth, json=hand_to_dict(record)).status_code == 201
        body = hand_to_dict(extra) | {"expected_hand": args.hands + 1}
        fields = record_to_form_data(hand_to_dict(by_form), len(setup.players)) | {"expected_hand": args.hands + 2}
        phone = app.test_client()  # a phone logged in on the pages, as the live updates are
        assert phone.post("/login", data={"username": "bench", "password": "bench password"}).status_code == 302
        poll = f"/matches/{match['id']}/version"
        etag = {"If-None-Match": phone.get(poll).headers["ETag"]}

        def add() -> None:
            assert client.post(f"{url}/hands", headers=auth, json=body).status_code == 201

        def add_by_form() -> None:
            queued = phone.post(
                f"/matches/{match['id']}/hands/new", data=fields, headers={"Accept": "application/json"}
            )
            assert queued.status_code == 201, queued.json

        def undo() -> None:
            for number in (args.hands + 2, args.hands + 1):
                assert client.delete(f"{url}/hands/{number}", headers=auth).status_code == 200
            client.get(url, headers=auth)
            etag["If-None-Match"] = phone.get(poll).headers["ETag"]

        def unchanged() -> None:
            assert phone.get(poll, headers=etag).status_code == 304

        def page() -> None:
            assert phone.get(f"/matches/{page_match['id']}").status_code == 200

        def cold() -> None:
            replay_cache._cache.pop(match["id"], None)  # this match only: the page's stays warm
            client.get(url, headers=auth)

        timed: dict[str, Callable[[], object]] = {
            "GET /healthz": lambda: client.get("/healthz"),
            "GET version, unchanged (304)": unchanged,
            f"POST hand {args.hands + 1}": add,
            f"POST hand {args.hands + 2}, page form": add_by_form,
            "GET match JSON": lambda: client.get(url, headers=auth),
            "GET sheet.csv": lambda: client.get(f"{url}/sheet.csv", headers=auth),
            "GET match, cold": cold,
            f"GET match page, {args.page_hands} hands": page,
        }
        times = interleaved(timed, args.rounds, after_round=undo)

    report(f"{args.hands} hands, {args.rounds} interleaved rounds", app.config["SQLALCHEMY_DATABASE_URI"], times)


if __name__ == "__main__":
    main()
