"""The documented limits hold however many workers serve the app: their counters live in a
store every worker shares (Redis), and the app refuses to start several workers that would each
count on their own. Real gunicorn, real Redis."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bench.load import free_port, stop
from scoresheet.config import RATE_LIMITS as DEFAULTS

from .helpers import call_json

ROOT = Path(__file__).resolve().parents[2]
CHEAP_HASH = "pbkdf2:sha256:1"


def redis_url() -> str:
    """TEST_REDIS_URL (`.ci/run` starts Redis and sets it), else the local default."""
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but Redis does not answer at {url}.")
        pytest.skip(f"Redis does not answer at {url}")
    return url


def start_gunicorn(tmp_path: Path, workers: int, **config: Any) -> tuple[subprocess.Popen[bytes], int, Path]:
    """gunicorn with the project's configuration: the process, its port, its access log."""
    port = free_port()
    config = {
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SECRET_KEY": "test secret key",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
        "PASSWORD_HASH_METHOD": CHEAP_HASH,
        **config,
    }
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "RATELIMIT_STORAGE_URI", "SCORESHEET_WORKERS")
    }
    env.update(
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY=str(workers),
        LOG_LEVEL="warning",
        ACCESS_LOG=str(tmp_path / "access.log"),
    )
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "gunicorn.conf.py",
                "--access-logformat",
                "%(p)s %(m)s %(U)s %(s)s",
                f"scoresheet:create_app({config!r})",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
        )
    return proc, port, log


def wait_until_serving(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Wait for /healthz (or fail with gunicorn's log if it stopped)."""
    for _ in range(300):
        assert proc.poll() is None, log.read_text()
        try:
            if call_json(port, "GET", "/healthz", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    pytest.fail("gunicorn did not answer /healthz: " + log.read_text())


@pytest.fixture
def three_workers_on_redis(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """gunicorn with three workers counting in Redis (a key prefix of their own)."""
    proc, port, log = start_gunicorn(
        tmp_path, 3, RATELIMIT_STORAGE_URI=redis_url(), RATELIMIT_KEY_PREFIX=f"test-{uuid.uuid4().hex}"
    )
    try:
        wait_until_serving(proc, port, log)
        yield port, tmp_path / "access.log"
    finally:
        stop(proc)


def test_the_documented_log_in_limit_holds_across_three_workers(three_workers_on_redis: tuple[int, Path]) -> None:
    port, access_log = three_workers_on_redis
    per_minute = int(DEFAULTS["LOGIN_LIMIT_PER_ADDRESS"].split()[0])  # "10 per minute; …"

    def guess(i: int) -> int:
        return call_json(port, "POST", "/api/tokens", {"username": f"user{i}", "password": "a wrong guess"})[0]

    assert [guess(i) for i in range(per_minute)] == [401] * per_minute
    # The kernel may hand every sequential connection to the same worker: guess in bursts of
    # simultaneous requests until at least two workers have answered. Every later guess is
    # refused, whichever worker reads it: the count is shared.
    workers: set[str] = set()
    with ThreadPoolExecutor(6) as pool:
        for _ in range(30):
            assert list(pool.map(guess, range(6))) == [429] * 6
            time.sleep(0.2)  # gunicorn writes the access log line after the answer
            workers = {line.split()[0] for line in access_log.read_text().splitlines() if " /api/tokens " in line}
            if len(workers) > 1:
                break
    assert len(workers) > 1, "one worker served every guess"


def test_several_workers_without_a_shared_store_refuse_to_start(tmp_path: Path) -> None:
    proc, port, log = start_gunicorn(tmp_path, 2, RATELIMIT_STORAGE_URI="memory://")
    try:
        proc.wait(60)
    finally:
        stop(proc)
    assert proc.returncode != 0
    text = log.read_text()
    assert "RATELIMIT_STORAGE_URI" in text and "2 workers" in text
