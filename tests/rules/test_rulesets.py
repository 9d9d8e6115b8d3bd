"""RULES.md §7: how the five rulesets differ."""

from __future__ import annotations

import pytest

from scoresheet.rules import HandRecord, Refused, Setup, check_setup, replay

from .helpers import events, forfeit, history, played, scores, setup

RULESETS = ["squarescores", "polish", "classic", "ggtables", "tyzicha"]


@pytest.mark.parametrize(
    ("rules", "allowed"),
    [("squarescores", {3, 4}), ("polish", {3, 4}), ("classic", {3, 4}), ("ggtables", {2, 3, 4}), ("tyzicha", {3})],
)
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5])
def test_each_ruleset_allows_its_seat_counts(rules: str, allowed: set[int], seats: int) -> None:
    base = setup(rules)
    s = Setup(
        players=tuple(f"P{i}" for i in range(seats)),
        rules=rules,
        options=base.options,
        first_dealer=0,
        start_scores=(0,) * seats,
    )
    if seats in allowed:
        check_setup(s)
    else:
        with pytest.raises(Refused) as err:
            check_setup(s)
        assert err.value.field == "players"
        assert str(seats) in err.value.message


@pytest.mark.parametrize(
    ("rules", "target", "allowed"),
    [
        ("squarescores", 1000, True),
        ("squarescores", 2000, True),
        ("squarescores", 3000, True),
        ("squarescores", 500, False),
        ("polish", 1000, True),
        ("polish", 2000, False),
        ("classic", 2000, True),
        ("classic", 3000, True),
        ("classic", 500, False),
        ("ggtables", 1000, True),
        ("ggtables", 500, True),
        ("ggtables", 2000, False),
        ("tyzicha", 1001, True),
        ("tyzicha", 1000, False),
    ],
)
def test_each_ruleset_allows_its_targets(rules: str, target: int, allowed: bool) -> None:
    s = setup(rules, target=target)
    if allowed:
        check_setup(s)
    else:
        with pytest.raises(Refused) as err:
            check_setup(s)
        assert err.value.field == "options"
        assert str(target) in err.value.message


def test_default_target_is_the_rulesets_first() -> None:
    from scoresheet.rules import setup_from_dict

    assert setup_from_dict({"players": ["A", "B", "C"], "rules": "tyzicha"}).options.target == 1001
    assert setup_from_dict({"players": ["A", "B", "C"]}).options.target == 1000


@pytest.mark.parametrize(
    ("rules", "bid", "forced", "ok"),
    [
        ("squarescores", 105, False, True),
        ("squarescores", 95, False, False),
        ("classic", 105, False, True),
        ("polish", 105, False, False),
        ("polish", 110, False, True),
        ("ggtables", 105, False, False),
        ("ggtables", 100, False, True),
        ("tyzicha", 100, False, False),
        ("tyzicha", 110, False, True),
        ("tyzicha", 100, True, True),
        ("tyzicha", 115, False, False),
        ("squarescores", 400, False, True),
        ("squarescores", 405, False, False),
    ],
)
def test_bid_step_and_minimum_per_ruleset(rules: str, bid: int, forced: bool, ok: bool) -> None:
    hand = played(1, bid, [60, None, 60], forced=forced)
    if ok:
        replay(setup(rules), [hand])
    else:
        with pytest.raises(Refused) as err:
            replay(setup(rules), [hand])
        assert err.value.field == "bid"
        assert str(bid) in err.value.message


def test_forced_flag_is_refused_outside_tyzicha() -> None:
    with pytest.raises(Refused) as err:
        replay(setup("squarescores"), [played(1, 100, [60, None, 60], forced=True)])
    assert err.value.field == "forced"


@pytest.mark.parametrize(
    ("rules", "defenders"),
    [
        # Declarer 1 bids 110 and takes 120 - 40 - 20 = 60 + hearts 100 = 160: made.
        ("squarescores", [40, 20]),
        ("polish", [40, 20]),
        ("classic", [40, 20]),
        ("ggtables", [40, 20]),
        # Tyzicha: defenders score only when the declarer missed -> 0.
        ("tyzicha", [0, 0]),
    ],
)
def test_defenders_score_on_a_made_hand_except_in_tyzicha(rules: str, defenders: list[int]) -> None:
    sheet = replay(setup(rules), [played(1, 110, [40, None, 20], {1: ["hearts"]})])
    assert scores(sheet) == [defenders[0], 110, defenders[1]]


# -- Polish lock -------------------------------------------------------------------------

