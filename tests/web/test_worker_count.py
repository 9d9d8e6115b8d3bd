"""Several gunicorn workers on per-worker limit counters are refused however gunicorn was told
how many to run: `-w`, `GUNICORN_CMD_ARGS`, `WEB_CONCURRENCY`, with or without `--preload`, and
without the project's gunicorn.conf.py (whose start-up hook is not the only way the app learns
the number). One worker on `memory://` still serves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.load import free_port, stop

from .test_shared_limits import CHEAP_HASH, ROOT, wait_until_serving


def gunicorn(tmp_path: Path, *args: str, **env: str) -> tuple[subprocess.Popen[bytes], int, Path]:
    """Plain gunicorn on the app (no -c: run from a folder without gunicorn.conf.py), limits
    counted in memory: the process, its port, its log."""
    port = free_port()
    config = {
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SECRET_KEY": "test secret key",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
        "PASSWORD_HASH_METHOD": CHEAP_HASH,
        "RATELIMIT_STORAGE_URI": "memory://",
    }
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("DATABASE_URL", "RATELIMIT_STORAGE_URI", "SCORESHEET_WORKERS", "WEB_CONCURRENCY", "GUNICORN_CMD_ARGS")
    }
    clean["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), clean.get("PYTHONPATH")]))
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--bind",
                f"127.0.0.1:{port}",
                *args,
                f"scoresheet:create_app({config!r})",
            ],
            cwd=tmp_path,
            env={**clean, **env},
            stdout=out,
            stderr=out,
        )
    return proc, port, log


@pytest.mark.parametrize(
    "args, env",
    [
        (["-w", "3"], {}),
        (["--workers=3", "--preload"], {}),
        ([], {"GUNICORN_CMD_ARGS": "--workers 3"}),
        ([], {"WEB_CONCURRENCY": "3"}),
    ],
    ids=["-w 3", "--workers=3 --preload", "GUNICORN_CMD_ARGS", "WEB_CONCURRENCY"],
)
def test_three_workers_counting_alone_refuse_to_start_without_the_config_file(
    tmp_path: Path, args: list[str], env: dict[str, str]
) -> None:
    assert not (tmp_path / "gunicorn.conf.py").exists()
    proc, _, log = gunicorn(tmp_path, *args, **env)
    try:
        proc.wait(60)
    finally:
        stop(proc)
    text = log.read_text()
    assert proc.returncode != 0, text
    assert "Refusing to start: 3 workers" in text and "RATELIMIT_STORAGE_URI" in text, text


def test_one_worker_counting_in_memory_serves(tmp_path: Path) -> None:
    proc, port, log = gunicorn(tmp_path, "-w", "1")
    try:
        wait_until_serving(proc, port, log)
    finally:
        stop(proc)
    assert "Refusing" not in log.read_text()
