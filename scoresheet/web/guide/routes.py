"""The rules page: how a ruleset (and a table's own options) scores, in a player's words.

Every number on it comes from the engine's own definitions (`rules.rulesets`, `rules.tichu`),
and every example is a hand replayed through the engine, so the page cannot say one thing while
the sheet does another (RULES.md §3–§8, §10).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_login import current_user, login_required

from ...rules import RULESETS, SUITS, HandRecord, Ruleset, SeatResult, Setup, replay, setup_from_dict
from ...rules.house import HouseRules, defaults, resolved
from ...rules.rulesets import BARREL_BELOW, BARREL_DROP, COUNT_PENALTY, GOLD_MIN_BID, MAX_BID
from ...rules.tichu import CALLS, DOUBLE_VICTORY, TARGETS, TICHU
from ...services.matches import queries
from ...services.matches.replay_cache import setup_of
from ...words.vocabulary import FORFEIT_WORDS, RULESET_LABELS, RULESET_NAMES, SUIT_WORDS
from ..security import ascii_number

bp = Blueprint("guide", __name__)

EXAMPLE_PLAYERS = (
    # TRANSLATORS: who plays the rules page's examples: four first names common in your language
    _l("Anna"),
    _l("Boris"),
    _l("Vera"),
    _l("Gleb"),
)
"""Who plays the examples when no table is given: names of the reader's language (a table's own
rules page has its own players)."""


@dataclass(frozen=True)
class Topic:
    """One part of the page: a heading and its sentences."""

    title: str
    lines: list[str]


@bp.get("/rules")
def rulesets() -> str:
    """Every ruleset the app keeps, each with a link to its page."""
    return render_template("guide/rules_index.html", labels=RULESET_LABELS)


@bp.get("/rules/<name>")
def ruleset(name: str) -> str:
    """How a ruleset scores (`?target=` another target it allows)."""
    if name != TICHU and name not in RULESETS:
        abort(404)
    setup = _example_setup(name, request.args.get("target"))
    return render_template(
        "guide/rules.html", topics=_explain(setup), setup=setup, match=None, name=RULESET_NAMES.get(name, _("Tichu"))
    )


@bp.get("/matches/<match_id>/rules")
@login_required
def table_rules(match_id: str) -> str:
    """How this table's match scores: its ruleset, target and options, its own players."""
    match = queries.get_match(match_id, current_user)
    setup = setup_of(match)
    return render_template(
        "guide/rules.html",
        topics=_explain(setup),
        setup=setup,
        match=match,
        name=RULESET_NAMES.get(setup.rules, _("Tichu")),
    )


def _example_setup(name: str, target: str | None) -> Setup:
    """Three players (Tichu: four) from nothing, with the ruleset's defaults and its default
    target, or another target it takes."""
    targets = TARGETS if name == TICHU else RULESETS[name].targets
    asked = ascii_number(target, max(targets)) if target else None
    players = [str(p) for p in EXAMPLE_PLAYERS[: 4 if name == TICHU else 3]]
    return setup_from_dict(
        {"players": players, "rules": name, "options": {"target": asked if asked in targets else targets[0]}}
    )


def _explain(setup: Setup) -> list[Topic]:
    """The page's topics for this set-up, in the request's language."""
    if setup.rules == TICHU:
        return _tichu(setup)
    rs, target = RULESETS[setup.rules], setup.options.target
    house = resolved(setup.options, setup.rules)
    topics = [_hand(setup, rs), _forfeit(setup, rs), _endgame(setup, rs, house)]
    zeros = _zeros(setup, house, rs)
    if zeros is not None:
        topics.insert(2, zeros)
    topics += [_winning(rs, target), _sheet(setup)]
    options = _table_options(setup, rs, house)
    if options.lines:
        topics.append(options)
    return topics


