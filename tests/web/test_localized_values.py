"""Values inside translated sentences speak the reader's language too: the engine's
word parameters (suits, calls, ruleset names, "1000 or 2000") and numbers written as the
language writes them; the sheet's cells, the CSV and the English API sentences keep plain
digits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from markupsafe import Markup

from scoresheet.web.template_globals import fill
from scoresheet.words.values import decimal, figure, number, signed

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
            "По правилам «Польские» играют до 1000, а не до 500.",
            "По правилам «Польские» игроков должно быть 3 или 4, а не 2.",
        ),
        (
            "uk",
            "За правилами «Польські» грають до 1000, а не до 500.",
            "За правилами «Польські» гравців має бути 3 або 4, а не 2.",
        ),
        (
            "pl",
            "Według zasad „Polskie” gra się do 1000, a nie do 500.",
            "Zasady „Polskie” są dla 3 lub 4 graczy, nie dla 2.",
        ),
        (
            "de",
            "Nach den Regeln „Polnisch“ geht es bis 1000, nicht bis 500.",
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
        ("en", "-12,345"),
        ("de", "-12.345"),
        ("ru", f"-12{NBSP}345"),
        ("uk", f"-12{NBSP}345"),
        ("pl", f"-12{NBSP}345"),
    ],
)
def test_numbers_in_sentences_are_written_as_the_language_writes_them(
    app: Flask,
    language: str,
    written: str,
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        assert number(-12345) == written
        # The game's figures (below 10 000) as on the sheet, in every language: "to 1000"
        # and "wins with 1020" beside the cells' 1020, never "1 000" beside "1000".
        assert number(1020) == "1020" and number(9999) == "9999"
        assert number(880) == "880" and number(-5) == "-5"


def test_a_score_on_the_page_has_the_minus_sign_and_an_entry_its_plus() -> None:
    assert [figure(v) for v in (-150, 0, 1020)] == ["\u2212150", "0", "1020"]
    assert [signed(v) for v in (-150, 0, 35)] == ["\u2212150", "0", "+35"]


def test_a_figure_with_a_decimal_has_the_minus_sign_below_zero_as_a_score_has(app: Flask) -> None:
    # A rating or an average margin beside the scores: −2,8, never -2,8; what rounds to 0 has none.
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert [decimal(v) for v in (-550.0, -2.84, -0.04, 2.4)] == ["\u2212550,0", "\u22122,8", "0,0", "2,4"]
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert decimal(-2.84) == "\u22122.8"


def test_a_rows_number_takes_the_stand_ins_place_in_a_word_looked_up_once_and_escaped_once() -> None:
    looked_up = Markup("Anna &amp; Bo: made 999999")  # as the catalog's words come: escaped
    assert fill(looked_up, "999999", 125) == Markup("Anna &amp; Bo: made 125")
    assert fill("<b>made</b> 999999", "999999", 5) == Markup("&lt;b&gt;made&lt;/b&gt; 5")  # plain text: escaped
    assert fill(Markup("sheet 111111, owes 999999"), "111111", 40) == Markup("sheet 40, owes 999999")


@pytest.mark.parametrize(
    ("language", "banner", "target"),
    [
        ("de", "Anna gewinnt mit 1010!", "bis 1000"),
        ("ru", "Победа: Anna, счёт 1010!", "до 1000"),
        ("en", "Anna wins with 1010!", "to 1000"),
        ("uk", "1010!", "до 1000"),
        ("pl", "1010!", "do 1000"),
    ],
)
def test_the_winner_and_the_target_are_written_as_the_sheet_writes_its_figures(
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
    # One way of writing a figure on the screen (and so in the picture Share the result draws
    # from it): never "1 000" or "1,010" beside the sheet's "1010".
    assert not re.search(r"\b1[ ,.\u00a0\u202f]0[01]0\b", page.text()), page.text()
