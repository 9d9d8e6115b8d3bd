"""Benchmark: a player's page with many banked matches, against GET /healthz, warm and cold.

Run:  .venv/bin/python bench/players.py    (--matches N, --hands N, --rounds N; DATABASE_URL
                                            to use PostgreSQL)

Builds `--matches` banked matches of `--hands` hands for one player, who claimed seat 0 in
each, and a tablemate who claimed seat 1 in each (the engine benchmark's never-ending hands,
then made 120s by the leader until someone wins: the same records for every match), each
banked through `commands.bank` so that its seat figures, the players' totals and the ratings
are kept as in the app. Then times:

- warm, interleaved round by round in this process: `GET /healthz`, the player's own page
  `GET /players/<name>`, the tablemate's page as the player reads it, `GET /leaderboard`,
  the player's page and the leaderboard of this year (every match banked in it: its figures
  added up and its ratings computed when asked), `GET /api/players/<name>`, and the page of a
  player with no match (the price of the page itself);
- cold, as docs/performance.md defines it: for every sample a fresh process (a subprocess of
  this script on the same database) whose caches are all empty — the replay cache, the
  `functools` caches of built queries, SQLAlchemy's compiled-statement cache, the session's
  identity map — with every template compiled and one warm-up request to another page
  (`GET /`) made; it then times `GET /healthz` and the one cold request side by side, once.

Reports medians and their ratio to /healthz, wall clock and CPU (`bench/timing.py`; the cold
rows against the fresh processes' own /healthz). Targets: at most 5× /healthz warm in CPU
(8× wall clock on PostgreSQL) and 15× cold. `--warm-only` skips the cold samples. A script,
not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.replay import build_match  # noqa: E402
from bench.timing import Samples, bench_app, getter, interleaved, options, page_client, report  # noqa: E402
from scoresheet.rules import HandRecord, Record, Setup, hand_to_dict, replay  # noqa: E402
from scoresheet.services.matches import commands  # noqa: E402
from scoresheet.storage.extensions import db  # noqa: E402
from scoresheet.storage.models import Hand, Member, Seat, User  # noqa: E402

LOGIN = {"username": "bench", "password": "bench password"}
MATE = {"username": "mate", "password": "bench password"}
COLD = {"GET /players/<name>, cold": "/players/bench", "GET /api/players/<name>, cold": "/api/players/bench"}


def won_match(hands: int) -> tuple[Setup, list[Record]]:
    """A match that someone wins with exactly `hands` hands (or as close as can be)."""
    best: tuple[Setup, list[Record]] | None = None
    for prefix in range(hands - 1, 0, -1):
        setup, played = build_match(prefix)
        records: list[Record] = list(played)
        state = replay(setup, records)
        while state.winner is None:
            leader = max(range(len(state.standings)), key=lambda i: state.standings[i].score)
            records.append(
                HandRecord(
                    "played",
                    declarer=leader,
                    bid=120,
                    points=tuple(None if i == leader else 0 for i in range(len(setup.players))),
                )
            )
            state = replay(setup, records)
        if len(records) <= hands:
            return setup, records
        best = setup, records
    assert best is not None
    return best


def cold_child(instance: str, database_url: str, url: str, token: str) -> None:
    """One cold sample (run in a fresh process): log in, compile every template, warm up
    on another page, then time GET /healthz and `url` once each; print them as JSON."""
    app = bench_app(instance, database_url)
    client = app.test_client()
    assert client.post("/login", data=LOGIN).status_code == 302
    env = app.jinja_env
    for name in env.list_templates(filter_func=lambda n: n.endswith((".html", ".svg", ".js"))):
        env.get_template(name)
    assert client.get("/").status_code == 200  # the warm-up request to another page
    headers = {"Authorization": f"Bearer {token}"} if url.startswith("/api/") else None
    found = {}
    for name, path, with_headers in (("healthz", "/healthz", None), ("target", url, headers)):
        wall, cpu = time.perf_counter(), time.process_time()
        assert client.get(path, headers=with_headers).status_code == 200
        found[name] = (time.perf_counter() - wall, time.process_time() - cpu)
    print(json.dumps(found))


def cold_samples(instance: str, database_url: str, token: str, rounds: int) -> Samples:
    """`rounds` fresh processes per cold request, interleaved; each one's /healthz beside it."""
    times: Samples = {"GET /healthz": ([], [])} | {name: ([], []) for name in COLD}
    for _ in range(rounds):
        for name, url in COLD.items():
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--cold-child",
                    url,
                    "--instance",
                    instance,
                    f"--token={token}",
                ],  # may start "-"
                env=os.environ | {"DATABASE_URL": database_url},
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            found = json.loads(out.strip().splitlines()[-1])
            for key, row in (("healthz", "GET /healthz"), ("target", name)):
                times[row][0].append(found[key][0])
                times[row][1].append(found[key][1])
    return times