def _zeros(setup: Setup, house: HouseRules, rs: Ruleset) -> Topic | None:
    """What zeros cost at this table (RULES.md §4, §11.1), if anything."""
    if house.zeros == "off":
        return None
    what = _(
        "A defender who takes no card points at all gets a zero, even with marriages; 2 card points are not a zero."
    )
    run = house.zeros == "consecutive"
    if run:
        cost = _(
            "Three zeros in a row cost %(penalty)d. Card points or declaring start the "
            "count again; sitting out, a redeal or a forfeit leave it as it is.",
            penalty=house.zero_penalty,
        )
    else:
        cost = _("Every third zero costs %(penalty)d.", penalty=house.zero_penalty)
    lines = [what, cost]
    if rs.has_barrel and house.barrel_zeros:  # §11.16
        lines.append(_("A player on the barrel takes zeros too, but pays nothing for them there."))
        # §11.16: Boris climbs on the barrel, then takes no card points there.
        barrel = setup.options.target - house.barrel_gap
        climbs = HandRecord("played", declarer=0, bid=100, points=(None, 80, 0))
        zero = HandRecord("played", declarer=0, bid=100, points=(None, 0, 20))
        sheet = replay(_example(setup, (0, barrel - 80, 0)), [climbs, zero])
        lines.append(
            _(
                "Example: %(name)s, on the barrel, takes no card points as a defender: a zero "
                "(%(zeros)d so far), nothing paid; %(name)s is at %(score)d.",
                name=setup.players[1],
                zeros=sheet.standings[1].zeros,
                score=sheet.standings[1].score,
            )
        )
    elif rs.has_barrel:
        lines.append(
            _("A player on the barrel takes no zero; a hand they play there starts their count again.")
            if run
            else _("A player on the barrel takes no zero.")
        )
    if rs.endgame == "lock":
        lines.append(
            _("A locked player takes no zero; a hand they play locked starts their count again.")
            if run
            else _("A locked player takes no zero.")
        )
    return Topic(_("Zeros"), lines)


def _play(setup: Setup, *records: HandRecord, start: tuple[int, ...] | None = None, seats: int = 3) -> list[SeatResult]:
    """What the last of these hands did to each seat, replayed by the engine on the table's
    ruleset and target (`start`: the scores before the first)."""
    return list(replay(_example(setup, start, seats), records).hands[-1].results)


def _example(setup: Setup, start: tuple[int, ...] | None = None, seats: int = 3) -> Setup:
    """The table's ruleset, target and options (no gold set) for an example's players, the
    first dealing (`start`: their scores before the first hand)."""
    return Setup(
        players=tuple(str(p) for p in EXAMPLE_PLAYERS[:seats]),
        rules=setup.rules,
        options=replace(setup.options, gold_set=False),
        first_dealer=0,
        start_scores=start or (0,) * seats,
    )


def _signed(points: int) -> str:
    """A change as a player writes it: +40, −120, 0."""
    return f"+{points}" if points > 0 else (f"−{-points}" if points < 0 else "0")


def _hand(setup: Setup, rs: Ruleset) -> Topic:
    """Bids, made and missed, defenders' points, marriages, with an example of each."""
    a, b, c = setup.players[:3]
    bid = max(rs.min_bid, 120)
    lines = [
        _(
            "The bid goes up in steps of %(step)d, from %(lowest)d to %(highest)d.",
            step=rs.bid_step,
            lowest=rs.min_bid,
            highest=MAX_BID,
        )
    ]
    if rs.forced_min_bid is not None:
        lines.append(
            _(
                "If the first two players pass, the dealer's left must play, for exactly %(forced)d.",
                forced=rs.forced_min_bid,
            )
        )
    lines.append(
        _(
            "Made (card points plus marriages at least the bid): the declarer adds the "
            "bid. Missed: the declarer loses it."
        )
    )
    if not rs.defenders_score_on_made:
        lines.append(_("Defenders score only when the declarer missed: their card points and marriages, not rounded."))
    elif rs.rounding:
        lines.append(
            _("Each defender adds their card points rounded to %(step)d, and their marriages.", step=rs.rounding)
        )
    lines.append(
        _(
            "Marriages (king and queen of a suit, declared): %(list)s.",
            list=", ".join(f"{SUIT_WORDS[suit]} {points}" for suit, points in SUITS.items()),
        )
    )
    made = [
        seat.delta
        for seat in _play(
            setup, HandRecord("played", declarer=0, bid=bid, points=(None, 42, 23), marriages=(("hearts",), (), ()))
        )
    ]
    lines.append(
        _(
            "Example: %(declarer)s bids %(bid)d, takes 55 card points and declares "
            "hearts: made, %(declarer_gets)s. %(first)s took 42 card points: "
            "%(first_gets)s; %(second)s took 23: %(second_gets)s.",
            declarer=a,
            bid=bid,
            declarer_gets=_signed(made[0]),
            first=b,
            first_gets=_signed(made[1]),
            second=c,
            second_gets=_signed(made[2]),
        )
    )
    missed = [seat.delta for seat in _play(setup, HandRecord("played", declarer=0, bid=bid, points=(None, 33, 27)))]
    lines.append(
        _(
            "Example: %(declarer)s bids %(bid)d and takes only 60: missed, "
            "%(declarer_gets)s; %(first)s took 33: %(first_gets)s; %(second)s took 27: "
            "%(second_gets)s.",
            declarer=a,
            bid=bid,
            declarer_gets=_signed(missed[0]),
            first=b,
            first_gets=_signed(missed[1]),
            second=c,
            second_gets=_signed(missed[2]),
        )
    )
    return Topic(_("A hand"), lines)


