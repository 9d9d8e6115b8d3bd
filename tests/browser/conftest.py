"""Real-browser fixtures: Debian's Chromium driven by Playwright against the app served on
127.0.0.1 from a werkzeug server thread, on SQLite.

Nothing is downloaded: Chromium is /usr/bin/chromium (`.ci/run` installs it). Without it the
tests are skipped on a developer machine and fail in CI.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import serving

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Without Chromium: skip on a developer machine, fail in CI."""
    if os.path.exists(CHROMIUM):
        return
    if os.environ.get("CI"):
        return  # the `chromium_present` fixture fails them
    here = str(Path(__file__).parent)
    skip = pytest.mark.skip(
        reason=f"{CHROMIUM} is missing (apt-get install -y chromium); CI installs it and fails without it"
    )
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def chromium_present() -> None:
    """Fail in CI when Chromium is missing (the collection hook already skips elsewhere)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"CI is set but {CHROMIUM} is missing: .ci/run installs it")


@pytest.fixture(scope="session")
def playwright(chromium_present: None) -> Iterator[Any]:
    """The Playwright driver (sync API)."""
    from playwright.sync_api import sync_playwright

    # A service worker's own requests can then be routed (to an abort: offline, test_offline.py);
    # set_offline alone does not cut them.
    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """Debian's Chromium, headless."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def axe_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """axe-core's browser script, the version package-lock.json pins: `npm ci` installs it
    into node_modules/ when it is missing or another version, so `python -m pytest` alone runs
    the accessibility check on a fresh clone (one pytest-xdist worker at a time: the others
    wait on a lock in the run's shared temporary folder). Without npm: skipped on a developer
    machine, failed in CI."""
    with open(tmp_path_factory.getbasetemp().parent / "npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        _install_axe()
    return AXE


def _install_axe() -> None:
    """`npm ci` unless node_modules/ has the pinned axe-core (see `axe_script`)."""
    if _installed_axe() != _pinned_axe():
        npm = shutil.which("npm")
        if npm is None:
            message = "npm is missing (apt-get install -y npm): the accessibility check needs it"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, capture_output=True, text=True, check=False
        )
        if done.returncode or _installed_axe() != _pinned_axe():
            pytest.fail(f"npm ci could not install axe-core:\n{done.stdout}{done.stderr}")


def _pinned_axe() -> str:
    """The axe-core version package-lock.json pins."""
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    return str(lock["packages"]["node_modules/axe-core"]["version"])


def _installed_axe() -> str | None:
    """The axe-core version in node_modules/ (None when there is none)."""
    package = AXE.parent / "package.json"
    if not AXE.exists() or not package.exists():
        return None
    return str(json.loads(package.read_text(encoding="utf-8"))["version"])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app every browser test uses; its base URL."""
    with serving(tmp_path_factory.mktemp("browser")) as url:
        yield url


@pytest.fixture
def new_phone(browser: Any, playwright: Any, server: str) -> Iterator[Any]:
    """A factory of phones: Pixel 7 contexts (touch on) on Chromium, each recording every
    request and failing the test on any console error (a CSP violation is one)."""
    from .helpers import Phone

    phones: list[Phone] = []

    def make(**options: Any) -> Phone:
        device = {k: v for k, v in playwright.devices["Pixel 7"].items() if k != "default_browser_type"}
        device.update(has_touch=True, base_url=server, accept_downloads=True)
        device.update(options)
        phone = Phone(browser.new_context(**device), server)
        phones.append(phone)
        return phone

    yield make
    for phone in phones:
        phone.context.close()
    for phone in phones:
        assert not phone.errors, phone.errors
        foreign = [u for u in phone.requests if not u.startswith((server, "data:", "blob:"))]
        assert not foreign, f"requests that left 127.0.0.1: {foreign}"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: docs/screenshots with UPDATE_SCREENSHOTS=1, else a temporary
    folder (a test run does not rewrite the committed pictures)."""
    if os.environ.get("UPDATE_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path
