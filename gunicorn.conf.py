"""Gunicorn settings for the scoresheet: `gunicorn -c gunicorn.conf.py` (see docs/deploy.md).

Every setting can be changed from the environment (or on the command line, which wins):
`BIND` (default 127.0.0.1:8000; several addresses separated by commas), `WEB_CONCURRENCY`
(workers; default 2 × cores + 1, at most 12), `WORKER_CLASS` (`sync`, the default, or
`gevent`: workers that hold thousands of connections, so the pages get live updates pushed
instead of polling — `LIVE_PUSH`, docs/deploy.md), `ACCESS_LOG` (a file, or `-` for stdout; off by
default: the reverse proxy keeps one), `LOG_LEVEL` (default `info`), `TIMEOUT` (seconds).
The app reads its own settings (`DATABASE_URL`, `SECRET_KEY`, …) from the environment too.
"""

import os

MAX_WORKERS = 12


def cores() -> int:
    """CPU cores this process may use (a container's limit, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """2 × cores + 1 sync workers (gunicorn's advice), capped: each holds a database connection."""
    return min(2 * cores() + 1, MAX_WORKERS)


wsgi_app = "scoresheet:create_app()"
bind = [b.strip() for b in os.environ.get("BIND", "127.0.0.1:8000").split(",") if b.strip()]
workers = int(os.environ.get("WEB_CONCURRENCY") or default_workers())
worker_class = os.environ.get("WORKER_CLASS", "sync")
"""`sync`: short requests only, the proxy buffers slow clients, the phones poll. `gevent`: each
worker also holds the open event streams of the phones (scoresheet/push.py)."""
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "2000"))  # gevent: per worker
timeout = int(os.environ.get("TIMEOUT", "30"))
graceful_timeout = 30
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# X-Forwarded-* are trusted by the app itself (TRUSTED_PROXIES, werkzeug's ProxyFix).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
control_socket_disable = True  # gunicorn ≥ 27: no control socket in $HOME (instances never clash)


def on_starting(server) -> None:  # type: ignore[no-untyped-def]
    """Tell the app how many workers there are (it refuses to count log-in attempts per
    worker when there are several: RATELIMIT_STORAGE_URI, docs/deploy.md)."""
    os.environ["SCORESHEET_WORKERS"] = str(server.cfg.workers)
    if server.cfg.worker_class_str == "gevent":
        os.environ.setdefault("LIVE_PUSH", "1")
