"""Serving: the gunicorn configuration and the app behind a reverse proxy."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest
from flask import request

from scoresheet import create_app

CONF = str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py")


def gunicorn_settings(monkeypatch: Any, **env: str) -> dict[str, Any]:
    """gunicorn.conf.py's settings under this environment."""
    for name in ("BIND", "WEB_CONCURRENCY", "ACCESS_LOG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(CONF)


@pytest.mark.parametrize("cores, workers", [(1, 3), (2, 5), (4, 9), (32, 12)])
def test_gunicorn_workers_follow_the_cores_capped(monkeypatch: Any, cores: int, workers: int) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(cores)))
    settings = gunicorn_settings(monkeypatch)
    assert settings["workers"] == workers
    assert settings["bind"] == ["127.0.0.1:8000"] and settings["accesslog"] is None
    assert settings["wsgi_app"] == "scoresheet:create_app()"


def test_gunicorn_settings_come_from_the_environment(monkeypatch: Any) -> None:
    settings = gunicorn_settings(monkeypatch, BIND="0.0.0.0:9000,unix:/run/s.sock", WEB_CONCURRENCY="2", ACCESS_LOG="-")
    assert settings["bind"] == ["0.0.0.0:9000", "unix:/run/s.sock"]
    assert settings["workers"] == 2 and settings["accesslog"] == "-"


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
