"""Every refusal sentence of the engine comes from one table (rules/messages.py)."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import scoresheet.rules
from scoresheet.rules import Malformed, Refused, check_setup, replay, setup_from_dict
from scoresheet.rules.messages import MESSAGES

from .helpers import played, setup
from .test_refusals import clear_sentence

ENGINE = Path(scoresheet.rules.__file__).parent
SOURCES = {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in ENGINE.glob("*.py")}


def _places(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_sentence_reads_as_a_sentence(code: str) -> None:
    message = MESSAGES[code].format(**{name: "Anna" for name in _places(MESSAGES[code])})
    assert clear_sentence(message), message


def test_every_kind_of_refusal_is_raised_somewhere() -> None:
    used = {
        node.value
        for name, tree in SOURCES.items()
        if name != "messages.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert set(MESSAGES) - used == set()


def test_no_refusal_is_written_at_the_raise() -> None:
    # Refused(...) and Malformed(...) are built only by messages.refuse / messages.malformed.
    built = [
        (name, node.lineno)
        for name, tree in SOURCES.items()
        if name != "messages.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Refused", "Malformed")
    ]
    assert built == []


def test_a_refusal_carries_its_kind_and_values() -> None:
    with pytest.raises(Refused) as err:
        replay(setup(), [played(1, 95, [10, None, 10])])
    e = err.value
    assert (e.field, e.code, e.params, e.hand) == ("bid", "bid_too_low", {"lowest": 100, "bid": 95}, 1)
    assert e.message == MESSAGES["bid_too_low"].format(**e.params) == str(e)


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"zeroes": "total"}, "options", "“zeroes” is not an option we know: leave it out or check its spelling."),
        ({"gold_set": "yes"}, "options", "“gold_set” is yes or no: true or false."),
        ({"sheet": 1}, "options", "The sheet style is “deferred” or “signed”."),
    ],
)
def test_malformed_options_are_named_in_plain_words(options: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(Malformed) as err:
        setup_from_dict({"players": ["A", "B", "C"], "options": options})
    assert (err.value.field, err.value.message) == (field, message)


def test_an_unknown_key_of_a_request_is_named() -> None:
    with pytest.raises(Malformed) as err:
        setup_from_dict({"players": ["A", "B", "C"], "colour": "red"})
    assert (err.value.field, err.value.message) == (
        "colour",
        "“colour” is not something we know: leave it out or check its spelling.",
    )


def test_a_ruleset_without_table_options_says_which_in_plain_words() -> None:
    with pytest.raises(Refused) as err:
        check_setup(setup("ggtables", gold_set=True))
    assert err.value.message == "ggtables has no gold set."
