"""Every sentence the engine turns an input away with, one per kind of refusal.

`refuse` and `malformed` build the errors from this table and keep the kind (`code`) and the
values filled in (`params`) on them, so that a translation can be looked up by code and filled
with the same values. A new refusal is a new line here, never a sentence written at the raise.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Malformed, Refused


def N_(message: str) -> str:
    """Mark a sentence for the catalogs (`pybabel extract -k N_`); it stays as it is."""
    return message


@dataclass(frozen=True)
class OneOf:
    """A parameter naming the values of which one is wanted ("1000 or 2000"): English joins
    them with "or"; the web layer joins them in the reader's language."""

    items: tuple[object, ...]
    """The values, in the order they are offered."""

    def __str__(self) -> str:
        words = [str(item) for item in self.items]
        return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)


@dataclass(frozen=True)
class Coded:
    """A value as the API spells it beside the word a player reads: “grand” (Grand Tichu)."""

    code: str
    """What a request sends."""
    word: str
    """What a player calls it (English; the web layer translates it)."""

    def __str__(self) -> str:
        return f"“{self.code}” ({self.word})"


MESSAGES: dict[str, str] = {
    # The shape of the input (Malformed).
    "unknown_key": N_("“{key}” is not something we know: leave it out or check its spelling."),
    "unknown_option": N_("“{key}” is not an option we know: leave it out or check its spelling."),
    "number_too_large": N_("That number is far too large."),
    "not_yes_no": N_("“{key}” is yes or no: true or false."),
    "players_not_list": N_("Players are a list of names."),
    "rules_not_name": N_("The ruleset is a name, such as “squarescores”."),
    "options_not_object": N_("Options are an object of names and values."),
    "target_not_number": N_("The target is a whole number."),
    "option_not_word": N_("“{key}” is a word: {allowed}."),
    "option_not_number": N_("“{key}” is a whole number."),
    "first_dealer_not_number": N_("The first dealer is a seat number."),
    "start_scores_not_list": N_("Start scores are a list of whole numbers."),
    "start_score_not_number": N_("Start scores are whole numbers."),
    "kind_not_word": N_("The kind is “played”, “forfeit” or “redeal”."),
    "points_not_list": N_("Card points are a list with one number (or null) per player."),
    "points_not_number": N_("Card points are whole numbers."),
    "marriages_not_list": N_("Marriages are a list with one list of suits per player."),
    "declarer_not_number": N_("The declarer is a seat number."),
    "bid_not_number": N_("The bid is a whole number."),
    "sitter_points_not_number": N_("The sitter-out's points are a whole number."),
    "tichu_round_has_no_kind": N_(
        "A Tichu round has no kind: send the calls, who went out first, and the card points."
    ),
    "calls_not_list": N_("Calls are a list with one word (or null) per player."),
    "card_points_not_list": N_("Card points are a list of two numbers, one per team."),
    "first_out_not_number": N_("Who went out first is a seat number."),
    "not_a_tysiacha_hand": N_("A Tysiacha hand has a kind, a declarer and a bid, not calls."),
    "not_a_tichu_round": N_("A Tichu round has calls, who went out first and card points, not a kind."),
    # How a match starts (RULES.md §6, §7, §10).
    "unknown_ruleset": N_("“{rules}” is not a ruleset we know: choose one of {known}."),
    "no_players": N_("Type the players' names: {game} is played by {counts} players."),
    "player_count": N_("{game} is played by {counts} players, not {n}."),
    "tichu_player_count": N_("Tichu is played by {seats} players, in two teams, not {n}."),
    "no_gold_set": N_("{game} has no gold set."),
    "no_blind_bids": N_("{game} has no blind bids."),
    "no_sitter_bonus": N_("{game} has no sitter-out bonus."),
    "tichu_no_gold_set": N_("Tichu has no gold set: that is a Tysiacha option."),
    "tichu_no_blind_bids": N_("Tichu has no blind bids: that is a Tysiacha option."),
    "tichu_no_sitter_bonus": N_("Tichu has no sitter-out bonus: that is a Tysiacha option."),
    "no_great_grand_tichu": N_("Great Grand Tichu is a Tichu call; {game} has none."),
    "option_word": N_("{option} is one of {allowed}; “{value}” is not."),
    "no_house_rules": N_("{game} has no house rules: {option} must be {value}."),
    "no_barrel": N_("{game} has no barrel: {option} must be {value}."),
    "zero_penalty": N_("The zero penalty is a multiple of 10 from 50 to 200."),
    "zero_penalty_without_zeros": N_("There are no zeros to pay for: set zeros to “total” or “consecutive”."),
    "barrel_hands": N_("{option} is a whole number from 1 to 5."),
    "blind_doubles_needs_blind": N_("“declarer” needs blind bids: switch blind_bids on."),
    "barrel_gap": N_("The barrel sits 120 or 100 below the target ({usual} or {other})."),
    "barrel_zeros_without_zeros": N_("There are no zeros to count: set zeros to “total” or “consecutive”."),
    "dump_at": N_("The dump score is a multiple of 5 from 100 to 875."),
    "dump_at_without_dump": N_("There is no dump to move: set dump_555 to “plus” or “both”."),
    "start_score_dumped": N_("{name}'s start score {score} would be dumped: enter 0."),
    "sitter_bonus_needs_four": N_("The sitter-out bonus needs four at the table."),
    "target": N_("{game} plays to {allowed}, not {target}."),
    "sheet_style": N_("The sheet style is “deferred” or “signed”."),
    "first_dealer": N_("The first dealer must be one of the {n} players."),
    "start_score_per_player": N_("Give a start score for each of the {n} players."),
    "start_score_per_team": N_("Give a start score for each of the {n} teams."),
    "start_score_range": N_("{name}'s start score must be from {lowest} to {highest}; {score} is not."),
    "start_score_on_barrel": N_(
        "{name}'s start score {score} is on the barrel ({barrel}..{highest}): "
        "start below {barrel}, as the sheet never shows those scores."
    ),
    "name_missing": N_("Every player needs a name."),
    "name_twice": N_("Two players are called “{name}”: give each a different name."),
    "name_too_long": N_("“{start}…” is too long: names have at most {most} characters."),
    "name_spaces": N_("“{name}” has spaces around it; leave them out."),
    "name_invisible": N_("Names cannot hold control or invisible characters."),
    # A Tysiacha hand (RULES.md §2, §4, §6, §7).
    "match_over": N_("The match is over: {winner} has won. No more hands."),
    "match_over_team": N_("The match is over: {winner} have won. No more rounds."),
    "kind": N_("Say what happened: the hand was played, forfeited or redealt."),
    "no_blind": N_("This table does not play blind bids."),
    "no_forced": N_("Forced contracts are a Tyzicha rule; this table does not use them."),
    "old_forced_rule": N_(
        "A new match plays tyzicha's forced rule as corrected: only the "
        "dealer's left, at exactly 100. forced_any_seat is kept only for "
        "matches stored before; leave it out."
    ),
    "no_sitter_points": N_("This table gives the sitter-out no points."),
    "sitter_points": N_("The sitter-out's points are a multiple of {step} from 0 to {most}."),
    "redeal_declarer": N_("A redeal has no declarer."),
    "redeal_bid": N_("A redeal has no bid."),
    "redeal_points": N_("A redeal has no card points."),
    "redeal_marriages": N_("A redeal has no marriages."),
    "redeal_made": N_("A redeal is neither made nor missed."),
    "redeal_contract": N_("A redeal has no contract."),
    "redeal_sitter_points": N_("A redeal gives nobody points."),
    "declarer_missing": N_("Say who declared (won the auction)."),
    "declarer_no_seat": N_("There is no seat {seat} at this table."),
    "declarer_sits_out": N_("{name} deals and sits out this hand, so cannot declare."),
    "forced_seat": N_("Only the dealer's left ({left}), the third to bid, can be forced; {name} declared."),
    "forced_bid": N_("A forced contract is exactly 100; enter 110 or more without “forced”."),
    "bid_missing": N_("Enter the bid."),
    "bid_too_low": N_("The lowest bid is {lowest}; {bid} is too low."),
    "bid_too_low_gold": N_("The lowest bid in a gold set is {lowest}; {bid} is too low."),
    "bid_too_high": N_("The highest bid is {highest}; {bid} is too high."),
    "bid_step": N_("Bids go in steps of {step}; {bid} is not one."),
    "forfeit_points": N_("A forfeited hand is not played: leave the card points out."),
    "forfeit_marriages": N_("A forfeited hand is not played: leave the marriages out."),
    "forfeit_made": N_("A forfeited hand is not made: the declarer gave it up."),
    "forfeit_on_barrel": N_("{name} is on the barrel: Rospisat' is not allowed there."),
    "points_missing": N_("Enter the card points the defenders took."),
    "points_per_player": N_("Give card points for each of the {n} players."),
    "points_sitter": N_("{name} sits out this hand and takes no card points."),
    "points_seat_missing": N_("Enter the card points {name} took."),
    "points_range": N_("Card points are whole numbers from 0 to {pack}; {name} has {points}."),
    "points_defenders_sum": N_("The defenders' card points add up to {total}; the pack holds {pack}."),
    "points_sum": N_("Card points add up to {total}; the pack holds {pack}."),
    "marriages_per_player": N_("Give the marriages of each of the {n} players."),
    "marriage_sitter": N_("{name} sits out this hand and cannot declare a marriage."),
    "marriage_suit": N_("“{suit}” is not a suit: use hearts, diamonds, clubs or spades."),
    "marriage_twice": N_("The {suit} marriage is declared twice; each suit can be declared once a hand."),
    "no_ace_marriage": N_("This table does not play the ace marriage: use hearts, diamonds, clubs or spades."),
    "aces_twice": N_("The aces marriage is declared twice; there are only four aces."),
    "said_made_but_missed_rounded": N_(
        "{name} took {took}, {rounded} when rounded, against a bid of {bid}: the contract was missed, not made."
    ),
    "said_missed_but_made_rounded": N_(
        "{name} took {took}, {rounded} when rounded, against a bid of {bid}: the contract was made, not missed."
    ),
    "said_made_but_missed": N_("{name} took {took} against a bid of {bid}: the contract was missed, not made."),
    "said_missed_but_made": N_("{name} took {took} against a bid of {bid}: the contract was made, not missed."),
    # A Tichu round (RULES.md §10).
    "calls_per_player": N_("Give one call per player ({seats}): none, {allowed}."),
    "call_not_played": N_("This table does not play {call}: {name} can call {allowed}."),
    "call_unknown": N_("“{call}” is not a call: {name} can call {allowed}, or nothing."),
    "first_out_no_seat": N_("Who went out first must be one of the four players."),
    "first_out_after_call": N_("{name} called {call}: say who went out first."),
    "first_out_double_victory": N_("Say who went out first: that player and the partner made the double victory."),
    "card_points_double_victory": N_("On a double victory no card points are counted: leave them out."),
    "card_points_missing": N_("Enter the card points of both teams (they add up to 100), or mark a double victory."),
    "card_points_per_team": N_("Card points are two numbers: team 0's and team 1's."),
    "card_points_range": N_("Card points are from {lowest} to {highest}; {name} have {points}."),
    "card_points_step": N_("Card points go in fives; {name} have {points}."),
    "card_points_sum": N_("The two teams' card points add up to {total}; these add up to {sum}."),
}
"""Kind of refusal → its English sentence, with `{name}`-style places for the values."""


def refuse(field: str | None, code: str, **params: object) -> Refused:
    """The rules' refusal of kind `code`, its sentence filled in with `params`."""
    return Refused(field, MESSAGES[code].format(**params), code=code, params=params)


def malformed(field: str | None, code: str, **params: object) -> Malformed:
    """An input of the wrong shape, of kind `code`, its sentence filled in with `params`."""
    return Malformed(field, MESSAGES[code].format(**params), code=code, params=params)
