"""Checking how a match starts (RULES.md §6, §7)."""

from __future__ import annotations

import unicodedata

from .errors import Refused
from .model import Setup
from .rulesets import RULESETS

MAX_NAME = 40
LOWEST_START = -10_000
"""RULES.md §6 bounds start scores only from above; a floor stops a typo such as -80000."""
JOINERS = "\u200c\u200d"
"""Zero-width (non-)joiners: invisible, but part of how some scripts and emoji are written."""


def check_setup(setup: Setup) -> None:
    """Raise `Refused` naming the field if the rules do not allow this set-up."""
    rs = RULESETS.get(setup.rules)
    if rs is None:
        raise Refused("rules", f"“{setup.rules}” is not a ruleset we know: choose one of "
                               f"{', '.join(RULESETS)}.")
    n = len(setup.players)
    if n not in rs.seats:
        counts = " or ".join(str(k) for k in rs.seats)
        raise Refused("players", f"{rs.name} is played by {counts} players, not {n}.")
    seen: set[str] = set()
    for name in setup.players:
        check_name(name)
        key = name.casefold()
        if key in seen:
            raise Refused("players", f"Two players are called “{name}”: give each a different name.")
        seen.add(key)
    opts = setup.options
    if opts.target not in rs.targets:
        allowed = " or ".join(str(t) for t in rs.targets)
        raise Refused("options", f"{rs.name} plays to {allowed}, not {opts.target}.")
    if not rs.table_options:
        for flag, label in ((opts.gold_set, "a gold set"), (opts.blind_bids, "blind bids"),
                            (opts.sitter_bonus, "a sitter-out bonus")):
            if flag:
                raise Refused("options", f"{rs.name} has no {label}.")
    if opts.sitter_bonus and n != 4:
        raise Refused("options", "The sitter-out bonus needs four at the table.")
    if opts.sheet not in ("deferred", "signed"):
        raise Refused("options", "The sheet style is “deferred” or “signed”.")
    if not 0 <= setup.first_dealer < n:
        raise Refused("first_dealer", f"The first dealer must be one of the {n} players.")
    if len(setup.start_scores) != n:
        raise Refused("start_scores", f"Give a start score for each of the {n} players.")
    barrel_at = rs.barrel_at(opts.target)
    for name, score in zip(setup.players, setup.start_scores, strict=True):
        if not LOWEST_START <= score < opts.target:
            raise Refused("start_scores", f"{name}'s start score must be from {LOWEST_START} "
                                          f"to {opts.target - 1}; {score} is not.")
        if barrel_at is not None and barrel_at <= score:
            raise Refused("start_scores", f"{name}'s start score {score} is on the barrel "
                                          f"({barrel_at}..{opts.target - 1}): start below "
                                          f"{barrel_at}, as the sheet never shows those scores.")


def check_name(name: str) -> None:
    """A player name: 1–40 characters in any script, no control characters."""
    if not name.strip():
        raise Refused("players", "Every player needs a name.")
    if len(name) > MAX_NAME:
        raise Refused("players", f"“{name[:20]}…” is too long: names have at most {MAX_NAME} characters.")
    if name != name.strip():
        raise Refused("players", f"“{name.strip()}” has spaces around it; leave them out.")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") and c not in JOINERS
           for c in name):
        raise Refused("players", "Names cannot hold control or invisible characters.")
