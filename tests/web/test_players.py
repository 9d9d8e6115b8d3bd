"""Players: seats, each banked match's figures, a player's page and API, head to
head and ratings, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from .helpers import WINNING_HAND, WINNING_START, played

TICHU_PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def together(make_user: Any, players: list[str] | None = None, **setup: Any) -> tuple[Any, ...]:
    """anna starts a match, boris and vera join it; the match and the three users."""
    anna, boris, vera = make_user("anna"), make_user("boris"), make_user("vera")
    match = anna.new_match(players=players or ["Anna", "Boris", "Vera"], **setup)
    for u in (boris, vera):
        assert u.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    return match, anna, boris, vera


def claim(user: Any, match: dict[str, Any], seat: int, status: int = 200) -> Any:
    response = user.post(f"/api/matches/{match['id']}/seats/{seat}/claim")
    assert response.status_code == status, response.json
    return response.json


def bank(user: Any, match: dict[str, Any]) -> None:
    assert user.post(f"/api/matches/{match['id']}/bank").status_code == 200


def figures(user: Any, name: str, rules: str = "squarescores") -> dict[str, Any]:
    response = user.get(f"/api/players/{name}")
    assert response.status_code == 200, response.json
    (found,) = [r for r in response.json["rulesets"] if r["rules"] == rules]
    return found


BARREL_MATCH = [
    played(0, 100, [None, 10, 10]),  # Anna 950 → on the barrel at 880
    played(1, 100, [30, None, 0]),  # Boris misses; Vera's zero
    {"kind": "forfeit", "declarer": 2, "bid": 100},  # Vera's Rospisat'
    played(0, 120, [None, 0, 0]),  # Anna takes 120 from the barrel: wins
]


def test_seats_are_claimed_assigned_and_released(make_user: Any, stranger: Any) -> None:
    match, anna, boris, vera = together(make_user)
    url = f"/api/matches/{match['id']}/seats"
    assert anna.get(url).json == {
        "seats": [
            {"seat": 0, "name": "Anna", "username": None},
            {"seat": 1, "name": "Boris", "username": None},
            {"seat": 2, "name": "Vera", "username": None},
        ]
    }
    claim(boris, match, 1)
    assert claim(boris, match, 0)["seats"][:2] == [
        {"seat": 0, "name": "Anna", "username": "boris"},
        {"seat": 1, "name": "Boris", "username": None},
    ]  # one seat per person: he moved
    refused = vera.post(f"{url}/0/claim")
    assert refused.status_code == 409 and "boris" in refused.json["error"]
    assert vera.put(f"{url}/1", json={"username": "vera"}).status_code == 403
    taken = anna.put(f"{url}/0", json={"username": "ANNA"})  # boris's seat: the creator's too
    assert taken.status_code == 409 and "boris" in taken.json["error"]
    assert anna.post(f"{url}/0/claim").status_code == 409
    assert boris.delete(f"{url}/0").status_code == 200  # its holder lets it go first
    assigned = anna.put(f"{url}/0", json={"username": "ANNA"})
    assert assigned.status_code == 200
    assert [s["username"] for s in assigned.json["seats"]] == ["anna", None, None]
    assert anna.put(f"{url}/1", json={"username": "stranger"}).json["field"] == "username"
    assert anna.put(f"{url}/1", json={"username": "boris"}).json["seats"][1]["username"] == "boris"
    assert vera.delete(f"{url}/1").status_code == 403
    assert boris.delete(f"{url}/1").json["seats"][1]["username"] is None
    assert anna.post(f"{url}/3/claim").status_code == 404
    assert stranger.get(url).status_code == 404
    assert stranger.post(f"{url}/2/claim").status_code == 404


def test_a_banked_match_keeps_each_seats_figures(make_user: Any) -> None:
    match, anna, boris, vera = together(make_user, start_scores=[850, 0, 0])
    for seat, user in enumerate((anna, boris, vera)):
        claim(user, match, seat)
    for hand in BARREL_MATCH:
        anna.add_hand(match["id"], hand)
    assert figures(anna, "anna")["banked"] == 0  # finished is not banked
    bank(anna, match)
    a, b, v = (figures(anna, name) for name in ("anna", "boris", "vera"))
    assert {
        k: a[k]
        for k in (
            "played",
            "banked",
            "won",
            "win_rate",
            "average_place",
            "declared",
            "made",
            "made_rate",
            "bid_made_sum",
            "bid_made_max",
            "average_bid_made",
            "barrel_on",
            "barrel_won",
            "barrel_fell",
            "barrel_won_rate",
            "zeros",
            "forfeits",
        )
    } == {
        "played": 1,
        "banked": 1,
        "won": 1,
        "win_rate": 1.0,
        "average_place": 1.0,
        "declared": 2,
        "made": 2,
        "made_rate": 1.0,
        "bid_made_sum": 220,
        "bid_made_max": 120,
        "average_bid_made": 110.0,
        "barrel_on": 1,
        "barrel_won": 1,
        "barrel_fell": 0,
        "barrel_won_rate": 1.0,
        "zeros": 0,
        "forfeits": 0,
    }
    assert (b["declared"], b["made"], b["made_rate"], b["zeros"], b["won"]) == (1, 0, 0.0, 1, 0)
    assert (v["declared"], v["forfeits"], v["zeros"], v["average_bid_made"]) == (1, 1, 2, None)
    assert sorted([b["average_place"], v["average_place"]]) == [2.0, 3.0]


@pytest.mark.parametrize("rules", ["squarescores", "polish", "classic", "ggtables", "tyzicha"])
def test_every_ruleset_counts_the_winner_and_the_declarer(make_user: Any, rules: str) -> None:
    match, anna, boris, vera = together(make_user, rules=rules, start_scores=WINNING_START)
    claim(anna, match, 0)
    claim(vera, match, 2)
    anna.add_hand(match["id"], played(1, 120, [0, None, 0]))  # Boris makes 120: Anna, Vera zeros
    anna.add_hand(match["id"], WINNING_HAND)
    bank(anna, match)
    a, v = figures(vera, "anna", rules), figures(anna, "vera", rules)
    assert (a["won"], a["average_place"], a["declared"], a["made"], a["bid_made_max"]) == (1, 1.0, 1, 1, 140)
    assert (v["won"], v["average_place"], v["declared"]) == (0, 3.0, 0)  # Boris 120, Vera 20
    assert v["zeros"] == (1 if rules == "squarescores" else 0)  # only there a zero counts


def test_tichu_counts_calls_by_kind_and_double_victories(make_user: Any) -> None:
    anna, boris, vera, gleb = (make_user(n) for n in ("anna", "boris", "vera", "gleb"))
    match = anna.new_match(players=TICHU_PLAYERS, rules="tichu", options={"great_grand_tichu": True})
    for seat, u in enumerate((anna, boris, vera, gleb)):
        if u is not anna:
            u.post("/api/matches/join", json={"code": match["join_code"]})
        claim(u, match, seat)
    rounds = [
        {"calls": ["tichu", "grand", None, None], "first_out": 0, "card_points": [35, 65]},
        {"calls": [None, None, "great_grand", None], "first_out": 2, "double_victory": True},
        {"calls": ["tichu", None, None, None], "first_out": 1, "card_points": [50, 50]},
        {"calls": [None, None, "grand", None], "first_out": 2, "double_victory": True},
    ]  # Anna & Vera: 135, 735, 685, 1085
    for r in rounds:
        anna.add_hand(match["id"], r)
    bank(anna, match)
    a, b, v = (figures(anna, n, "tichu") for n in ("anna", "boris", "vera"))
    assert (a["tichu_called"], a["tichu_made"], a["double_victories"], a["won"]) == (2, 1, 2, 1)
    assert (b["grand_called"], b["grand_made"], b["double_victories"], b["won"]) == (1, 0, 0, 0)
    assert (v["great_grand_called"], v["great_grand_made"], v["grand_called"], v["grand_made"], v["average_place"]) == (
        1,
        1,
        1,
        1,
        1.0,
    )
    assert b["average_place"] == 2.0


def test_a_player_is_seen_by_their_table_only_and_head_to_head(make_user: Any, stranger: Any) -> None:
    match, anna, boris, vera = together(make_user, start_scores=WINNING_START)
    claim(anna, match, 0)
    claim(boris, match, 1)
    anna.add_hand(match["id"], WINNING_HAND)
    bank(anna, match)
    missing = stranger.get("/api/players/nobody")
    hidden = stranger.get("/api/players/anna")
    assert hidden.status_code == missing.status_code == 404 and hidden.json == missing.json
    assert anna.get("/api/players/anna").json["head_to_head"] is None
    assert boris.get("/api/players/Anna").json["head_to_head"] == {"matches": 1, "you_ahead": 0, "they_ahead": 1}
    assert vera.get("/api/players/boris").json["head_to_head"] == {
        "matches": 0,
        "you_ahead": 0,
        "they_ahead": 0,
    }  # Vera's seat is a guest's
    assert vera.get("/api/players/BORIS/versus/anna").json == {
        "players": ["boris", "anna"],
        "matches": 1,
        "first_ahead": 0,
        "second_ahead": 1,
    }
    assert stranger.get("/api/players/boris/versus/anna").status_code == 404
    same = vera.get("/api/players/boris/versus/Boris")  # as the page's head to head refuses it
    assert (same.status_code, same.json) == (422, {"error": "Choose two different players.", "field": "other"})


def leaderboard(user: Any, game: str = "tysiacha") -> list[tuple[str, int]]:
    response = user.get(f"/api/leaderboard/{game}")
    assert response.status_code == 200, response.json
    return [(p["username"], p["matches"]) for p in response.json["players"]]


def won_by(user: Any, match: dict[str, Any], seat: int) -> None:
    """Seat `seat` wins the match in one hand (from 870), and the match is banked."""
    hand = played(
        seat,
        140,
        [20 if s != seat else None for s in range(3)],
        marriages=[["hearts"] if s == seat else [] for s in range(3)],
    )
    user.add_hand(match["id"], hand)
    bank(user, match)


def two_matches(make_user: Any) -> tuple[Any, ...]:
    """Two matches of anna, boris and vera (all members): the first from Boris at 870, the
    second from `WINNING_START`; (first, second, anna, boris)."""
    first, anna, boris, vera = together(make_user, start_scores=[0, 870, 0])
    second = anna.new_match(players=["Anna", "Boris", "Vera"], start_scores=WINNING_START)
    for u in (boris, vera):
        u.post("/api/matches/join", json={"code": second["join_code"]})
    return first, second, anna, boris


def test_ratings_move_when_a_match_is_banked_only(make_user: Any) -> None:
    match, anna, boris, vera = together(make_user, start_scores=WINNING_START)
    claim(anna, match, 0)
    claim(boris, match, 1)
    assert leaderboard(anna) == []
    ended = anna.new_match(players=["Anna", "Boris", "Vera"])
    anna.post(f"/api/matches/{ended['id']}/end")
    won_by(anna, match, 0)
    assert leaderboard(boris) == [("anna", 1), ("boris", 1)]  # Vera's seat: a guest, not listed
    assert leaderboard(vera) == [("anna", 1), ("boris", 1)]  # her table, though she is unrated
    ratings = anna.get("/api/players/anna").json["ratings"]
    assert (
        set(ratings) == {"tysiacha"}
        and ratings["tysiacha"]["rating"] > boris.get("/api/players/boris").json["ratings"]["tysiacha"]["rating"]
    )
    assert leaderboard(anna, "tichu") == []
    assert anna.get("/api/leaderboard/chess").status_code == 404


def test_a_seat_claimed_after_banking_recomputes_in_bank_order(make_user: Any) -> None:
    first, second, anna, boris = two_matches(make_user)
    claim(anna, first, 0)
    claim(anna, second, 0)
    claim(boris, second, 1)
    won_by(anna, first, 1)  # Boris's seat wins the first match, a guest's so far
    won_by(anna, second, 0)  # Anna wins the second
    before = anna.get("/api/players/anna").json["ratings"]["tysiacha"]["history"]
    claim(boris, first, 1)  # now the first match is Boris's win
    after = anna.get("/api/players/anna").json["ratings"]["tysiacha"]["history"]
    assert [h["match"] for h in after] == [first["id"], second["id"]]
    assert after[0] == before[0]  # Anna's first match: rated the same, Boris new as a guest was
    assert after[1]["rating"] > before[1]["rating"]  # she now beat the winner of the first
    boris_history = boris.get("/api/players/boris").json["ratings"]["tysiacha"]["history"]
    assert [h["match"] for h in boris_history] == [first["id"], second["id"]]


def test_a_deleted_account_leaves_every_leaderboard(make_user: Any) -> None:
    match, anna, boris, vera = together(make_user, start_scores=WINNING_START)
    claim(anna, match, 0)
    claim(boris, match, 1)
    won_by(anna, match, 0)
    response = boris.delete("/api/users/me", json={"password": "correct horse"})
    assert response.status_code == 204
    assert leaderboard(anna) == [("anna", 1)]
    assert anna.get(f"/api/matches/{match['id']}/seats").json["seats"][1]["username"] is None


def test_a_long_rating_history_is_thinned_but_ends_where_it_ends(make_user: Any) -> None:
    from scoresheet.services.players import ratings
    from scoresheet.services.players.profiles import GameRating, profile
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import Rating, User, utcnow

    match, anna, boris, vera = together(make_user, start_scores=WINNING_START)
    with anna.client.application.app_context():
        user = db.session.execute(db.select(User).where(User.username == "anna")).scalar_one()
        now = utcnow()
        db.session.add_all(
            Rating(user_id=user.id, game="tysiacha", match_id=match["id"], banked_at=now, mu=25.0 + i / 10, sigma=8.0)
            for i in range(500)
        )
        ratings.summarize("tysiacha", {user.id})  # as `rate_from` does after writing them
        db.session.commit()
        (rated,) = profile(user, user).ratings
        history = rated.history
    assert len(history) <= ratings.HISTORY_POINTS + 1
    assert [p.number for p in history[:2]] == [5, 10] and history[-1].number == 500
    assert history[-1].rating == round(25.0 + 49.9 - 24.0, 1)
    answer = vera.get("/api/players/anna").json["ratings"]["tysiacha"]
    assert answer["matches"] == 500 and answer["history"][-1]["number"] == 500
    chart = GameRating("tysiacha", history).chart.split()
    assert len(chart) == len(history) + 1 and chart[0] == "6.0,74.0"  # 0 before the first
    assert chart[-1] == "294.0,6.0"  # the last match, the highest rating


def test_an_imported_banked_match_counts_once_a_seat_is_claimed(api_user: Any) -> None:
    match = api_user.new_match(start_scores=WINNING_START)
    api_user.add_hand(match["id"], WINNING_HAND)
    bank(api_user, match)
    backup = api_user.get(f"/api/matches/{match['id']}/backup").json
    (imported,) = api_user.post("/api/matches/import", json=backup).json["matches"]
    assert api_user.get("/api/players/anna").json == {
        "username": "anna",
        "rulesets": [],
        "ratings": {},
        "head_to_head": None,
    }
    claim(api_user, imported, 0)
    profile = api_user.get("/api/players/anna").json
    assert [(r["played"], r["banked"], r["won"], r["bid_made_max"]) for r in profile["rulesets"]] == [(1, 1, 1, 140)]
    assert [h["match"] for h in profile["ratings"]["tysiacha"]["history"]] == [imported["id"]]


def test_matches_banked_at_once_rate_as_if_banked_one_after_another(app: Any, make_user: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor
    from datetime import datetime

    from scoresheet.services.players import ratings
    from scoresheet.services.players.profiles import profile
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import Rating, User

    from .test_concurrency import Server

    anna = make_user("anna")
    matches = []
    for _ in range(6):
        match = anna.new_match(start_scores=WINNING_START)
        claim(anna, match, 0)
        anna.add_hand(match["id"], WINNING_HAND)
        matches.append(match)
    server = Server(app)
    try:
        with ThreadPoolExecutor(len(matches)) as pool:
            answers = list(
                pool.map(lambda m: server.call("POST", f"/api/matches/{m['id']}/bank", token=anna.token), matches)
            )
    finally:
        server.stop()
    assert [status for status, _ in answers] == [200] * len(matches)

    def stored() -> list[tuple[str, float, float]]:
        return [
            (r.match_id, round(r.mu, 9), round(r.sigma, 9))
            for r in db.session.execute(db.select(Rating).order_by(Rating.banked_at, Rating.id)).scalars()
        ]

    with app.app_context():
        user = db.session.execute(db.select(User)).scalar_one()
        concurrent = stored()
        ratings.rate_from("tysiacha", datetime(2000, 1, 1))  # every match again, in bank order
        db.session.commit()
        assert stored() == concurrent and len(concurrent) == len(matches)
        (rated,) = profile(user, user).ratings
        assert rated.game == "tysiacha" and len(rated.history) == len(matches)


def test_guests_are_counted_by_name_inside_my_own_matches_only(make_user: Any, stranger: Any) -> None:
    match, anna, boris, vera = together(make_user, start_scores=WINNING_START)
    claim(anna, match, 0)
    claim(vera, match, 2)
    won_by(anna, match, 0)
    other = stranger.new_match(players=["Anna", "Boris", "Vera"], start_scores=WINNING_START)
    won_by(stranger, other, 0)  # a stranger's table: its Boris is not counted at anna's
    assert anna.get("/api/guests").json == {"guests": [{"name": "Boris", "banked": 1, "won": 0, "average_place": 2.0}]}
    assert boris.get("/api/guests").json == anna.get("/api/guests").json  # a member sees it
    assert stranger.get("/api/guests").json == {
        "guests": [
            {"name": "Anna", "banked": 1, "won": 1, "average_place": 1.0},
            {"name": "Boris", "banked": 1, "won": 0, "average_place": 2.0},
            {"name": "Vera", "banked": 1, "won": 0, "average_place": 2.0},
        ]
    }


def kept_and_summed(app: Any) -> tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any], dict[Any, Any]]:
    """The kept `player_totals` and rating summaries beside what they must equal: the sums
    over the claimed seats' figures and the full rating histories thinned, computed here."""
    from scoresheet.rules.figures import COUNTS
    from scoresheet.services.players import ratings
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import PlayerTotal, Rating, RatingSummary, Seat, SeatFigure

    with app.app_context():
        kept = {
            (t.user_id, t.rules): (t.banked, t.won, t.places, *[getattr(t, n) for n in COUNTS])
            for t in db.session.execute(db.select(PlayerTotal)).scalars()
        }
        summed: dict[Any, Any] = {}
        for seat, f in db.session.execute(
            db.select(Seat, SeatFigure).join(
                SeatFigure, (SeatFigure.match_id == Seat.match_id) & (SeatFigure.seat == Seat.seat)
            )
        ).all():
            row = [1, int(f.won), f.place, *[getattr(f, n) for n in COUNTS]]
            old = summed.get((seat.user_id, f.rules))
            summed[(seat.user_id, f.rules)] = (
                tuple(row)
                if old is None
                else tuple(
                    max(a, b) if COUNTS[i - 3 : i - 2] == ("bid_made_max",) else a + b
                    for i, (a, b) in enumerate(zip(old, row, strict=True))
                )
            )
        summaries = {
            (s.user_id, s.game): (s.matches, s.points) for s in db.session.execute(db.select(RatingSummary)).scalars()
        }
        histories: dict[Any, list[Any]] = {}
        for r in db.session.execute(db.select(Rating).order_by(Rating.banked_at, Rating.id)).scalars():
            histories.setdefault((r.user_id, r.game), []).append((r.match_id, ratings.shown(r.mu, r.sigma)))
        thinned = {key: (len(h), [list(p) for p in ratings.thinned(h)]) for key, h in histories.items()}
    return kept, summed, summaries, thinned


