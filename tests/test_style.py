"""The whole tree keeps the lint rules of pyproject.toml ([tool.ruff]): import order, unused
names, line length, bug-prone patterns. A finding fails the test run, so it never piles up."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_nothing_in_the_package() -> None:
    """mypy over the whole package with pyproject.toml's settings: strict for the engine and the
    service layer, the default checks elsewhere."""
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format_changes_nothing() -> None:
    """The tree is as `ruff format` writes it, so a diff shows what changed, never layout."""
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_browser_waits_poll_a_function() -> None:
    """Playwright polls a wait_for_function given a bare expression with eval(), which the pages'
    CSP (script-src 'self') refuses as soon as the first check is false: such a wait passes when
    the page is quick and fails when the machine is loaded. Every wait there passes a function."""
    bare = []
    for path in sorted((ROOT / "tests" / "browser").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"wait_for_function\(\s*(\"|')(?!\(|\w+\s*=>)", text):
            bare.append(f"{path.name}:{text.count(chr(10), 0, match.start()) + 1}")
    assert not bare, bare
