"""Pages and the house rules of RULES.md §11: the new-match section, the rule card, the hand
form's ace marriage, and the standings' word on the next zero."""

from __future__ import annotations

import json

import pytest
from flask import Flask

from scoresheet.rules import RULESETS
from scoresheet.rules.house import HOUSE_RULES
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .page_helpers import Phone, all_errors, count_matches, errors_next_to, group_errors, parse, played


def groups_on(html: str) -> dict[str, tuple[bool, list[str]]]:
    """The start form's groups of house rules: each one's key, whether it is open, and the
    ids of the house rules in it."""
    return {
        n.attrs["id"].removeprefix("house-"): (
            "open" in n.attrs,
            [c.attrs["id"] for c in n.walk() if c.attrs.get("id") in HOUSE_RULES],
        )
        for n in parse(html).walk()
        if n.tag == "details" and "house-group" in n.classes()
    }


def test_the_new_match_page_has_every_house_rule_in_four_closed_groups(phone: Phone) -> None:
    page = phone.get("/matches/new").text
    details = [n for n in parse(page).walk() if n.tag == "details"]
    assert len(details) == 5 and not any("open" in d.attrs for d in details)  # the section, 4 groups
    groups = groups_on(page)
    assert {k: ids for k, (_, ids) in groups.items()} == {
        "penalties": ["zeros", "zero_penalty", "forfeit_pays", "forfeit_penalty"],
        "barrel": [
            "barrel_gap",
            "barrel_hands",
            "barrel_miss",
            "barrel_knock_off",
            "three_falls_reset",
            "barrel_jump",
            "barrel_clash",
            "barrel_defender_wins",
            "barrel_win_score",
            "barrel_zeros",
        ],
        "dump": ["dump_555", "dump_at"],
        "bids": ["ace_marriage", "blind_doubles", "declarer_rounding"],
    }
    assert sorted(k for _, ids in groups.values() for k in ids) == sorted(HOUSE_RULES)  # each once
    titles = [n.text() for n in parse(page).walk() if n.tag == "summary"]
    assert titles == ["House rules", "Zeros and penalties", "The barrel", "The dump", "Marriages and blind bids"]
    assert "Three zeros in a row cost" not in page and "three zeros in a row cost" in page
    # The dump's score is typed (RULES.md §11.18), not one of 156 choices: its box shows 555.
    box = next(n for n in parse(page).walk() if n.attrs.get("id") == "dump_at")
    assert box.tag == "input" and page.count("<option") < 100
    assert (box.attrs["value"], box.attrs["step"], box.attrs["min"], box.attrs["max"]) == ("555", "5", "100", "875")
    assert "A multiple of 5 from 100 to 875; the usual is 555." in page


