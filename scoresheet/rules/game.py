"""The small interface a card game implements for the shared sheet to replay (RULES.md §8, §10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .events import Event
from .records import NextDeal, Record, Standing


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """Who does what in the hand about to be scored (its number is the sheet's to count)."""

    dealer: int
    sitting_out: int | None = None
    gold: bool = False
    min_bid: int = 0
    """Lowest bid allowed (0 where nobody bids: Tichu)."""
    order: tuple[int, ...]
    """Every seat in bidding order, dealer's left first (the tie order of RULES.md §5)."""


@dataclass(slots=True)
class Scored:
    """What a game says one hand did, before the shared sheet books it.

    Not keyword-only: Tysiacha builds one a hand, positionally (keywords cost a replay 4%);
    everywhere else it is built by keyword, the fields a hand does not have left out.
    """

    scores: tuple[int, ...]
    """True score of every seat (Tichu: every team) after the hand."""
    events: tuple[tuple[Event, ...], ...]
    """Event words per seat (Tichu: per team)."""
    barrel: tuple[bool, ...]
    """On the barrel after the hand, per seat (all False where a game has no barrel)."""
    declarer: int | None = None
    """Wins ties on equal scores (RULES.md §5)."""
    points: tuple[int | None, ...] | None = None
    """Card points per seat, the declarer's filled in; None unless played."""
    took: tuple[int | None, ...] | None = None
    """Card points plus marriages per seat; None unless played."""
    made: bool | None = None
    """Whether the contract was made; None unless played."""
    multiplier: int = 1
    """Gold and blind factor applied to the hand's points."""


class Game(Protocol):
    """Game-specific rules; the sheet, owed points, target and winner are shared."""

    target: int
    names: tuple[str, ...]
    """Who the sheet keeps scores for: the players (Tysiacha) or the teams (Tichu)."""
    over: str
    """The refusal's code (`messages.MESSAGES`) of a hand after the match is won."""

    def deal(self) -> Deal:
        """The hand that comes next."""
        ...

    def check(self, record: Record) -> None:
        """Raise `Refused` naming the field if the rules do not allow this as the next hand.

        Changes nothing (python-chess's `is_legal()`).
        """
        ...

    def play(self, record: Record) -> Scored:
        """Score a hand that `check` allowed and move on (python-chess's `push()`).

        Does not check: a hand `check` refuses gives a meaningless result or an error.
        """
        ...

    def winner(self, scores: Sequence[int], deal: Deal, scored: Scored) -> int | None:
        """Who won with the hand just played (`scores` after it), if anyone (RULES.md §5, §10).

        Asked only when a score reached the target.
        """
        ...

    def standings(self, names: tuple[str, ...], totals: list[int], owed: list[int]) -> tuple[Standing, ...]:
        """Where every seat stands now."""
        ...

    def next_deal(self) -> NextDeal:
        """The banner for the next hand."""
        ...

    def copy(self) -> Game:
        """An independent copy of the game's state, to try a hand on."""
        ...
