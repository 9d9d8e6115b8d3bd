"""RULES.md §10: Tichu, every rule and every refusal (with its field), table-driven."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scoresheet.rules import (
    Malformed,
    Options,
    Refused,
    Setup,
    TichuRound,
    check_setup,
    record_from_dict,
    record_to_dict,
    replay,
    setup_from_dict,
    setup_to_dict,
)
from scoresheet.rules.tichu import call_statistics

from .test_refusals import clear_sentence

PLAYERS = ("Anna", "Boris", "Vera", "Gleb")
NOBODY = (None, None, None, None)


def tichu(
    target: int = 1000, start: Sequence[int] = (0, 0), dealer: int = 0, great_grand: bool = False, sheet: str = "signed"
) -> Setup:
    """A Tichu set-up: Anna & Vera are team 0, Boris & Gleb team 1."""
    return Setup(
        players=PLAYERS,
        rules="tichu",
        options=Options(target=target, great_grand_tichu=great_grand, sheet_style=sheet),  # type: ignore[arg-type]
        first_dealer=dealer,
        start_scores=tuple(start),
    )


def rnd(
    points: Sequence[int] | None = (50, 50),
    first_out: int | None = None,
    calls: Sequence[str | None] = NOBODY,
    double: bool = False,
) -> TichuRound:
    """One round as the table enters it."""
    return TichuRound(
        calls=tuple(calls),
        first_out=first_out,
        double_victory=double,
        card_points=None if points is None else tuple(points),
    )


def deltas(*rounds: TichuRound, setup: Setup | None = None) -> list[list[int]]:
    """Each team's score change in each round."""
    sheet = replay(setup or tichu(), rounds)
    return [[r.delta for r in h.results] for h in sheet.hands]


@pytest.mark.parametrize(
    ("round_", "expected", "events"),
    [
        # card points only; who went out first may be left out when nobody called
        (rnd((60, 40)), [60, 40], [(), ()]),
        (rnd((60, 40), first_out=1), [60, 40], [(), ()]),
        (rnd((-25, 125)), [-25, 125], [(), ()]),
        (rnd((125, -25)), [125, -25], [(), ()]),
        # RULES.md §10's example: Anna's Tichu made, Boris's Grand failed
        (rnd((35, 65), 0, ["tichu", "grand", None, None]), [135, -135], [("tichu_made",), ("grand_failed",)]),
        # a call succeeds only for the seat out first, also a partner's fails
        (rnd((50, 50), 2, ["tichu", None, None, None]), [-50, 50], [("tichu_failed",), ()]),
        (rnd((50, 50), 2, [None, None, "grand", None]), [250, 50], [("grand_made",), ()]),
        (
            rnd((50, 50), 3, ["tichu", "tichu", "tichu", "tichu"]),
            [-150, 50],
            [("tichu_failed", "tichu_failed"), ("tichu_failed", "tichu_made")],
        ),
        # both partners call; one makes it
        (rnd((70, 30), 0, ["tichu", None, "grand", None]), [-30, 30], [("tichu_made", "grand_failed"), ()]),
        # double victory: +200, no card points
        (rnd(None, 1, double=True), [0, 200], [(), ("double_victory",)]),
        (rnd(None, 0, ["grand", None, None, None], double=True), [400, 0], [("double_victory", "grand_made"), ()]),
        # a call fails on the other team's double victory, and a partner's on its own
        (
            rnd(None, 1, ["tichu", None, "grand", "tichu"], double=True),
            [-300, 100],
            [("tichu_failed", "grand_failed"), ("double_victory", "tichu_failed")],
        ),
    ],
)
def test_round_points_per_team(round_: TichuRound, expected: list[int], events: list[tuple[str, ...]]) -> None:
    sheet = replay(tichu(), [round_])
    assert [r.delta for r in sheet.hands[0].results] == expected
    assert [r.events for r in sheet.hands[0].results] == events


def test_great_grand_tichu_is_400_where_the_table_plays_it() -> None:
    ggt = tichu(great_grand=True)
    assert deltas(rnd((50, 50), 1, [None, "great_grand", None, None]), setup=ggt) == [[50, 450]]
    assert deltas(rnd((50, 50), 1, ["great_grand", None, None, None]), setup=ggt) == [[-350, 50]]
    assert replay(ggt, [rnd((50, 50), 1, [None, "great_grand", None, None])]).hands[0].results[1].events == (
        "great_grand_made",
    )