def test_house_rules_chosen_on_the_page_are_stored_and_shown_as_the_rule_card(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(
        rules="classic",
        zeros="consecutive",
        zero_penalty="100",
        dump_555="both",
        barrel_miss="costs_bid",
        ace_marriage="y",
        forfeit_pays="",
        barrel_hands="",
    )
    with csrf_app.app_context():
        options = db.session.get(Match, match_id).setup["options"]
    assert (
        options["zeros"],
        options["zero_penalty"],
        options["dump_555"],
        options["barrel_miss"],
        options["ace_marriage"],
    ) == ("consecutive", 100, "both", "costs_bid", True)
    assert options["forfeit_pays"] == "60" and options["barrel_hands"] == 3
    page = phone.get(f"/matches/{match_id}").text
    card = [n.text() for n in parse(page).walk() if "rule-card" in n.attrs.get("class", "")]
    assert card and "Zeros (no card points in a hand): three zeros in a row cost" in card[0]
    assert "The dump: 555 and −555 go back to 0" in card[0]
    assert "A missed bid on the barrel: costs the bid" in card[0]
    assert "Ace marriage: all four aces declared count 200" in card[0]
    assert "Hands on the barrel" not in card[0]  # the usual is not on the card
    form = phone.get(f"/matches/{match_id}/hands/new").text
    assert 'value="aces"' in form


def test_a_house_rule_the_ruleset_does_not_take_is_refused_with_the_options(phone: Phone, csrf_app: Flask) -> None:
    data = {
        "players-0": "Anna",
        "players-1": "Boris",
        "players-2": "Vera",
        "rules": "polish",
        "target": "",
        "sheet": "",
        "first_dealer": "0",
        "barrel_hands": "4",
    }
    response = phone.post("/matches/new", data)
    assert response.status_code == 422
    assert errors_next_to(response.text, "barrel_hands") == [
        "Polish has no barrel: for “Hands on the barrel before the fall”, choose “The usual for these rules”."
    ]
    assert group_errors(response.text, "Options") == []
    details = [n for n in parse(response.text).walk() if n.tag == "details"]
    assert "open" in details[0].attrs  # what was chosen is not hidden
    assert {k: is_open for k, (is_open, _) in groups_on(response.text).items()} == {
        "penalties": False,
        "barrel": True,
        "dump": False,
        "bids": False,
    }
    assert count_matches(csrf_app) == 0


def test_the_standings_say_what_the_next_zero_costs(phone: Phone) -> None:
    match_id = phone.new_match(zero_penalty="100")
    for _ in range(2):
        phone.hand(match_id, **played(0, 100, [None, 20, 0]))
    page = phone.get(f"/matches/{match_id}").text
    assert "zeros 2: the next costs 100" in page


def house_words_on(html: str) -> dict[str, str]:
    """The words of the house rules that name a barrel figure, as the page shows them: a
    switch's label, a choice's text."""
    root = parse(html)
    words = {}
    for node in root.walk():
        if node.tag == "label" and "check" in node.classes():
            for child in node.walk():
                if child.attrs.get("id") in ("barrel_knock_off", "three_falls_reset"):
                    words[child.attrs["id"]] = node.text().strip()
        if node.tag == "option" and node.attrs.get("value") == "stays":
            words["barrel_miss"] = node.text().strip()
    return words


@pytest.mark.parametrize("target", [1000, 2000, 3000])
def test_the_house_rules_words_name_the_barrel_of_the_target_chosen(phone: Phone, target: int) -> None:
    barrel, fall = RULESETS["classic"].barrel_at(target), RULESETS["classic"].fall_to(target)
    data = {
        "players-0": "Anna",
        "players-1": "Boris",
        "rules": "classic",  # refused: 2 players
        "target": str(target),
        "sheet": "",
        "first_dealer": "0",
    }
    page = phone.post("/matches/new", data)
    assert page.status_code == 422
    words = house_words_on(page.text)
    assert words["barrel_knock_off"].endswith(f"whoever is on it to {fall}")
    assert words["three_falls_reset"].endswith(f"goes back to 0, not {fall}")
    assert f"stays at {barrel}," in words["barrel_miss"]
    # each target's and barrel gap's words for the page's script, the one chosen among them
    swaps = [json.loads(n.attrs["data-by-barrel"]) for n in parse(page.text).walk() if "data-by-barrel" in n.attrs]
    assert len(swaps) == 3
    for swap in swaps:
        assert set(swap) == {f"{t}/{g}" for t in ("", "1000", "2000", "3000") for g in ("", "120", "100")}
        assert swap[f"{target}/"] == swap[f"{target}/120"] in words.values()
        assert swap["/"] == swap["1000/"] != swap["2000/"] != swap["3000/"]
        assert str(barrel + 20) in swap[f"{target}/100"] or str(fall + 20) in swap[f"{target}/100"]


def test_the_rule_card_names_the_barrel_of_the_matchs_target(phone: Phone) -> None:
    match_id = phone.new_match(
        rules="classic", target="3000", barrel_knock_off="y", three_falls_reset="y", barrel_miss="stays"
    )
    page = phone.get(f"/matches/{match_id}").text
    card = [n.text() for n in parse(page).walk() if "rule-card" in n.classes()]
    assert "climbing on the barrel drops whoever is on it to 2760" in card[0]
    assert "The third fall from the barrel goes back to 0, not 2760" in card[0]
    assert "760" not in card[0].replace("2760", "")
    # classic's usual is "stays": not on the card; squarescores' is "costs_bid"
    other = phone.new_match(rules="squarescores", target="2000", barrel_miss="stays")
    card = [n.text() for n in parse(phone.get(f"/matches/{other}").text).walk() if "rule-card" in n.classes()]
    assert "A missed bid on the barrel: costs nothing: the player stays at 1880" in card[0]


def test_the_new_match_page_does_not_offer_the_old_forced_rule(phone: Phone, csrf_app: Flask) -> None:
    page = phone.get("/matches/new").text
    assert "forced_any_seat" not in page
    match_id = phone.new_match(rules="tyzicha", forced_any_seat="y")  # sent anyway: not taken
    with csrf_app.app_context():
        assert db.session.get(Match, match_id).setup["options"]["forced_any_seat"] is False


def test_the_new_house_rules_are_chosen_on_the_page_and_named_on_the_rule_card(phone: Phone, csrf_app: Flask) -> None:
    # RULES.md §11.11, §11.13, §11.17: the barrel 100 below the target moves the card's fall to
    # 780; forfeit_penalty, a yes or no whose usual differs by ruleset, is offered as a choice.
    match_id = phone.new_match(
        rules="squarescores", barrel_gap="100", barrel_clash="all_fall", forfeit_penalty="false", barrel_knock_off="y"
    )
    with csrf_app.app_context():
        options = db.session.get(Match, match_id).setup["options"]
    assert (options["barrel_gap"], options["barrel_clash"], options["forfeit_penalty"]) == (100, "all_fall", False)
    card = [n.text() for n in parse(phone.get(f"/matches/{match_id}").text).walk() if "rule-card" in n.classes()]
    assert "Where the barrel sits: 100 below the target" in card[0]
    assert "Two players climbing on the barrel in the same hand: all fall off" in card[0]
    assert "Every third forfeit (Rospisat'): costs no penalty" in card[0]
    assert "climbing on the barrel drops whoever is on it to 780" in card[0]


def refused_start(phone: Phone, **fields: str) -> str:
    """The start form sent with these fields and refused (422); the page that comes back."""
    data = {"players-0": "Anna", "players-1": "Boris", "players-2": "Vera", "rules": "squarescores"}
    response = phone.post("/matches/new", {**data, "target": "", "sheet": "", "first_dealer": "0", **fields})
    assert response.status_code == 422, response.status_code
    return str(response.text)


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"dump_555": "plus", "dump_at": "552"}, "The dump score is a multiple of 5 from 100 to 875."),
        ({"dump_555": "plus", "dump_at": "880"}, "The dump score is a multiple of 5 from 100 to 875."),
        ({"dump_555": "plus", "dump_at": "95"}, "The dump score is a multiple of 5 from 100 to 875."),
        ({"dump_555": "plus", "dump_at": "five"}, "Enter a whole number."),
        ({"dump_555": "plus", "dump_at": "9" * 20}, "That number is far too large."),  # beside its box too
        (
            {"dump_at": "550"},
            "There is no dump to move: for “The dump”, choose “exactly 550 goes back to 0” or "
            "“550 and −550 go back to 0”.",
        ),
        (
            {"rules": "tyzicha", "dump_at": "550"},
            "Tyzicha has no house rules: for “The score the dump sends back to 0”, enter 555.",
        ),
    ],
)
def test_a_dump_score_the_rules_refuse_is_said_next_to_its_box_and_nothing_is_stored(
    phone: Phone, csrf_app: Flask, fields: dict[str, str], error: str
) -> None:
    page = refused_start(phone, **fields)
    assert errors_next_to(page, "dump_at") == [error]
    assert all_errors(page) == [error]  # nowhere else
    assert groups_on(page)["dump"][0]  # its group is open: the player sees it
    assert count_matches(csrf_app) == 0