def _forfeit(setup: Setup, rs: Ruleset) -> Topic:
    """The declarer giving the hand up unplayed, as this ruleset pays it."""
    word = str(FORFEIT_WORDS.get(setup.rules, _l("Forfeit")))
    bid = max(rs.min_bid, 120)
    gave_up = HandRecord("forfeit", declarer=0, bid=bid)
    if rs.forfeit == "bomb":
        later = _play(setup, gave_up, gave_up)[1].delta
        # With four, the dealer sits out: seat 2 declares both hands, seat 1 sits out the second.
        four = HandRecord("forfeit", declarer=2, bid=bid)
        line = _(
            "The first time a player gives a hand up, nobody scores. Every later time, "
            "every other player gets %(later)s (with four players %(four)s each, the "
            "sitter-out too).",
            later=_signed(later),
            four=_signed(_play(setup, four, four, seats=4)[1].delta),
        )
    else:
        changes = [seat.delta for seat in _play(setup, gave_up)]
        line = _(
            "The declarer gives the hand up unplayed: a bid of %(bid)d gives the "
            "declarer %(declarer_gets)s and each opponent %(opponent_gets)s.",
            bid=bid,
            declarer_gets=_signed(changes[0]),
            opponent_gets=_signed(changes[1]),
        )
    lines = [line]
    if rs.forfeit == "count":
        lines.append(
            _(
                "Every third hand a player gives up costs them %(penalty)d. Not allowed on the barrel.",
                penalty=COUNT_PENALTY,
            )
        )
    return Topic(word, lines)


def _endgame(setup: Setup, rs: Ruleset, house: HouseRules) -> Topic:
    """The barrel, the lock, the cap, or nothing, before the target."""
    target = setup.options.target
    barrel, lock = rs.barrel_at(target, house.barrel_gap), rs.lock_at(target)  # §11.11
    if barrel is not None:
        gap = house.barrel_gap  # §11.11: the win needs what the barrel is below the target
        win = (
            _("a made bid with at least %(gap)d taken", gap=gap)
            if rs.endgame == "barrel_took"
            else _("a made bid of %(gap)d or more", gap=gap)
        )
        return Topic(
            _("The barrel"),
            [
                _(
                    "No score sits above %(barrel)d and below %(target)d: whoever gets there sits on "
                    "the barrel at %(barrel)d.",
                    barrel=barrel,
                    target=target,
                ),
                _(
                    "On the barrel only %(win)s wins the match (score %(target)d); what the player "
                    "takes as a defender counts for nothing.",
                    win=win,
                    target=target,
                ),
                *([_barrel_gap_example(setup, barrel)] if house.barrel_gap != BARREL_BELOW else []),
                _barrel_miss(setup, house, barrel),
                ngettext(
                    "After %(num)d hand on the barrel without winning, the player falls to %(fall)d.",
                    "After %(num)d hands on the barrel without winning, the player falls to %(fall)d.",
                    house.barrel_hands,
                    fall=target - house.barrel_gap - BARREL_DROP,
                ),
            ],
        )
    if lock is not None:
        return Topic(
            _("The lock"),
            [
                _(
                    "From %(lock)d to %(top)d a player is locked: they score only as declarer. A made "
                    "bid wins the match; a missed one drops them below %(lock)d and frees them.",
                    lock=lock,
                    top=target - 1,
                )
            ],
        )
    if rs.endgame == "cap":
        return Topic(
            _("The last hand"),
            [
                _(
                    "A player who is not the declarer cannot go above %(cap)d, so the last hand must be "
                    "won as declarer.",
                    cap=target - 1,
                )
            ],
        )
    return Topic(
        _("No barrel"), [_("Nothing stops a player on the way: the first to reach %(target)d wins.", target=target)]
    )


