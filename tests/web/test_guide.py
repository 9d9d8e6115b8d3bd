"""The rules page says what the engine does: its examples are replayed hands, its numbers the
rulesets' own (RULES.md §3–§8, §10). Checked here against the worked figures of RULES.md."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scoresheet.words.vocabulary import RULESET_LABELS

from .page_helpers import Phone, parse


def said(phone_or_client: object, url: str) -> str:
    """The page's main text, one line per paragraph."""
    client = getattr(phone_or_client, "client", phone_or_client)
    response = client.get(url)  # type: ignore[attr-defined]
    assert response.status_code == 200, (url, response.status_code)
    main = next(n for n in parse(response.text).walk() if n.tag == "main")
    return "\n".join(" ".join(p.text().split()) for p in main.walk() if p.tag in ("p", "h2"))


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        # The worked hand of RULES.md §3: defenders' 42 and 23 rounded to the step (none counted
        # on a made hand in tyzicha); the missed hand: 33 and 27.
        ("squarescores", ["made, +120", "42 card points: +40", "23: +25", "missed, −120", "33: +35", "27: +25"]),
        ("classic", ["23: +25", "33: +35"]),
        ("polish", ["42 card points: +40", "23: +20", "33: +30", "27: +30"]),
        ("ggtables", ["23: +20", "every other player gets +60", "with four players +40 each"]),
        (
            "tyzicha",
            [
                "42 card points: 0",
                "23: 0",
                "33: +33",
                "27: +27",
                "for exactly 100",
                "from 110 to 400",
                "cannot go above 1000",
            ],
        ),
    ],
)
def test_each_ruleset_page_shows_the_engines_own_figures(app: Flask, rules: str, expected: list[str]) -> None:
    text = said(app.test_client(), f"/rules/{rules}")
    for words in expected:
        assert words in text, (words, text)


def test_the_barrel_moves_with_the_target_and_a_miss_on_it_costs_the_bid(app: Flask) -> None:
    text = said(app.test_client(), "/rules/squarescores?target=2000")
    assert "No score sits above 1880 and below 2000" in text
    assert "falls to 1760" in text
    assert "a bid of 120 missed leaves 760" not in text
    assert "a bid of 120 missed leaves 1760" in text  # §4 rule 3: 1880 − 120
    default = said(app.test_client(), "/rules/squarescores?target=7")  # not a target it takes
    assert "falls to 760" in default and "Every third zero costs 120" in default
    assert "Zeros" not in said(app.test_client(), "/rules/polish")


def test_tichu_explains_calls_and_its_signed_sheet(app: Flask) -> None:
    text = said(app.test_client(), "/rules/tichu")
    assert "Tichu ±100, Grand Tichu ±200." in text and "Great Grand" not in text
    assert "gives that team 200" in text and "minus figures" in text


def test_every_ruleset_is_listed_and_an_unknown_one_is_not_there(app: Flask) -> None:
    client = app.test_client()
    index = client.get("/rules").text
    assert all(f'href="/rules/{name}"' in index for name in RULESET_LABELS)
    assert client.get("/rules/poker").status_code == 404


def test_a_match_links_to_its_own_rules_for_members_only(phone: Phone, make_phone: object) -> None:
    match_id = phone.new_match(["Anna", "Boris", "Vera", "Dmitri"], rules="ggtables", target="500")
    page = phone.get(f"/matches/{match_id}").text
    assert f'href="/matches/{match_id}/rules"' in page
    text = said(phone, f"/matches/{match_id}/rules")
    assert "Anna · Boris · Vera · Dmitri, to 500" in text
    assert re.search(r"reach 500 wins", text)
    stranger = make_phone("stranger")  # type: ignore[operator]
    assert stranger.get(f"/matches/{match_id}/rules").status_code == 404


def test_a_tables_house_rules_are_on_its_rules_page(phone: Phone, app: Flask) -> None:
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    created = phone.client.post(
        "/api/matches",
        headers={"Authorization": f"Bearer {token}"},
        json={
            "players": ["Anna", "Boris", "Vera"],
            "options": {
                "zeros": "consecutive",
                "zero_penalty": 100,
                "dump_555": "both",
                "barrel_knock_off": True,
                "barrel_miss": "stays",
                "barrel_hands": 2,
                "three_falls_reset": True,
                "declarer_rounding": True,
                "forfeit_pays": "half_bid",
                "blind_bids": True,
                "blind_doubles": "declarer",
                "ace_marriage": True,
            },
        },
    )
    assert created.status_code == 201, created.json
    text = said(phone, f"/matches/{created.json['id']}/rules")
    for words in (
        "Three zeros in a row cost 100. Card points or declaring start the count "
        "again; sitting out, a redeal or a forfeit leave it as it is.",
        "A player on the barrel takes no zero; a hand they play there starts their count again.",
        "the player stays at 880",
        "After 2 hands on the barrel",
        "555 or −555 goes back to 0",
        "knocks off anyone already on it: they fall to 760",
        "Every third fall from the barrel drops the player to 0",
        "rounded to 5 too",
        "half the bid, rounded up to 5",
        "doubles only the declarer's points",
        "Four aces, declared, count as a marriage of 200",
        "A blind bid (made without looking at the talon)",
    ):
        assert words in text, (words, text)
    assert "Every third zero" not in text
    plain = said(app.test_client(), "/rules/squarescores")
    assert "This table's options" not in plain and "After 3 hands on the barrel" in plain