@pytest.mark.parametrize("key", ["zero_penalty", "barrel_hands", "barrel_gap", "zeros", "barrel_clash"])
@pytest.mark.parametrize("sent", ["  ", "xx", "9" * 60, "\u0661\u0662\u0660"])
def test_a_house_rule_sent_as_none_of_its_choices_is_refused_next_to_it(
    phone: Phone, csrf_app: Flask, key: str, sent: str
) -> None:
    # Sent by hand (no page offers it): the page comes back with the refusal, never a 500 from
    # reading the value as a number while the groups are drawn, and for a night's form too.
    page = refused_start(phone, **{key: sent})
    assert errors_next_to(page, key) == ["Choose one of the choices offered."]
    assert count_matches(csrf_app) == 0
    night = {"name": "Friday", "rules": "squarescores", "target": "", "rounds": "3", "seating": "fours"}
    refused = phone.post("/events/new", night | {key: sent})
    assert (refused.status_code, errors_next_to(refused.text, key)) == (422, ["Choose one of the choices offered."])


def test_the_dump_words_name_the_score_typed_and_give_the_script_their_shape(phone: Phone) -> None:
    page = refused_start(phone, **{"players-1": "", "players-2": "", "dump_555": "both", "dump_at": "550"})
    dump = [n for n in parse(page).walk() if n.attrs.get("id") == "dump_555"][0]
    said = {n.attrs["value"]: n for n in dump.walk() if n.tag == "option"}
    assert said["plus"].text() == "exactly 550 goes back to 0"
    assert said["both"].text() == "550 and −550 go back to 0" and "selected" in said["both"].attrs
    assert said["both"].attrs["data-by-dump"] == "9999 and −9999 go back to 0"  # app.js puts the typed score in
    assert "555" not in dump.text()
    assert groups_on(page)["dump"][0] and not groups_on(page)["barrel"][0]


