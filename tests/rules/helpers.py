"""Small builders so each rule test reads like the hand a table would enter (RULES.md §2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoresheet.rules import HandRecord, MatchState, Options, Setup, replay
from scoresheet.rules.records import SheetStyle

REDEAL = HandRecord("redeal")


def setup(
    rules: str = "squarescores",
    seats: int = 3,
    start: Sequence[int] | None = None,
    dealer: int = 0,
    target: int | None = None,
    sheet_style: SheetStyle = "deferred",
    **flags: object,
) -> Setup:
    """A match set-up; `flags` are gold_set, blind_bids, sitter_bonus and the house rules."""
    default_target = 1001 if rules == "tyzicha" else 1000
    return Setup(
        players=tuple("ABCD"[:seats]),
        rules=rules,
        options=Options(target=target or default_target, sheet_style=sheet_style, **flags),  # type: ignore[arg-type]
        first_dealer=dealer,
        start_scores=tuple(start if start is not None else [0] * seats),
    )


def played(
    declarer: int,
    bid: int,
    points: Sequence[int | None],
    marriages: Mapping[int, Sequence[str]] | None = None,
    **kw: object,
) -> HandRecord:
    """A played hand; `marriages` maps a seat to the suits it declared."""
    n = len(points)
    suits = tuple(tuple((marriages or {}).get(i, ())) for i in range(n))
    return HandRecord("played", declarer=declarer, bid=bid, points=tuple(points), marriages=suits, **kw)  # type: ignore[arg-type]


def forfeit(declarer: int, bid: int, **kw: object) -> HandRecord:
    """A hand the declarer called off (Rospisat', concede, bomb)."""
    return HandRecord("forfeit", declarer=declarer, bid=bid, **kw)  # type: ignore[arg-type]


def scores(sheet: MatchState) -> list[int]:
    """True scores after the last hand, in seat order."""
    return [s.score for s in sheet.standings]


def history(s: Setup, hands: Sequence[HandRecord], seat: int) -> list[int]:
    """One seat's true score after each hand."""
    return [h.results[seat].score for h in replay(s, hands).hands]


def events(sheet: MatchState, hand: int, seat: int) -> tuple[str, ...]:
    """Event words of one seat in one (1-based) hand."""
    return sheet.hands[hand - 1].results[seat].events
