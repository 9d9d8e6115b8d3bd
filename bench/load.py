"""Load benchmark: gunicorn on SQLite and on PostgreSQL, N tables of three phones.

Run:  .venv/bin/python bench/load.py                 (200 tables, 60 s per database)
      .venv/bin/python bench/load.py --tables 50 --duration 20 --databases sqlite

For each database it starts gunicorn with gunicorn.conf.py on a free loopback port (SQLite: a
new file in a temporary folder; PostgreSQL: a new database on --postgres, dropped afterwards),
creates the tables through the JSON API (three users each, one match, `--start-hands` hands),
then for `--duration` seconds every phone polls its match every `--poll` seconds and one phone
per table enters a hand every `--hand-every` seconds (`expected_hand` set, as the pages do).
A /healthz probe runs alongside; the report gives requests per second, p50/p99 latency, errors,
and each kind's p50 as a multiple of /healthz's p50 in the same run.

Polling: `--poll-with version` polls the live-update endpoint `GET /matches/<id>/version` with
If-None-Match as the phones' pages do (a logged-in session; 304 while nothing changed) and
fetches the match page's live part (`GET /matches/<id>/live`, logged in) when it changed, as
the page does to swap its sheet in (static/app.js); `--poll-with match` fetches the whole match as JSON
(`GET /api/matches/<id>`) every time (the worst case). `auto` uses `version` when the server has it.
`--poll-with push` runs gunicorn's gevent workers (`WORKER_CLASS=gevent`, so `LIVE_PUSH`) and
each phone keeps the match's event stream open (`GET /matches/<id>/events`), fetching the
live part when it names a new version; the report adds how long each saved hand took to
reach the other phones.

The client is the standard library only (asyncio, one connection per request as with gunicorn's
sync workers). A script, not a test: figures belong in docs/performance.md ("Current figures").
The server runs with cheap password hashing and very high login/registration rate limits so
that setting up hundreds of users is quick; neither is on the measured paths.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
BENCH_CONFIG = {
    "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
    "LOGIN_LIMIT_PER_ADDRESS": "1000000 per minute",
    "LOGIN_LIMIT_PER_USERNAME": "1000000 per minute",
    "REGISTER_LIMIT_PER_ADDRESS": "1000000 per minute",
    "REGISTER_LIMIT_PER_USERNAME": "1000000 per minute",
    "JOIN_LIMIT_PER_ADDRESS": "1000000 per minute",
    "SESSION_COOKIE_SECURE": False,
}
"""Server settings for the run (setting up hundreds of users from one address)."""
AUTOGROUP = "/proc/sys/kernel/sched_autogroup_enabled"
"""Linux groups each session's processes and shares the CPU between the groups first: with it
on, `--priority` weighs only against this session's own processes (`echo 0 >` it as root)."""


# --- a small HTTP/1.1 client ---------------------------------------------------------------


@dataclass
class Reply:
    """An HTTP response."""

    status: int
    headers: dict[str, str]
    body: bytes
    cookies: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


async def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    form: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> Reply:
    """One request on a new connection (`Connection: close`); the whole response."""
    head = {"Host": f"{HOST}:{port}", "Connection": "close", **(headers or {})}
    data = b""
    if body is not None:
        data = json.dumps(body).encode()
        head["Content-Type"] = "application/json"
    elif form is not None:
        from urllib.parse import urlencode

        data = urlencode(form).encode()
        head["Content-Type"] = "application/x-www-form-urlencoded"
    if data or method in ("POST", "PUT"):
        head["Content-Length"] = str(len(data))
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in head.items()), "", ""]

    async def exchange() -> bytes:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write("\r\n".join(lines).encode("latin-1") + data)
            await writer.drain()
            return await reader.read()
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    raw = await asyncio.wait_for(exchange(), timeout)
    header_part, _, payload = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = header_part.decode("latin-1").split("\r\n")
    reply = Reply(int(status_line.split()[1]), {}, payload)
    for line in header_lines:
        name, _, value = line.partition(":")
        if name.lower() == "set-cookie":
            cookie, _, _ = value.strip().partition(";")
            key, _, val = cookie.partition("=")
            reply.cookies[key] = val
        else:
            reply.headers[name.lower()] = value.strip()
    if reply.headers.get("transfer-encoding") == "chunked":
        reply.body = dechunk(payload)
    return reply


