"""One home for the settings (scoresheet/config.py), and docs/deploy.md's table of settings names
exactly the environment variables the app and its gunicorn settings (serve.py) read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scoresheet import config, create_app

ROOT = Path(__file__).resolve().parents[1]


def _table_names() -> set[str]:
    """The variables named in the first column of deploy.md's table of settings."""
    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    table = text[text.index("| setting | what it does |") :].split("\n\n", 1)[0]
    return {name for row in table.splitlines()[2:] for name in re.findall(r"`([A-Z_]+)`", row.split("|")[1])}


def _gunicorn_names() -> set[str]:
    """The environment variables gunicorn's settings read (scoresheet/serve.py)."""
    text = (ROOT / "scoresheet" / "serve.py").read_text(encoding="utf-8")
    internal = {"SCORESHEET_TABLE"}  # scoresheet-table's own mark for its banner, no setting
    return set(re.findall(r"environ\.get\(\"([A-Z_]+)\"", text)) - internal


def test_the_deploy_guide_names_every_variable_the_app_reads_and_no_other() -> None:
    assert _table_names() == set(config.ENVIRONMENT) | _gunicorn_names()


def test_no_module_reads_the_environment_but_config() -> None:
    """Settings come from `config.load`; read elsewhere are only Flask's own FLASK_RUN_FROM_CLI
    (the development server), which is no setting, and gunicorn's, in serve.py."""
    readers = {
        path.relative_to(ROOT).as_posix(): found
        for path in (ROOT / "scoresheet").rglob("*.py")
        if path.name != "serve.py"
        and (found := sorted(set(re.findall(r"os\.environ(?:\.get)?[\[(]\"([A-Z_]+)\"", path.read_text("utf-8")))))
    }
    assert readers == {"scoresheet/web/security.py": ["FLASK_RUN_FROM_CLI"]}


@pytest.mark.parametrize(
    ("variable", "value", "key", "expected"),
    [
        ("TRUSTED_PROXIES", "2", "TRUSTED_PROXIES", 2),
        ("SESSION_COOKIE_SECURE", "0", "SESSION_COOKIE_SECURE", False),
        ("LIVE_PUSH", "1", "LIVE_PUSH", True),
        ("SCORESHEET_WORKERS", "3", "WORKERS", 3),
        ("RATELIMIT_STORAGE_URI", "memory://", "RATELIMIT_STORAGE_URI", "memory://"),
    ],
)
def test_each_variable_sets_its_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, variable: str, value: str, key: str, expected: Any
) -> None:
    monkeypatch.setenv(variable, value)
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "memory://")  # several workers on it: refused
    limits_off = {"RATELIMIT_ENABLED": False} if key == "WORKERS" else {}
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://", **limits_off})
    assert app.config[key] == expected


def test_the_argument_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", "2")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://", "TRUSTED_PROXIES": 0})
    assert app.config["TRUSTED_PROXIES"] == 0
