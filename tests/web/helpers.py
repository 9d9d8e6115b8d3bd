"""Hand bodies and match set-ups shared by the web tests."""

from __future__ import annotations

from typing import Any


def played(declarer: int, bid: int, points: list[int | None], **kw: Any) -> dict[str, Any]:
    """A played hand's API body; marriages default to none."""
    return {"kind": "played", "declarer": declarer, "bid": bid, "points": points,
            "marriages": kw.pop("marriages", [[] for _ in points]), **kw}


WINNING_START = [870, 0, 0]
"""Start scores from which seat 0 wins with `WINNING_HAND` (870 + 140 ≥ 1000)."""
WINNING_HAND = played(0, 140, [None, 20, 20], marriages=[["hearts"], [], []])
