"""Benchmark: what one request costs the server as gunicorn serves it (HTTP, a gevent worker),
against GET /healthz: the CPU behind each change at a table under `bench/load.py --poll-with push`.

Run:  .venv/bin/python bench/served.py          (--rounds N, --requests N, --hands N, --databases
      sqlite,postgresql; the PostgreSQL server: --postgres or BENCH_POSTGRES_URL, as bench/load.py)

Starts one gevent worker as `bench/load.py` does (its `gunicorn`), sets a table up as it does
(three users, a match of `--hands` hands, the phones logged in on the pages), then one request
at a time, `--requests` in a row per kind and kinds in turn for `--rounds` rounds: GET /healthz,
the match page, its live part alone (what each phone fetches when it hears of a change:
`static/app.js`), and the match JSON (what the phones fetched in the load benchmark's first
model). The figure is the
server's CPU time per request (the worker's, and on PostgreSQL its backends' too), as the
median of the rounds and as a ratio to /healthz. A script, not a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import Server, cpu_used, database, gunicorn, make_table, request  # noqa: E402


def main() -> None:
    """Serve each database in turn, time every kind interleaved, print a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--requests", type=int, default=100, help="requests in a row per kind and round")
    parser.add_argument("--hands", type=int, default=10, help="hands of the match (bench/load.py starts with 10)")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    )
    args = parser.parse_args()
    os.environ["WEB_CONCURRENCY"] = "1"  # one worker: the limits counted in memory are fine
    for kind in args.databases.split(","):
        with tempfile.TemporaryDirectory() as folder, database(kind, args.postgres, Path(folder)) as url:
            with gunicorn(url, 1, Path(folder) / "gunicorn.log", "gevent") as server:
                if kind == "postgresql":
                    server = Server(server.port, server.pid, args.postgres, url.rsplit("/", 1)[1])
                measure(kind, server, args)


def measure(kind: str, server: Server, args: argparse.Namespace) -> None:
    """Set a table up on the running server, time each kind of request, print the figures."""
    table = asyncio.run(make_table(server.port, 0, "served", args.hands, True))
    phone = table.phones[0]
    kinds = {
        "GET /healthz": ("/healthz", {}),
        f"GET match page, {args.hands} hands": (f"/matches/{table.match_id}", {"Cookie": phone.cookie}),
        "GET its live part": (f"/matches/{table.match_id}/live", {"Cookie": phone.cookie}),
        "GET match JSON": (f"/api/matches/{table.match_id}", phone.auth),
    }

    async def many(path: str, headers: dict[str, str], count: int) -> None:
        for _ in range(count):
            reply = await request(server.port, "GET", path, headers=headers)
            assert reply.status == 200, (path, reply.status)

    cpu: dict[str, list[float]] = {name: [] for name in kinds}
    for path, headers in kinds.values():
        asyncio.run(many(path, headers, 20))  # warm: the worker's replay kept, its pool filled
    for _ in range(args.rounds):
        for name, (path, headers) in kinds.items():
            before = server.cpu()
            asyncio.run(many(path, headers, args.requests))
            cpu[name].append(1000 * cpu_used(before, server.cpu()) / args.requests)
    base = statistics.median(cpu["GET /healthz"])
    print(f"\n{kind}: server CPU per request, one gevent worker, {args.rounds} rounds of {args.requests}")
    print(f"{'request':30} {'CPU ms':>8} {'× healthz':>10}")
    for name, values in cpu.items():
        median = statistics.median(values)
        ratio = f"{median / base:10.1f}" if base else f"{'—':>10}"  # (a few requests: under a clock tick)
        print(f"{name:30} {median:8.2f} {ratio}")


if __name__ == "__main__":
    main()
