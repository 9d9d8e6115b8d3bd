"""Serving the app with gunicorn from wherever it is installed: `scoresheet-serve` for a server,
`scoresheet-table` for a laptop or Raspberry Pi at the table (docs/deploy.md, README).

Every setting comes from the environment (gunicorn's own options on the command line win):
`BIND` (default 127.0.0.1:8000; several addresses separated by commas), `WEB_CONCURRENCY`
(worker processes), `WORKER_CLASS` (`sync`, or `gevent`: workers that hold thousands of
connections, so the pages get live updates pushed instead of polling — `LIVE_PUSH`),
`ACCESS_LOG` (a file, or `-` for stdout; off by default: the reverse proxy keeps one),
`LOG_LEVEL` (default `info`), `TIMEOUT` (seconds). The app reads its own settings
(`DATABASE_URL`, `SECRET_KEY`, …) from the environment too.

How many workers: with a shared store for the log-in limits (`RATELIMIT_STORAGE_URI=redis://…`)
2 × cores + 1 (at most 12); without one, a single process of several threads, because workers
counting log-in attempts each on their own would multiply every limit (the app refuses to start
so, `limits.check_shared_storage`).
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Mapping
from typing import Any

MAX_WORKERS = 12
SINGLE_PROCESS_THREADS = 8
"""Threads of the one process that serves when the limits are counted in memory: enough for a
few tables of phones, and a slow phone never holds the others up."""
CONFIG_MODULE = "python:scoresheet.gunicorn_config"
"""gunicorn loads its settings from this module (`-c`), installed with the package."""
TABLE_PORT = 5000


def cores() -> int:
    """CPU cores this process may use (a container's limit, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _shared_store(environ: Mapping[str, str]) -> bool:
    """Whether the log-in limits are counted in a store every worker shares."""
    return not (environ.get("RATELIMIT_STORAGE_URI") or "memory://").startswith("memory:")


def settings(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """gunicorn's settings under this environment (what `gunicorn_config` and the checkout's
    gunicorn.conf.py hand to gunicorn)."""
    worker_class = environ.get("WORKER_CLASS", "sync")
    if environ.get("WEB_CONCURRENCY"):
        workers, threads = int(environ["WEB_CONCURRENCY"]), 1
    elif _shared_store(environ) or worker_class != "sync":
        workers, threads = min(2 * cores() + 1, MAX_WORKERS), 1
        if not _shared_store(environ):  # gevent on memory://: one worker holds every connection
            workers = 1
    else:
        workers, threads = 1, SINGLE_PROCESS_THREADS
    return {
        "wsgi_app": "scoresheet:create_app()",
        "bind": [b.strip() for b in environ.get("BIND", "127.0.0.1:8000").split(",") if b.strip()],
        "workers": workers,
        "threads": threads,
        "worker_class": worker_class,
        "worker_connections": int(environ.get("WORKER_CONNECTIONS", "2000")),  # gevent: per worker
        "timeout": int(environ.get("TIMEOUT", "30")),
        "graceful_timeout": 30,
        "accesslog": environ.get("ACCESS_LOG") or None,
        "errorlog": "-",
        "loglevel": environ.get("LOG_LEVEL", "info"),
        # X-Forwarded-* are trusted by the app itself (TRUSTED_PROXIES, werkzeug's ProxyFix).
        "forwarded_allow_ips": environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        "control_socket_disable": True,  # gunicorn ≥ 27: no control socket in $HOME
        "on_starting": on_starting,
        "when_ready": when_ready,
    }


def on_starting(server: Any) -> None:
    """Tell the app how many workers there are (it refuses to count log-in attempts per
    worker when there are several: RATELIMIT_STORAGE_URI, docs/deploy.md)."""
    os.environ["SCORESHEET_WORKERS"] = str(server.cfg.workers)
    if server.cfg.worker_class_str == "gevent":
        os.environ.setdefault("LIVE_PUSH", "1")
    if server.cfg.workers == 1 and not _shared_store(os.environ):
        server.log.info(
            "One process serves (%d threads): the log-in limits are counted in memory. For more "
            "workers set RATELIMIT_STORAGE_URI=redis://… (docs/deploy.md).",
            server.cfg.threads,
        )


def when_ready(server: Any) -> None:
    """At the table (`scoresheet-table`): print the address the phones open, and its QR code."""
    if os.environ.get("SCORESHEET_TABLE") == "1":
        print(table_banner(int(server.address[0][1]) if server.address else TABLE_PORT), flush=True)


def lan_address() -> str | None:
    """This machine's address on the local network (the one a route to the outside leaves
    from; a UDP "connect" sends nothing), or None with no network but loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


def table_banner(port: int, address: str | None = None) -> str:
    """What `scoresheet-table` prints once it serves: the address for the phones and its QR."""
    import io

    import segno

    address = address or lan_address()
    if address is None:
        return (
            f"Serving on port {port} of every network of this machine, but it is on none but its "
            f"own: join a Wi-Fi, then start again. This machine itself: http://127.0.0.1:{port}"
        )
    url = f"http://{address}:{port}"
    qr = io.StringIO()
    segno.make(url, error="m").terminal(out=qr, compact=True)
    return "\n".join(
        [
            f"Phones on the same Wi-Fi: open {url} (or scan this code with the phone's camera)",
            qr.getvalue().rstrip("\n"),
            f"Anyone on this network can open it; stop with Ctrl+C. This machine: http://127.0.0.1:{port}",
        ]
    )


def main(argv: list[str] | None = None) -> None:
    """`scoresheet-serve [gunicorn options]`: gunicorn with the packaged settings."""
    from gunicorn.app.wsgiapp import WSGIApplication

    args = list(sys.argv[1:] if argv is None else argv)
    sys.argv = ["scoresheet-serve", "-c", CONFIG_MODULE, *args]
    WSGIApplication("%(prog)s [OPTIONS]").run()


def table(argv: list[str] | None = None) -> None:
    """`scoresheet-table [PORT]`: serve the phones at the table from this machine, on every
    network it is on, over plain http (cookies without Secure), printing the address and a QR."""
    args = list(sys.argv[1:] if argv is None else argv)
    port = int(args[0]) if args and args[0].isdigit() else TABLE_PORT
    os.environ["BIND"] = f"0.0.0.0:{port}"
    os.environ["SCORESHEET_TABLE"] = "1"
    os.environ.setdefault("SCORESHEET_INSECURE_COOKIES", "1")  # plain http: a Secure cookie never comes back
    main(args[1:] if args and args[0].isdigit() else args)
