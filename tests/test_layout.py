"""The package's layout (README, "Developing"): blueprint modules stand side by side, none
importing another; what two of them share lives in a small module both import (`common.py`)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scoresheet"


def package_imports(source: str, module: str) -> set[str]:
    """The modules of the package that `source` (the module `module`, dotted below the package,
    e.g. "views" or "rules.tichu") imports, anywhere in it (inside functions too), dotted the
    same way."""
    package = module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("scoresheet."):
                    found.add(alias.name.removeprefix("scoresheet."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] if node.level > 1 else package
                parts = base + (node.module.split(".") if node.module else [])
            elif node.module and (node.module == "scoresheet" or node.module.startswith("scoresheet.")):
                parts = node.module.split(".")[1:]
            else:
                continue
            prefix = ".".join(parts)
            if prefix:
                found.add(prefix)
            for alias in node.names:  # `from . import views` imports the module views
                found.add(f"{prefix}.{alias.name}" if prefix else alias.name)
    return found


def blueprint_modules() -> dict[str, str]:
    """Every module of the package that makes a Blueprint, dotted, with its source."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "Blueprint(" in source:
            name = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
            found[name] = source
    return found


def test_the_import_reader_sees_every_way_of_importing_a_module() -> None:
    source = (
        "from . import views, shapes\nfrom .common import back_to\n"
        "import scoresheet.api\nfrom scoresheet.phone import bp\n"
        "def later():\n    from .recovery import history\n"
        "from ..models import Match\n"
    )
    assert {"views", "shapes", "common", "api", "phone", "recovery"} <= package_imports(source, "views")
    assert "models" in package_imports(source, "rules.tichu")


def test_every_page_and_api_module_is_found_as_a_blueprint() -> None:
    assert {"views", "api", "phone", "recovery", "account_pages", "language"} <= set(blueprint_modules())
    assert "i18n" not in blueprint_modules()  # the translation helpers are not a blueprint


def test_no_blueprint_module_imports_another() -> None:
    modules = blueprint_modules()
    crossings = {
        name: sorted(package_imports(source, name) & (set(modules) - {name})) for name, source in modules.items()
    }
    assert {name: found for name, found in crossings.items() if found} == {}