@pytest.mark.parametrize(
    ("round_", "field", "message"),
    [
        # calls: an unknown word, Great Grand without the option, not one per seat
        (rnd(calls=["small", None, None, None], first_out=0), "calls", "“small” is not a call: Anna can call"),
        (
            rnd(calls=[None, "great_grand", None, None], first_out=0),
            "calls",
            "This table does not play Great Grand Tichu: Boris can call",
        ),
        (rnd(calls=[None, None, None], first_out=0), "calls", "Give one call per player (4)"),
        (rnd(calls=[None] * 5, first_out=0), "calls", "Give one call per player (4)"),
        # first_out: a call or a double victory without it; not a seat
        (rnd(calls=[None, None, "tichu", None]), "first_out", "Vera called Tichu: say who went out first."),
        (rnd(calls=[None, "grand", None, None]), "first_out", "Boris called Grand Tichu: say who went out first."),
        (rnd(None, double=True), "first_out", "Say who went out first"),
        (rnd(first_out=4), "first_out", "Who went out first must be one of the four players."),
        (rnd(first_out=-1), "first_out", "Who went out first must be one of the four players."),
        # card points: not in fives, out of -25..125, not adding to 100, on a double
        # victory, missing, not two
        (rnd((52, 48)), "card_points", "Card points go in fives; Anna & Vera have 52."),
        (rnd((130, -30)), "card_points", "Card points are from -25 to 125; Anna & Vera have 130."),
        (rnd((-30, 130)), "card_points", "Card points are from -25 to 125; Anna & Vera have -30."),
        (rnd((60, 60)), "card_points", "The two teams' card points add up to 100; these add up to 120."),
        (
            rnd((50, 50), 0, double=True),
            "card_points",
            "On a double victory no card points are counted: leave them out.",
        ),
        (rnd(None), "card_points", "Enter the card points of both teams"),
        (rnd((100,)), "card_points", "Card points are two numbers"),
        (rnd((50, 50, 0)), "card_points", "Card points are two numbers"),
    ],
)
def test_refused_round_names_its_field(round_: TichuRound, field: str, message: str) -> None:
    with pytest.raises(Refused) as err:
        replay(tichu(), [rnd((50, 50)), round_])
    assert err.value.field == field
    assert err.value.hand == 2
    assert message in err.value.message
    assert clear_sentence(err.value.message)


@pytest.mark.parametrize(
    ("scores", "last", "winner"),
    [
        ((900, 0), (100, 0), 0),  # exactly the target wins
        ((900, 0), (95, 5), None),  # 995: not yet
        ((0, 950), (0, 100), 1),
        ((950, 940), (70, 30), 0),  # both past the target: the higher (1020 v 970 -> 1020 v 970)
        ((950, 980), (60, 40), 1),  # both past: 1010 v 1020, the higher
        ((950, 950), (50, 50), None),  # equal past the target: play on
    ],
)
def test_winner_is_the_team_at_the_target_and_ahead(
    scores: tuple[int, int], last: tuple[int, int], winner: int | None
) -> None:
    sheet = replay(tichu(start=scores), [rnd(last)])
    assert sheet.winner == winner
    assert sheet.status == ("in_progress" if winner is None else "finished")
    if winner is not None:
        assert "win" in sheet.hands[0].results[winner].events
        assert sheet.next is None


def test_equal_scores_past_the_target_play_on_until_one_is_ahead() -> None:
    sheet = replay(tichu(start=(950, 950)), [rnd((50, 50)), rnd((55, 45))])
    assert [h.results[0].score for h in sheet.hands] == [1000, 1055]
    assert sheet.winner == 0


def test_no_round_after_the_match_is_won() -> None:
    with pytest.raises(Refused) as err:
        replay(tichu(start=(950, 0)), [rnd((50, 50)), rnd((50, 50))])
    assert err.value.hand == 2
    assert err.value.message == "The match is over: Anna & Vera have won. No more rounds."


@pytest.mark.parametrize("target", [500, 1000, 1500, 2000])
def test_targets_of_tichu(target: int) -> None:
    sheet = replay(tichu(target=target, start=(target - 50, 0)), [rnd((50, 50))])
    assert sheet.winner == 0


def test_the_deal_passes_to_the_next_seat_after_every_round() -> None:
    sheet = replay(tichu(dealer=2), [rnd(), rnd(), rnd()])
    assert [h.dealer for h in sheet.hands] == [2, 3, 0]
    assert sheet.next is not None
    assert (sheet.next.hand, sheet.next.dealer) == (4, 1)
    assert all(h.sitting_out is None for h in sheet.hands)


def test_standings_are_per_team_with_team_names() -> None:
    sheet = replay(tichu(start=(100, -50)), [rnd((35, 65), 0, ["tichu", "grand", None, None])])
    assert [(s.seat, s.name, s.score, s.total, s.owed) for s in sheet.standings] == [
        (0, "Anna & Vera", 235, 235, 0),
        (1, "Boris & Gleb", -185, -185, 0),
    ]