def _barrel_miss(setup: Setup, house: HouseRules, barrel: int) -> str:
    """What a missed bid on the barrel does (RULES.md §4 rule 3, §11.4); the cost as the engine
    plays it: Boris mounts the barrel as a defender, then bids 120 and takes 60."""
    if house.barrel_miss == "stays":
        return _(
            "A missed bid on the barrel costs nothing: the player stays at %(barrel)d, and "
            "the hand counts as one of the hands on the barrel.",
            barrel=barrel,
        )
    mount = HandRecord("played", declarer=0, bid=100, points=(None, 100, 0))
    miss = HandRecord("played", declarer=1, bid=120, points=(30, None, 30))
    after = _play(setup, mount, miss, start=(0, barrel - 80, 0))[1].score
    return _(
        "A missed bid on the barrel costs the bid and takes the player off it: a bid of 120 missed leaves %(after)d.",
        after=after,
    )


def _winning(rs: Ruleset, target: int) -> Topic:
    """Who wins, and when several reach the target in one hand."""
    return Topic(
        _("Winning"),
        [
            _(
                "The match ends when a player reaches %(target)d. If several do in one hand, the "
                "highest score wins; on equal scores the declarer; then the earlier bidder.",
                target=target,
            )
        ],
    )


def _sheet(setup: Setup) -> Topic:
    """How the sheet books a loss (RULES.md §8)."""
    if setup.options.sheet_style == "signed":
        return Topic(_("The sheet"), [_("Losses are written as minus figures.")])
    return Topic(
        _("The sheet"),
        [
            _(
                "The paper sheet cannot show a minus: a hand that loses points is written as 0 and the "
                "loss is owed, taken off the player's next entries. The sheet total minus what is owed "
                "is the score; this app shows all three."
            )
        ],
    )


def _table_options(setup: Setup, rs: Ruleset, house: HouseRules) -> Topic:
    """The table's own options: those switched on, and house rules other than the ruleset's."""
    options, lines = setup.options, []
    if options.gold_set:
        lines.append(
            _(
                "Gold set: the first %(hands)d hands (one deal each) have a lowest bid of "
                "%(lowest)d and count double; if nobody makes a bid in them, another "
                "gold set follows.",
                hands=len(setup.players),
                lowest=GOLD_MIN_BID,
            )
        )
    if options.blind_bids:
        lines.append(_("A blind bid (made without looking at the talon) counts double."))
    if options.sitter_bonus and len(setup.players) == 4:
        lines.append(_("The player sitting out may be given points for what lay in the talon."))
    usual = defaults(setup.rules)
    lines += _house_lines(rs, house, usual, options.target, _round_two_examples(setup, house, usual))
    return Topic(_("This table's options"), lines)


