"""A table that sat idle hears a new hand at once: after 10 minutes on the browser's own clock
(Playwright's `page.clock`: every timer of the page runs as if the time had passed), a hand saved
on one phone is on the other open phones within 2 s, pushed (server-sent events) and polled, on
both servers the project serves with: the development server of README's `flask run` and
gunicorn (`scoresheet-serve`: gevent workers push, sync workers are polled).

Each server runs in a process of its own, started as its command starts it, on a fresh SQLite
database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.load import free_port, stop

from .helpers import Phone, api_match, api_user, unique

ROOT = Path(__file__).resolve().parents[2]
WITHIN_S = 2.0
"""The goal: a saved hand on every open phone within 2 s (each sample, so the p99 too),
measured on a quiet machine (`-s` prints the samples: docs/performance.md)."""
SHARED_MACHINE_S = 1.5
"""What the test allows beside the goal: the suite runs its browsers, servers and workers on
the same cores, and a polled phone (the hand saved just after a poll, by construction: its
worst case) waits one poll interval, 1.5 s, then a fetch of the sheet the shared machine can
slow by a second or more. A back-off, which this test is for, made it 4–12 s."""
IDLE_MS = 10 * 60 * 1000
STEP_MS = 30_000
"""The idle time is run on the page's clock in steps, each firing the timers due in it; between
steps the page's requests (a poll) get real time to be answered."""
SAMPLES = 3
"""Hands saved, each after the table sat idle, each timed on two phones."""
SERVERS = {
    "flask-run-push": ("flask run", None),
    "flask-run-poll": ("flask run", "0"),
    "gunicorn-gevent-push": ("gunicorn", "gevent"),
    "gunicorn-sync-poll": ("gunicorn", "sync"),
}


def _command(kind: str, variant: str | None, app: str, port: int, env: dict[str, str]) -> list[str]:
    """The server's command line (and its environment, in `env`), as README and deploy.md run it."""
    if kind == "flask run":
        if variant is not None:
            env["LIVE_PUSH"] = variant  # "0": the development server polled
        return [sys.executable, "-m", "flask", "--app", app, "run", "--port", str(port)]
    env.update(BIND=f"127.0.0.1:{port}", WORKER_CLASS=str(variant), LOG_LEVEL="warning")
    return [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", app]


@pytest.fixture(params=list(SERVERS))
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The app served by one of the project's servers, in its own process; its base URL."""
    kind, variant = SERVERS[request.param]
    port = free_port()
    config = {
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SECRET_KEY": "browser test secret key",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'idle.sqlite'}",
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
        "RATELIMIT_ENABLED": False,  # every phone registers from 127.0.0.1
        "SESSION_COOKIE_SECURE": False,  # plain http on 127.0.0.1
    }
    drop = ("DATABASE_URL", "RATELIMIT_STORAGE_URI", "SCORESHEET_WORKERS", "LIVE_PUSH", "WEB_CONCURRENCY")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    command = _command(kind, variant, f"scoresheet:create_app({config!r})", port, env)
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(proc, url, log)
        yield url
    finally:
        stop(proc)


def _wait_until_serving(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    """Until `/healthz` answers (the server's log if it died or never answered)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(log.read_text(errors="replace"))
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"not serving after 30 s:\n{log.read_text(errors='replace')}")


def _rows(phone: Phone) -> int:
    return int(phone.page.evaluate("() => document.querySelectorAll('#live table.sheet tbody tr').length"))


def _sit_idle(phones: list[Phone]) -> None:
    """Ten minutes pass on every phone's clock with nothing saved."""
    for _ in range(IDLE_MS // STEP_MS):
        for phone in phones:
            phone.page.clock.run_for(STEP_MS)
        time.sleep(0.05)


def test_a_table_that_sat_idle_ten_minutes_sees_a_saved_hand_within_2_s(
    request: pytest.FixtureRequest, new_phone: Any
) -> None:
    pushed = request.node.callspec.params["server"].endswith("push")
    anna: Phone = new_phone()
    auth = api_user(anna, unique("anna"))
    match_id = api_match(anna, auth, hands=3)
    code = anna.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["join_code"]
    phones: list[Phone] = []
    for name in ("boris", "vera"):
        phone: Phone = new_phone()
        phone.page.clock.install()
        phone.register(unique(name))
        phone.page.goto(f"/join/{code}")
        phone.tap("form.stack button[type=submit]")
        phone.page.wait_for_url(f"**/matches/{match_id}")
        phone.page.wait_for_function("() => document.querySelectorAll('#live tbody tr').length >= 3")
        live = phone.page.locator("#live")
        assert (live.get_attribute("data-events-url") is not None) == pushed  # push, or polled
        phones.append(phone)

    took: list[float] = []
    for sample in range(SAMPLES):
        _sit_idle(phones)
        hands = 4 + sample
        nxt = anna.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["next"]
        reply = anna.context.request.post(
            f"/api/matches/{match_id}/hands", headers=auth, data={"kind": "redeal", "expected_hand": nxt["hand"]}
        )
        assert reply.status == 201, reply.text()
        saved = time.monotonic()  # saved: the saving phone has its answer (as bench/load.py times it)
        waiting = list(phones)
        while waiting and time.monotonic() - saved < 3 * WITHIN_S:
            for phone in [p for p in waiting if _rows(p) >= hands]:
                took.append(time.monotonic() - saved)
                waiting.remove(phone)
            time.sleep(0.02)
        assert not waiting, f"hand {hands} not on every phone after {3 * WITHIN_S} s ({took})"
    print(f"\nidle table, {request.node.callspec.id}: a saved hand on the phones in {sorted(took)} s")
    assert max(took) <= WITHIN_S + SHARED_MACHINE_S, took