def test_an_empty_dump_box_is_the_usual_555(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(dump_555="plus", dump_at="")
    with csrf_app.app_context():
        options = db.session.get(Match, match_id).setup["options"]
    assert (options["dump_555"], options["dump_at"]) == ("plus", 555)


def test_a_moved_dump_is_stored_and_the_rule_card_names_its_score_once(phone: Phone, csrf_app: Flask) -> None:
    # RULES.md §11.18, §11.11: the card's words follow the dump's score and the barrel's gap.
    match_id = phone.new_match(
        dump_555="plus", dump_at="550", barrel_gap="100", barrel_miss="stays", three_falls_reset="y"
    )
    with csrf_app.app_context():
        options = db.session.get(Match, match_id).setup["options"]
    assert (options["dump_555"], options["dump_at"], options["barrel_gap"]) == ("plus", 550, 100)
    card = [n.text() for n in parse(phone.get(f"/matches/{match_id}").text).walk() if "rule-card" in n.classes()]
    assert "The dump: exactly 550 goes back to 0" in card[0]
    assert "The score the dump sends back to 0" not in card[0]  # the dump's line says it
    assert "A missed bid on the barrel: costs nothing: the player stays at 900" in card[0]
    assert "The third fall from the barrel goes back to 0, not 780" in card[0]
    assert "555" not in card[0] and "880" not in card[0] and "760" not in card[0]


def test_the_groups_holding_a_rule_set_come_back_open(phone: Phone) -> None:
    page = refused_start(phone, **{"players-1": "", "players-2": "", "forfeit_penalty": "false", "ace_marriage": "y"})
    assert {k: is_open for k, (is_open, _) in groups_on(page).items()} == {
        "penalties": True,
        "barrel": False,
        "dump": False,
        "bids": True,
    }


def test_the_hand_forms_preview_says_a_moved_dump_without_555(phone: Phone) -> None:
    # RULES.md §11.18 example: with the dump at 550, Anna at 450 declares 100 and makes it → 0.
    match_id = phone.new_match(dump_555="plus", dump_at="550", **{"start_scores-0": "450"})
    answer = phone.post(
        f"/matches/{match_id}/hands/preview",
        played(0, 100, [None, 10, 10], {0: ["hearts"]}),
        form_url=f"/matches/{match_id}",
    )
    assert answer.status_code == 200, answer.text
    assert answer.json["seats"][0] == "Anna: −450 → 0 (the sheet writes 0; the debt is now 450), dump: back to 0"
    assert "555" not in answer.text