def dechunk(payload: bytes) -> bytes:
    """Decode a chunked body."""
    out, rest = b"", payload
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out


# --- the tables ----------------------------------------------------------------------------


@dataclass
class Phone:
    """One phone at a table: a user with a token (and a page session for live updates)."""

    username: str
    token: str
    cookie: str = ""
    version: str = ""

    @property
    def auth(self) -> dict[str, str]:
        """The API's Authorization header."""
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Table:
    """A match and the three phones around it."""

    match_id: str
    join_code: str
    phones: list[Phone]
    hands: int = 0
    saved: dict[int, float] = field(default_factory=dict)
    """When each hand (by number) was saved (its answer came back): push delivery times. A hand
    heard before its answer came back (the change feed announces it at its commit) counts 0."""


def next_hand(number: int) -> dict[str, Any]:
    """A legal hand nobody wins with: seats declare in turn, bid 120 and miss."""
    declarer = (number - 1) % 3
    points: list[int | None] = [25, 30, 35]
    points[declarer] = None
    return {
        "kind": "played",
        "declarer": declarer,
        "bid": 120,
        "points": points,
        "marriages": [[], [], []],
        "expected_hand": number,
    }


def expect(reply: Reply, status: int, what: str) -> Reply:
    """The reply, or an error saying what failed."""
    if reply.status != status:
        raise RuntimeError(f"{what}: HTTP {reply.status} {reply.body[:200]!r}")
    return reply


async def login_page(port: int, phone: Phone) -> None:
    """Log the phone's browser in through the page (CSRF token first), keeping the cookie."""
    page = expect(await request(port, "GET", "/login"), 200, "GET /login")
    token = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page.body)
    cookie = "; ".join(f"{k}={v}" for k, v in page.cookies.items())
    form = {
        "username": phone.username,
        "password": "bench password",
        "csrf_token": token.group(1).decode() if token else "",
    }
    reply = await request(port, "POST", "/login", form=form, headers={"Cookie": cookie})
    if reply.status not in (302, 303) or "session" not in reply.cookies:
        raise RuntimeError(f"POST /login: HTTP {reply.status}")
    phone.cookie = f"session={reply.cookies['session']}"


async def make_table(port: int, n: int, run: str, start_hands: int, pages: bool) -> Table:
    """Three users, a match, two joins and the first hands, all through the API."""
    phones = []
    for seat in range(3):
        name = f"b{run}t{n}s{seat}"
        reply = expect(
            await request(port, "POST", "/api/users", {"username": name, "password": "bench password"}),
            201,
            "POST /api/users",
        )
        phones.append(Phone(name, reply.json()["token"]))
    match = expect(
        await request(port, "POST", "/api/matches", {"players": ["Anna", "Boris", "Vera"]}, phones[0].auth),
        201,
        "POST /api/matches",
    ).json()
    table = Table(match["id"], match["join_code"], phones)
    for phone in phones[1:]:
        expect(
            await request(port, "POST", "/api/matches/join", {"code": table.join_code}, phone.auth),
            200,
            "POST /api/matches/join",
        )
    for _ in range(start_hands):
        await add_hand(port, table)
    if pages:
        for phone in phones:
            await login_page(port, phone)
    return table


async def add_hand(port: int, table: Table) -> Reply:
    """Enter the table's next hand from its first phone."""
    reply = await request(
        port, "POST", f"/api/matches/{table.match_id}/hands", next_hand(table.hands + 1), table.phones[0].auth
    )
    if reply.status == 201:
        table.hands += 1
        table.saved[table.hands] = time.perf_counter()
    return reply


async def setup(port: int, tables: int, start_hands: int, pages: bool) -> list[Table]:
    """Create the tables, a few at a time."""
    run = f"{os.getpid() % 1000}{int(time.time()) % 10000}"
    gate = asyncio.Semaphore(8)

    async def one(n: int) -> Table:
        async with gate:
            return await make_table(port, n, run, start_hands, pages)

    return list(await asyncio.gather(*(one(n) for n in range(tables))))


# --- the run ----------------------------------------------------------------------------------