def test_classic_keeps_a_missed_bid_on_the_barrel_at_880(app: Flask) -> None:
    text = said(app.test_client(), "/rules/classic")  # RULES.md §7, classic barrel
    assert "A missed bid on the barrel costs nothing: the player stays at 880" in text


def test_zeros_say_where_none_is_taken(phone: Phone, app: Flask) -> None:
    """RULES.md §4 and §11.1: no zero on the barrel nor while locked; in a run of zeros a hand
    there starts the count again."""
    text = said(app.test_client(), "/rules/squarescores")
    assert "A player on the barrel takes no zero." in text and "their count" not in text
    assert "locked player" not in text
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    created = phone.client.post(
        "/api/matches",
        headers={"Authorization": f"Bearer {token}"},
        json={"players": ["Anna", "Boris", "Vera"], "rules": "polish", "options": {"zeros": "consecutive"}},
    )
    assert created.status_code == 201, created.json
    text = said(phone, f"/matches/{created.json['id']}/rules")
    assert "A locked player takes no zero; a hand they play locked starts their count again." in text
    assert "on the barrel takes no zero" not in text


@pytest.mark.parametrize(
    ("language", "names"),
    [("en", "Anna Boris Vera"), ("ru", "Аня Борис Вера"), ("uk", "Оксана Богдан Віра"), ("pl", "Ania Bartek Zosia")],
)
def test_the_examples_are_played_by_names_of_the_readers_language(app: Flask, language: str, names: str) -> None:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    text = said(client, "/rules/squarescores")
    assert all(name in text for name in names.split()), text


def test_the_new_house_rules_are_on_the_rules_page(phone: Phone) -> None:
    # RULES.md §11.11–§11.18: the barrel 100 below the target moves its figures and its win.
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    created = phone.client.post(
        "/api/matches",
        headers={"Authorization": f"Bearer {token}"},
        json={
            "players": ["Anna", "Boris", "Vera"],
            "options": {
                "barrel_gap": 100,
                "barrel_jump": "mounts",
                "barrel_clash": "all_fall",
                "barrel_defender_wins": True,
                "barrel_win_score": "added",
                "barrel_zeros": True,
                "forfeit_penalty": False,
                "dump_555": "plus",
                "dump_at": 550,
            },
        },
    )
    assert created.status_code == 201, created.json
    text = said(phone, f"/matches/{created.json['id']}/rules")
    for words in (
        "sits on the barrel at 900",
        "a made bid with at least 100 taken",
        "the player falls to 780",
        "A score of exactly 550 goes back to 0.",
        "only puts the player on the barrel",
        "they all fall to 780",
        "A defender on the barrel who takes 100 or more",
        "the barrel plus the hand's points",
        "A player on the barrel takes zeros too",
        "A forfeit costs no penalty",
        # each with its example (RULES.md §11.11–§11.18), worked out by the engine at 900
        "Example: Anna at 850 bids 100 and makes it: 900, on the barrel.",
        "Example: Anna at 450 bids 100 and makes it: 0.",
        "Example: Anna at 800 bids 240 and takes 300: 900, on the barrel, and play goes on.",
        "Example: Anna misses; Boris and Vera, at 880 each, take 30 as defenders and both climb on "
        "the barrel: Boris ends at 780, Vera at 780.",
        "Example: Boris, on the barrel, defends and takes 60 card points and hearts (160): 1060, and wins.",
        "Example: Anna, on the barrel, bids 140 and makes it: 1040, not 1000.",
        "Example: Boris, on the barrel, takes no card points as a defender: a zero (1 so far), nothing "
        "paid; Boris is at 900.",
        "Example: Anna gives up a bid of 120 three times: 0, 0, 0.",
    ):
        assert words in text, (words, text)
    assert "880" not in text.replace("at 880 each", "") and "760" not in text


@pytest.mark.parametrize(
    ("rules", "options", "examples"),
    [
        (
            "classic",
            {"target": 2000, "barrel_clash": "one_stays", "forfeit_penalty": True, "dump_555": "both", "dump_at": 300},
            [
                "Example: Anna at 200 bids 100 and makes it: 0.",
                "Example: Anna misses; Boris and Vera, at 1860 each, take 30 as defenders and both climb on "
                "the barrel: Boris ends at 1880, Vera at 1760.",
                "Example: Anna gives up a bid of 120 three times: −120, −120, −240.",
            ],
        ),
        (
            "squarescores",
            {"barrel_jump": "mounts", "barrel_defender_wins": True},
            [
                "Example: Anna at 800 bids 240 and takes 300: 880, on the barrel, and play goes on.",
                "Example: Boris, on the barrel, defends and takes 60 card points and hearts (160): 1000, and wins.",
            ],
        ),
    ],
)
def test_each_new_house_rules_example_is_the_engines_at_the_tables_target_and_ruleset(
    phone: Phone, rules: str, options: dict[str, object], examples: list[str]
) -> None:
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    created = phone.client.post(
        "/api/matches",
        headers={"Authorization": f"Bearer {token}"},
        json={"players": ["Anna", "Boris", "Vera"], "rules": rules, "options": options},
    )
    assert created.status_code == 201, created.json
    text = said(phone, f"/matches/{created.json['id']}/rules")
    for example in examples:
        assert example in text, (example, text)
    assert "on the barrel at 900" not in text and "bids 100 and makes it: 900" not in text  # the gap is usual