def _round_two_examples(setup: Setup, house: HouseRules, usual: HouseRules) -> dict[str, str]:
    """An example of each house rule of RULES.md §11.11–§11.18 this table plays other than its
    ruleset does (and of its dump), by the rule's name, as RULES.md works them, replayed by the
    engine at this table's target and options (§11.16's is in the zeros' topic)."""
    a, b, c = setup.players[:3]
    target, barrel = setup.options.target, setup.options.target - house.barrel_gap
    lines: dict[str, str] = {}
    if house.dump_555 != "off":  # §11.2, §11.18: a made 100 lands on the dump
        before = house.dump_at - 100
        after = _play(setup, _made(100), start=(before, 0, 0))[0].score
        lines["dump_555"] = _(
            "Example: %(name)s at %(before)d bids 100 and makes it: %(after)d.",
            name=a,
            before=before,
            after=after,
        )
    if house.barrel_jump != usual.barrel_jump:  # §11.12: 800 + 240 = 1040
        before = target - 200
        jump = HandRecord(
            "played", declarer=0, bid=240, points=(None, 0, 0), marriages=(("hearts", "diamonds"), (), ())
        )
        after = _play(setup, jump, start=(before, 0, 0))[0].score
        lines["barrel_jump"] = _(
            "Example: %(name)s at %(before)d bids 240 and takes 300: %(after)d, on the barrel, and play goes on.",
            name=a,
            before=before,
            after=after,
        )
    if house.barrel_clash != usual.barrel_clash:  # §11.13: two defenders climb on together
        before = barrel - 20
        both = _play(setup, HandRecord("played", declarer=0, bid=100, points=(None, 30, 30)), start=(0, before, before))
        lines["barrel_clash"] = _(
            "Example: %(declarer)s misses; %(first)s and %(second)s, at %(before)d each, take 30 "
            "as defenders and both climb on the barrel: %(first)s ends at %(first_after)d, "
            "%(second)s at %(second_after)d.",
            declarer=a,
            first=b,
            second=c,
            before=before,
            first_after=both[1].score,
            second_after=both[2].score,
        )
    on_barrel = (HandRecord("played", declarer=0, bid=100, points=(None, 80, 0)),)  # B climbs on
    if house.barrel_defender_wins:  # §11.14: 60 card points and hearts
        hand = HandRecord("played", declarer=0, bid=100, points=(None, 60, 0), marriages=((), ("hearts",), ()))
        after = _play(setup, *on_barrel, hand, start=(0, barrel - 80, 0))[1].score
        lines["barrel_defender_wins"] = _(
            "Example: %(name)s, on the barrel, defends and takes 60 card points and hearts (160): %(after)d, and wins.",
            name=b,
            after=after,
        )
    if house.barrel_win_score != usual.barrel_win_score:  # §11.15: a bid of 140 from the barrel
        climbs = HandRecord("played", declarer=2, bid=100, points=(100, 0, None))
        after = _play(setup, climbs, _made(140), start=(barrel - 80, 0, 0))[0].score
        lines["barrel_win_score"] = _(
            "Example: %(name)s, on the barrel, bids 140 and makes it: %(after)d, not %(target)d.",
            name=a,
            after=after,
            target=target,
        )
    if house.forfeit_penalty != usual.forfeit_penalty:  # §11.17
        gave_up = HandRecord("forfeit", declarer=0, bid=120)
        costs = [_signed(_play(setup, *(gave_up,) * n)[0].delta) for n in (1, 2, 3)]
        lines["forfeit_penalty"] = _(
            "Example: %(name)s gives up a bid of 120 three times: %(first)s, %(second)s, %(third)s.",
            name=a,
            first=costs[0],
            second=costs[1],
            third=costs[2],
        )
    return lines


def _barrel_gap_example(setup: Setup, barrel: int) -> str:
    """RULES.md §11.11: a made 100 from 50 below the barrel puts the declarer on it."""
    before = barrel - 50
    after = _play(setup, _made(100), start=(before, 0, 0))[0].score
    return _(
        "Example: %(name)s at %(before)d bids 100 and makes it: %(after)d, on the barrel.",
        name=setup.players[0],
        before=before,
        after=after,
    )


def _made(bid: int) -> HandRecord:
    """The first player bids `bid` and makes it: 120 card points and hearts (220), the others none."""
    return HandRecord("played", declarer=0, bid=bid, points=(None, 0, 0), marriages=(("hearts",), (), ()))


