"""The rating explained: a sentence and a picture of mu − 3·sigma on the leaderboard and a
player's page, in the reader's language, and the rating's history as a labelled line, on
SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from .page_helpers import parse
from .test_pages_players import seated_win


def picture(html: str) -> Any:
    (svg,) = [n for n in parse(html).walk() if n.tag == "svg" and "rating-picture" in n.classes()]
    return svg


def test_the_leaderboard_and_the_player_page_explain_the_rating_in_the_readers_language(make_phone: Any) -> None:
    anna, _boris, _match_id = seated_win(make_phone)
    for url in ("/leaderboard", "/players/anna", "/players/boris"):
        svg = picture(anna.get(url).text)
        assert svg.attrs["role"] == "img"
        assert svg.attrs["aria-labelledby"] == "rating-picture-title rating-picture-desc"
        (title,) = [n.text() for n in svg.walk() if n.tag == "title"]
        assert title == "Rating = μ − 3σ"
        assert [n.text() for n in svg.walk() if n.tag == "text"] == [
            "after a few matches",
            "after many",
            "rating",
            "rating",
        ]
    page = anna.get("/leaderboard", headers={"Accept-Language": "de"}).text
    svg = picture(page)
    assert [n.text() for n in svg.walk() if n.tag == "title"] == ["Wertung = μ − 3σ"]
    assert "minus das Dreifache ihrer Unsicherheit (σ)" in page


def test_the_rating_history_is_a_labelled_line_over_the_matches(make_phone: Any) -> None:
    anna, _boris, _match_id = seated_win(make_phone)
    page = parse(anna.get("/players/anna").text)
    (chart,) = [n for n in page.walk() if n.tag == "svg" and "rating-chart" in n.classes()]
    assert [n.text() for n in chart.walk() if n.tag == "title"] == ["The rating after each banked match"]
    (line,) = [n for n in chart.walk() if n.tag == "polyline"]
    assert len(line.attrs["points"].split()) == 2  # 0 before the first match, then after it
    # anna won; boris and the guest Vera took 20 each and share the second place.
    model = PlackettLuce()
    won, _second, _guest = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 2])
    rating = round(won[0].mu - 3 * won[0].sigma, 1)
    assert rating == 3.3  # 27.87 − 3 × 8.21, rounded
    hint = "from 0 before the first on the left to the latest on the right, from 0.0 to 3.3."
    assert any(hint in n.text() for n in page.walk() if n.tag == "p")
