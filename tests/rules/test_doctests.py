"""The examples in the engine's docstrings run as written (`replay`'s among them)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scoresheet.rules

MODULES = sorted(m.name for m in pkgutil.iter_modules(scoresheet.rules.__path__, "scoresheet.rules."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_replay_has_an_example() -> None:
    assert doctest.DocTestFinder().find(scoresheet.rules.replay)[0].examples
