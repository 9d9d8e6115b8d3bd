"""Serving: the gunicorn configuration and the app behind a reverse proxy."""

from __future__ import annotations

import io
import runpy
from pathlib import Path
from typing import Any

import pytest
import segno
from flask import request

from scoresheet import create_app, serve

CONF = str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py")


def gunicorn_settings(monkeypatch: Any, **env: str) -> dict[str, Any]:
    """gunicorn.conf.py's settings under this environment."""
    for name in ("BIND", "WEB_CONCURRENCY", "ACCESS_LOG", "RATELIMIT_STORAGE_URI", "WORKER_CLASS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(CONF)


@pytest.mark.parametrize("cores, workers", [(1, 3), (2, 5), (4, 9), (32, 12)])
def test_gunicorn_workers_follow_the_cores_capped_with_a_shared_store(
    monkeypatch: Any, cores: int, workers: int
) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(cores)))
    settings = gunicorn_settings(monkeypatch, RATELIMIT_STORAGE_URI="redis://127.0.0.1:6379/0")
    assert (settings["workers"], settings["threads"]) == (workers, 1)
    assert settings["bind"] == ["127.0.0.1:8000"] and settings["accesslog"] is None
    assert settings["wsgi_app"] == "scoresheet:create_app()"


@pytest.mark.parametrize("cores", [1, 2, 4, 32])
def test_without_a_shared_store_one_process_of_threads_serves_on_any_core_count(monkeypatch: Any, cores: int) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(cores)))
    settings = gunicorn_settings(monkeypatch)
    assert (settings["workers"], settings["threads"]) == (1, serve.SINGLE_PROCESS_THREADS)
    assert settings["control_socket_disable"] is True


def test_gevent_workers_without_a_shared_store_are_one_process(monkeypatch: Any) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: {0, 1})
    assert gunicorn_settings(monkeypatch, WORKER_CLASS="gevent")["workers"] == 1


def test_the_packaged_settings_are_the_checkouts_gunicorn_conf(monkeypatch: Any) -> None:
    settings = gunicorn_settings(monkeypatch)
    packaged = serve.settings({})
    assert {k: v for k, v in settings.items() if k in packaged} == packaged


def test_gunicorn_settings_come_from_the_environment(monkeypatch: Any) -> None:
    settings = gunicorn_settings(monkeypatch, BIND="0.0.0.0:9000,unix:/run/s.sock", WEB_CONCURRENCY="2", ACCESS_LOG="-")
    assert settings["bind"] == ["0.0.0.0:9000", "unix:/run/s.sock"]
    assert settings["workers"] == 2 and settings["accesslog"] == "-"


def test_the_table_banner_gives_the_phones_the_address_and_its_qr_code() -> None:
    banner = serve.table_banner(5000, "192.168.1.23")
    assert "open http://192.168.1.23:5000" in banner
    qr = io.StringIO()
    segno.make("http://192.168.1.23:5000", error="m").terminal(out=qr, compact=True)
    assert qr.getvalue().rstrip("\n") in banner


def test_the_table_banner_says_so_when_there_is_no_network(monkeypatch: Any) -> None:
    monkeypatch.setattr(serve, "lan_address", lambda: None)
    banner = serve.table_banner(5000)
    assert "join a Wi-Fi" in banner and "http://127.0.0.1:5000" in banner


def forwarded_app(tmp_path: Any, **config: Any) -> Any:
    """An app with a view that shows what it believes about the request."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "INSTANCE_PATH": str(tmp_path),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
            **config,
        }
    )
    app.add_url_rule(
        "/whoami", "whoami", lambda: {"addr": request.remote_addr, "scheme": request.scheme, "host": request.host}
    )
    return app


FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}


def test_behind_a_trusted_proxy_the_client_address_and_https_are_seen(tmp_path: Any) -> None:
    app = forwarded_app(tmp_path, TRUSTED_PROXIES=1)
    seen = app.test_client().get("/whoami", headers=FORWARDED).json
    assert seen == {"addr": "203.0.113.7", "scheme": "https", "host": "scores.example"}


def test_without_trusted_proxies_forwarded_headers_are_ignored(tmp_path: Any) -> None:
    seen = forwarded_app(tmp_path).test_client().get("/whoami", headers=FORWARDED).json
    assert seen == {"addr": "127.0.0.1", "scheme": "http", "host": "localhost"}


def test_trusted_proxies_from_the_environment(monkeypatch: Any, tmp_path: Any) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "INSTANCE_PATH": str(tmp_path),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
        }
    )
    assert app.config["TRUSTED_PROXIES"] == 1
