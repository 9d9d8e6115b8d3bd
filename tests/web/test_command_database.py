"""Commands of the `flask` CLI say which database they use, and one that finds no database
where one is expected stops instead of making an empty SQLite file (only `restore --create`
makes it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scoresheet import create_app
from scoresheet.storage import which_database

ROOT = Path(__file__).resolve().parents[2]


def flask_command(instance: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`flask --app scoresheet …` with no settings, its default database in `instance`."""
    clean = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY") and not k.startswith("FLASK_")
    }
    app = f"scoresheet:create_app({{'INSTANCE_PATH': {str(instance)!r}, 'SECRET_KEY': 'x'}})"
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", app, *args],
        cwd=instance.parent,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("command", [["backup", "everything.json"], ["db", "upgrade"], ["restore", "everything.json"]])
def test_a_command_without_settings_names_the_default_database_and_makes_no_empty_one(
    tmp_path: Path, command: list[str]
) -> None:
    instance = tmp_path / "instance"
    (tmp_path / "everything.json").write_text('{"format": 1}')
    done = flask_command(instance, *command)
    default = f"sqlite:///{instance / 'scoresheet.sqlite'}"
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"Database: {default} (the default: DATABASE_URL is not set)" in done.stderr
    assert f"There is no database at {instance / 'scoresheet.sqlite'}" in done.stderr, done.stderr
    assert "--create" in done.stderr
    assert not (instance / "scoresheet.sqlite").exists()
    assert "Traceback" not in done.stderr


def test_restore_with_create_makes_the_database_and_counts_in_the_singular(
    app: Flask, make_user: Any, tmp_path: Path
) -> None:
    make_user("anna").new_match()
    file = tmp_path / "everything.json"
    backed_up = app.test_cli_runner().invoke(args=["backup", str(file)])
    assert backed_up.exit_code == 0, backed_up.output
    assert f"Backed up 1 user and 1 match to {file}." in backed_up.output
    instance = tmp_path / "new-instance"
    done = flask_command(instance, "restore", "--create", str(file))
    assert done.returncode == 0, done.stderr
    assert f"Restored 1 user and 1 match from {file}." in done.stdout
    assert (instance / "scoresheet.sqlite").stat().st_mode & 0o777 == 0o600
    again = flask_command(instance, "backup", str(tmp_path / "again.json"))
    assert "Backed up 1 user and 1 match" in again.stdout, again.stderr
    assert again.stderr.count("Database: ") == 1, again.stderr  # not its snapshot's too


def test_a_command_on_an_existing_database_says_which_and_goes_on(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "x"})  # as `flask run` makes it
    done = flask_command(instance, "backup", str(tmp_path / "empty.json"))
    assert done.returncode == 0, done.stderr
    assert "Database: sqlite:///" in done.stderr and "Backed up 0 users and 0 matches" in done.stdout


def test_a_configured_database_is_named_without_its_password(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://scoresheet:s3cret@db.example:5432/scoresheet")
    app = Flask(__name__, instance_path=str(tmp_path))
    app.config["SQLALCHEMY_DATABASE_URI"] = "postgresql+psycopg://scoresheet:s3cret@db.example:5432/scoresheet"
    described = which_database.describe(app)
    assert described == "postgresql+psycopg://scoresheet:***@db.example:5432/scoresheet (DATABASE_URL)"