@dataclass
class Stats:
    """Latencies (seconds) and errors per kind of request."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    deliveries: list[float] = field(default_factory=list)
    """Push: seconds from a hand's save to each other phone hearing its version."""
    streams: int = 0
    """Push: event streams opened (each phone keeps one; it comes back when one ends)."""

    def record(self, kind: str, started: float, ok: bool, what: str = "") -> None:
        """Note one request."""
        self.latencies[kind].append(time.perf_counter() - started)
        if not ok:
            self.errors[kind].append(what)


async def timed(stats: Stats, kind: str, expected: tuple[int, ...], *args: Any, **kw: Any) -> Reply | None:
    """A request, its latency and whether it answered as expected."""
    started = time.perf_counter()
    try:
        reply = await request(*args, **kw)
    except (TimeoutError, OSError, ValueError, IndexError) as err:
        stats.record(kind, started, False, type(err).__name__)
        return None
    stats.record(kind, started, reply.status in expected, f"HTTP {reply.status}")
    return reply


async def nap(seconds: float, until: float) -> None:
    """Sleep `seconds`, but not beyond the end of the run."""
    await asyncio.sleep(max(0.0, min(seconds, until - time.perf_counter())))


QUIET = 30.0
"""With --backoff: after this many seconds without a change a phone polls less often, as
static/app.js did until 2026-12-04 (a half longer each time, up to --poll-most seconds); the
page now polls every 1.5 s however long the table thinks, the default here."""


async def poll_loop(
    port: int, table: Table, phone: Phone, args: argparse.Namespace, stats: Stats, until: float
) -> None:
    """A phone polling its match every `--poll` seconds, from a random first moment (with
    --backoff, less often while the match does not change, as the page once did)."""
    await nap(random.uniform(0, args.poll), until)
    every, changed_at = args.poll, time.perf_counter()
    while time.perf_counter() < until:
        tick = time.perf_counter()
        if args.poll_with == "version":
            headers = {"Cookie": phone.cookie}
            if phone.version:
                headers["If-None-Match"] = f'"{phone.version}"'
            reply = await timed(
                stats, "poll version", (200, 304), port, "GET", f"/matches/{table.match_id}/version", headers=headers
            )
            if reply is not None and reply.status == 200:
                changed = bool(phone.version)
                phone.version = reply.headers.get("etag", "").strip('W/"')
                if changed:
                    await live_part_after_change(port, table, phone, stats)
                    every, changed_at = args.poll, time.perf_counter()
        else:
            await timed(stats, "poll match", (200,), port, "GET", f"/api/matches/{table.match_id}", headers=phone.auth)
        if args.backoff and args.poll_with == "version" and time.perf_counter() - changed_at > QUIET:
            every = min(args.poll_most, round(every * 1.5, 3))
        await nap(every - (time.perf_counter() - tick), until)


async def live_part_after_change(port: int, table: Table, phone: Phone, stats: Stats) -> None:
    """What a phone's page does when it hears of a change (static/app.js, `swap`): it fetches
    the match page's live part, logged in, and swaps it in."""
    headers = {"Cookie": phone.cookie}
    url = f"/matches/{table.match_id}/live"
    await timed(stats, "live part after change", (200,), port, "GET", url, headers=headers)


