"""Player names and options at set-up (RULES.md §6): the engine's checks, so the API and the
pages refuse the same names."""

from __future__ import annotations

import dataclasses

import pytest

from scoresheet.rules import Malformed, Refused, check_setup, setup_from_dict
from scoresheet.rules.setup import INVISIBLE, check_new_names

from .helpers import setup


def named(*players: str) -> None:
    """Check a three-seat set-up with these names."""
    check_setup(dataclasses.replace(setup(), players=players))


@pytest.mark.parametrize(
    "name", [*sorted(INVISIBLE), "\u3164 \u3164", "\u2800\u2800", " ", "\u115f\u1160\uffa0", "\u200d"]
)
def test_a_name_needs_a_character_you_can_see(name: str) -> None:
    with pytest.raises(Refused) as refused:
        named(name, "B", "C")
    assert refused.value.field == "players"


@pytest.mark.parametrize(
    "name",
    [
        *("Anna\u3164", "\u2800Anna", "An\u034fna", "\u115fAnna", "An\u200dna", "ANNA\u17b4"),
        *("Anna\ufe0f", "An\U000e0100na", "Anna\u180b"),  # variation selectors: "Anna" all the same
    ],
)
def test_a_new_match_refuses_names_alike_but_for_invisible_characters_a_stored_one_keeps_them(name: str) -> None:
    named(name, "Anna", "C")  # a stored match's names replay as they were
    with pytest.raises(Refused) as refused:
        check_new_names(("Anna", name, "C"))  # two seats that read alike on the sheet and in the CSV
    assert (refused.value.field, refused.value.code) == ("players", "name_twice")
    check_new_names((name, "Boris", "Вася\u200d"))  # alone, a name keeps what it holds


@pytest.mark.parametrize("name", ["A\u2028B", "A\u2029B", "A\u200bB", "A\ufeff"])
def test_line_separators_and_zero_width_marks_are_refused_inside_a_name(name: str) -> None:
    with pytest.raises(Refused):
        named(name, "B", "C")


@pytest.mark.parametrize(
    "names",
    [("Andr\u00e9", "Andre\u0301"), ("STRASSE", "stra\u00dfe"), ("\u00c5sa", "\u212bSA"), ("Zo\u00eb", "ZOE\u0308")],
)
def test_names_that_are_the_same_after_normalising_and_case_folding_are_refused(names: tuple[str, str]) -> None:
    with pytest.raises(Refused, match="Two players are called"):
        named(*names, "C")


@pytest.mark.parametrize(
    "name", ["Zoë", "김민수", "Ölçü", "👩\u200d👩\u200d👧", "⚽\ufe0f", "O'Neil-Smith", "Анна Мария", "ผู้เล่น"]
)
def test_names_in_any_script_are_accepted(name: str) -> None:
    named(name, "B", "C")


@pytest.mark.parametrize("options", [None, [], 0, False, "", [1]])
def test_options_that_are_not_an_object_are_malformed(options: object) -> None:
    with pytest.raises(Malformed) as malformed:
        setup_from_dict({"players": ["A", "B", "C"], "options": options})
    assert malformed.value.field == "options"
