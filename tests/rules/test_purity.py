"""The engine is pure and typed (STYLE.md habit 1)."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "scoresheet" / "rules"
WEB = ("flask", "flask_sqlalchemy", "flask_login", "flask_wtf", "sqlalchemy", "werkzeug", "wtforms")

# A fresh interpreter imports the engine and replays a hand, then lists what it loaded. The
# parent package `scoresheet` is the web app (its __init__ builds the Flask factory), so it is
# stood in for by a bare package: what is measured is what the engine itself pulls in.
PROBE = f"""
import sys, types
pkg = types.ModuleType("scoresheet")
pkg.__path__ = [{str(ROOT / "scoresheet")!r}]
sys.modules["scoresheet"] = pkg
import scoresheet.rules as r
s = r.setup_from_dict({{"players": ["A", "B", "C"]}})
r.replay(s, [r.hand_from_dict({{"declarer": 1, "bid": 100, "points": [10, None, 10]}})])
print(" ".join(sorted(m for m in sys.modules if m.split(".")[0] in {WEB!r})))
"""


def test_the_engine_imports_neither_flask_nor_sqlalchemy_at_run_time() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_engine_modules_import_only_the_standard_library_and_each_other(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > 0:  # relative: another engine module
                assert node.level == 1, f"{path.name} reaches outside the engine"
                continue
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_the_engine_passes_mypy_strict() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed")
    # follow-imports=silent: the parent package (the web app) is read for types but judged by
    # its own standards; every engine module is held to --strict.
    cmd = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", "scoresheet/rules"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
