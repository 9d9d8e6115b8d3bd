"""The game's vocabulary, every name a player reads for a code of the engine or the app: the
rulesets, the calls and forfeits, the suits, a hand's kinds, the games, a match's states, what
checking in says by a roster mark, and a seat's events. Pages, the history, refusals and
exports all take their words from here."""

from __future__ import annotations

from typing import Any

from ..rules.events import Event
from . import _l

RULESET_LABELS = {
    "squarescores": _l("SquareScores: barrel, zeros, Rospisat'"),
    "polish": _l("Polish: lock at 900"),
    "classic": _l("Classic: barrel won by a bid of 120"),
    "ggtables": _l("GGTables: 2–4 players, bombs"),
    "tyzicha": _l("Tyzicha: 3 players, to 1001"),
    "tichu": _l("Tichu: 4 players in two teams"),
}
RULESET_NAMES = {
    "squarescores": _l("SquareScores"),
    "polish": _l("Polish"),
    "classic": _l("Classic"),
    "ggtables": _l("GGTables"),
    "tyzicha": _l("Tyzicha"),
    "tichu": _l("Tichu"),
}
"""A ruleset's short name, for lists and the rules select (RULESET_LABELS beside it say more:
a whole label does not fit a 360 px select)."""
# TRANSLATORS: the declarer gives the hand up unplayed; see docs/glossary.md
FORFEIT_WORDS = {"squarescores": _l("Rospisat'"), "ggtables": _l("Bomb"), "tyzicha": _l("Concede")}
CALL_NAMES = {"tichu": _l("Tichu"), "grand": _l("Grand Tichu"), "great_grand": _l("Great Grand Tichu")}
"""A Tichu call as players name it (docs/glossary.md)."""
CALL_LABELS = {"tichu": _l("Tichu"), "grand": _l("Grand"), "great_grand": _l("Great Grand")}
"""A Tichu call as the round form's toggle says it."""
MARRIAGE_LABELS = {
    "hearts": _l("%(name)s: hearts marriage"),
    "diamonds": _l("%(name)s: diamonds marriage"),
    "clubs": _l("%(name)s: clubs marriage"),
    "spades": _l("%(name)s: spades marriage"),
    "aces": _l("%(name)s: ace marriage (all four aces)"),
}
"""A marriage toggle's label for screen readers, one sentence per suit (for the translators)."""

# TRANSLATORS: what a hand was, in the history: "kind played → forfeit"
KIND_WORDS = {"played": _l("played"), "forfeit": _l("forfeit"), "redeal": _l("redeal")}
SUIT_WORDS = {"hearts": _l("hearts"), "diamonds": _l("diamonds"), "clubs": _l("clubs"), "spades": _l("spades")}
GAME_WORDS = {"tysiacha": _l("Tysiacha"), "tichu": _l("Tichu")}
"""A game as the leaderboard and the player page name it."""
CHECKED_IN = {
    "present": _l("You are checked in. Your table shows here when the round is seated."),
    "absent": _l("You are on the list, marked absent for the next round: ask the director to mark you back in."),
    "dropped": _l("You are on the list, dropped from this night: ask the director to bring you back."),
}
"""What checking in to a club night says, by the player's mark on the roster (checking in
again changes no mark the director gave: CLUB.md §1)."""

SHEET_COLUMNS = {
    "hand": _l("Hand"),
    "dealer": _l("Dealer"),
    "declarer": _l("Declarer"),
    "bid": _l("Bid"),
    # TRANSLATORS: a column of the downloaded sheet: made, missed, given up, redealt
    "outcome": _l("Outcome"),
    "first_out": _l("First out"),
    "calls": _l("Calls"),
    # TRANSLATORS: a column of the downloaded sheet: what the house rules did (dump, knocked off)
    "events": _l("House rules"),
}
"""The downloaded workbook's fixed columns (the CSV's header keys) in the reader's language."""
OUTCOME_WORDS = {
    # TRANSLATORS: a hand's outcome in the downloaded sheet: the declarer made the bid
    "made": _l("made"),
    # TRANSLATORS: a hand's outcome in the downloaded sheet: the declarer missed the bid
    "missed": _l("missed"),
    "redeal": _l("redeal"),
}
"""A hand's outcome in the downloaded workbook."""

