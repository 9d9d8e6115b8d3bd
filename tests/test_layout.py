"""The package's layers (docs/architecture.md), proved on every run: the engines import nothing
of the app, the service layer nothing of the web or of an HTTP library, storage and words no web
module, and the blueprints stand side by side. A wrong import fails here, naming the module and
what it imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scoresheet"

ENGINES = {"rules": set(), "club": {"rules"}}
"""The pure engines, and the other engines each may use."""
HTTP_LIBRARIES = {"flask", "werkzeug", "wtforms", "flask_wtf", "flask_babel", "flask_login", "flask_limiter"}
"""What the service layer never imports: it speaks neither HTTP nor forms nor a request's language."""


def imports(source: str, module: str, is_package: bool = False) -> tuple[set[str], set[str]]:
    """What `source` (the module `module`, dotted below the package: "web.pages.routes"; a
    package's `__init__` if `is_package`) imports, anywhere in it (inside functions too): the
    package's modules, dotted the same way, and the top-level names of everything else."""
    package = (module.split(".") if module else []) if is_package else module.split(".")[:-1]
    own: set[str] = set()
    other: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "scoresheet" or alias.name.startswith("scoresheet."):
                    own.add(alias.name.removeprefix("scoresheet").lstrip("."))
                else:
                    other.add(alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] if node.level > 1 else package
                parts = base + (node.module.split(".") if node.module else [])
            elif node.module and (node.module == "scoresheet" or node.module.startswith("scoresheet.")):
                parts = node.module.split(".")[1:]
            else:
                other.add((node.module or "").split(".")[0])
                continue
            prefix = ".".join(parts)
            own.add(prefix)  # "" is the package itself: `from scoresheet import create_app`
            for alias in node.names:  # `from . import routes` imports the module routes
                own.add(f"{prefix}.{alias.name}" if prefix else alias.name)
    return own, other


def modules() -> dict[str, tuple[str, bool]]:
    """Every module of the package, dotted below it ("" for the package itself), with its source
    and whether it is a package's `__init__`."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path.read_text(encoding="utf-8"), is_package)
    return found


def imports_of(name: str) -> tuple[set[str], set[str]]:
    """What the package's module `name` imports (see `imports`)."""
    source, is_package = modules()[name]
    return imports(source, name, is_package)


def _inside(name: str, layer: str) -> bool:
    return name == layer or name.startswith(layer + ".")


def crossings(layer: str, forbidden_own: set[str], forbidden_other: set[str] = frozenset()) -> dict[str, list[str]]:
    """The modules of `layer` that import one of the package's `forbidden_own` layers or an
    outside library of `forbidden_other`, with what they import."""
    found = {}
    for name in modules():
        if not _inside(name, layer):
            continue
        own, other = imports_of(name)
        wrong = sorted(m for m in own if any(_inside(m, f) for f in forbidden_own) or m == "")
        wrong += sorted(other & forbidden_other)
        if wrong:
            found[name] = wrong
    return found


def blueprint_modules() -> set[str]:
    """The modules that make a Blueprint (each folder of `web` with routes has one: its
    `routes.py`), and the forms beside them."""
    routes = {name for name, (source, _pkg) in modules().items() if "Blueprint(" in source}
    forms = {name.rsplit(".", 1)[0] + ".forms" for name in routes}
    return routes | (forms & set(modules()))


def test_the_import_reader_sees_every_way_of_importing_a_module() -> None:
    source = (
        "from . import routes, shapes\nfrom ..match_view import back_to\n"
        "import scoresheet.services.accounts\nfrom scoresheet.storage.models import Match\n"
        "def later():\n    from ...services.matches import commands\n"
        "import flask.json\nfrom werkzeug.wrappers import Response\n"
    )
    own, other = imports(source, "web.api.routes")
    assert "storage.database" in imports("from . import database\n", "storage", is_package=True)[0]
    assert {"web.api.routes", "web.api.shapes", "web.match_view", "services.accounts"} <= own
    assert {"storage.models", "services.matches.commands"} <= own
    assert {"flask", "werkzeug"} <= other


def test_the_layers_are_folders_of_the_package() -> None:
    assert {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()} >= {
        "rules",
        "services",
        "storage",
        "words",
        "web",
    }


def test_the_engines_import_nothing_of_the_app_and_only_the_standard_library() -> None:
    for engine, allowed in ENGINES.items():
        others = {m.split(".")[0] for m in modules() if m} - {engine} - allowed
        outside = {
            name: sorted(imports_of(name)[1] - set(sys.stdlib_module_names) - {"__future__"})
            for name in modules()
            if _inside(name, engine)
        }
        assert crossings(engine, others) == {}
        assert {name: found for name, found in outside.items() if found} == {}


def test_the_service_layer_imports_nothing_of_the_web_nor_of_http() -> None:
    assert crossings("services", {"web"}, HTTP_LIBRARIES) == {}


def test_storage_and_words_import_no_web_module_nor_a_service() -> None:
    assert crossings("storage", {"web", "services", "words"}) == {}
    assert crossings("words", {"web", "services", "storage"}) == {}


def test_no_module_imports_the_app_factory() -> None:
    """`scoresheet/__init__.py` builds the app from the layers; a layer that imported it back
    would make a cycle (a snapshot once built a second app that way)."""
    users = {name for name in modules() if name and "" in imports_of(name)[0]}
    assert users == set()


def test_blueprints_stand_side_by_side() -> None:
    """A blueprint's routes and forms are its own: only `web/__init__.py`, which registers them,
    imports them. What two blueprints share lives in a module of `web` (or, like the answers to
    a phone's queued hands, beside the blueprint it belongs to) that both import."""
    found = blueprint_modules()
    folders = {name.rsplit(".", 1)[0] for name in found}
    assert {"web.pages", "web.api", "web.live", "web.offline", "web.invite", "web.players"} <= folders
    assert {"web.account", "web.guide", "web.recovery", "web.language"} <= folders
    reaching = {
        name: sorted(m for m in imports_of(name)[0] if m in found and m.rsplit(".", 1)[0] != name.rsplit(".", 1)[0])
        for name in modules()
        if name != "web"
    }
    assert {name: found for name, found in reaching.items() if found} == {}


def test_importing_the_service_layer_loads_no_web_library() -> None:
    """What the service layer's modules import, all the way down: no forms, no log-in, no limits,
    nothing of the web layer (a service is usable, and testable, without a request)."""
    probe = (
        "import sys, scoresheet.services.matches.commands, scoresheet.services.players.profiles, "
        "scoresheet.services.accounts\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'wtforms', 'flask_wtf', 'flask_limiter'} or m.startswith('scoresheet.web')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
