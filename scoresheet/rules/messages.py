"""Every sentence the engine turns an input away with, one per kind of refusal.

`refuse` and `malformed` build the errors from this table and keep the kind (`code`) and the
values filled in (`params`) on them, so that a translation can be looked up by code and filled
with the same values. A new refusal is a new line here, never a sentence written at the raise.
"""

from __future__ import annotations

from .errors import Malformed, Refused

MESSAGES: dict[str, str] = {
    # The shape of the input (Malformed).
    "unknown_key": "“{key}” is not something we know: leave it out or check its spelling.",
    "unknown_option": "“{key}” is not an option we know: leave it out or check its spelling.",
    "number_too_large": "That number is far too large.",
    "not_yes_no": "“{key}” is yes or no: true or false.",
    "players_not_list": "Players are a list of names.",
    "rules_not_name": "The ruleset is a name, such as “squarescores”.",
    "options_not_object": "Options are an object of names and values.",
    "target_not_number": "The target is a whole number.",
    "first_dealer_not_number": "The first dealer is a seat number.",
    "start_scores_not_list": "Start scores are a list of whole numbers.",
    "start_score_not_number": "Start scores are whole numbers.",
    "kind_not_word": "The kind is “played”, “forfeit” or “redeal”.",
    "points_not_list": "Card points are a list with one number (or null) per player.",
    "points_not_number": "Card points are whole numbers.",
    "marriages_not_list": "Marriages are a list with one list of suits per player.",
    "declarer_not_number": "The declarer is a seat number.",
    "bid_not_number": "The bid is a whole number.",
    "sitter_points_not_number": "The sitter-out's points are a whole number.",
    "tichu_round_has_no_kind": "A Tichu round has no kind: send the calls, who went out first, "
                               "and the card points.",
    "calls_not_list": "Calls are a list with one word (or null) per player.",
    "card_points_not_list": "Card points are a list of two numbers, one per team.",
    "first_out_not_number": "Who went out first is a seat number.",
    "not_a_tysiacha_hand": "A Tysiacha hand has a kind, a declarer and a bid, not calls.",
    "not_a_tichu_round": "A Tichu round has calls, who went out first and card points, "
                         "not a kind.",
    # How a match starts (RULES.md §6, §7, §10).
    "unknown_ruleset": "“{rules}” is not a ruleset we know: choose one of {known}.",
    "player_count": "{game} is played by {counts} players, not {n}.",
    "tichu_player_count": "Tichu is played by {seats} players, in two teams, not {n}.",
    "no_gold_set": "{game} has no gold set.",
    "no_blind_bids": "{game} has no blind bids.",
    "no_sitter_bonus": "{game} has no sitter-out bonus.",
    "tichu_no_gold_set": "Tichu has no gold set: that is a Tysiacha option.",
    "tichu_no_blind_bids": "Tichu has no blind bids: that is a Tysiacha option.",
    "tichu_no_sitter_bonus": "Tichu has no sitter-out bonus: that is a Tysiacha option.",
    "no_great_grand_tichu": "Great Grand Tichu is a Tichu call; {game} has none.",
    "sitter_bonus_needs_four": "The sitter-out bonus needs four at the table.",
    "target": "{game} plays to {allowed}, not {target}.",
    "sheet_style": "The sheet style is “deferred” or “signed”.",
    "first_dealer": "The first dealer must be one of the {n} players.",
    "start_score_per_player": "Give a start score for each of the {n} players.",
    "start_score_per_team": "Give a start score for each of the {n} teams.",
    "start_score_range": "{name}'s start score must be from {lowest} to {highest}; {score} is not.",
    "start_score_on_barrel": "{name}'s start score {score} is on the barrel ({barrel}..{highest}): "
                             "start below {barrel}, as the sheet never shows those scores.",
    "name_missing": "Every player needs a name.",
    "name_twice": "Two players are called “{name}”: give each a different name.",
    "name_too_long": "“{start}…” is too long: names have at most {most} characters.",
    "name_spaces": "“{name}” has spaces around it; leave them out.",
    "name_invisible": "Names cannot hold control or invisible characters.",
    # A Tysiacha hand (RULES.md §2, §4, §6, §7).
    "match_over": "The match is over: {winner} has won. No more hands.",
    "kind": "Say what happened: the hand was played, forfeited or redealt.",
    "no_blind": "This table does not play blind bids.",
    "no_forced": "Forced contracts are a Tyzicha rule; this table does not use them.",
    "no_sitter_points": "This table gives the sitter-out no points.",
    "sitter_points": "The sitter-out's points are a multiple of {step} from 0 to {most}.",
    "redeal_declarer": "A redeal has no declarer.",
    "redeal_bid": "A redeal has no bid.",
    "redeal_points": "A redeal has no card points.",
    "redeal_marriages": "A redeal has no marriages.",
    "redeal_made": "A redeal is neither made nor missed.",
    "redeal_contract": "A redeal has no contract.",
    "redeal_sitter_points": "A redeal gives nobody points.",
    "declarer_missing": "Say who declared (won the auction).",
    "declarer_no_seat": "There is no seat {seat} at this table.",
    "declarer_sits_out": "{name} deals and sits out this hand, so cannot declare.",
    "bid_missing": "Enter the bid.",
    "bid_too_low": "The lowest bid is {lowest}; {bid} is too low.",
    "bid_too_low_gold": "The lowest bid in a gold set is {lowest}; {bid} is too low.",
    "bid_too_high": "The highest bid is {highest}; {bid} is too high.",
    "bid_step": "Bids go in steps of {step}; {bid} is not one.",
    "forfeit_points": "A forfeited hand is not played: leave the card points out.",
    "forfeit_marriages": "A forfeited hand is not played: leave the marriages out.",
    "forfeit_made": "A forfeited hand is not made: the declarer gave it up.",
    "forfeit_on_barrel": "{name} is on the barrel: Rospisat' is not allowed there.",
    "points_missing": "Enter the card points the defenders took.",
    "points_per_player": "Give card points for each of the {n} players.",
    "points_sitter": "{name} sits out this hand and takes no card points.",
    "points_seat_missing": "Enter the card points {name} took.",
    "points_range": "Card points are whole numbers from 0 to {pack}; {name} has {points}.",
    "points_defenders_sum": "The defenders' card points add up to {total}; the pack holds {pack}.",
    "points_sum": "Card points add up to {total}; the pack holds {pack}.",
    "marriages_per_player": "Give the marriages of each of the {n} players.",
    "marriage_sitter": "{name} sits out this hand and cannot declare a marriage.",
    "marriage_suit": "“{suit}” is not a suit: use hearts, diamonds, clubs or spades.",
    "marriage_twice": "The {suit} marriage is declared twice; each suit can be declared once "
                      "a hand.",
    "said_made_but_missed": "{name} took {took} against a bid of {bid}: the contract was "
                            "missed, not made.",
    "said_missed_but_made": "{name} took {took} against a bid of {bid}: the contract was "
                            "made, not missed.",
    # A Tichu round (RULES.md §10).
    "calls_per_player": "Give one call per player ({seats}): none, {allowed}.",
    "call_not_played": "This table does not play {call}: {name} can call {allowed}.",
    "call_unknown": "“{call}” is not a call: {name} can call {allowed}, or nothing.",
    "first_out_no_seat": "Who went out first must be one of the four players.",
    "first_out_after_call": "{name} called {call}: say who went out first.",
    "first_out_double_victory": "Say who went out first: that player and the partner made the "
                                "double victory.",
    "card_points_double_victory": "On a double victory no card points are counted: leave them "
                                  "out.",
    "card_points_missing": "Enter the card points of both teams (they add up to 100), or mark "
                           "a double victory.",
    "card_points_per_team": "Card points are two numbers: team 0's and team 1's.",
    "card_points_range": "Card points are from {lowest} to {highest}; {name} have {points}.",
    "card_points_step": "Card points go in fives; {name} have {points}.",
    "card_points_sum": "The two teams' card points add up to {total}; these add up to {sum}.",
}
"""Kind of refusal → its English sentence, with `{name}`-style places for the values."""


def refuse(field: str | None, code: str, **params: object) -> Refused:
    """The rules' refusal of kind `code`, its sentence filled in with `params`."""
    return Refused(field, MESSAGES[code].format(**params), code=code, params=params)


def malformed(field: str | None, code: str, **params: object) -> Malformed:
    """An input of the wrong shape, of kind `code`, its sentence filled in with `params`."""
    return Malformed(field, MESSAGES[code].format(**params), code=code, params=params)