def seats_know_whether_banked(app: Any) -> list[bool]:
    """Every claimed seat's kept `banked` (in id order), checked against its match's status."""
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import Match, Seat

    with app.app_context():
        rows = db.session.execute(db.select(Seat.banked, Match.status).join(Match).order_by(Seat.id)).all()
    assert all(banked == (status == "banked") for banked, status in rows), rows
    return [banked for banked, _ in rows]


def test_a_deleted_accounts_seats_rate_as_guests_for_everyone_it_played(app: Any, make_user: Any) -> None:
    from datetime import datetime

    from scoresheet.services.players import ratings
    from scoresheet.storage.extensions import db

    first, second, anna, boris = two_matches(make_user)
    claim(anna, first, 0)
    claim(boris, first, 1)
    claim(anna, second, 0)
    claim(boris, second, 1)
    won_by(anna, first, 1)  # Boris wins the first: his rating goes up
    won_by(anna, second, 0)  # then Anna beats him
    before = anna.get("/api/players/anna").json["ratings"]["tysiacha"]["rating"]
    assert boris.delete("/api/users/me", json={"password": "correct horse"}).status_code == 204
    after = anna.get("/api/players/anna").json["ratings"]["tysiacha"]["rating"]
    assert after < before  # she beat a guest, not the winner of the first match
    with app.app_context():
        ratings.rate_from("tysiacha", datetime(2000, 1, 1))  # every match again, from scratch
        db.session.commit()
    assert anna.get("/api/players/anna").json["ratings"]["tysiacha"]["rating"] == after


