"""Benchmark: a club night's standings, board and board version, warm, against GET /healthz.

Run:  .venv/bin/python bench/club_standings.py     (--players 60, --rounds 6, --hands 3,
                                                    --times 100; DATABASE_URL for PostgreSQL)

Builds a night through the JSON API in this process: `--players` guests, `--rounds` rounds,
each table playing `--hands` hands (a made bid, then missed bids, nobody wins) before the
director closes the round, so every table of every round has a result. Then times, interleaved
round by round (`bench/timing.py`): `GET /healthz`, the standings of an unknown event (404:
what any API call on an event costs before it reads the event's rounds: the token and the
event looked up), the standings (`GET /api/events/<id>/standings`: the standings the event
keeps, ranked by every change that alters them, read with the event), the board behind the watch link (the same and
the current round's cards), and the board's version (what every board asks every 1.5 s). Warm,
as in a serving process. Medians and their ratios to /healthz, wall clock and CPU.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import bench_app, getter, interleaved, report  # noqa: E402


def hand(number: int, players: int) -> dict[str, Any]:
    """Hand `number` of a table: the first a made 140 with the hearts marriage, then missed 100s."""
    declarer = (number - 1) % players
    points: list[int | None] = [20] * players
    points[declarer] = None
    marriages: list[list[str]] = [[] for _ in range(players)]
    if number == 1:
        marriages[declarer] = ["hearts"]
    return {"kind": "played", "declarer": declarer, "bid": 140 if number == 1 else 100, "points": points,
            "marriages": marriages}  # fmt: skip


def night(client: Any, auth: dict[str, str], players: int, rounds: int, hands: int) -> dict[str, Any]:
    """A night of `players` guests and `rounds` rounds, every table with its result; the event."""
    body = {"name": "Bench night", "game": {"rules": "squarescores"}, "rounds": rounds, "seating": "byes", "seed": 1}
    event = client.post("/api/events", headers=auth, json=body).get_json()
    url = f"/api/events/{event['id']}"
    for n in range(players):
        assert client.post(f"{url}/roster", headers=auth, json={"guest": f"Player {n:03d}"}).status_code == 201
    for number in range(1, rounds + 1):
        seated = client.post(f"{url}/rounds", headers=auth)
        assert seated.status_code == 201, seated.get_json()
        for table in seated.get_json()["tables"]:
            for k in range(1, hands + 1):
                answer = client.post(
                    f"/api/matches/{table['match_id']}/hands", headers=auth, json=hand(k, len(table["players"]))
                )
                assert answer.status_code == 201, answer.get_json()
        assert client.post(f"{url}/rounds/{number}/close", headers=auth).status_code == 200
    return dict(event)


def main() -> None:
    """Build the night, time the requests interleaved, print a table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--times", type=int, default=100, help="interleaved rounds of timing")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    with tempfile.TemporaryDirectory() as instance:
        app = bench_app(instance, os.environ.get("DATABASE_URL", f"sqlite:///{instance}/bench.sqlite"))
        client = app.test_client()
        token = client.post("/api/users", json={"username": "director", "password": "bench password"}).get_json()
        auth = {"Authorization": f"Bearer {token['token']}"}
        event = night(client, auth, args.players, args.rounds, args.hands)
        get = getter(client)
        board = "/events/watch/" + event["watch_url"].rsplit("/", 1)[1]

        def unknown_event() -> None:  # the floor: the token and the event looked up, no more
            assert client.get("/api/events/no-such-event/standings", headers=auth).status_code == 404

        timed = {
            "GET /healthz": get("/healthz"),
            "GET an unknown event (API, 404)": unknown_event,
            "GET standings (API)": get(f"/api/events/{event['id']}/standings", auth),
            "GET the board": get(board),
            "GET the board's version": get(f"{board}/version"),
        }
        for call in timed.values():  # warm: templates compiled, every table replayed once
            call()
        times = interleaved(timed, args.times)
    report(
        f"a night of {args.players} players, {args.rounds} rounds, {args.hands} hands a table, "
        f"{args.times} interleaved rounds; load average {os.getloadavg()[0]:.1f}",
        app.config["SQLALCHEMY_DATABASE_URI"],
        times,
    )


if __name__ == "__main__":
    main()
