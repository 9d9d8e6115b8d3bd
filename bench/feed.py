"""What the live-update hub reads to learn of changes: polling the versions against PostgreSQL's
change feed (web/live/push.py, storage/feed.py), side by side in one run.

Run:  .venv/bin/python bench/feed.py                      (200 matches, 20 s at rest each way)
      .venv/bin/python bench/feed.py --matches 50 --rest 10 --databases postgresql

For each database and way (`LIVE_FEED=poll`; on PostgreSQL also `auto`, the feed) it starts the
app in-process on a new database, makes `--matches` matches and follows each with one stream's
waits (a thread calling the hub as `push.stream` does, an `alive` every `PUSH_HEARTBEAT`), then
counts the hub's version reads (queries, and match versions read) for `--rest` seconds while
nothing changes, and then while `--hands` hands are saved one after another, with how long each
took to reach its stream. One process stands for one worker: a server's hubs read this much
each. A script, not a test: figures belong in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import BENCH_CONFIG, database  # noqa: E402
from scoresheet import create_app  # noqa: E402
from scoresheet.services.matches.versions import newer  # noqa: E402
from scoresheet.storage.extensions import db  # noqa: E402


class Counted:
    """The hub's version reads, counted: queries (calls) and match versions read."""

    def __init__(self, hub: Any) -> None:
        self.calls = self.versions = 0
        read = hub._versions_of

        def counted(match_ids: list[str]) -> dict[str, str]:
            self.calls += 1
            self.versions += len(match_ids)
            return read(match_ids)  # type: ignore[no-any-return]

        hub._versions_of = counted

    def since(self, start: tuple[int, int], seconds: float) -> str:
        """Reads a second since `start` (calls, versions)."""
        calls, versions = (self.calls - start[0]) / seconds, (self.versions - start[1]) / seconds
        return f"{calls:.1f} queries/s, {versions:.1f} versions/s"


def run(url: str, feed: str, args: argparse.Namespace, folder: Path) -> None:
    """One database, one way: follow, rest, save hands; print the figures."""
    app = create_app(
        {
            **BENCH_CONFIG,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "INSTANCE_PATH": str(folder / f"instance-{feed}"),
            "RATELIMIT_ENABLED": False,
            "LIVE_PUSH": True,
            "LIVE_FEED": feed,
        }
    )
    client = app.test_client()
    token = client.post("/api/users", json={"username": f"bench{feed}", "password": "correct horse battery"}).json
    headers = {"Authorization": f"Bearer {token['token']}"}  # type: ignore[index]
    matches = [
        client.post("/api/matches", json={"players": ["A", "B", "C"]}, headers=headers).json["id"]  # type: ignore[index]
        for _ in range(args.matches)
    ]
    hub = app.extensions["push"]
    counted = Counted(hub)
    beat, stop = float(app.config["PUSH_HEARTBEAT"]), threading.Event()
    saved: dict[str, float] = {}
    heard: list[float] = []

    def follow(match_id: str) -> None:
        known = "0-0"
        while not stop.is_set():
            fresh = hub.wait(match_id, known, beat)
            if newer(fresh, known):
                known = fresh
                heard.append(time.monotonic() - saved.pop(match_id, time.monotonic()))

    threads = [threading.Thread(target=follow, args=(m,), daemon=True) for m in matches]
    for thread in threads:
        thread.start()
    time.sleep(2)  # every match followed, its first version read
    start = (counted.calls, counted.versions)
    time.sleep(args.rest)
    at_rest = counted.since(start, args.rest)
    start, began = (counted.calls, counted.versions), time.monotonic()
    for n in range(args.hands):
        match_id = matches[n % len(matches)]
        saved[match_id] = time.monotonic()
        client.post(f"/api/matches/{match_id}/hands", json={"kind": "redeal"}, headers=headers)
        time.sleep(args.hand_every)
    time.sleep(1)
    changing = counted.since(start, time.monotonic() - began)
    stop.set()
    for thread in threads:
        thread.join()
    hub.stop()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    delays = sorted(heard)
    print(
        f"{url.split(':', 1)[0]:10} {feed:5} at rest: {at_rest}; saving a hand every {args.hand_every:g} s: "
        f"{changing}; heard {len(delays)}/{args.hands}, p50 {1000 * statistics.median(delays or [0]):.0f} ms, "
        f"max {1000 * max(delays or [0]):.0f} ms",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Each database, each way, one after the other in one run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches followed, one stream each")
    parser.add_argument("--rest", type=float, default=20.0, help="seconds counted while nothing changes")
    parser.add_argument("--hands", type=int, default=20, help="hands saved afterwards")
    parser.add_argument("--hand-every", type=float, default=0.5, help="seconds between those hands")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL server to create the bench database on",
    )
    parser.add_argument("--database-prefix", default=os.environ.get("BENCH_DATABASE_PREFIX", "bench_feed"))
    args = parser.parse_args(argv)
    print(
        f"feed: {args.matches} matches followed, {args.rest:g} s at rest, then {args.hands} hands; "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for kind in args.databases.split(","):
        for feed in ("poll", "auto") if kind == "postgresql" else ("poll",):
            with tempfile.TemporaryDirectory(prefix="bench-feed-") as tmp:
                with database(kind, args.postgres, Path(tmp), args.database_prefix) as url:
                    run(url, feed, args, Path(tmp))
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