def test_kept_totals_and_rating_summaries_equal_the_sums_after_every_kind_of_write(app: Any, make_user: Any) -> None:
    match, anna, boris, vera = together(make_user, start_scores=[850, 0, 0])
    claim(anna, match, 0)
    claim(boris, match, 1)

    def check(users: int) -> tuple[Any, ...]:
        kept, summed, summaries, thinned = kept_and_summed(app)
        assert kept == summed and summaries == thinned
        assert len({user for user, _ in kept}) == users  # so an empty table cannot pass
        assert seats_know_whether_banked(app)
        return kept, summaries

    assert seats_know_whether_banked(app) == [False, False]  # claims on an open match
    for hand in BARREL_MATCH:
        anna.add_hand(match["id"], hand)
    bank(anna, match)  # bank
    kept, _ = check(users=2)
    assert [v[:3] for k, v in sorted(kept.items())] == [(1, 1, 1), (1, 0, 3)]  # Boris 3rd
    claim(vera, match, 2)  # a claim after banking
    check(users=3)
    url = f"/api/matches/{match['id']}/seats"
    assert anna.put(f"{url}/2", json={"username": "boris"}).status_code == 409  # vera's: hers to let go
    assert vera.delete(f"{url}/2").status_code == 200  # release
    check(users=2)  # vera has no banked seat left
    assert anna.put(f"{url}/2", json={"username": "boris"}).status_code == 200  # assign
    check(users=2)  # Boris moved to Vera's seat
    assert vera.get("/api/players/boris").json["rulesets"][0]["forfeits"] == 1  # Vera's old one
    assert boris.delete(f"{url}/2").status_code == 200  # release
    check(users=1)
    backup = anna.get(f"/api/matches/{match['id']}/backup").json
    (imported,) = boris.post("/api/matches/import", json=backup).json["matches"]  # import
    check(users=1)
    claim(boris, imported, 1)
    _, summaries = check(users=2)
    assert sorted(n for n, _ in summaries.values()) == [1, 1]
    assert anna.delete("/api/users/me", json={"password": "correct horse"}).status_code == 204
    check(users=1)  # account deletion
    assert boris.get("/api/players/boris").json["rulesets"][0]["banked"] == 1