WORDS: dict[str, dict[str, Any]] = {
    "status": {
        # TRANSLATORS: a match's state in lists; below: a seat's events in the sheet, chart lines
        "in_progress": _l("in progress"),
        "finished": _l("finished: bank it"),
        "banked": _l("banked"),
        "ended": _l("ended"),
    },
    "events": {
        Event.ZERO: _l("zero"),
        Event.ZERO_PENALTY: _l("zero penalty"),
        Event.DUMP: _l("dump: back to 0"),
        Event.KNOCKED_OFF: _l("knocked off the barrel"),
        Event.BARREL_RESET: _l("third fall: back to 0"),
        Event.BARREL_CLASH: _l("clash: off the barrel"),
        Event.FORFEIT_PENALTY: _l("−120"),
        Event.BARREL_ON: _l("on the barrel"),
        Event.BARREL_IGNORED: _l("barrel: not counted"),
        Event.BARREL_FALL: _l("fell off the barrel"),
        Event.BARREL_OFF: _l("off the barrel"),
        Event.LOCKED: _l("locked"),
        Event.UNLOCKED: _l("unlocked"),
        Event.CAPPED: _l("capped"),
        Event.WIN: _l("wins"),
        Event.TICHU_MADE: _l("Tichu made"),
        Event.TICHU_FAILED: _l("Tichu failed"),
        Event.GRAND_MADE: _l("Grand made"),
        Event.GRAND_FAILED: _l("Grand failed"),
        Event.GREAT_GRAND_MADE: _l("Great Grand made"),
        Event.GREAT_GRAND_FAILED: _l("Great Grand failed"),
        Event.DOUBLE_VICTORY: _l("double victory"),
    },
    "guides": {"target": _l("target"), "barrel": _l("barrel"), "lock": _l("lock")},
    "marks": {
        # TRANSLATORS: markers on the score race chart and their key; → reads "goes to"
        Event.DUMP: _l("dump → 0"),
        Event.KNOCKED_OFF: _l("knocked off the barrel"),
        Event.BARREL_FALL: _l("fell off the barrel"),
        Event.BARREL_RESET: _l("third fall → 0"),
    },
}
RECORD_COLUMNS = {
    "banked_at": _l("Banked on (UTC)"),
    "match": _l("Match"),
    "rules": _l("Rules"),
    "players": _l("Players"),
    "place": _l("Place"),
    "score": _l("Score"),
    "won": _l("Won"),
    "played": _l("Matches played"),
    "banked": _l("Banked"),
    "win_rate": _l("Win rate"),
    "average_place": _l("Average place"),
    "declared": _l("Hands declared"),
    "made": _l("Contracts made"),
    "bid_made_sum": _l("Bids made, added up"),
    "bid_made_max": _l("Highest bid made"),
    "barrel_on": _l("On the barrel"),
    "barrel_won": _l("Won from the barrel"),
    "barrel_fell": _l("Fell off the barrel"),
    "zeros": _l("Zeros"),
    "forfeits": _l("Hands given up"),
    "tichu_called": _l("Tichu called"),
    "tichu_made": _l("Tichu made"),
    "grand_called": _l("Grand Tichu called"),
    "grand_made": _l("Grand Tichu made"),
    "great_grand_called": _l("Great Grand Tichu called"),
    "great_grand_made": _l("Great Grand Tichu made"),
    "double_victories": _l("Double victories"),
}
"""A player's exported record (my matches, my statistics): the CSV's header keys, and the
workbook's headers in the reader's language."""