def _house_lines(rs: Ruleset, house: HouseRules, usual: HouseRules, target: int, examples: dict[str, str]) -> list[str]:
    """A sentence for each house rule this table plays other than its ruleset does (zeros,
    the barrel's hands and a miss on it are told in their own topics), each followed by its
    example where it has one (`examples`, by the rule's name)."""
    lines = []
    if house.dump_555 != usual.dump_555:
        lines.append(
            _("A score of exactly %(dump)d goes back to 0.", dump=house.dump_at)
            if house.dump_555 == "plus"
            else _("A score of exactly %(dump)d or −%(dump)d goes back to 0.", dump=house.dump_at)
        )
    lines += [examples[k] for k in ("dump_555",) if k in examples]
    if house.barrel_knock_off:
        lines.append(
            _(
                "Whoever gets onto the barrel knocks off anyone already on it: they fall to %(fall)d.",
                fall=target - house.barrel_gap - BARREL_DROP,
            )
        )
    if house.three_falls_reset:
        lines.append(_("Every third fall from the barrel drops the player to 0 instead."))
    if house.declarer_rounding:
        lines.append(
            _(
                "The declarer's card points are rounded to %(step)d too before they are checked against the bid.",
                step=rs.rounding,
            )
        )
    if house.forfeit_pays != usual.forfeit_pays:
        lines.append(
            _(
                "Giving a hand up pays each opponent half the bid, rounded up to %(step)d, instead of 60.",
                step=rs.bid_step,
            )
        )
    if house.blind_doubles != usual.blind_doubles:
        lines.append(_("A blind bid doubles only the declarer's points."))
    if house.ace_marriage:
        lines.append(_("Four aces, declared, count as a marriage of 200."))
    fall = target - house.barrel_gap - BARREL_DROP
    if house.barrel_jump != usual.barrel_jump:
        lines.append(
            _(
                "A jump from below the barrel to the target only puts the player on the barrel: "
                "the match is won from it."
            )
        )
    lines += [examples[k] for k in ("barrel_jump",) if k in examples]
    if house.barrel_clash == "one_stays":
        lines.append(
            _(
                "When several players get onto the barrel in the same hand, one stays: the declarer, "
                "else the highest score; the others fall to %(fall)d.",
                fall=fall,
            )
        )
    elif house.barrel_clash == "all_fall":
        lines.append(
            _("When several players get onto the barrel in the same hand, they all fall to %(fall)d.", fall=fall)
        )
    lines += [examples[k] for k in ("barrel_clash",) if k in examples]
    if house.barrel_defender_wins:
        lines.append(
            _(
                "A defender on the barrel who takes %(gap)d or more (card points rounded, and marriages) wins from it.",
                gap=house.barrel_gap,
            )
        )
    lines += [examples[k] for k in ("barrel_defender_wins",) if k in examples]
    if house.barrel_win_score != usual.barrel_win_score:
        lines.append(_("A win from the barrel scores the barrel plus the hand's points, and at least the target."))
    lines += [examples[k] for k in ("barrel_win_score",) if k in examples]
    if house.forfeit_penalty != usual.forfeit_penalty:
        lines.append(
            _("Every third forfeit costs the declarer %(penalty)d more.", penalty=COUNT_PENALTY)
            if house.forfeit_penalty
            else _("A forfeit costs no penalty, however many a player gives up.")
        )
    lines += [examples[k] for k in ("forfeit_penalty",) if k in examples]
    return lines


def _tichu(setup: Setup) -> list[Topic]:
    """Tichu: two teams, card points and calls (RULES.md §10)."""
    calls = [_("Tichu ±%(points)d", points=CALLS["tichu"]), _("Grand Tichu ±%(points)d", points=CALLS["grand"])]
    if setup.options.great_grand_tichu:
        calls.append(_("Great Grand Tichu ±%(points)d", points=CALLS["great_grand"]))
    return [
        Topic(
            _("A round"),
            [
                _(
                    "Partners sit opposite each other. A team scores its card points (a multiple of "
                    "5; the two teams' add up to 100) and the results of its players' calls."
                ),
                _(
                    "Calls: %(list)s. A call succeeds only for the player who goes out first; every "
                    "other call fails, a partner's too.",
                    list=", ".join(calls),
                ),
                _(
                    "A double victory (both partners out first and second) gives that team "
                    "%(points)d and no card points are counted.",
                    points=DOUBLE_VICTORY,
                ),
            ],
        ),
        Topic(
            _("Winning"),
            [
                _(
                    "A team at %(target)d or more after a round wins; if both are, the higher score; on "
                    "equal scores play goes on.",
                    target=setup.options.target,
                )
            ],
        ),
        _sheet(setup),
    ]
