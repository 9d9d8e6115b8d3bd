"""The benchmarks still run. bench/load.py: two tables for two seconds on SQLite behind one
gunicorn worker, bench/club_load.py a night of six players likewise, bench/served.py a few
requests of each kind; bench/web.py,
bench/page_parts.py, bench/home.py, bench/players.py, bench/club_standings.py and (on PostgreSQL) bench/reading.py:
a few hands and rounds in-process.

Only that they work end to end (set-up, requests, report) — their figures are for
docs/performance.md, measured on a quiet machine, never asserted here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import empty_database

ROOT = Path(__file__).resolve().parents[2]


def test_the_load_benchmark_runs_without_errors() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--tables",
            "2",
            "--duration",
            "2",
            "--poll",
            "0.5",
            "--hand-every",
            "1",
            "--start-hands",
            "2",
            "--workers",
            "1",
            "--databases",
            "sqlite",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "== sqlite:" in done.stdout and "errors 0," in done.stdout, done.stdout
    assert "add hand" in done.stdout and "healthz" in done.stdout


@pytest.mark.parametrize(
    "script",
    [
        ["bench/web.py", "--hands", "3", "--rounds", "3"],
        ["bench/page_parts.py", "--hands", "3", "--rounds", "3"],
        ["bench/home.py", "--matches", "2", "--hands", "3", "--rounds", "3"],
        ["bench/players.py", "--matches", "2", "--hands", "30", "--rounds", "3"],
        ["bench/club_standings.py", "--players", "6", "--rounds", "2", "--hands", "2", "--times", "3"],
        ["bench/served.py", "--hands", "2", "--rounds", "2", "--requests", "2", "--databases", "sqlite"],
    ],
)
def test_the_web_benchmarks_run(script: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-W", "error", *script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "GET /healthz" in done.stdout and "× healthz" in done.stdout, done.stdout


def test_the_club_night_load_benchmark_runs_without_errors() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "bench/club_load.py",
            "--players",
            "6",
            "--rounds",
            "2",
            "--duration",
            "5",
            "--poll",
            "0.5",
            "--hand-every",
            "1",
            "--night-pages",
            "3",
            "--workers",
            "1",
            "--databases",
            "sqlite",
        ],  # fmt: skip
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "== sqlite:" in done.stdout and "errors 0," in done.stdout, done.stdout
    assert "board version" in done.stdout and "seating round 2" in done.stdout
    assert "night version" in done.stdout  # a night page's first poll comes within 4 s


def test_the_reading_benchmark_runs_on_postgresql(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only: on SQLite a reading request has a deferred transaction")
    empty_database(database_url)
    done = subprocess.run(
        [sys.executable, "-W", "error", "bench/reading.py", "--matches", "1", "--hands", "3", "--rounds", "3"],
        cwd=ROOT,
        env=os.environ | {"DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the player's page, no transaction" in done.stdout, done.stdout
    assert "the player's page, BEGIN … ROLLBACK" in done.stdout, done.stdout


def test_the_feed_benchmark_counts_the_hubs_reads(database_url: str) -> None:
    """bench/feed.py on SQLite polls; on PostgreSQL it runs both ways, the feed reading nothing
    while nothing changes."""
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    args = ["--matches", "2", "--rest", "1", "--hands", "2", "--hand-every", "0.2", "--databases", kind]
    if kind == "postgresql":
        args += ["--postgres", database_url, "--database-prefix", f"{database_url.rsplit('/', 1)[1]}_bench"]
    done = subprocess.run(
        [sys.executable, "-W", "error", "bench/feed.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "poll  at rest:" in done.stdout and "heard 2/2" in done.stdout, done.stdout
    if kind == "postgresql":
        assert "auto  at rest: 0.0 queries/s, 0.0 versions/s" in done.stdout, done.stdout


def test_the_pool_probe_times_every_checkout(tmp_path: Path) -> None:
    """bench/pool_probe.py wraps the pool's `_do_get`, which SQLAlchemy documents nowhere: a
    SQLAlchemy that stops calling it fails here, not in a load run that reports nothing."""
    sys.path.insert(0, str(ROOT))
    from bench.pool_probe import app, summary

    config = {"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/probe.sqlite"}
    client = app(config, str(tmp_path)).test_client()
    assert client.post("/api/users", json={"username": "probe", "password": "probe password"}).status_code == 201
    probed = summary(tmp_path)  # (registering checks out once: the account and its token are one transaction)
    assert probed.startswith("pool: 1 checkouts; connections out at once (1: 100 %)"), probed