def test_a_knock_off_counts_as_a_fall_off_the_barrel_once_banked(make_user: Any) -> None:
    match, anna, boris, vera = together(make_user, start_scores=[850, 800, 0], options={"barrel_knock_off": True})
    claim(anna, match, 0)
    claim(boris, match, 1)
    for hand in (
        played(0, 100, [None, 10, 10]),  # Anna 950 → on the barrel at 880
        played(2, 100, [0, 70, None]),  # Boris 880 gets on: Anna knocked off, 760
        played(1, 120, [0, None, 0]),
    ):  # Boris takes 120 from the barrel: wins
        anna.add_hand(match["id"], hand)
    sheet = anna.get(f"/api/matches/{match['id']}").json
    assert sheet["winner"] == 1
    bank(anna, match)
    a, b = figures(vera, "anna"), figures(vera, "boris")
    assert (a["barrel_on"], a["barrel_fell"], a["barrel_won"], a["barrel_won_rate"]) == (1, 1, 0, 0.0)
    assert (b["barrel_on"], b["barrel_fell"], b["barrel_won"]) == (1, 0, 1)


def test_a_claim_made_while_its_match_is_being_banked_knows_it_is_banked(app: Any, make_user: Any) -> None:
    """PostgreSQL: a bank holds the match's row; a claim that loaded the match before waits
    for the bank, then reads the status afresh (`database.read_locked`), so its seat counts as
    banked. (SQLite's writers take the whole database: a claim cannot overlap a bank.)"""
    from scoresheet.storage.extensions import db

    match, anna, boris, _vera = together(make_user, start_scores=WINNING_START)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("PostgreSQL only")
    claim(anna, match, 0)
    anna.add_hand(match["id"], WINNING_HAND)
    with app.app_context():
        banking = db.engine.connect()  # a bank under way: the row locked, the status changed
        banking.execute(db.text("SELECT id FROM matches WHERE id = :m FOR UPDATE"), {"m": match["id"]})
        for sql in (
            "UPDATE matches SET status = 'banked' WHERE id = :m",
            "UPDATE seats SET banked = TRUE WHERE match_id = :m",
        ):  # as `bank` does
            banking.execute(db.text(sql), {"m": match["id"]})
        claiming = threading.Thread(target=claim, args=(boris, match, 1))
        claiming.start()
        for _ in range(100):  # until the claim waits for the bank's lock
            waiting = banking.execute(db.text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar()
            if waiting:
                break
            time.sleep(0.05)
        assert waiting
        banking.commit()
        banking.close()
        claiming.join(timeout=10)
    assert seats_know_whether_banked(app) == [True, True]


def test_migration_0012_marks_the_seats_of_banked_matches(app: Any, make_user: Any) -> None:
    from scoresheet.storage.database import downgrade, foreign_keys_off, upgrade
    from scoresheet.storage.extensions import db

    match, anna, boris, _vera = together(make_user, start_scores=WINNING_START)
    claim(anna, match, 0)
    won_by(anna, match, 0)
    other = anna.new_match(players=["Anna", "Boris", "Vera"])
    claim(anna, other, 0)
    claim(boris, match, 1)  # claimed after banking
    assert seats_know_whether_banked(app) == [True, False, True]
    with app.app_context():
        db.session.remove()
        with db.engine.connect() as conn, foreign_keys_off(conn), conn.begin():
            downgrade(conn, "0011")
            upgrade(conn, "head")
    assert seats_know_whether_banked(app) == [True, False, True]
    found = figures(anna, "anna")
    assert (found["played"], found["banked"]) == (2, 1)


def test_migration_0011_fills_the_totals_and_summaries_and_counts_old_knock_offs(app: Any, make_user: Any) -> None:
    from scoresheet.storage.database import downgrade, foreign_keys_off, upgrade
    from scoresheet.storage.extensions import db

    match, anna, boris, vera = together(make_user, start_scores=[850, 800, 0], options={"barrel_knock_off": True})
    claim(anna, match, 0)
    claim(boris, match, 1)
    for hand in (played(0, 100, [None, 10, 10]), played(2, 100, [0, 70, None]), played(1, 120, [0, None, 0])):
        anna.add_hand(match["id"], hand)
    bank(anna, match)
    other = anna.new_match(players=["Anna", "Boris", "Vera"], start_scores=WINNING_START)
    claim(anna, other, 0)
    won_by(anna, other, 0)
    before = kept_and_summed(app)
    with app.app_context():
        db.session.remove()
        with db.engine.connect() as conn, foreign_keys_off(conn), conn.begin():
            downgrade(conn, "0010")
            conn.execute(
                db.text("UPDATE seat_figures SET barrel_fell = 0 WHERE match_id = :m"), {"m": match["id"]}
            )  # as kept before knock-offs were falls
            upgrade(conn, "head")
    after = kept_and_summed(app)
    assert after == before and after[0] == after[1] and after[2] == after[3]
    assert len(after[0]) == 2 and len(after[2]) == 2  # Anna and Boris, one ruleset and game
    assert figures(vera, "anna")["barrel_fell"] == 1 and figures(vera, "anna")["banked"] == 2


def test_an_unknown_game_on_the_leaderboard_names_the_games_there_are(make_user: Any) -> None:
    anna = make_user("anna")
    response = anna.get("/api/leaderboard/chess")
    assert response.status_code == 404
    assert response.json["error"] == "There is no such game: the games are “tysiacha” and “tichu”."
    german = anna.client.get("/api/leaderboard/chess", headers={**anna.headers, "Accept-Language": "de"})
    assert german.json["error"] == "Dieses Spiel gibt es nicht: es gibt nur „tysiacha“ und „tichu“."
