"""The deployment guide: every file docs/deploy.md shows is the repository's file under
`deploy/`, and its nginx site, run on this machine's nginx on loopback ports (not 443) in front
of `scoresheet-serve`, keeps forms, join links and the security headers working."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.load import free_port, stop

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "deploy.md"
SHOWN = re.compile(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)\n```\n", re.DOTALL)
SCRIPTS = {"deploy/check", "deploy/walkthrough", "deploy/nginx-local", "deploy/smoke.py"}
"""Files of deploy/ that are tools, not configuration the guide shows."""


def _smoke() -> Any:
    """deploy/smoke.py as a module."""
    spec = importlib.util.spec_from_file_location("smoke", ROOT / "deploy" / "smoke.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_file_the_guide_shows_is_the_repositorys_file_as_it_is() -> None:
    shown = SHOWN.findall(GUIDE.read_text())
    assert shown, "the guide shows no file"
    for path, text in shown:
        assert (ROOT / path).read_text().rstrip("\n") == text, f"docs/deploy.md shows {path} otherwise"
    tracked = subprocess.run(["git", "ls-files", "deploy"], cwd=ROOT, capture_output=True, text=True, check=True)
    files = set(tracked.stdout.split()) - SCRIPTS
    assert files <= {path for path, _ in shown}, "deploy/ holds files the guide does not show"


def test_the_guide_never_shows_the_nginx_mistakes_again() -> None:
    lines = (ROOT / "deploy" / "nginx" / "scoresheet.conf").read_text().splitlines()
    site = "\n".join(line.split("#")[0] for line in lines)  # directives, not comments
    assert "http2 on;" not in site  # nginx 1.22 (Debian 12) refuses it
    assert "$host;" not in site.replace("https://$host", "")  # the port would be lost
    assert "alias" not in site and "/static/" not in site  # the app serves static files, headers and all


def _need(*tools: str) -> None:
    """Skip without the tools (CI installs them: deploy/check; there a skip fails)."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {missing} are not installed (deploy/check installs them)")
        pytest.skip(f"{missing} not installed (deploy/check installs them)")


@pytest.fixture
def behind_nginx(tmp_path: Path) -> Iterator[Any]:
    """A function: start the site (default: the guide's) in front of `scoresheet-serve` on
    loopback ports; yields the address the phones use and the certificate to trust."""
    _need("nginx", "openssl")
    started: list[Any] = []

    def start(site: Path = ROOT / "deploy" / "nginx" / "scoresheet.conf") -> tuple[str, str]:
        app, http, https = free_port(), free_port(), free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("RATELIMIT_STORAGE_URI", "WEB_CONCURRENCY")}
        env.update(
            BIND=f"127.0.0.1:{app}",
            DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite'}",
            SECRET_KEY="deploy test secret key",
            TRUSTED_PROXIES="1",
            LOG_LEVEL="warning",
            HOME=str(tmp_path),
        )
        log = open(tmp_path / "gunicorn.log", "wb")  # noqa: SIM115 — closed with the server
        server = subprocess.Popen(
            [sys.executable, "-c", "from scoresheet.serve import main; main()"],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=log,
        )
        started.append(lambda: (stop(server), log.close()))
        folder = tmp_path / "nginx"
        run = [sys.executable, str(ROOT / "deploy" / "nginx-local")]
        subprocess.run(
            [*run, "start", str(folder), str(site), f"--http={http}", f"--https={https}", f"--app={app}"], check=True
        )
        started.append(lambda: subprocess.run([*run, "stop", str(folder)], check=False))
        for _ in range(300):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", app)) == 0:
                    break
            assert server.poll() is None, (tmp_path / "gunicorn.log").read_text()
            __import__("time").sleep(0.1)
        return f"https://scores.example.org:{https}", str(folder / "certs" / "fullchain.pem")

    yield start
    for end in reversed(started):
        end()


@pytest.fixture
def to_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """scores.example.org is this machine (curl's --resolve)."""
    resolve = socket.getaddrinfo
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda name, *a, **k: resolve("127.0.0.1" if name == "scores.example.org" else name, *a, **k),
    )


def test_the_guides_nginx_site_on_another_port_posts_forms_keeps_the_port_in_join_links_and_sends_the_headers(
    behind_nginx: Any, to_loopback: None
) -> None:
    base, cafile = behind_nginx()
    seen = _smoke().check(base, cafile)
    assert any(line.startswith("form POST /register") for line in seen), seen
    assert any(f"join link is {base}/join/" in line for line in seen), seen


def test_with_host_instead_of_http_host_the_same_form_is_refused_for_its_referrer(
    behind_nginx: Any, to_loopback: None, tmp_path: Path
) -> None:
    site = tmp_path / "old.conf"
    site.write_text((ROOT / "deploy" / "nginx" / "scoresheet.conf").read_text().replace("$http_host;", "$host;"))
    base, cafile = behind_nginx(site)
    with pytest.raises(AssertionError, match="the register form answered 400"):
        _smoke().check(base, cafile)


def test_the_readme_still_opens_with_running_the_app_and_running_the_tests() -> None:
    commands = re.findall(r"^    (python3 -m venv .*)$", (ROOT / "README.md").read_text(), re.MULTILINE)
    assert commands[:2] == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/flask --app scoresheet run",
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest",
    ]
