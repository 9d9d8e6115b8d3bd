"""Pages: entering, correcting and deleting hands."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Hand, Match

from .page_helpers import (
    Phone,
    all_errors,
    count_hands,
    errors_next_to,
    flashes,
    group_errors,
    parse,
    played,
)

POINTS_GROUP = "Card points and marriages"


def records(app: Flask) -> list[dict[str, Any]]:
    """The stored hand records, in order."""
    with app.app_context():
        return [h.record for h in db.session.execute(db.select(Hand).order_by(Hand.number)).scalars()]


def scores(phone: Phone, match_id: str) -> list[int]:
    """The true scores shown in the standings."""
    page = parse(phone.get(f"/matches/{match_id}").text)
    # a page writes the minus sign (U+2212)
    return [int(n.text().replace("\u2212", "-")) for n in page.walk() if "score" in n.classes() and n.tag == "div"]


def test_the_hand_form_is_built_for_a_thumb(phone: Phone) -> None:
    match_id = phone.new_match()
    page = phone.get(f"/matches/{match_id}/hands/new").text
    assert 'name="expected_hand" type="hidden" value="1"' in page
    for kind in ("played", "forfeit", "redeal"):
        assert f'name="kind" type="radio" value="{kind}"' in page
    assert "Rospisat'" in page
    for seat in range(3):
        assert f'name="declarer" type="radio" value="{seat}"' in page
        assert f'id="points_{seat}" inputmode="numeric"' in page
        for suit in ("hearts", "diamonds", "clubs", "spades"):
            assert f'name="marriages_{seat}" type="checkbox" value="{suit}"' in page
    assert 'id="bid" inputmode="numeric" max="400" min="100" name="bid" step="5"' in page
    assert page.count('data-step-for="bid"') == 2 and "hidden" in page
    assert "hearts marriage</span>" in page
    for absent in ('name="blind"', 'name="sitter_points"', 'name="forced"'):
        assert absent not in page


def test_the_hand_form_shows_only_what_the_table_plays(phone: Phone) -> None:
    match_id = phone.new_match(["A", "B", "C", "D"], blind_bids="y", sitter_bonus="y", gold_set="y", first_dealer="1")
    page = phone.get(f"/matches/{match_id}/hands/new").text
    assert 'name="blind"' in page and 'name="sitter_points"' in page
    assert 'min="120"' in page  # gold set
    assert "B sits out this hand." in page
    # The sitter's boxes and declarer choice are hidden (there for a form kept on the phone
    # offline, which seats a later dealer out: static/offline.js), every other seat's shown.
    assert '<div class="field seat" data-seat="1" hidden>' in page
    assert re.search(r'<label class="choice" data-seat-choice="1" hidden><input[^>]*value="1"><span>B<', page)
    assert '<div class="field seat" data-seat="0">' in page
    assert '<p class="seat sitting-out" data-seat="0" hidden>' in page
    tyzicha = phone.new_match(rules="tyzicha")
    page = phone.get(f"/matches/{tyzicha}/hands/new").text
    assert 'name="forced"' in page and 'step="10"' in page and 'min="100"' in page
    assert "Concede" in page


def test_a_sitter_posted_as_declarer_is_refused_in_the_rules_words_and_nothing_is_stored(phone: Phone) -> None:
    match_id = phone.new_match(["A", "B", "C", "D"], first_dealer="1")  # B deals hand 1, sits out
    response = phone.hand(match_id, 1, **played(1, 100, [40, None, 20, 60]))
    assert response.status_code == 422
    assert "B deals and sits out this hand, so cannot declare." in response.text
    page = phone.get(f"/matches/{match_id}").text
    assert "Hand 1 recorded." not in page and "Enter hand 1" in page  # still the first hand


def test_a_played_hand_is_recorded_with_the_declarers_points_filled_in(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(**{"start_scores-0": "650", "start_scores-1": "420", "start_scores-2": "300"})
    response = phone.hand(match_id, 1, **played(1, 160, [42, None, 23], {1: ["hearts", "clubs"]}))
    assert response.status_code == 302 and response.location == f"/matches/{match_id}"
    page = phone.get(f"/matches/{match_id}").text
    assert "Hand 1 recorded." in flashes(page)
    assert "made 215" in page
    assert scores(phone, match_id) == [690, 580, 325]  # RULES.md §9 worked hand
    assert records(csrf_app)[0]["points"] == [42, None, 23]


def test_a_rospisat_and_a_redeal_leave_out_what_was_not_played(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    leftovers = {"points_0": "40", "points_2": "20", "marriages_0": ["hearts"]}
    phone.hand(match_id, 1, kind="forfeit", declarer="1", bid="120", **leftovers)
    phone.hand(match_id, 2, kind="redeal", declarer="2", bid="100", **leftovers)
    kinds = [(r["kind"], r["declarer"], r["points"]) for r in records(csrf_app)]
    assert kinds == [("forfeit", 1, None), ("redeal", None, None)]
    page = phone.get(f"/matches/{match_id}").text
    assert "Rospisat'" in page and "redeal" in page
    assert scores(phone, match_id) == [60, 0, 60]
    assert "Hand 3: Boris deals." in page  # a redeal keeps the dealer


def test_a_double_tap_records_the_hand_once(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    hand = played(1, 100, [40, None, 20])
    first = phone.hand(match_id, 1, **hand)
    second = phone.hand(match_id, 1, **hand)
    assert first.status_code == second.status_code == 302
    assert second.location == f"/matches/{match_id}"
    assert count_hands(csrf_app) == 1
    page = phone.get(f"/matches/{match_id}").text
    assert flashes(page) == ["Hand 1 recorded."]  # the second tap was the same hand: recorded, no conflict


def test_two_phones_entering_the_same_hand_record_it_once(phone: Phone, make_phone: Any, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    boris = make_phone("boris")
    with csrf_app.app_context():
        code = db.session.get(Match, match_id).join_code
    boris.post("/join", {"code": code}, form_url="/")
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    boris.hand(match_id, 1, **played(2, 100, [40, 20, None]))
    assert count_hands(csrf_app) == 1
    page = boris.get(f"/matches/{match_id}").text
    assert "Hand 1 was already recorded by anna." in flashes(page)


REFUSALS = [
    # (fields over a valid hand, where the message shows, the message)
    ({"bid": "163"}, "bid", "Bids go in steps of 5; 163 is not one."),
    ({"bid": "95"}, "bid", "The lowest bid is 100; 95 is too low."),
    ({"bid": "405"}, "bid", "The highest bid is 400; 405 is too high."),
    ({"bid": ""}, "bid", "Enter the bid."),
    ({"bid": "lots"}, "bid", "Enter a whole number."),
    ({"declarer": None}, "declarer-0", "Say who declared (won the auction)."),
    ({"declarer": "7"}, "declarer-0", "Pick the declarer from the players."),
    ({"declarer": " "}, "declarer-0", "Say who declared (won the auction)."),  # blank: never "no seat -1"
    ({"declarer": "x"}, "declarer-0", "Pick the declarer from the players."),
    ({"kind": "bomb"}, "kind-0", "Say what happened: played, called off or redealt."),
    ({"points_1": "70"}, POINTS_GROUP, "Card points add up to 130; the pack holds 120."),
    ({"points_0": ""}, POINTS_GROUP, "Enter the card points Anna took."),
    ({"points_0": "130", "points_2": "0"}, POINTS_GROUP, "Card points are whole numbers from 0 to 120; Anna has 130."),
    ({"points_0": "forty"}, "points_0", "Enter a whole number."),
    (
        {"marriages_0": ["hearts"], "marriages_2": ["hearts"]},
        POINTS_GROUP,
        "The hearts marriage is declared twice; each suit can be declared once a hand.",
    ),
    ({"marriages_0": ["joker"]}, "marriages_0-0", "Use hearts, diamonds, clubs or spades."),
]


@pytest.mark.parametrize("fields, where, message", REFUSALS)
def test_every_hand_refusal_shows_next_to_its_field_and_stores_nothing(
    phone: Phone, csrf_app: Flask, fields: dict[str, Any], where: str, message: str
) -> None:
    match_id = phone.new_match()
    hand = {**played(1, 100, [40, None, 20]), **fields}
    response = phone.hand(match_id, 1, **hand)
    assert response.status_code == 422
    errors = group_errors(response.text, where) if where == POINTS_GROUP else errors_next_to(response.text, where)
    assert message in errors, all_errors(response.text)
    assert count_hands(csrf_app) == 0


def test_rospisat_on_the_barrel_is_refused_next_to_the_kind(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(**{"start_scores-1": "800"})
    phone.hand(match_id, 1, **played(0, 100, [None, 100, 0]))  # Boris to the barrel
    response = phone.hand(match_id, 2, kind="forfeit", declarer="1", bid="100")
    assert errors_next_to(response.text, "kind-0") == ["Boris is on the barrel: Rospisat' is not allowed there."]
    assert count_hands(csrf_app) == 1


def test_option_refusals_show_next_to_their_field(phone: Phone, csrf_app: Flask) -> None:
    four = phone.new_match(["A", "B", "C", "D"], sitter_bonus="y")
    response = phone.hand(four, 1, sitter_points="7", **played(1, 100, [None, None, 40, 20]))
    assert errors_next_to(response.text, "sitter_points") == [
        "The sitter-out's points are a multiple of 5 from 0 to 400."
    ]
    tyzicha = phone.new_match(rules="tyzicha")
    response = phone.hand(tyzicha, 1, **played(1, 100, [40, None, 20]))
    assert errors_next_to(response.text, "bid") == ["The lowest bid is 110; 100 is too low."]
    assert count_hands(csrf_app) == 0
    response = phone.hand(tyzicha, 1, forced="y", **played(1, 120, [40, None, 20]))
    assert errors_next_to(response.text, "forced") == [  # the box as the form labels it
        "A forced contract is exactly 100: for 110 or more, untick “Forced to take it at 100”."
    ]
    response = phone.hand(tyzicha, 1, forced="y", **played(1, 100, [40, None, 20]))
    assert response.status_code == 302 and count_hands(csrf_app) == 1


def test_a_refused_hand_keeps_what_was_typed(phone: Phone) -> None:
    match_id = phone.new_match()
    response = phone.hand(match_id, 1, **played(2, 163, [40, 30, None], {1: ["spades"]}))
    page = response.text
    assert 'value="163"' in page and 'value="40"' in page
    assert 'checked id="declarer-2"' in page
    assert 'checked data-seat-marriage="1" id="marriages_1-3"' in page


def test_no_hand_after_the_match_is_won(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(**{"start_scores-0": "870"})
    phone.hand(match_id, 1, **played(0, 140, [None, 20, 20], {0: ["hearts"]}))
    assert phone.get(f"/matches/{match_id}/hands/new").status_code == 302
    response = phone.hand(match_id, 2, **played(1, 100, [40, None, 20]))
    assert response.status_code == 302 and count_hands(csrf_app) == 1


def test_the_edit_form_shows_the_hand_as_entered(phone: Phone) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 160, [42, None, 23], {1: ["hearts", "clubs"]}))
    page = phone.get(f"/matches/{match_id}/hands/1/edit").text
    assert "Correct hand 1" in page
    assert 'checked id="declarer-1"' in page and 'value="160"' in page
    assert 'id="points_0" inputmode="numeric" max="120" min="0" name="points_0" type="number" value="42"' in page
    assert 'checked data-seat-marriage="1" id="marriages_1-0"' in page
    assert 'name="version" type="hidden" value="1"' in page
    assert f'href="/matches/{match_id}/hands/1/delete?uid=' in page  # the delete names the hand it deletes


def test_correcting_a_hand_recomputes_every_later_hand(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [20, None, 0], {1: ["hearts"]}))
    phone.hand(match_id, 2, **played(2, 100, [40, 20, None], {2: ["diamonds"]}))
    before = scores(phone, match_id)
    response = phone.post(
        f"/matches/{match_id}/hands/1/edit", {**played(1, 120, [20, None, 0], {1: ["hearts"]}), "version": "1"}
    )
    assert response.status_code == 302
    page = phone.get(f"/matches/{match_id}").text
    assert "Hand 1 corrected; the hands after it are recomputed." in flashes(page)
    after = scores(phone, match_id)
    assert before == [60, 120, 100] and after == [60, 140, 100]
    assert records(csrf_app)[0]["bid"] == 120 and count_hands(csrf_app) == 2
    newest = {**played(2, 120, [40, 20, None], {2: ["diamonds"]}), "version": "1"}
    assert phone.post(f"/matches/{match_id}/hands/2/edit", newest).status_code == 302
    assert "Hand 2 corrected." in flashes(phone.get(f"/matches/{match_id}").text)  # none after it


def test_a_refused_correction_shows_next_to_its_field_and_changes_nothing(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    response = phone.post(f"/matches/{match_id}/hands/1/edit", {**played(1, 103, [40, None, 20]), "version": "1"})
    assert errors_next_to(response.text, "bid") == ["Bids go in steps of 5; 103 is not one."]
    assert records(csrf_app)[0]["bid"] == 100


def test_a_correction_that_breaks_a_later_hand_says_so_at_the_top(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(**{"start_scores-1": "700"})
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20], {1: ["hearts"]}))  # Boris 800
    phone.hand(match_id, 2, kind="forfeit", declarer="1", bid="100")
    # Hand 1 with Boris taking more puts him on the barrel, where hand 2's Rospisat' is refused.
    response = phone.post(
        f"/matches/{match_id}/hands/1/edit", {**played(1, 180, [20, None, 0], {1: ["hearts"]}), "version": "1"}
    )
    assert response.status_code == 422
    top = [n for n in parse(response.text).walk() if "form-errors" in n.classes()]
    assert top and "Changing hand 1 would break hand 2" in top[0].text()
    assert records(csrf_app)[0]["bid"] == 100


def test_a_stale_correction_is_not_saved_over_a_newer_one(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    phone.post(f"/matches/{match_id}/hands/1/edit", {**played(1, 120, [40, None, 20]), "version": "1"})
    response = phone.post(f"/matches/{match_id}/hands/1/edit", {**played(1, 150, [40, None, 20]), "version": "1"})
    assert response.status_code == 302
    page = phone.get(f"/matches/{match_id}").text
    assert any("This hand was changed by anna meanwhile" in f for f in flashes(page))
    assert records(csrf_app)[0]["bid"] == 120


def test_deleting_a_hand_needs_confirming_and_renumbers_the_rest(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    phone.hand(match_id, 2, **played(2, 120, [40, 20, None]))
    confirm = phone.get(f"/matches/{match_id}/hands/1/delete")
    assert confirm.status_code == 200 and "Delete hand 1" in confirm.text
    response = phone.post(f"/matches/{match_id}/hands/1/delete", {})
    assert errors_next_to(response.text, "confirm") == ["Tick the box to confirm."]
    assert count_hands(csrf_app) == 2
    response = phone.post(f"/matches/{match_id}/hands/1/delete", {"confirm": "y"})
    assert response.status_code == 302
    page = phone.get(f"/matches/{match_id}").text
    assert "Hand 1 deleted; the hands after it are recomputed." in flashes(page)
    assert [r["bid"] for r in records(csrf_app)] == [120]
    assert scores(phone, match_id) == [40, 20, -120]
    assert phone.get(f"/matches/{match_id}/hands/2/edit").status_code == 404
    # The newest hand: nothing after it moves or is recomputed, and the words say no more.
    question = phone.get(f"/matches/{match_id}/hands/1/delete").text
    assert "Hand 1 is removed." in question and "later hand" not in question
    assert phone.post(f"/matches/{match_id}/hands/1/delete", {"confirm": "y"}).status_code == 302
    assert "Hand 1 deleted." in flashes(phone.get(f"/matches/{match_id}").text)
