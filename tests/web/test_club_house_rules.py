"""The club night's form offers the house rules (RULES.md §11) as the new-match form does: the
same fields in the same groups, refusals next to the rule, and every table's match plays them;
on both databases."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func

from scoresheet.rules.house import HOUSE_RULES
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Event, EventTable, Match

from .page_helpers import Phone, all_errors, errors_next_to, parse
from .test_pages_club import add_guests, make_night
from .test_pages_house_rules import groups_on

NIGHT = {"name": "Friday club", "rules": "squarescores", "target": "", "rounds": "3", "seating": "fours"}


def refused_night(director: Phone, **fields: str) -> str:
    """The night's form sent with these fields and refused: the page as it came back."""
    response = director.post("/events/new", {**NIGHT, **fields})
    assert response.status_code == 422
    return str(response.text)


def nights(director: Phone) -> int:
    with director.client.application.app_context():
        return int(db.session.execute(db.select(func.count(Event.id))).scalar_one())


def test_the_nights_form_has_every_house_rule_in_the_new_match_forms_closed_groups(make_phone: Any) -> None:
    director = make_phone("director")
    night = director.get("/events/new").text
    groups = groups_on(night)
    assert groups == groups_on(director.get("/matches/new").text)  # the same rules, in the same groups
    assert sorted(k for _, ids in groups.values() for k in ids) == sorted(HOUSE_RULES)
    assert not any(is_open for is_open, _ in groups.values())
    titles = [n.text() for n in parse(night).walk() if n.tag == "summary"]
    assert titles == ["House rules", "Zeros and penalties", "The barrel", "The dump", "Marriages and blind bids"]
    assert "Every table plays these rules, with the house rules you choose below." in night


def test_house_rules_chosen_for_the_night_are_its_game_and_every_tables_match_plays_them(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(
        director, rules="classic", zeros="consecutive", zero_penalty="100", dump_555="plus", dump_at="550",
        ace_marriage="y", barrel_hands="",
    )  # fmt: skip
    chosen = {"zeros": "consecutive", "zero_penalty": 100, "dump_555": "plus", "dump_at": 550, "ace_marriage": True}
    add_guests(director, night, ["Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"])
    seated = director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    assert seated.status_code == 302, all_errors(seated.text)
    with director.client.application.app_context():
        event = db.session.get(Event, night)
        assert event is not None and event.game == {"rules": "classic", "options": chosen}
        tables = db.session.execute(db.select(EventTable)).scalars().all()
        assert len(tables) == 2
        for table in tables:
            match = db.session.get(Match, table.match_id)
            assert match is not None and match.setup["rules"] == "classic"
            assert {k: match.setup["options"][k] for k in chosen} == chosen
            assert match.setup["options"]["barrel_hands"] == 3  # left as usual
    page = director.get(f"/matches/{tables[0].match_id}").text
    card = [n.text() for n in parse(page).walk() if "rule-card" in n.attrs.get("class", "")]
    assert card and "The dump: exactly 550 goes back to 0" in card[0]


@pytest.mark.parametrize(
    ("fields", "field", "error", "group"),
    [
        (
            {"rules": "polish", "barrel_hands": "4"},
            "barrel_hands",
            "Polish has no barrel: for “Hands on the barrel before the fall”, choose “The usual for these rules”.",
            "barrel",
        ),
        ({"zeros": "sometimes"}, "zeros", "Choose one of the choices offered.", "penalties"),
        ({"dump_at": "abc"}, "dump_at", "Enter a whole number.", "dump"),
        (
            {"dump_at": "550"},
            "dump_at",
            "There is no dump to move: for “The dump”, choose “exactly 550 goes back to 0” or "
            "“550 and −550 go back to 0”.",
            "dump",
        ),
        (
            {"rules": "tichu", "ace_marriage": "y"},
            "ace_marriage",
            "Tichu has no house rules: untick “Ace marriage: all four aces declared count 200”.",
            "bids",
        ),
    ],
)
def test_a_house_rule_refused_is_said_next_to_it_in_its_open_group_and_no_night_is_made(
    make_phone: Any, fields: dict[str, str], field: str, error: str, group: str
) -> None:
    director = make_phone("director")
    page = refused_night(director, **fields)
    assert errors_next_to(page, field) == [error]
    assert all_errors(page) == [error]  # nowhere else
    assert groups_on(page)[group][0]  # its group comes back open: the director sees it
    assert nights(director) == 0
