"""The package: a wheel built from this checkout holds everything and serves from any folder.

Builds the wheel, installs it into a fresh virtualenv (its dependencies come from pip's usual
indexes and cache) and runs `flask --app scoresheet run` in a folder outside the checkout.
Runs everywhere, CI included: nothing here is skipped.
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from scoresheet import config as folders
from scoresheet import create_app
from scoresheet.storage.database import MIGRATIONS

ROOT = Path(__file__).resolve().parents[1]
MAPPED = ("templates", "static", "migrations")
"""Top-level folders of the checkout that the wheel carries inside the package."""


def _run(*args: str | Path, cwd: Path | None = None) -> str:
    """Run a command, failing the test with its output if it fails."""
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel .` builds from this checkout."""
    out = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, ROOT)
    (built,) = out.glob("scoresheet-*.whl")
    return built


def _shipped_files() -> set[str]:
    """What the wheel must hold: the package's tracked files (and compiled catalogs), and the
    mapped folders' tracked files under the package."""
    tracked = _run("git", "ls-files", "scoresheet", *MAPPED, cwd=ROOT).splitlines()
    files = {name if name.startswith("scoresheet/") else f"scoresheet/{name}" for name in tracked}
    return files | {str(p.relative_to(ROOT)) for p in (ROOT / "scoresheet").rglob("*.mo")}


def test_the_wheel_holds_the_package_its_data_and_the_mapped_folders(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = _shipped_files() - names
    assert not missing, f"the wheel lacks {sorted(missing)}"
    assert {
        "scoresheet/templates/pages/login.html",
        "scoresheet/static/app.css",
        "scoresheet/migrations/env.py",
    } <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_a_checkout_reads_the_folders_where_they_stand() -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://", "DATABASE_AUTO_UPGRADE": False}
    )
    assert (app.template_folder, app.static_folder) == (str(ROOT / "templates"), str(ROOT / "static"))
    assert MIGRATIONS == str(ROOT / "migrations")


def test_an_installed_package_reads_the_folders_inside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site-packages" / "scoresheet"
    (package / "templates").mkdir(parents=True)
    (tmp_path / "site-packages" / "templates").mkdir()  # a stray folder beside it is not read
    monkeypatch.setattr(folders, "_PACKAGE", package)
    assert folders.folder("templates") == str(package / "templates")
    assert folders.folder("static") == str(tmp_path / "site-packages" / "static")


def _free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, server: subprocess.Popen[str]) -> tuple[int, str, bytes]:
    """GET `url` once the server answers (status, content type, body); fails if it died."""
    for _ in range(300):
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status, response.headers["Content-Type"], response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers["Content-Type"], error.read()
        except OSError:
            if server.poll() is not None:
                pytest.fail(f"the server stopped:\n{server.communicate()[0]}")
            time.sleep(0.1)
    pytest.fail(f"the server never answered {url}")


@pytest.fixture
def installed(wheel: Path, tmp_path: Path) -> Path:
    """A fresh virtualenv with the wheel (and its dependencies) installed: its bin folder."""
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv)
    _run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel)
    return venv / "bin"


@pytest.fixture
def served(installed: Path, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`flask --app scoresheet run` from the installed package, in a folder outside the checkout."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "SECRET_KEY", "PYTHONPATH"} and not k.startswith("FLASK_")
    }
    port = _free_port()
    server = subprocess.Popen(
        [str(installed / "flask"), "--app", "scoresheet", "run", "--port", str(port)],
        cwd=elsewhere,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.terminate()
        server.communicate(timeout=30)


def test_the_installed_wheel_serves_login_and_its_css_from_another_folder(
    installed: Path, tmp_path: Path, served: tuple[str, subprocess.Popen[str]]
) -> None:
    where = _run(installed / "python", "-c", "import scoresheet; print(scoresheet.__file__)", cwd=tmp_path)
    assert where.startswith(str(tmp_path / "venv")), where  # the wheel's copy, not the checkout
    url, server = served
    status, _, page = _get(f"{url}/login", server)
    assert status == 200
    css = re.search(rb'<link rel="stylesheet" href="([^"]+)"', page)
    assert css, page
    status, content_type, body = _get(url + css[1].decode(), server)
    assert (status, content_type.split(";")[0]) == (200, "text/css")
    assert body == (ROOT / "static" / "app.css").read_bytes()
    # The app migrated its database (SQLite in Flask's instance folder of the virtualenv).
    database = tmp_path / "venv" / "var" / "scoresheet-instance" / "scoresheet.sqlite"
    with closing(sqlite3.connect(database)) as conn:
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert [revision] == ScriptDirectory(MIGRATIONS).get_heads()


@pytest.fixture(scope="module")
def installed_once(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fresh virtualenv with the wheel installed, shared by the tests of its entry points."""
    venv = tmp_path_factory.mktemp("serving") / "venv"
    _run(sys.executable, "-m", "venv", venv)
    _run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel)
    return venv / "bin"


def _entry_point(installed: Path, tmp_path: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    """An entry point of the installed wheel, run in an empty folder with an empty home and
    none of the app's settings: the first start of someone who only ran `pip install`."""
    home = tmp_path / "home"
    home.mkdir()
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "SECRET_KEY", "PYTHONPATH", "RATELIMIT_STORAGE_URI", "WEB_CONCURRENCY", "BIND"}
        and not k.startswith(("FLASK_", "GUNICORN", "SCORESHEET_"))
    }
    return subprocess.Popen(
        [str(installed / args[0]), *args[1:]],
        cwd=home,
        env={**clean, "HOME": str(home), **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _stop(server: subprocess.Popen[str]) -> str:
    """Stop a server; its output."""
    server.terminate()
    return server.communicate(timeout=30)[0]


def test_scoresheet_serve_from_the_wheel_starts_on_every_core_of_this_machine_without_settings(
    installed_once: Path, tmp_path: Path
) -> None:
    assert len(os.sched_getaffinity(0)) >= 1
    port = _free_port()
    server = _entry_point(installed_once, tmp_path, "scoresheet-serve", BIND=f"127.0.0.1:{port}")
    try:
        status, _, body = _get(f"http://127.0.0.1:{port}/healthz", server)
    finally:
        output = _stop(server)
    assert (status, body) == (200, b'{"status":"ok"}\n'), output
    assert "One process serves" in output and "Refusing" not in output, output
    assert not (tmp_path / "home" / ".gunicorn").exists()  # no control socket left in $HOME


def test_scoresheet_table_from_the_wheel_serves_every_network_over_plain_http_and_prints_the_address(
    installed_once: Path, tmp_path: Path
) -> None:
    port = _free_port()
    server = _entry_point(installed_once, tmp_path, "scoresheet-table", str(port))
    try:
        status, _, _ = _get(f"http://127.0.0.1:{port}/register", server)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(f"http://127.0.0.1:{port}/register", timeout=10) as response:
            cookie = response.headers["Set-Cookie"] or ""
    finally:
        output = _stop(server)
    assert status == 200
    assert f"Listening at: http://0.0.0.0:{port}" in output, output
    assert re.search(rf"open http://[0-9.]+:{port}|join a Wi-Fi", output), output
    assert cookie.startswith("session=") and "Secure" not in cookie, cookie  # comes back over http