async def stream_loop(
    port: int, table: Table, phone: Phone, args: argparse.Namespace, stats: Stats, until: float
) -> None:
    """A phone whose page listens to the match's event stream (`--poll-with push`): on each new
    version, how long since the hand was saved, and the match page once, as the page does.
    The phones open their pages over the first `--ramp` seconds."""
    await nap(random.uniform(0, args.ramp), until)
    while time.perf_counter() < until:
        started = time.perf_counter()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 30)
        except (TimeoutError, OSError) as err:
            stats.record("open stream", started, False, type(err).__name__)
            await nap(2, until)
            continue
        stats.streams += 1
        writer.write(
            f"GET /matches/{table.match_id}/events HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            f"Cookie: {phone.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        first = True
        try:
            while time.perf_counter() < until:
                line = await asyncio.wait_for(reader.readline(), max(0.1, until - time.perf_counter()))
                if first:
                    ok = line.startswith(b"HTTP/1.1 200")
                    stats.record("open stream", started, ok, line.decode("latin-1").strip())
                    first = False
                    if not ok:
                        break
                if not line:
                    break  # the server ended the stream: come back, as EventSource does
                if not line.startswith(b"data: ") or line == b"data: \n":
                    continue
                version = line[6:].decode().strip()
                if phone.version and version != phone.version:
                    number = int(version.split("-")[0])
                    if number in table.saved:
                        stats.deliveries.append(time.perf_counter() - table.saved[number])
                    elif number == table.hands + 1:  # heard before the saving phone had its answer
                        stats.deliveries.append(0.0)
                    await live_part_after_change(port, table, phone, stats)
                phone.version = version
        except (TimeoutError, OSError, ValueError) as err:
            if time.perf_counter() < until:
                stats.record("stream", started, False, type(err).__name__)
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        await nap(2, until)  # EventSource's retry


async def hand_loop(port: int, table: Table, args: argparse.Namespace, stats: Stats, until: float) -> None:
    """The table's scorer entering a hand every `--hand-every` seconds."""
    await nap(random.uniform(0, args.hand_every), until)
    while time.perf_counter() < until:
        tick = time.perf_counter()
        started = time.perf_counter()
        try:
            reply = await add_hand(port, table)
            stats.record("add hand", started, reply.status == 201, f"HTTP {reply.status}")
        except (TimeoutError, OSError, ValueError, IndexError) as err:
            stats.record("add hand", started, False, type(err).__name__)
        await nap(args.hand_every - (time.perf_counter() - tick), until)


async def health_loop(port: int, stats: Stats, until: float, every: float) -> None:
    """GET /healthz every `every` seconds: the baseline for the ratios."""
    while time.perf_counter() < until:
        tick = time.perf_counter()
        await timed(stats, "healthz", (200,), port, "GET", "/healthz")
        await nap(every - (time.perf_counter() - tick), until)


async def load(server: Server, args: argparse.Namespace) -> tuple[Stats, float, dict[str, Any]]:
    """Set the tables up, then run the phones for `--duration` seconds."""
    port = server.port
    if args.poll_with == "auto":
        probe = await request(port, "GET", "/matches/x/version")
        args.poll_with = "match" if probe.status == 404 else "version"
    started = time.perf_counter()
    tables = await setup(port, args.tables, args.start_hands, args.poll_with in ("version", "push"))
    setup_s = time.perf_counter() - started
    stats = Stats()
    until = time.perf_counter() + args.duration
    tasks = [health_loop(port, stats, until, args.healthz_every)]
    for table in tables:
        loop = stream_loop if args.poll_with == "push" else poll_loop
        tasks += [loop(port, table, phone, args, stats, until) for phone in table.phones]
        tasks.append(hand_loop(port, table, args, stats, until))
    cpu_before, client_before, load_before = server.cpu(), time.process_time(), os.getloadavg()
    began = time.perf_counter()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - began
    return (
        stats,
        elapsed,
        {
            "setup_s": setup_s,
            "hands_at_end": [t.hands for t in tables],
            "server_cpu_s": cpu_used(cpu_before, server.cpu()),
            "client_cpu_s": time.process_time() - client_before,
            "load_average": (load_before[0], os.getloadavg()[0]),
        },
    )


# --- servers and databases ------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """A process's children (gunicorn's workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


@dataclass
class Server:
    """A running gunicorn, and how to read the CPU time it (and its database) used."""

    port: int
    pid: int
    postgres: str | None = None
    database: str | None = None
    others: list[int] = field(default_factory=list)
    """More processes serving: other gunicorn instances, nginx in front."""

    def cpu(self) -> dict[int, float]:
        """CPU seconds per process: gunicorn's master and workers (every instance's), nginx's,
        PostgreSQL's backends."""
        pids = [p for top in (self.pid, *self.others) for p in (top, *children(top))]
        if self.postgres and self.database:
            import psycopg

            with psycopg.connect(self.postgres, autocommit=True) as conn:
                pids += [
                    row[0]
                    for row in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.database,))
                ]
        return {pid: cpu_seconds(pid) for pid in pids}


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two readings (processes started in between count fully)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def gunicorn(
    database_url: str,
    workers: int | None,
    log: Path,
    worker_class: str = "sync",
    redis: str = "",
    feed: str = "auto",
    probe: bool = False,
) -> Iterator[Server]:
    """gunicorn with the project's configuration on a free port, stopped afterwards (its limit
    counters in `redis` if given: several workers must share them, as the app demands; `probe`:
    its pool's checkouts timed into the log's folder, `bench/pool_probe.py`)."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "bench secret key",
        "BIND": f"{HOST}:{port}",
        "LOG_LEVEL": "warning",
        "WORKER_CLASS": worker_class,
        "LIVE_FEED": feed,
    }
    for name in ("ACCESS_LOG", "LIVE_PUSH", "RATELIMIT_STORAGE_URI"):
        env.pop(name, None)
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    if redis:
        env["RATELIMIT_STORAGE_URI"] = redis
    # Counters under this run's own keys: an earlier run's on the same Redis never count.
    config = {**BENCH_CONFIG, "RATELIMIT_KEY_PREFIX": f"bench-{os.getpid()}-{time.time_ns()}"}
    app = f"bench.pool_probe:app({config!r}, {str(log.parent)!r})" if probe else f"scoresheet:create_app({config!r})"
    with open(log, "w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", app], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"gunicorn stopped: {log.read_text()[-2000:]}")
            try:
                if asyncio.run(request(port, "GET", "/healthz", timeout=2)).status == 200:
                    break
            except (TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not answer /healthz within 60 s")
            time.sleep(0.2)
        yield Server(port, server.pid)
    finally:
        stop(server)


NGINX_CONF = """worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi; uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
    upstream scoresheet {{ {servers} }}
    server {{
        listen {host}:{port};
        client_max_body_size 64k;
        location ~ ^/(matches|watch)/[^/]+/events$ {{
            proxy_pass http://scoresheet; proxy_http_version 1.1;
            proxy_set_header Connection ""; proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_buffering off; proxy_read_timeout 60s;
        }}
        location / {{
            proxy_pass http://scoresheet; proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 30s;
        }}
    }}
}}
"""
"""nginx in front of several gunicorn instances, as docs/deploy.md §7 and §8 set it up."""


@contextlib.contextmanager
def serve(database_url: str, args: argparse.Namespace, folder: Path) -> Iterator[Server]:
    """`--instances` gunicorns (several: behind nginx, on one database), stopped afterwards."""
    worker_class = "gevent" if args.poll_with == "push" else "sync"
    with contextlib.ExitStack() as stack:
        servers = [
            stack.enter_context(
                gunicorn(
                    database_url,
                    args.workers,
                    folder / f"gunicorn{n}.log",
                    worker_class,
                    args.redis if args.instances > 1 or args.workers != 1 else "",
                    args.feed,
                    getattr(args, "pool_probe", False),  # (bench/club_load.py has no probe)
                )
            )
            for n in range(args.instances)
        ]
        if args.instances == 1 and not args.nginx:
            yield servers[0]
            return
        port = free_port()
        conf = folder / "nginx.conf"
        conf.write_text(
            NGINX_CONF.format(
                tmp=folder, host=HOST, port=port, servers=" ".join(f"server {HOST}:{s.port};" for s in servers)
            )
        )
        nginx = subprocess.Popen(
            ["nginx", "-c", str(conf), "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        stack.callback(stop, nginx)
        for _ in range(100):
            with contextlib.suppress(TimeoutError, OSError):
                if asyncio.run(request(port, "GET", "/healthz", timeout=2)).status == 200:
                    break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"nginx did not answer: {(folder / 'nginx-error.log').read_text()}")
        yield Server(port, servers[0].pid, others=[s.pid for s in servers[1:]] + [nginx.pid])


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop gunicorn and its workers: SIGTERM, and SIGKILL if it has not gone within 30 s."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@contextlib.contextmanager
def database(kind: str, postgres: str, folder: Path, prefix: str = "bench_load") -> Iterator[str]:
    """A new, empty database: a SQLite file, or a PostgreSQL database (`<prefix>_<pid>_<time>`)
    dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'bench.sqlite'}"
        return
    import psycopg  # the app's own driver; only to create and drop the database

    name = f"{prefix}_{os.getpid()}_{int(time.time())}"
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield postgres.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(postgres, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def database_priority(kind: str, postgres: str, priority: int) -> Iterator[None]:
    """With `--priority` on a PostgreSQL of this machine: its processes at that nice value for
    the run (the backends it starts meanwhile inherit the postmaster's and keep it), as before
    afterwards, so that the database is measured at the server's priority, not below it."""
    host = urllib.parse.urlsplit(postgres).hostname
    local = kind == "postgresql" and priority and host in (None, "", "localhost", "127.0.0.1", "::1")
    pids: list[str] = []
    with contextlib.suppress(FileNotFoundError):  # no pgrep: PostgreSQL stays as it is
        if local:
            pids = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True).stdout.split()
    before: dict[int, int] = {}
    for pid in map(int, pids):
        with contextlib.suppress(OSError):
            before[pid] = os.getpriority(os.PRIO_PROCESS, pid)
            os.setpriority(os.PRIO_PROCESS, pid, priority)
    try:
        yield
    finally:
        for pid, nice in before.items():
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, pid, nice)