# Seat 0 at 850 defends with 60 (seat 1 declares 100, takes 60: missed): 910, locked.
LOCK_SEAT_0 = played(1, 100, [60, None, 0])


def test_polish_seat_reaching_900_to_999_is_locked_not_put_on_a_barrel() -> None:
    sheet = replay(setup("polish", start=[850, 0, 0]), [LOCK_SEAT_0])
    assert scores(sheet)[0] == 910
    assert sheet.standings[0].locked and not sheet.standings[0].barrel
    assert events(sheet, 1, 0) == ("locked",)


def test_polish_locked_defender_gains_nothing() -> None:
    hands = [LOCK_SEAT_0, played(1, 100, [50, None, 10])]
    sheet = replay(setup("polish", start=[850, 0, 0]), hands)
    assert scores(sheet)[0] == 910
    assert "locked" in events(sheet, 2, 0)


def test_polish_locked_forfeit_opponent_gains_nothing() -> None:
    sheet = replay(setup("polish", start=[850, 0, 0]), [LOCK_SEAT_0, forfeit(2, 100)])
    # seat 0 locked: no +60; seat 1 (-100) gets +60 -> -40; declarer 2: 0 - 100.
    assert scores(sheet) == [910, -40, -100]


def test_polish_locked_declarer_who_makes_the_bid_goes_to_the_target_and_wins() -> None:
    # 910 + 100 would be 1010; the lock rule takes it to the target: exactly 1000.
    hands = [LOCK_SEAT_0, played(0, 100, [None, 10, 10])]
    sheet = replay(setup("polish", start=[850, 0, 0]), hands)
    assert scores(sheet)[0] == 1000
    assert sheet.winner == 0


def test_polish_locked_declarer_who_misses_drops_below_900_and_is_freed() -> None:
    # 910 - 120 = 790 (took 80 < 120), unlocked; then as a defender it scores again: +40.
    hands = [LOCK_SEAT_0, played(0, 120, [None, 20, 20]), played(1, 100, [40, None, 0])]
    sheet = replay(setup("polish", start=[850, 0, 0]), hands)
    assert [h.results[0].score for h in sheet.hands] == [910, 790, 830]
    assert "unlocked" in events(sheet, 2, 0)
    assert not sheet.standings[0].locked


def test_polish_locked_declarer_who_forfeits_loses_the_bid_and_is_freed() -> None:
    sheet = replay(setup("polish", start=[850, 0, 0]), [LOCK_SEAT_0, forfeit(0, 100)])
    assert scores(sheet)[0] == 810 and not sheet.standings[0].locked


@pytest.mark.parametrize(
    ("start", "taken", "after_1", "after_2", "locked"),
    [
        # §7 "a seat at 900..999 is locked", at both ends. Hand 1: seat 0 defends with `taken`
        # (rounded to 10); hand 2: it defends with 30, which counts only if it is not locked.
        (850, 40, 890, 920, True),  # 890: not locked, so +30 -> 920 (and locked from then on)
        (850, 45, 900, 900, True),  # 45 -> 50: exactly 900, locked: hand 2 adds nothing
        (899, 100, 999, 999, True),  # 899 + 100 = 999: still locked
    ],
)
def test_polish_lock_range_is_900_to_999(start: int, taken: int, after_1: int, after_2: int, locked: bool) -> None:
    hands = [played(1, 100, [taken, None, 0]), played(1, 100, [30, None, 0])]
    assert history(setup("polish", start=[start, 0, 0]), hands, 0) == [after_1, after_2]
    assert replay(setup("polish", start=[start, 0, 0]), hands).standings[0].locked is locked


@pytest.mark.parametrize("rules", ["squarescores", "classic", "ggtables"])
def test_only_polish_locks(rules: str) -> None:
    # 850 + 60 = 910: barrel rulesets put it on 880; ggtables leaves 910 and unlocked.
    sheet = replay(setup(rules, start=[850, 0, 0]), [LOCK_SEAT_0])
    expected = 910 if rules == "ggtables" else 880
    assert scores(sheet)[0] == expected
    assert not sheet.standings[0].locked


def test_ggtables_has_no_endgame_defender_at_900_keeps_scoring() -> None:
    # 850 + 60 = 910, then + 50 = 960: no barrel, no lock.
    assert history(setup("ggtables", start=[850, 0, 0]), [LOCK_SEAT_0, played(1, 100, [50, None, 10])], 0) == [910, 960]


