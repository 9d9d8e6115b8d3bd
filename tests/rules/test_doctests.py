"""The examples in the engine's docstrings run as written (`replay`'s among them)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scoresheet.rules

WITH_EXAMPLES = ["scoresheet.rules.match"]
"""The engine's modules whose docstrings show examples."""


def examples(name: str) -> int:
    """How many examples the docstrings of module `name` show."""
    return sum(len(test.examples) for test in doctest.DocTestFinder().find(importlib.import_module(name)))


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples(name: str) -> None:
    assert examples(name), f"{name} shows no example: take it off WITH_EXAMPLES"
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_every_module_with_examples_is_listed() -> None:
    modules = [scoresheet.rules.__name__]
    modules += [m.name for m in pkgutil.walk_packages(scoresheet.rules.__path__, "scoresheet.rules.")]
    assert sorted(name for name in modules if examples(name)) == sorted(WITH_EXAMPLES)


def test_replay_has_an_example() -> None:
    assert doctest.DocTestFinder().find(scoresheet.rules.replay)[0].examples