def test_deferred_sheet_books_a_team_loss_as_owed() -> None:
    sheet = replay(tichu(sheet="deferred"), [rnd((35, 65), 0, ["tichu", "grand", None, None]), rnd((-25, 125))])
    team1 = [(r.entry, r.owed, r.score, r.total) for r in (h.results[1] for h in sheet.hands)]
    assert team1 == [(0, 135, -135, 0), (0, 10, -10, 0)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"gold_set": True}, "Tichu has no gold set: that is a Tysiacha option."),
        ({"blind_bids": True}, "Tichu has no blind bids: that is a Tysiacha option."),
        ({"sitter_bonus": True}, "Tichu has no sitter-out bonus: that is a Tysiacha option."),
        ({"target": 3000}, "Tichu plays to 1000, 500, 1500 or 2000, not 3000."),
        ({"sheet": "paper"}, "The sheet style is"),
    ],
)
def test_tichu_refuses_tysiacha_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(Refused) as err:
        check_setup(setup_from_dict({"players": list(PLAYERS), "rules": "tichu", "options": options}))
    assert err.value.field == "options"
    assert message in err.value.message


def test_great_grand_tichu_is_refused_on_a_tysiacha_match() -> None:
    with pytest.raises(Refused) as err:
        check_setup(setup_from_dict({"players": ["A", "B", "C"], "options": {"great_grand_tichu": True}}))
    assert err.value.field == "options"
    assert "Great Grand Tichu is a Tichu call" in err.value.message


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"players": ["A", "B", "C"], "rules": "tichu"},
            "players",
            "Tichu is played by 4 players, in two teams, not 3.",
        ),
        (
            {"players": list(PLAYERS), "rules": "tichu", "start_scores": [0, 0, 0, 0]},
            "start_scores",
            "Give a start score for each of the 2 teams.",
        ),
        (
            {"players": list(PLAYERS), "rules": "tichu", "start_scores": [1000, 0]},
            "start_scores",
            "Anna & Vera's start score must be from -10000 to 999; 1000 is not.",
        ),
        (
            {"players": list(PLAYERS), "rules": "tichu", "first_dealer": 4},
            "first_dealer",
            "The first dealer must be one of the 4 players.",
        ),
        ({"players": ["Anna", "Boris", "anna", "Gleb"], "rules": "tichu"}, "players", "Two players are called"),
    ],
)
def test_tichu_set_up_refusals(data: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(Refused) as err:
        check_setup(setup_from_dict(data))
    assert (err.value.field, err.value.message[: len(message)]) == (field, message)


def test_tichu_defaults_signed_sheet_target_1000_and_options_per_game() -> None:
    s = setup_from_dict({"players": list(PLAYERS), "rules": "tichu"})
    check_setup(s)
    assert (s.options.sheet_style, s.options.target, s.start_scores) == ("signed", 1000, (0, 0))
    assert setup_to_dict(s)["options"] == {"target": 1000, "great_grand_tichu": False, "sheet": "signed"}
    assert "great_grand_tichu" not in setup_to_dict(setup_from_dict({"players": ["A", "B", "C"]}))["options"]
    assert setup_from_dict(setup_to_dict(s)) == s


def test_round_body_parses_and_stores_as_entered() -> None:
    body = {"calls": [None, "tichu", None, None], "first_out": 1, "double_victory": False, "card_points": [35, 65]}
    record = record_from_dict(body, "tichu")
    assert record == rnd((35, 65), 1, [None, "tichu", None, None])
    assert record_to_dict(record) == body
    assert record_from_dict({"card_points": [60, 40]}, "tichu") == rnd((60, 40))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "played", "card_points": [50, 50]}, "kind"),
        ({"card_points": [50, 50], "declarer": 1}, "declarer"),
        ({"calls": "tichu", "card_points": [50, 50]}, "calls"),
        ({"calls": [None, 1, None, None], "card_points": [50, 50]}, "calls"),
        ({"first_out": "Anna", "card_points": [50, 50]}, "first_out"),
        ({"double_victory": 1, "first_out": 0}, "double_victory"),
        ({"card_points": 60}, "card_points"),
        ({"card_points": [60.0, 40]}, "card_points"),
    ],
)
def test_malformed_round_bodies(body: dict[str, object], field: str) -> None:
    with pytest.raises(Malformed) as err:
        record_from_dict(body, "tichu")
    assert err.value.field == field
    assert clear_sentence(err.value.message)


def test_call_statistics_per_player_and_double_victories_per_team() -> None:
    rounds = [
        rnd((35, 65), 0, ["tichu", "grand", None, None]),
        rnd(None, 1, [None, None, "grand", "tichu"], double=True),
        rnd((50, 50), 3, [None, None, None, "tichu"]),
        rnd(None, 3, double=True),
    ]
    stats = call_statistics(tichu(), rounds)
    as_pairs = [{c: (n.called, n.made) for c, n in seat.items()} for seat in stats.calls]
    assert as_pairs == [
        {"tichu": (1, 1), "grand": (0, 0)},
        {"tichu": (0, 0), "grand": (1, 0)},
        {"tichu": (0, 0), "grand": (1, 0)},
        {"tichu": (2, 1), "grand": (0, 0)},
    ]
    assert stats.double_victories == (0, 2)
    assert "great_grand" in call_statistics(tichu(great_grand=True), rounds).calls[0]
