"""The club engine is pure and typed: the standard library and `scoresheet.rules`, nothing of
the web or the database, nothing else of `scoresheet` (STYLE.md habit 1), like the match engine
(tests/rules/test_purity.py proves it the same way)."""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import scoresheet.club

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "scoresheet" / "club"
WEB = (
    "flask",
    "flask_sqlalchemy",
    "flask_login",
    "flask_wtf",
    "flask_babel",
    "babel",
    "sqlalchemy",
    "werkzeug",
    "wtforms",
)

# A fresh interpreter imports the engine, seats two rounds and reads the standings, then lists
# what it loaded. The parent package `scoresheet` is the web app (its __init__ builds the Flask
# factory), so it is stood in for by a bare package: what is measured is what the engine pulls in.
PROBE = f"""
import sys, types
pkg = types.ModuleType("scoresheet")
pkg.__path__ = [{str(ROOT / "scoresheet")!r}]
sys.modules["scoresheet"] = pkg
import scoresheet.club as c
players = [f"P{{i}}" for i in range(15)]
first = c.seat_round(players, [], game="tysiacha", seed=1)
night = [c.Round(tables=tuple(c.Table(players=t, scores=tuple(range(len(t)))) for t in first.tables))]
c.seat_round(players, night, game="tysiacha", seed=1)
c.standings_after(players, night, game="tysiacha", seed=1)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {WEB!r})
others = sorted(m for m in sys.modules if m.startswith("scoresheet.") and m.split(".")[1] not in ("club", "rules"))
print(" ".join(loaded + others))
"""


def test_the_club_engine_loads_nothing_of_the_web_nor_the_rest_of_the_app_at_run_time() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_club_modules_import_only_the_standard_library_each_other_and_the_match_engine(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1:  # another module of the club engine
                continue
            if node.level == 2:  # beside it in scoresheet: the match engine only
                module = node.module or ""
                assert module == "rules" or module.startswith("rules."), f"{path.name} imports ..{module}"
                continue
            assert node.level == 0, f"{path.name} reaches outside scoresheet"
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or name.startswith("scoresheet.rules"), f"{path.name} imports {name}"


def test_the_club_engine_passes_mypy_strict() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed")
    cmd = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", "scoresheet/club"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


MODULES = sorted(m.name for m in pkgutil.iter_modules(scoresheet.club.__path__, "scoresheet.club."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run_as_written(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("entry", ["match_points", "table_points", "standings_after", "seat_round", "layout"])
def test_the_main_entry_points_have_an_example(entry: str) -> None:
    assert doctest.DocTestFinder().find(getattr(scoresheet.club, entry))[0].examples


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_every_public_function_and_every_field_of_a_public_value_type_says_what_it_is(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and ast.get_docstring(node) is None:
            bare.append(node.name)
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            body = node.body
            for i, item in enumerate(body):
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    said = i + 1 < len(body) and isinstance(body[i + 1], ast.Expr)
                    if not said or not isinstance(body[i + 1].value, ast.Constant):  # type: ignore[attr-defined]
                        bare.append(f"{node.name}.{item.target.id}")
    assert not bare
