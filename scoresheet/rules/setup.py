"""Checking how a match starts (RULES.md §6, §7)."""

from __future__ import annotations

import unicodedata

from .errors import Refused
from .records import Setup
from .rulesets import RULESETS
from .tichu import SEATS, TARGETS, TICHU, team_names

MAX_NAME = 40
LOWEST_START = -10_000
"""RULES.md §6 bounds start scores only from above; a floor stops a typo such as -80000."""
JOINERS = "\u200c\u200d"
"""Zero-width (non-)joiners: invisible, but part of how some scripts and emoji are written."""


def check_setup(setup: Setup) -> None:
    """Raise `Refused` naming the field if the rules do not allow this set-up."""
    if setup.rules == TICHU:
        _check_tichu(setup)
        return
    rs = RULESETS.get(setup.rules)
    if rs is None:
        raise Refused("rules", f"“{setup.rules}” is not a ruleset we know: choose one of "
                               f"{', '.join([*RULESETS, TICHU])}.")
    n = len(setup.players)
    if n not in rs.seats:
        counts = " or ".join(str(k) for k in rs.seats)
        raise Refused("players", f"{rs.name} is played by {counts} players, not {n}.")
    _check_names(setup.players)
    opts = setup.options
    _check_target(rs.name, opts.target, rs.targets)
    if not rs.table_options:
        for flag, label in ((opts.gold_set, "a gold set"), (opts.blind_bids, "blind bids"),
                            (opts.sitter_bonus, "a sitter-out bonus")):
            if flag:
                raise Refused("options", f"{rs.name} has no {label}.")
    if opts.great_grand_tichu:
        raise Refused("options", f"Great Grand Tichu is a Tichu call; {rs.name} has none.")
    if opts.sitter_bonus and n != 4:
        raise Refused("options", "The sitter-out bonus needs four at the table.")
    _check_start(setup, setup.players, rs.barrel_at(opts.target))


def _check_tichu(setup: Setup) -> None:
    """RULES.md §10: four players, a Tichu target, no Tysiacha options, a start score per team."""
    n = len(setup.players)
    if n != SEATS:
        raise Refused("players", f"Tichu is played by {SEATS} players, in two teams, not {n}.")
    _check_names(setup.players)
    opts = setup.options
    _check_target("Tichu", opts.target, TARGETS)
    for flag, label in ((opts.gold_set, "gold set"), (opts.blind_bids, "blind bids"),
                        (opts.sitter_bonus, "sitter-out bonus")):
        if flag:
            raise Refused("options", f"Tichu has no {label}: that is a Tysiacha option.")
    _check_start(setup, team_names(setup.players), None)


def _check_names(players: tuple[str, ...]) -> None:
    seen: set[str] = set()
    for name in players:
        _check_name(name)
        key = name.casefold()
        if key in seen:
            raise Refused("players", f"Two players are called “{name}”: give each a different name.")
        seen.add(key)


def _check_target(game: str, target: int, targets: tuple[int, ...]) -> None:
    if target not in targets:
        allowed = " or ".join(str(t) for t in targets)
        raise Refused("options", f"{game} plays to {allowed}, not {target}.")


def _check_start(setup: Setup, names: tuple[str, ...], barrel_at: int | None) -> None:
    """The sheet style, the first dealer, and a start score per name (player or team)."""
    opts, n = setup.options, len(setup.players)
    if opts.sheet_style not in ("deferred", "signed"):
        raise Refused("options", "The sheet style is “deferred” or “signed”.")
    if not 0 <= setup.first_dealer < n:
        raise Refused("first_dealer", f"The first dealer must be one of the {n} players.")
    if len(setup.start_scores) != len(names):
        whom = "players" if len(names) == n else "teams"
        raise Refused("start_scores", f"Give a start score for each of the {len(names)} {whom}.")
    for name, score in zip(names, setup.start_scores, strict=True):
        if not LOWEST_START <= score < opts.target:
            raise Refused("start_scores", f"{name}'s start score must be from {LOWEST_START} "
                                          f"to {opts.target - 1}; {score} is not.")
        if barrel_at is not None and barrel_at <= score:
            raise Refused("start_scores", f"{name}'s start score {score} is on the barrel "
                                          f"({barrel_at}..{opts.target - 1}): start below "
                                          f"{barrel_at}, as the sheet never shows those scores.")


def _check_name(name: str) -> None:
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
