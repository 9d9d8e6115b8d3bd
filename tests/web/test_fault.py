"""Fault test: the server process is killed (SIGKILL) in the middle of a burst of hand entries;
after a restart every acknowledged hand is there and SQLite's integrity check passes."""

from __future__ import annotations

import http.client
import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from conftest import app_config

from .helpers import call_json
from .test_concurrency import signature, signed_hand

RUNNER = """
import json, sys
from werkzeug.serving import make_server
from scoresheet import create_app
config = json.loads(sys.argv[1])
httpd = make_server("127.0.0.1", 0, create_app(config), threaded=True)
print(httpd.server_port, flush=True)
httpd.serve_forever()
"""
THREADS = 8
BURST_S = 1.5


class Process:
    """The app served by werkzeug in a child process."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", RUNNER, json.dumps(config)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stdout is not None
        self.port = int(self.proc.stdout.readline())

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """One request: (status, JSON answer)."""
        return call_json(self.port, method, path, body, token, timeout=10)

    def kill(self) -> None:
        """SIGKILL: no clean-up, no last commit."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_server_loses_no_acknowledged_hand_and_the_database_is_intact(tmp_path: Path) -> None:
    started = time.monotonic()
    path = tmp_path / "fault.sqlite"
    config = app_config(f"sqlite:///{path}", tmp_path)
    server = Process(config)
    try:
        status, user = server.call("POST", "/api/users", {"username": "anna", "password": "correct horse"})
        assert status == 201
        token = user["token"]
        status, match = server.call("POST", "/api/matches", {"players": ["Anna", "Boris", "Vera"]}, token)
        mid = match["id"]
        acknowledged: list[tuple[Any, ...]] = []
        outcomes: list[str] = []
        lock = threading.Lock()
        stop = time.monotonic() + 2 * BURST_S + 5

        def phone(t: int) -> None:
            for k in range(10_000):
                if time.monotonic() > stop:
                    return
                body = signed_hand(k * THREADS + t, k % 3)
                try:
                    status, _ = server.call("POST", f"/api/matches/{mid}/hands", body, token)
                except (OSError, http.client.HTTPException):
                    with lock:
                        outcomes.append("cut off")
                    return  # the server is gone: this hand was never acknowledged
                with lock:
                    outcomes.append(str(status))
                    if status == 201:
                        acknowledged.append(signature(body))

        threads = [threading.Thread(target=phone, args=(t,)) for t in range(THREADS)]
        for thread in threads:
            thread.start()
        time.sleep(BURST_S)
        server.kill()
        for thread in threads:
            thread.join(15)
        assert not any(thread.is_alive() for thread in threads)
    finally:
        if server.proc.poll() is None:
            server.kill()

    assert set(outcomes) <= {"201", "cut off"}, outcomes
    assert len(acknowledged) > 20, "the burst was too short to mean anything"
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    restarted = Process(config)
    try:
        status, final = restarted.call("GET", f"/api/matches/{mid}", token=token)
        assert status == 200
    finally:
        restarted.kill()
    stored = [signature(h) for h in final["hands"]]
    assert len(stored) == len(set(stored))
    assert set(acknowledged) <= set(stored), "an acknowledged hand was lost"
    assert len(stored) - len(acknowledged) <= THREADS  # at most the answers cut off in flight
    with closing(sqlite3.connect(path)) as conn:
        added = conn.execute("SELECT count(*) FROM audit_entries WHERE action = 'hand_added'")
        assert added.fetchone() == (len(stored),)
    elapsed = time.monotonic() - started
    assert elapsed < 30
    print(
        f"\nfault test: {len(outcomes)} requests, {len(acknowledged)} acknowledged, "
        f"{len(stored)} stored after SIGKILL and restart, lost 0, integrity ok, "
        f"{elapsed:.1f} s"
    )
