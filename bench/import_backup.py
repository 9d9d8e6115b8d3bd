"""Benchmark: importing a large backup, and what another table's save waits meanwhile.

Run:  .venv/bin/python bench/import_backup.py     (--matches N; DATABASE_URL to use PostgreSQL;
      --profile to print where the import's time goes; --no-saver to time the import alone)

Builds one banked Tichu match through the JSON API, exports it, and copies it into a backup
of N matches (1,200 by default: about 2 MB, half the upload limit); then imports that backup
through `POST /api/matches/import` while a second process (its own app on the same database) adds and
deletes a hand of another match, again and again. Reports the import's time and status, and
the saves' count, slowest time and statuses. A script, not a timed test: timings belong on a
quiet machine.
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoresheet import create_app  # noqa: E402

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
ROUND = {"calls": ["grand", None, None, None], "first_out": 0, "double_victory": True}
"""A grand Tichu made with a double victory: team 0 +400. Three of them win the match."""


def make_app(url: str, folder: str) -> Any:
    """The app on `url`, limits and CSRF off, cheap password hashes."""
    return create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
            "RATELIMIT_ENABLED": False,
            "INSTANCE_PATH": folder,
        }
    )


def build_document(client: Any, headers: dict[str, str], count: int) -> dict[str, Any]:
    """A backup of `count` copies of one banked Tichu match."""
    match = client.post("/api/matches", json={"players": PLAYERS, "rules": "tichu"}, headers=headers).json
    for _ in range(3):
        assert client.post(f"/api/matches/{match['id']}/hands", json=ROUND, headers=headers).status_code == 201
    assert client.post(f"/api/matches/{match['id']}/bank", headers=headers).status_code == 200
    one = client.get(f"/api/matches/{match['id']}/backup", headers=headers).json
    doc = copy.deepcopy(one)
    doc["matches"] = [dict(one["matches"][0], id=f"m{i:07d}", join_code=f"{i:06d}") for i in range(count)]
    return doc


def saver(url: str, folder: str, token: str, match_id: str, start: Any, stop: Any, out: Any) -> None:
    """Add and delete a hand of `match_id` until told to stop; report each save's time."""
    app = make_app(url, folder)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    times, statuses = [], []
    start.wait()
    while not stop.is_set():
        began = time.perf_counter()
        response = client.post(f"/api/matches/{match_id}/hands", json={"card_points": [60, 40]}, headers=headers)
        times.append(time.perf_counter() - began)
        statuses.append(response.status_code)
        if response.status_code == 201:
            client.delete(f"/api/matches/{match_id}/hands/1", headers=headers)
        time.sleep(0.05)
    out.put((times, statuses))


def main() -> None:
    """Build the backup, import it (with a saver beside it), print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=1200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-saver", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/bench.sqlite"
    app = make_app(url, folder)
    client = app.test_client()
    account = {"username": f"bench{os.getpid()}", "password": "correct horse"}
    token = client.post("/api/users", json=account).json["token"]
    headers = {"Authorization": f"Bearer {token}"}
    doc = build_document(client, headers, args.matches)
    body = json.dumps(doc).encode()
    other = client.post("/api/matches", json={"players": PLAYERS, "rules": "tichu"}, headers=headers).json["id"]
    print(f"backup: {args.matches} banked Tichu matches, {len(body) / 1e6:.2f} MB ({url.split(':')[0]})")
    context = multiprocessing.get_context("spawn")
    start, stop, out = context.Event(), context.Event(), context.Queue()
    process = None
    if not args.no_saver:
        process = context.Process(target=saver, args=(url, folder, token, other, start, stop, out))
        process.start()
        time.sleep(3)  # the saver's app is made
    start.set()
    time.sleep(0.5)
    began = time.perf_counter()
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
    response = client.post("/api/matches/import", data=body, content_type="application/json", headers=headers)
    took = time.perf_counter() - began
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    time.sleep(0.5)
    stop.set()
    print(f"import: {response.status_code} in {took:.2f} s")
    if process is not None:
        times, statuses = out.get()
        process.join()
        counts = {s: statuses.count(s) for s in sorted(set(statuses))}
        print(f"saves meanwhile: {len(times)}, slowest {max(times):.2f} s, statuses {counts}")


if __name__ == "__main__":
    main()
