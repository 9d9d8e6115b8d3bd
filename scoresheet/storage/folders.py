"""Where the app's `templates/`, `static/` and `migrations/` folders are, installed or not."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


def folder(name: str) -> str:
    """The folder `name` inside the installed package (a wheel), else beside it (a checkout).

    A wheel carries the top-level folders inside the package (pyproject.toml's force-include);
    an editable install or a plain checkout reads them where they stand in the repository.
    """
    inside = _PACKAGE / name
    return str(inside if inside.is_dir() else _PACKAGE.parent / name)
