"""Benchmark: a player's page with many banked matches, against GET /healthz.

Run:  .venv/bin/python bench/players.py    (--matches N, --hands N, --rounds N; DATABASE_URL
                                            to use PostgreSQL)

Builds `--matches` banked matches of `--hands` hands for one player, who claimed seat 0 in
each (the engine benchmark's never-ending hands, then made 120s by the leader until someone
wins: the same records for every match), each banked through `services.bank` so that its seat
figures and ratings are kept as in the app. Then times, interleaved round by round:
`GET /healthz`, the player's page `GET /players/<name>` and `GET /api/players/<name>`, warm
(as a process serves them one after another; beside them the page of a player with no match,
the price of the page itself) and cold (the process's replay cache emptied
before each: the page reads kept figures and never replays, so both should cost the same).
Reports medians and their ratio to /healthz, wall clock and CPU (`bench/timing.py`). Targets
(issue 16): at most 5× /healthz warm and 15× cold. A script, not a timed test.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.home import _empty_replay_cache  # noqa: E402
from bench.replay import build_match  # noqa: E402
from bench.timing import interleaved, report  # noqa: E402
from scoresheet import create_app, services  # noqa: E402
from scoresheet.extensions import db  # noqa: E402
from scoresheet.models import Hand, Seat, User  # noqa: E402
from scoresheet.rules import HandRecord, Record, Setup, hand_to_dict, replay  # noqa: E402


def won_match(hands: int) -> tuple[Setup, list[Record]]:
    """A match that someone wins with exactly `hands` hands (or as close as can be)."""
    best: tuple[Setup, list[Record]] | None = None
    for prefix in range(hands - 1, 0, -1):
        setup, played = build_match(prefix)
        records: list[Record] = list(played)
        state = replay(setup, records)
        while state.winner is None:
            leader = max(range(len(state.standings)), key=lambda i: state.standings[i].score)
            records.append(HandRecord("played", declarer=leader, bid=120,
                                      points=tuple(None if i == leader else 0
                                                   for i in range(len(setup.players)))))
            state = replay(setup, records)
        if len(records) <= hands:
            return setup, records
        best = setup, records
    assert best is not None
    return best


def main() -> None:
    """Build the banked matches, time the requests interleaved, print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()

    empty_cache = _empty_replay_cache()
    setup, records = won_match(args.hands)
    stored = [hand_to_dict(r) for r in records]  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance, "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
                          "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False,
                          "SQLALCHEMY_DATABASE_URI": os.environ.get(
                              "DATABASE_URL", f"sqlite:///{instance}/bench.sqlite")})
        client = app.test_client()
        login = {"username": "bench", "password": "bench password"}
        token = client.post("/api/users", json=login).get_json()["token"]
        with app.app_context():
            user = db.session.execute(db.select(User)).scalar_one()
            for _ in range(args.matches):
                match = services.create_match(user, setup)
                db.session.add_all(Hand(match_id=match.id, number=n, record=r,
                                        created_by_id=user.id, updated_by_id=user.id)
                                   for n, r in enumerate(stored, start=1))
                db.session.add(Seat(match_id=match.id, seat=0, user_id=user.id))
                db.session.commit()
                services.bank(match, user)
        assert client.post("/login", data=login).status_code == 302
        auth = {"Authorization": f"Bearer {token}"}
        empty = app.test_client()  # a player with no match: the price of the page itself
        nobody = {"username": "nobody", "password": "bench password"}
        assert empty.post("/api/users", json=nobody).status_code == 201
        assert empty.post("/login", data=nobody).status_code == 302

        def get(url: str, headers: dict[str, str] | None = None) -> Callable[[], None]:
            def call() -> None:
                assert client.get(url, headers=headers).status_code == 200
            return call

        client.get("/players/bench")  # compile the templates
        client.get("/")  # the warm-up request to another page
        page, api = get("/players/bench"), get("/api/players/bench", auth)
        warm = interleaved({"GET /healthz": get("/healthz"), "GET /players/<name>": page,
                            "GET /api/players/<name>": api,
                            "GET /players/<name> with no match": lambda: empty.get(
                                "/players/nobody")}, args.rounds)
        cold = interleaved({"GET /healthz": get("/healthz"), "GET /players/<name>, cold": page,
                            "GET /api/players/<name>, cold": api}, args.rounds,
                           before_each=empty_cache)

    title = f"{args.matches} banked matches of {len(records)} hands, {args.rounds} rounds"
    report(f"{title}, warm", app.config["SQLALCHEMY_DATABASE_URI"], warm)
    report(f"{title}, cold", app.config["SQLALCHEMY_DATABASE_URI"], cold)


if __name__ == "__main__":
    main()
