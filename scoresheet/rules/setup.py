"""Checking how a match starts (RULES.md §6, §7)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from .house import check_house_rules
from .messages import OneOf, refuse
from .records import Setup
from .rulesets import RULESETS
from .tichu import SEATS, TARGETS, TICHU, team_names

_MAX_NAME = 40
_LOWEST_START = -10_000
"""RULES.md §6 bounds start scores only from above; a floor stops a typo such as -80000."""
_JOINERS = "\u200c\u200d"
"""Zero-width (non-)joiners: invisible, but part of how some scripts and emoji are written."""
INVISIBLE = frozenset(
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u200b\u200c\u200d\u200e\u200f"
    "\u2028\u2029\u2060\u2061\u2062\u2063\u2064\u2800\u3164\ufeff\uffa0"
) | frozenset(map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))
"""Characters that show nothing (fillers, blanks, zero-width marks, variation selectors): a
name needs at least one character that is neither one of these nor a space. Letters such as
the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the blank braille pattern (U+2800)
pass every category check; a variation selector (U+FE00–U+FE0F, U+E0100–U+E01EF, the
Mongolian U+180B–U+180D, U+180F) only picks a look of the character before it ("Anna\ufe0f"
reads "Anna")."""
_LINE_BREAKS = ("Zl", "Zp")


def check_setup(setup: Setup) -> None:
    """Raise `Refused` naming the field if the rules do not allow this set-up."""
    if setup.rules == TICHU:
        _check_tichu(setup)
        return
    rs = RULESETS.get(setup.rules)
    if rs is None:
        raise refuse("rules", "unknown_ruleset", rules=setup.rules, known=", ".join([*RULESETS, TICHU]))
    n = len(setup.players)
    counts = OneOf(rs.seats)
    if n == 0:
        raise refuse("players", "no_players", game=rs.name, counts=counts)
    if n not in rs.seats:
        raise refuse("players", "player_count", game=rs.name, counts=counts, n=n)
    _check_names(setup.players)
    opts = setup.options
    _check_target(rs.name, opts.target, rs.targets)
    if not rs.table_options:
        for flag, code in (
            (opts.gold_set, "no_gold_set"),
            (opts.blind_bids, "no_blind_bids"),
            (opts.sitter_bonus, "no_sitter_bonus"),
        ):
            if flag:
                raise refuse("options", code, game=rs.name)
    if opts.great_grand_tichu:
        raise refuse("options", "no_great_grand_tichu", game=rs.name)
    if opts.sitter_bonus and n != 4:
        raise refuse("options", "sitter_bonus_needs_four")
    check_house_rules(setup, rs.name)  # first: the barrel's place below needs a gap it allows
    _check_start(setup, setup.players, rs.barrel_at(opts.target, opts.barrel_gap))  # §11.11: outside B..T−1


def _check_tichu(setup: Setup) -> None:
    """RULES.md §10: four players, a Tichu target, no Tysiacha options, a start score per team."""
    n = len(setup.players)
    if n == 0:
        raise refuse("players", "no_players", game="Tichu", counts=SEATS)
    if n != SEATS:
        raise refuse("players", "tichu_player_count", seats=SEATS, n=n)
    _check_names(setup.players)
    opts = setup.options
    _check_target("Tichu", opts.target, TARGETS)
    for flag, code in (
        (opts.gold_set, "tichu_no_gold_set"),
        (opts.blind_bids, "tichu_no_blind_bids"),
        (opts.sitter_bonus, "tichu_no_sitter_bonus"),
    ):
        if flag:
            raise refuse("options", code)
    check_house_rules(setup, "Tichu")
    _check_start(setup, team_names(setup.players), None)


def _check_names(players: tuple[str, ...]) -> None:
    """Every name good, and no two alike (ignoring case)."""
    for name in players:
        check_name(name)
    _no_two_alike(players, _name_key)


def _check_target(game: str, target: int, targets: tuple[int, ...]) -> None:
    """The target is one the game plays to."""
    if target not in targets:
        raise refuse("options", "target", game=game, allowed=OneOf(targets), target=target)


def _check_start(setup: Setup, names: tuple[str, ...], barrel_at: int | None) -> None:
    """The sheet style, the first dealer, and a start score per name (player or team)."""
    opts, n = setup.options, len(setup.players)
    if opts.sheet_style not in ("deferred", "signed"):
        raise refuse("options", "sheet_style")
    if not 0 <= setup.first_dealer < n:
        raise refuse("first_dealer", "first_dealer", n=n)
    if len(setup.start_scores) != len(names):
        code = "start_score_per_player" if len(names) == n else "start_score_per_team"
        raise refuse("start_scores", code, n=len(names))
    for name, score in zip(names, setup.start_scores, strict=True):
        if not _LOWEST_START <= score < opts.target:
            raise refuse(
                "start_scores",
                "start_score_range",
                name=name,
                lowest=_LOWEST_START,
                highest=opts.target - 1,
                score=score,
            )
        if barrel_at is not None and barrel_at <= score:
            raise refuse(
                "start_scores",
                "start_score_on_barrel",
                name=name,
                score=score,
                barrel=barrel_at,
                highest=opts.target - 1,
            )


def _name_key(name: str) -> str:
    """What two names are compared by: Unicode's canonical caseless match (NFD, case folded,
    NFD again), so "é" and "e" + U+0301, or "STRASSE" and "straße", are the same name."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).casefold())


def visible(name: str) -> bool:
    """Some character of `name` shows: not a space, a filler or a zero-width mark (`INVISIBLE`)."""
    return any(not c.isspace() and c not in INVISIBLE for c in name)


def check_new_names(players: Sequence[str], key: Callable[[str], str] | None = None) -> None:
    """What only a stored match may keep of its names (its replay checks `check_names`): two
    that differ by invisible characters alone, fillers, zero-width marks or variation selectors
    ("Anna⠀" beside Anna, "An͏na"), which read alike on the sheet and in the CSV (Refused on
    `players`). `key`: another way two names are alike, checked instead (the service layer's
    names as they look, `storage.models.look_alike_key`)."""
    _no_two_alike(players, key or new_name_key)


def _no_two_alike(players: Sequence[str], key: Callable[[str], str]) -> None:
    """Refused (`name_twice`) on the second of two names with the same `key`."""
    seen: set[str] = set()
    for name in players:
        folded = key(name)
        if folded in seen:
            raise refuse("players", "name_twice", name=name)
        seen.add(folded)


def new_name_key(name: str) -> str:
    """What a new name is compared by: `_name_key` of it without its invisible characters."""
    return _name_key("".join(c for c in name if c not in INVISIBLE))


def check_name(name: str) -> None:
    """A player name: 1–40 characters in any script, at least one of them visible, no spaces
    around it, no control characters (Refused on `players`)."""
    if not visible(name):
        raise refuse("players", "name_missing")
    if len(name) > _MAX_NAME:
        raise refuse("players", "name_too_long", start=name[:20], most=_MAX_NAME)
    if name != name.strip():
        raise refuse("players", "name_spaces", name=name.strip())
    if any(
        unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", *_LINE_BREAKS) and c not in _JOINERS for c in name
    ):
        raise refuse("players", "name_invisible")