# -- Tyzicha cap ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("taken", "score", "capped"),
    [
        (80, 1000, True),  # 950 + 80 = 1030 -> 1000
        (51, 1000, True),  # 950 + 51 = 1001, the target itself -> 1000: no win as a defender
        (50, 1000, False),  # 950 + 50 = 1000 exactly: allowed, nothing to cap
        (49, 999, False),
    ],
)
def test_tyzicha_defender_is_capped_at_1000(taken: int, score: int, capped: bool) -> None:
    # Seat 1 bids 110 and takes 120 - taken - 10 < 110: missed, so seat 0 scores (unrounded).
    sheet = replay(setup("tyzicha", start=[950, 0, 0]), [played(1, 110, [taken, None, 10])])
    assert scores(sheet) == [score, -110, 10]
    assert ("capped" in events(sheet, 1, 0)) is capped
    assert sheet.winner is None  # the target is 1001


def test_tyzicha_forfeit_opponent_is_capped_at_1000() -> None:
    # 980 + 40 = 1020 -> 1000.
    sheet = replay(setup("tyzicha", start=[980, 0, 0]), [forfeit(1, 110)])
    assert scores(sheet) == [1000, -110, 40]
    assert "capped" in events(sheet, 1, 0)


def test_tyzicha_last_hand_is_won_as_declarer() -> None:
    # Capped at 1000, then declares 110 and takes 110: 1000 + 110 = 1110 >= 1001, wins.
    hands = [played(1, 110, [80, None, 10]), played(0, 110, [None, 5, 5])]
    sheet = replay(setup("tyzicha", start=[950, 0, 0]), hands)
    assert scores(sheet)[0] == 1110
    assert sheet.winner == 0


@pytest.mark.parametrize("rules", ["squarescores", "polish", "classic", "ggtables"])
def test_only_tyzicha_caps(rules: str) -> None:
    # 960 is not a legal barrel start, so use a start below the barrel and a big gain:
    # 870 + 100 cards + hearts 100 = 1070 >= 1000 -> wins, not capped.
    hand = played(1, 300, [100, None, 0], {0: ["hearts"]})
    sheet = replay(setup(rules, start=[870, 0, 0]), [hand])
    assert scores(sheet)[0] == 1070
    assert sheet.winner == 0


# -- Forfeits -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        # Squarescores: +60 each opponent, declarer untouched (first forfeit).
        ("squarescores", [60, 500, 60]),
        # Polish, classic: +60 each, declarer -bid: 500 - 120 = 380.
        ("polish", [60, 380, 60]),
        ("classic", [60, 380, 60]),
        # GGTables: the first bomb of a seat is free: nobody scores.
        ("ggtables", [0, 500, 0]),
        # Tyzicha: declarer -bid, +40 each opponent.
        ("tyzicha", [40, 380, 40]),
    ],
)
def test_forfeit_per_ruleset(rules: str, expected: list[int]) -> None:
    sheet = replay(setup(rules, start=[0, 500, 0]), [forfeit(1, 120)])
    assert scores(sheet) == expected
    assert "forfeit" in events(sheet, 1, 1)


@pytest.mark.parametrize(
    ("seats", "hands", "expected"),
    [
        # Two seats: seat 0 bombs twice: first free, second +60 to seat 1.
        (2, [forfeit(0, 100)] * 2, [0, 60]),
        # Three seats: seat 1 bombs twice -> +60 to seats 0 and 2; then seat 0's FIRST bomb is free.
        (3, [forfeit(1, 100)] * 2 + [forfeit(0, 100)], [60, 0, 60]),
        # Three seats: a third bomb pays again: +120 each.
        (3, [forfeit(1, 100)] * 3, [120, 0, 120]),
        # Four seats: dealer 0 then 1 sit out; seat 2 bombs twice: second pays +40 to each of
        # seats 0, 1 (sitting out) and 3.
        (4, [forfeit(2, 100)] * 2, [40, 40, 0, 40]),
    ],
)
def test_ggtables_bomb_first_free_then_pays_every_other_seat(
    seats: int, hands: list[HandRecord], expected: list[int]
) -> None:
    sheet = replay(setup("ggtables", seats=seats), hands)
    assert scores(sheet) == expected


@pytest.mark.parametrize("option", ["gold_set", "blind_bids", "sitter_bonus"])
@pytest.mark.parametrize("rules", ["ggtables", "tyzicha"])
def test_ggtables_and_tyzicha_have_no_table_options(rules: str, option: str) -> None:
    seats = 4 if rules == "ggtables" else 3
    with pytest.raises(Refused) as err:
        check_setup(setup(rules, seats=seats, **{option: True}))
    assert err.value.field == "options"
    assert err.value.message.endswith(".")