def main() -> None:
    """Build the banked matches, time the requests warm and cold, print two tables."""
    parser = options(__doc__, matches=500)
    parser.add_argument("--cold-child", help=argparse.SUPPRESS)
    parser.add_argument("--instance", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--warm-only", action="store_true", help="skip the cold samples")
    args = parser.parse_args()
    if args.cold_child:
        cold_child(args.instance, os.environ["DATABASE_URL"], args.cold_child, args.token)
        return

    setup, records = won_match(args.hands)
    stored = [hand_to_dict(r) for r in records]  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as instance:
        database_url = os.environ.get("DATABASE_URL", f"sqlite:///{instance}/bench.sqlite")
        app = bench_app(instance, database_url)
        client = app.test_client()
        token = client.post("/api/users", json=LOGIN).get_json()["token"]
        assert client.post("/api/users", json=MATE).status_code == 201
        with app.app_context():
            user = db.session.execute(db.select(User).filter_by(username="bench")).scalar_one()
            mate = db.session.execute(db.select(User).filter_by(username="mate")).scalar_one()
            for _ in range(args.matches):
                match = commands.create_match(user, setup)
                db.session.add(Member(match_id=match.id, user_id=mate.id))
                db.session.add_all(
                    Hand(match_id=match.id, number=n, record=r, created_by_id=user.id, updated_by_id=user.id)
                    for n, r in enumerate(stored, start=1)
                )
                db.session.add(Seat(match_id=match.id, seat=0, user_id=user.id))
                db.session.add(Seat(match_id=match.id, seat=1, user_id=mate.id))
                db.session.commit()
                commands.bank(match, user)
        assert client.post("/login", data=LOGIN).status_code == 302
        auth = {"Authorization": f"Bearer {token}"}
        empty = page_client(app, "nobody")  # a player with no match: the price of the page
        get = getter(client)
        for page in ("/players/bench", "/players/mate", "/leaderboard"):  # compile the templates
            client.get(page)
        client.get("/")  # the warm-up request to another page
        warm = interleaved(
            {
                "GET /healthz": get("/healthz"),
                "GET /players/<name>, warm": get("/players/bench"),
                "GET /players/<tablemate>, warm": get("/players/mate"),
                "GET /leaderboard, warm": get("/leaderboard"),
                "GET /players/<name>?period=year, warm": get("/players/bench?period=year"),
                "GET /leaderboard?period=year, warm": get("/leaderboard?period=year"),
                "GET /api/players/<name>, warm": get("/api/players/bench", auth),
                "GET /players/<name> with no match": lambda: empty.get("/players/nobody"),
            },
            args.rounds,
        )
        cold = None if args.warm_only else cold_samples(instance, database_url, token, args.rounds)

    title = f"{args.matches} banked matches of {len(records)} hands, {args.rounds} rounds"
    report(f"{title}, warm (one process)", database_url, warm)
    if cold is not None:
        report(f"{title}, cold (a fresh process per sample)", database_url, cold)


if __name__ == "__main__":
    main()
