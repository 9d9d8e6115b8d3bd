"""Each seat's figures read from a replay (scoresheet.rules.figures, issue 16): crafted hands,
one figure at a time."""

from __future__ import annotations

import pytest

from scoresheet.rules import HandRecord, Options, Setup, TichuRound, replay
from scoresheet.rules.figures import COUNTS, game_of, places, seat_figures


def played(declarer: int, bid: int, points: tuple[int | None, ...]) -> HandRecord:
    """A played hand without marriages."""
    return HandRecord("played", declarer=declarer, bid=bid, points=points)


def figures(start: tuple[int, ...], *hands: HandRecord,
            rules: str = "squarescores") -> list[dict[str, int]]:
    """Each seat's figures (as a dict) after replaying these hands from these scores."""
    setup = Setup(("Anna", "Boris", "Vera"), rules, Options(1000), 0, start)
    return [{name: getattr(f, name) for name in ("place", "won", *COUNTS)}
            for f in seat_figures(replay(setup, list(hands)))]


ON_BARREL = played(0, 100, (None, 10, 10))
"""From 850 Anna makes 100: 950, on the barrel at 880."""
BORIS_MAKES = played(1, 100, (10, None, 10))


def test_three_hands_on_the_barrel_without_a_win_is_a_fall() -> None:
    anna = figures((850, 0, 0), ON_BARREL, BORIS_MAKES, BORIS_MAKES, BORIS_MAKES)[0]
    assert (anna["barrel_on"], anna["barrel_fell"], anna["barrel_won"]) == (1, 1, 0)


def test_a_contract_missed_on_the_barrel_is_a_fall_too() -> None:
    anna = figures((850, 0, 0), ON_BARREL, played(0, 120, (None, 60, 60)))[0]
    assert (anna["barrel_on"], anna["barrel_fell"], anna["declared"], anna["made"]) == (1, 1, 2, 1)


def test_taking_120_from_the_barrel_is_a_win_from_it() -> None:
    anna = figures((850, 0, 0), ON_BARREL, played(0, 120, (None, 0, 0)))[0]
    assert (anna["barrel_on"], anna["barrel_won"], anna["barrel_fell"], anna["won"]) == \
        (1, 1, 0, True)
    assert anna["bid_made_sum"] == 220 and anna["bid_made_max"] == 120 and anna["place"] == 1


def test_zeros_and_rospisats_are_counted_per_seat() -> None:
    anna, boris, vera = figures((0, 0, 0), played(0, 100, (None, 0, 20)),
                                HandRecord("forfeit", declarer=1, bid=100),
                                played(2, 100, (0, 0, None)))
    assert (anna["zeros"], boris["zeros"], vera["zeros"]) == (1, 2, 0)
    assert (boris["forfeits"], boris["declared"], boris["made"]) == (1, 1, 0)


def test_a_redeal_is_declared_by_nobody() -> None:
    assert [f["declared"] for f in figures((0, 0, 0), HandRecord("redeal"))] == [0, 0, 0]


@pytest.mark.parametrize(("scores", "winner", "expected"), [
    ([1000, 300, 300], 0, [1, 2, 2]),        # equal scores share a place
    ([1000, 1010, 200], 0, [1, 2, 3]),       # the winner first, whatever the scores
    ([500, 600, 700], None, [3, 2, 1]),
])
def test_places_put_the_winner_first_then_go_by_score(scores: list[int], winner: int | None,
                                                      expected: list[int]) -> None:
    assert places(scores, winner) == expected


def test_tichu_calls_count_per_player_and_double_victories_per_team() -> None:
    setup = Setup(("Anna", "Boris", "Vera", "Gleb"), "tichu", Options(1000), 0, (0, 0))
    rounds = [TichuRound(("tichu", "grand", None, None), 0, False, (35, 65)),
              TichuRound((None, None, None, "tichu"), 3, True, None)]
    anna, boris, vera, gleb = seat_figures(replay(setup, rounds))
    assert (anna.tichu_called, anna.tichu_made, boris.grand_called, boris.grand_made) == \
        (1, 1, 1, 0)
    assert (gleb.tichu_made, gleb.double_victories, boris.double_victories,
            anna.double_victories) == (1, 1, 1, 0)
    # Anna & Vera 135, Boris & Gleb 165: partners share their team's place.
    assert (anna.place, vera.place, boris.place, gleb.place) == (2, 2, 1, 1)
    assert game_of("tichu") == "tichu" and game_of("polish") == "tysiacha"
