"""Values inside translated sentences speak the reader's language too: the engine's
word parameters (suits, calls, ruleset names, "1000 or 2000") and numbers written as the
language writes them; the sheet's cells, the CSV and the English API sentences keep plain
digits."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scoresheet.words.values import number

from .helpers import WINNING_HAND, WINNING_START
from .page_helpers import parse

NBSP = "\u00a0"


def refusal(user: Any, url: str, body: dict[str, Any], language: str) -> str:
    """The `error` sentence the API answers in `language` for a refused body."""
    response = user.client.post(url, json=body, headers={**user.headers, "Accept-Language": language})
    assert response.status_code == 422, response.json
    return str(response.json["error"])


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("ru", "Марьяж (черви) объявлен дважды: каждую масть можно объявить раз за раздачу."),
        ("uk", "Мар’яж (черви) оголошено двічі: кожну масть можна оголосити раз за роздачу."),
        ("pl", "Meldunek kier zgłoszony dwa razy; każdy kolor można zgłosić raz na rozdanie."),
        ("de", "Die Mariage in Herz ist zweimal gemeldet; jede Farbe kann einmal je Spiel gemeldet werden."),
        ("en", "The hearts marriage is declared twice; each suit can be declared once a hand."),
    ],
)
def test_a_refusal_that_names_a_suit_reads_wholly_in_the_readers_language(
    api_user: Any,
    language: str,
    sentence: str,
) -> None:
    match = api_user.new_match()
    hand = {
        "kind": "played",
        "declarer": 0,
        "bid": 100,
        "points": [None, 10, 10],
        "marriages": [["hearts"], ["hearts"], []],
    }
    assert refusal(api_user, f"/api/matches/{match['id']}/hands", hand, language) == sentence


@pytest.mark.parametrize(
    ("language", "target", "players"),
    [
        (
            "ru",
            f"По правилам «Польские» играют до 1{NBSP}000, а не до 500.",
            "По правилам «Польские» игроков должно быть 3 или 4, а не 2.",
        ),
        (
            "uk",
            f"За правилами «Польські» грають до 1{NBSP}000, а не до 500.",
            "За правилами «Польські» гравців має бути 3 або 4, а не 2.",
        ),
        (
            "pl",
            "Według zasad „Polskie” gra się do 1000, a nie do 500.",
            "Zasady „Polskie” są dla 3 lub 4 graczy, nie dla 2.",
        ),
        (
            "de",
            "Nach den Regeln „Polnisch“ geht es bis 1.000, nicht bis 500.",
            "Nach den Regeln „Polnisch“ spielen 3 oder 4 Spieler, nicht 2.",
        ),
        (
            "en",
            "polish plays to 1000, not 500.",  # the engine's own English (docs/api.md)
            "polish is played by 3 or 4 players, not 2.",
        ),
    ],
)
def test_a_ruleset_its_numbers_and_their_or_are_the_readers(
    api_user: Any,
    language: str,
    target: str,
    players: str,
) -> None:
    body = {"players": ["Anna", "Boris", "Vera"], "rules": "polish", "options": {"target": 500}}
    assert refusal(api_user, "/api/matches", body, language) == target
    body = {"players": ["Anna", "Boris"], "rules": "polish"}
    assert refusal(api_user, "/api/matches", body, language) == players


@pytest.mark.parametrize(
    ("language", "call", "allowed"),
    [
        ("ru", "Сверхбольшой Тичу", "«tichu» (Тичу) или «grand» (Большой Тичу)"),
        ("pl", "Bardzo Wielkie Tichu", "„tichu” (Tichu) lub „grand” (Wielkie Tichu)"),
        ("de", "Riesen-Tichu", "„tichu“ (Tichu) oder „grand“ (Großes Tichu)"),
    ],
)
def test_a_refused_call_names_the_calls_in_the_readers_words(
    api_user: Any,
    language: str,
    call: str,
    allowed: str,
) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera", "Gleb"], rules="tichu")
    body = {"calls": ["great_grand", None, None, None], "first_out": 0, "card_points": [50, 50]}
    text = refusal(api_user, f"/api/matches/{match['id']}/hands", body, language)
    assert call in text and allowed in text, text
    assert "Great" not in text and " or " not in text


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", "-1,020"),
        ("de", "-1.020"),
        ("ru", f"-1{NBSP}020"),
        ("uk", f"-1{NBSP}020"),
        ("pl", "-1020"),
    ],
)
def test_numbers_in_sentences_are_written_as_the_language_writes_them(
    app: Flask,
    language: str,
    written: str,
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        assert number(-1020) == written
        assert number(880) == "880" and number(-5) == "-5"
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert number(12345) == f"12{NBSP}345"  # Polish groups from five digits


@pytest.mark.parametrize(
    ("language", "banner", "target"),
    [
        ("de", "Anna gewinnt mit 1.010!", "bis 1.000"),
        ("ru", f"Победа: Anna, счёт 1{NBSP}010!", f"до 1{NBSP}000"),
        ("en", "Anna wins with 1,010!", "to 1,000"),
    ],
)
def test_the_winner_and_the_target_are_written_for_the_language_and_the_sheet_keeps_digits(
    phone: Any,
    language: str,
    banner: str,
    target: str,
) -> None:
    phone.register("anna")
    mid = phone.new_match(**{f"start_scores-{i}": str(s) for i, s in enumerate(WINNING_START)})
    fields = {
        "declarer": "0",
        "bid": str(WINNING_HAND["bid"]),
        "points_1": "20",
        "points_2": "20",
        "marriages_0": ["hearts"],
    }
    assert phone.hand(mid, **fields).status_code == 302
    html = phone.get(f"/matches/{mid}", headers={"Accept-Language": language}).text
    assert banner in html and target in html
    page = parse(html)
    cells = [n.text() for n in page.walk() if n.tag == "span" and "total" in n.classes()]
    assert "1010" in cells  # the sheet's cell: plain digits, as on paper