# --- report -------------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def report(kind: str, stats: Stats, elapsed: float, extra: dict[str, Any]) -> dict[str, Any]:
    """Print one database's figures; return them."""
    total = sum(len(v) for v in stats.latencies.values())
    errors = sum(len(v) for v in stats.errors.values())
    every = [x for v in stats.latencies.values() for x in v]
    base = statistics.median(stats.latencies["healthz"]) if stats.latencies["healthz"] else 0
    print(
        f"\n== {kind}: {total} requests in {elapsed:.1f} s = {total / elapsed:.1f}/s, "
        f"errors {errors}, all p50 {1000 * percentile(every, 50):.1f} ms, "
        f"p99 {1000 * percentile(every, 99):.1f} ms (set-up {extra['setup_s']:.1f} s, "
        f"hands per match at the end {min(extra['hands_at_end'])}–"
        f"{max(extra['hands_at_end'])})"
    )
    per_request = 1000 * extra["server_cpu_s"] / max(total, 1)
    print(
        f"server CPU (gunicorn + database) {per_request:.2f} ms per request = "
        f"{extra['server_cpu_s'] / elapsed:.2f} cores busy; client CPU "
        f"{extra['client_cpu_s'] / elapsed:.2f} cores; load average "
        f"{extra['load_average'][0]:.1f} → {extra['load_average'][1]:.1f} "
        f"({os.cpu_count()} CPUs)"
    )
    print(
        f"{'request':20} {'count':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'errors':>7} {'p50/healthz':>12}"
    )
    rows = {}
    for name, values in sorted(stats.latencies.items()):
        p50 = statistics.median(values)
        rows[name] = {
            "count": len(values),
            "p50": p50,
            "p99": percentile(values, 99),
            "errors": len(stats.errors[name]),
        }
        print(
            f"{name:20} {len(values):7} {1000 * p50:8.1f} "
            f"{1000 * percentile(values, 90):8.1f} {1000 * percentile(values, 99):8.1f} "
            f"{1000 * max(values):8.1f} {len(stats.errors[name]):7} "
            f"{p50 / base if base else float('nan'):12.1f}"
        )
        if stats.errors[name]:
            print(f"  {name} errors: {sorted(set(stats.errors[name]))[:5]}")
    figures = {
        "requests": total,
        "rps": total / elapsed,
        "errors": errors,
        "p50": percentile(every, 50),
        "p99": percentile(every, 99),
        "kinds": rows,
        "cpu_ms_per_request": per_request,
        "delivery_p99": 0.0,
    }
    if stats.deliveries:
        late = sum(1 for d in stats.deliveries if d > 3)
        figures["delivery_p99"] = percentile(stats.deliveries, 99)
        print(
            f"push: {stats.streams} streams opened; a saved hand reached the other phones "
            f"{len(stats.deliveries)} times, p50 {1000 * percentile(stats.deliveries, 50):.0f} "
            f"ms, p99 {1000 * figures['delivery_p99']:.0f} ms, max "
            f"{1000 * max(stats.deliveries):.0f} ms, {late} later than 3 s"
        )
    return figures


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark on each database; exit 1 if a target was missed (--check)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per database")
    parser.add_argument("--poll", type=float, default=1.5, help="seconds between polls (static/app.js: 1.5)")
    parser.add_argument(
        "--backoff",
        action="store_true",
        help="poll less often while the match does not change (static/app.js until 2026-12-04)",
    )
    parser.add_argument("--poll-most", type=float, default=12.0, help="with --backoff, the longest wait between polls")
    parser.add_argument("--hand-every", type=float, default=60.0, help="seconds between hands")
    parser.add_argument("--start-hands", type=int, default=10, help="hands per match at start")
    parser.add_argument("--healthz-every", type=float, default=0.2)
    parser.add_argument(
        "--poll-with",
        choices=["auto", "version", "match", "push"],
        default="auto",
        help="push: gevent workers, each phone an event stream",
    )
    parser.add_argument("--instances", type=int, default=1, help="gunicorn instances; several run behind a local nginx")
    parser.add_argument("--nginx", action="store_true", help="nginx in front even of one")
    parser.add_argument(
        "--ramp", type=float, default=20.0, help="push: seconds over which the phones open their streams"
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="the limit counters' store when gunicorn runs several workers",
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument(
        "--feeds",
        default="auto",
        help="push on PostgreSQL: how the hubs learn of changes, each in turn (LIVE_FEED: auto, the change "
        "feed; poll, the versions read twice a second; `poll,auto` side by side). SQLite always polls",
    )
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: gunicorn.conf.py's)")
    parser.add_argument(
        "--pool-probe",
        action="store_true",
        help="time every database pool checkout in the workers and report the waits (bench/pool_probe.py)",
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
        help="nice value for gunicorn, this client and the local PostgreSQL server, e.g. -10 (root only): "
        "measure on a machine that other work shares as if it were not",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 unless p99 < 100 ms and no errors on every database "
        "(push: and each saved hand heard within 3 s, p99)",
    )
    parser.add_argument(
        "--check-p99",
        type=float,
        default=0.1,
        metavar="SECONDS",
        help="the p99 --check allows (CI: a loose guard on a shared machine)",
    )
    args = parser.parse_args(argv)
    print(
        f"load: {args.tables} tables × 3 phones, poll every {args.poll:g} s, a hand every "
        f"{args.hand_every:g} s, {args.duration:g} s per database; {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    if args.priority:
        os.setpriority(os.PRIO_PROCESS, 0, args.priority)  # gunicorn inherits it
        print(f"gunicorn, the client and the local PostgreSQL server run at nice {args.priority}")
        if Path(AUTOGROUP).exists() and Path(AUTOGROUP).read_text().strip() == "1":
            print(f"warning: {AUTOGROUP} is 1: the nice value counts only within this session, not against other work")
    failed = False
    for kind, feed in [(k, f) for k in args.databases.split(",") for f in args.feeds.split(",")]:
        if kind == "sqlite" and feed != args.feeds.split(",")[-1]:
            continue  # SQLite polls whatever LIVE_FEED says: once is enough
        args.feed = feed
        with (
            tempfile.TemporaryDirectory(prefix="bench-load-") as tmp,
            database(kind, args.postgres, Path(tmp), args.database_prefix) as url,
            database_priority(kind, args.postgres, args.priority),
            serve(url, args, Path(tmp)) as server,
        ):
            if kind == "postgresql":
                server.postgres, server.database = args.postgres, url.rsplit("/", 1)[1]
            run_args = argparse.Namespace(**vars(args))
            try:
                stats, elapsed, extra = asyncio.run(load(server, run_args))
            except RuntimeError:
                for log in sorted(Path(tmp).glob("gunicorn*.log")):
                    print(f"--- {log.name}:\n{log.read_text()[-3000:]}", file=sys.stderr)
                raise
            print(f"(polling with: {run_args.poll_with}; LIVE_FEED={feed})", end="", flush=True)
            figures = report(kind, stats, elapsed, extra)
            if args.pool_probe:
                sys.path.insert(0, str(ROOT))
                from bench.pool_probe import summary  # the app's modules: only for the probe

                print(summary(Path(tmp)))
            failed |= figures["errors"] > 0 or figures["p99"] >= args.check_p99 or figures["delivery_p99"] > 3
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
