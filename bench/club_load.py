"""Load benchmark of a club night: gunicorn on SQLite and on PostgreSQL, 60 players at 20 tables
playing at once, each table saving a hand every few seconds, the board and 60 phones following.

Run:  .venv/bin/python bench/club_load.py                  (60 players, a hand every 6 s per
                                                            table, 60 s per database)
      .venv/bin/python bench/club_load.py --databases sqlite --duration 20

The machinery is bench/load.py's (its client, gunicorn, databases and report). For each database
it sets a night up through the JSON API: `--players` accounts join the event by its code, rounds
1 to `--rounds` − 1 are seated, two hands saved at every table and closed by the director, then
the last round is seated (its time is reported: CLUB.md §3's Swiss seating of that many
players). Then for `--duration` seconds every player's phone follows its table's match as the
page does (`GET /matches/<id>/version` every `--poll` s with its session, 304 while unchanged;
the whole match once when it changed), one phone per table saves a hand every `--hand-every`
seconds, the board behind the watch link asks `/events/watch/<token>/version` every `--poll` s
and fetches the whole board (every table's live scores and the night's standings) when it moved,
and a /healthz probe runs alongside. With `--night-pages N`, N of the players also keep the
night's page open, as between rounds (templates/nights/event.html): its version every 4 s
(`data-poll-seconds`), the whole page when it moved (a hand at any table moves it: the page
shows every table's hands and scores). The report gives each kind's count, p50, p99 and errors.

A real night saves a hand a minute at each table: `--hand-every 60`. The default, 6 s, is ten
times that, so the run is ten nights' worth of saving and the board is fetched again at nearly
every one of its polls (a hand lands somewhere every 0.3 s); a slower rate only means fewer
hands and fewer board fetches, the same polls.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import (  # noqa: E402
    Phone,
    Server,
    Stats,
    Table,
    database,
    expect,
    hand_loop,
    health_loop,
    login_page,
    nap,
    next_hand,
    poll_loop,
    report,
    request,
    serve,
    timed,
)


async def register(port: int, name: str) -> Phone:
    """A new account through the API."""
    body = {"username": name, "password": "bench password"}
    reply = expect(await request(port, "POST", "/api/users", body), 201, "POST /api/users")
    return Phone(name, reply.json()["token"])


async def setup(port: int, args: argparse.Namespace) -> tuple[list[Table], str, str, dict[str, Any]]:
    """The night up to its last round seated: its tables (each with its players' phones), the
    board's path, the night's page and what the set-up measured."""
    run = f"{os.getpid() % 1000}{int(time.time()) % 10000}"
    gate = asyncio.Semaphore(8)

    async def gated(coro: Any) -> Any:
        async with gate:
            return await coro

    director = await register(port, f"d{run}")
    phones = list(await asyncio.gather(*(gated(register(port, f"p{run}n{n}")) for n in range(args.players))))
    body = {"name": "Bench night", "game": {"rules": "squarescores"}, "rounds": args.rounds, "seed": 2026}
    event = expect(await request(port, "POST", "/api/events", body, director.auth), 201, "POST /api/events").json()
    url = f"/api/events/{event['id']}"
    await asyncio.gather(
        *(gated(request(port, "POST", "/api/events/join", {"code": event["code"]}, p.auth)) for p in phones)
    )
    by_name = {p.username: p for p in phones}
    seat_s = 0.0
    tables: list[Table] = []
    for number in range(1, args.rounds + 1):
        started = time.perf_counter()
        seated = expect(await request(port, "POST", f"{url}/rounds", None, director.auth), 201, "seat").json()
        seat_s = time.perf_counter() - started
        tables = [Table(t["match_id"], "", [by_name[name] for name in t["players"]]) for t in seated["tables"]]
        if number == args.rounds:
            break
        for table in tables:  # two hands a table, then the round is closed
            for k in (1, 2):
                hand = next_hand(k)
                path = f"/api/matches/{table.match_id}/hands"
                expect(await gated(request(port, "POST", path, hand, director.auth)), 201, "hand")
        expect(await request(port, "POST", f"{url}/rounds/{number}/close", None, director.auth), 200, "close")
    await asyncio.gather(*(gated(login_page(port, p)) for t in tables for p in t.phones))
    board = "/events/watch/" + event["watch_url"].rsplit("/", 1)[1]
    return tables, board, f"/events/{event['id']}", {"seat_last_round_s": seat_s, "tables": len(tables)}


async def follow_loop(
    port: int, page: str, what: str, every: float, stats: Stats, until: float, cookie: str | None = None
) -> None:
    """A page that follows the night as static/app.js makes it (`what`: the board, the night's
    page): its version every `every` s, the whole page when it moved (the page swaps its live
    part in); `cookie`: a player's session."""
    logged_in = {"Cookie": cookie} if cookie else {}
    version = ""
    while time.perf_counter() < until:
        tick = time.perf_counter()
        headers = logged_in | ({"If-None-Match": f'"{version}"'} if version else {})
        reply = await timed(stats, f"{what} version", (200, 304), port, "GET", f"{page}/version", headers=headers)
        if reply is not None and reply.status == 200:
            if version:
                await timed(stats, f"{what} after change", (200,), port, "GET", page, headers=logged_in)
            version = reply.json()["version"]
        await nap(every - (time.perf_counter() - tick), until)


async def night_page_loop(port: int, phone: Phone, night: str, stats: Stats, until: float) -> None:
    """A player with the night's page open, from a random first moment."""
    await nap(random.uniform(0, NIGHT_POLL), until)
    await follow_loop(port, night, "night", NIGHT_POLL, stats, until, phone.cookie)


NIGHT_POLL = 4.0
"""Seconds between a night page's version polls (templates/nights/event.html)."""


async def load(server: Server, args: argparse.Namespace) -> tuple[Stats, float, dict[str, Any]]:
    """Set the night up, then run the phones, the scorers and the board for `--duration` s."""
    port = server.port
    started = time.perf_counter()
    tables, board, night, extra = await setup(port, args)
    extra["setup_s"] = time.perf_counter() - started
    stats = Stats()
    until = time.perf_counter() + args.duration
    tasks = [
        health_loop(port, stats, until, args.healthz_every),
        follow_loop(port, board, "board", args.poll, stats, until),
    ]
    for table in tables:
        tasks += [poll_loop(port, table, phone, args, stats, until) for phone in table.phones]
        tasks.append(hand_loop(port, table, args, stats, until))
    players = [phone for table in tables for phone in table.phones]
    tasks += [night_page_loop(port, phone, night, stats, until) for phone in players[: args.night_pages]]
    cpu_before, client_before, load_before = server.cpu(), time.process_time(), os.getloadavg()
    began = time.perf_counter()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - began
    extra.update(
        hands_at_end=[t.hands for t in tables],
        server_cpu_s=sum(t - cpu_before.get(pid, 0.0) for pid, t in server.cpu().items()),
        client_cpu_s=time.process_time() - client_before,
        load_average=(load_before[0], os.getloadavg()[0]),
    )
    return stats, elapsed, extra


def main(argv: list[str] | None = None) -> int:
    """Run the night on each database; exit 1 if a target was missed (--check)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=60, help="a multiple of 3: every table of three")
    parser.add_argument("--rounds", type=int, default=6, help="the night's rounds; the last one is played")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per database")
    parser.add_argument("--poll", type=float, default=1.5, help="seconds between polls (static/app.js: 1.5)")
    parser.add_argument("--hand-every", type=float, default=6.0, help="seconds between a table's hands (real: 60)")
    parser.add_argument("--healthz-every", type=float, default=0.2)
    parser.add_argument("--night-pages", type=int, default=0, help="players who also keep the night's page open")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: gunicorn.conf.py's)")
    parser.add_argument(
        "--redis",
        default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="the limit counters' store when gunicorn runs several workers",
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL server to create the bench database on (as this URL's user)",
    )
    parser.add_argument(
        "--database-prefix",
        default=os.environ.get("BENCH_DATABASE_PREFIX", "bench_load"),
        help="the bench database's name: <prefix>_<pid>_<time>",
    )
    parser.add_argument(
        "--priority",
        type=int,
        default=0,
        help="nice value for gunicorn and this client, e.g. -10 (root only), as bench/load.py's",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 unless p99 < 100 ms and no errors")
    args = parser.parse_args(argv)
    if args.priority:
        os.setpriority(os.PRIO_PROCESS, 0, args.priority)  # gunicorn inherits it
    # What bench/load.py's helpers read besides: phones poll the version as the page does.
    args.poll_with, args.backoff, args.poll_most, args.instances, args.nginx = "version", False, 12.0, 1, False
    args.feed = "auto"  # LIVE_FEED as deployed (the phones and the board poll: no stream waits on it)
    print(
        f"club night: {args.players} players at {args.players // 3} tables, round {args.rounds} played, "
        f"poll every {args.poll:g} s, a hand every {args.hand_every:g} s a table, {args.duration:g} s per "
        f"database; {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    failed = False
    for kind in args.databases.split(","):
        random.seed(1)
        with (
            tempfile.TemporaryDirectory(prefix="bench-club-") as tmp,
            database(kind, args.postgres, Path(tmp), args.database_prefix) as url,
            serve(url, args, Path(tmp)) as server,
        ):
            if kind == "postgresql":
                server.postgres, server.database = args.postgres, url.rsplit("/", 1)[1]
            stats, elapsed, extra = asyncio.run(load(server, argparse.Namespace(**vars(args))))
            print(f"seating round {args.rounds} through the API: {1000 * extra['seat_last_round_s']:.0f} ms", end="")
            figures = report(kind, stats, elapsed, extra)
            failed |= figures["errors"] > 0 or figures["p99"] >= 0.1
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
