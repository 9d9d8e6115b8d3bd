"""Everyone a player played with (opponents, Tichu partners), and a period of banked matches
for a player's figures, head to head and the leaderboard: the pages and the API, on SQLite
and PostgreSQL. Every figure is worked out by hand from the hands below."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask
from openskill.models import PlackettLuce

from .helpers import played
from .page_helpers import Phone, errors_next_to, parse
from .test_players import TICHU_PLAYERS, bank, claim, together

JUNE_2025 = datetime(2025, 6, 15, 12, tzinfo=UTC)


def two_matches(make_user: Any) -> tuple[Any, ...]:
    """Two banked matches of anna, boris and vera. The first (all three claimed): from 870,
    Anna bids 140 with the hearts marriage and makes it, Boris and Vera take 20 each: Anna
    1010 (1st), Boris 20, Vera 20 (2nd both). The second (Vera's seat a guest's): from 870,
    Boris makes 140 with hearts, Anna takes 30, Vera 10: Boris 1010 (1st), Anna 30 (2nd),
    Vera 10 (3rd)."""
    first, anna, boris, vera = together(make_user, start_scores=[870, 0, 0])
    for seat, user in enumerate((anna, boris, vera)):
        claim(user, first, seat)
    anna.add_hand(first["id"], played(0, 140, [None, 20, 20], marriages=[["hearts"], [], []]))
    bank(anna, first)
    second = anna.new_match(players=["Anna", "Boris", "Vera"], start_scores=[0, 870, 0])
    for user in (boris, vera):
        assert user.post("/api/matches/join", json={"code": second["join_code"]}).status_code == 200
    claim(anna, second, 0)
    claim(boris, second, 1)
    anna.add_hand(second["id"], played(1, 140, [30, None, 10], marriages=[[], ["hearts"], []]))
    bank(anna, second)
    return first, second, anna, boris, vera


def banked_in_june_2025(app: Any, match_id: str) -> None:
    """The match reads as banked on 15 June 2025: its figures' and ratings' time moved, the
    kept totals and ratings written again as a bank then would have."""
    from scoresheet.services.players import ratings, statistics
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import Rating, SeatFigure

    with app.app_context():
        for model in (SeatFigure, Rating):
            db.session.execute(db.update(model).where(model.match_id == match_id).values(banked_at=JUNE_2025))
        statistics.rebuild_totals_of_match(match_id)
        ratings.rate_from("tysiacha", JUNE_2025)
        db.session.commit()


def just_now(moment: str) -> bool:
    """A time stored during this test: today (UTC), or yesterday if the test ran over midnight."""
    today = datetime.now(UTC).date()
    return moment[:10] in (today.isoformat(), (today - timedelta(days=1)).isoformat())


def rows(answer: Any) -> dict[tuple[str, bool], tuple[Any, ...]]:
    """The API's everyone-played as (username, partner) → the figures."""
    assert answer.status_code == 200, answer.json
    return {
        (p["username"], p["partner"]): (
            p["matches"],
            p["won"],
            p["ahead"],
            p["behind"],
            p["average_score_difference"],
            p["calls_made"],
            p["calls"],
        )
        for p in answer.json["played"]
    }


def test_everyone_i_played_adds_up_each_opponent(make_user: Any) -> None:
    _first, _second, anna, boris, vera = two_matches(make_user)
    # Anna against Boris: 2 matches, she won the first; ahead in it, behind in the second;
    # score differences 1010 − 20 = 990 and 30 − 1010 = −980: 10 over 2 = 5.0 on average.
    # Against Vera: only the first (her seat in the second is a guest's): ahead, 990.
    assert rows(anna.get("/api/players/anna/played")) == {
        ("boris", False): (2, 1, 1, 1, 5.0, 0, 0),
        ("vera", False): (1, 1, 1, 0, 990.0, 0, 0),
    }
    assert rows(boris.get("/api/players/boris/played")) == {
        ("anna", False): (2, 1, 1, 1, -5.0, 0, 0),
        ("vera", False): (1, 0, 0, 0, 0.0, 0, 0),  # 20 and 20: the same place
    }
    answer = anna.get("/api/players/anna/played").json
    assert answer["username"] == "anna" and answer["period"] == {"since": None, "until": None}
    assert [p["username"] for p in answer["played"]] == ["boris", "vera"]  # the latest first
    assert just_now(answer["played"][0]["last_played"])
    refused = vera.get("/api/players/anna/played")  # a tablemate's: only the player sees it
    assert refused.status_code == 403 and refused.json["error"] == "Only the player sees everyone they have played."


def test_a_stranger_sees_nobody_anyone_played(make_user: Any, stranger: Any) -> None:
    two_matches(make_user)
    assert stranger.get("/api/players/anna/played").status_code == 404


def test_tichu_partners_are_counted_apart_with_their_calls(make_user: Any) -> None:
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
    ]
    # Anna & Vera: 35 + 100 = 135; + 200 + 400 = 735; 50 − 100 → 685; + 200 + 200 = 1085.
    # Boris & Gleb: 65 − 200 = −135; −135; + 50 = −85; −85. Difference 1085 − (−85) = 1170.
    # Calls of Anna & Vera: Anna's Tichu twice (made once), Vera's Great Grand and Grand
    # (both made): 3 made of 4. Of Boris & Gleb: Boris's Grand, lost: 0 of 1.
    for r in rounds:
        anna.add_hand(match["id"], r)
    bank(anna, match)
    assert rows(anna.get("/api/players/anna/played")) == {
        ("vera", True): (1, 1, 0, 0, 0.0, 3, 4),
        ("boris", False): (1, 1, 1, 0, 1170.0, 0, 0),
        ("gleb", False): (1, 1, 1, 0, 1170.0, 0, 0),
    }
    assert rows(gleb.get("/api/players/gleb/played"))[("boris", True)] == (1, 0, 0, 0, 0.0, 0, 1)


def phone_of(app: Flask, username: str) -> Phone:
    """A phone logged in to an account made through the API."""
    phone = Phone(app.test_client())
    response = phone.post("/login", {"username": username, "password": "correct horse"})
    assert response.status_code == 302
    return phone


def test_the_page_lists_everyone_i_played_and_a_tablemate_sees_only_head_to_head(
    csrf_app: Flask, make_user: Any
) -> None:
    two_matches(make_user)
    anna, boris = phone_of(csrf_app, "anna"), phone_of(csrf_app, "boris")
    page = parse(anna.get("/players/anna").text)
    table = next(n for n in page.walk() if "played" in n.classes())
    lines = [
        [c.text() for c in li.walk() if c.tag == "span" and "hint" not in c.classes()]
        for li in table.walk()
        if li.tag == "li"
    ]
    assert [line[:-1] for line in lines] == [
        ["Matches: 2", "Won: 1", "Ahead / behind: 1 / 1", "Average score difference: 5.0"],
        ["Matches: 1", "Won: 1", "Ahead / behind: 1 / 0", "Average score difference: 990.0"],
    ]
    assert all(line[-1].startswith("Last played: ") and line[-1].endswith(" UTC") for line in lines)
    times = [n.attrs["datetime"] for n in table.walk() if n.tag == "time"]
    assert len(times) == 2 and all(just_now(t) for t in times)
    links = [n.attrs["href"] for n in table.walk() if n.tag == "a"]
    assert links == ["/players/boris", "/players/vera"]
    theirs = boris.get("/players/anna").text
    assert 'class="guest-list played"' not in theirs
    assert "You and anna: 2 banked matches together." in theirs
    german = anna.get("/players/anna", headers={"Accept-Language": "de"}).text
    assert "Alle, mit denen du gespielt hast" in german and "5,0" in german


def test_a_period_counts_only_the_matches_banked_in_it(app: Any, make_user: Any) -> None:
    first, _second, anna, boris, _vera = two_matches(make_user)
    banked_in_june_2025(app, first["id"])
    june = "from=2025-06-01&to=2025-06-30"
    assert rows(anna.get(f"/api/players/anna/played?{june}")) == {
        ("boris", False): (1, 1, 1, 0, 990.0, 0, 0),
        ("vera", False): (1, 1, 1, 0, 990.0, 0, 0),
    }
    assert anna.get(f"/api/players/anna/played?{june}").json["period"] == {
        "since": "2025-06-01T00:00:00+00:00",
        "until": "2025-07-01T00:00:00+00:00",
    }
    assert rows(anna.get("/api/players/anna/played?period=year")) == {("boris", False): (1, 0, 0, 1, -980.0, 0, 0)}
    assert rows(anna.get("/api/players/anna/played?period=month")) == {("boris", False): (1, 0, 0, 1, -980.0, 0, 0)}
    assert rows(anna.get("/api/players/anna/played?from=2025-06-16")) == rows(
        anna.get("/api/players/anna/played?period=year")
    )
    assert rows(anna.get("/api/players/anna/played?to=2025-06-15")) == rows(
        anna.get(f"/api/players/anna/played?{june}")
    )
    assert rows(anna.get("/api/players/anna/played?to=2025-06-14")) == {}  # the 15th is after the 14th's end
    assert rows(anna.get("/api/players/anna/played?period=all")) == rows(anna.get("/api/players/anna/played"))

    def figures(query: str) -> tuple[Any, ...]:
        (r,) = anna.get(f"/api/players/anna?{query}").json["rulesets"]
        return r["played"], r["banked"], r["won"], r["average_place"], r["bid_made_sum"]

    assert figures(june) == (1, 1, 1, 1.0, 140)
    assert figures("period=year") == (1, 1, 0, 2.0, 0)
    assert figures("period=all") == (2, 2, 1, 1.5, 140)
    assert boris.get(f"/api/players/anna?{june}").json["head_to_head"] == {
        "matches": 1,
        "you_ahead": 0,
        "they_ahead": 1,
    }
    assert boris.get("/api/players/boris/versus/anna?period=year").json["first_ahead"] == 1
    assert anna.get("/api/players/anna?from=2024-01-01&to=2024-12-31").json["rulesets"] == []


def test_a_period_rates_its_matches_alone(app: Any, make_user: Any) -> None:
    first, _second, anna, _boris, _vera = two_matches(make_user)
    banked_in_june_2025(app, first["id"])
    model = PlackettLuce()
    # June 2025 alone: the first match, everyone new: Anna 1st, Boris and Vera 2nd.
    a, b, v = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 2])
    june = anna.get("/api/leaderboard/tysiacha?from=2025-06-01&to=2025-06-30").json["players"]
    expected = [("anna", a[0]), ("boris", b[0]), ("vera", v[0])]
    assert [(p["username"], p["matches"]) for p in june] == [("anna", 1), ("boris", 1), ("vera", 1)]
    for p, (name, r) in zip(june, expected, strict=True):
        assert (p["username"], p["mu"], p["sigma"]) == (name, round(r.mu, 4), round(r.sigma, 4))
    # This year alone: the second match, Anna and Boris new, Vera's seat a guest's (new too).
    a2, b2, _ = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2, 1, 3])
    year = anna.get("/api/leaderboard/tysiacha?period=year").json["players"]
    assert [(p["username"], p["mu"], p["matches"]) for p in year] == [
        ("boris", round(b2[0].mu, 4), 1),
        ("anna", round(a2[0].mu, 4), 1),
    ]
    all_time = anna.get("/api/leaderboard/tysiacha").json["players"]
    assert {p["username"]: p["matches"] for p in all_time} == {"anna": 2, "boris": 2, "vera": 1}
    history = anna.get("/api/players/anna?period=year").json["ratings"]["tysiacha"]
    assert history["matches"] == 1 and history["rating"] == round(a2[0].mu - 3 * a2[0].sigma, 1)


def test_a_bad_period_is_refused_next_to_its_field(csrf_app: Flask, make_user: Any) -> None:
    _first, _second, api, _boris, _vera = two_matches(make_user)
    anna = phone_of(csrf_app, "anna")
    for query, field, message in (
        ("from=2025-07-01&to=2025-06-01", "to", "The last day comes before the first."),
        ("from=2025-13-01", "from", "Enter a date as YYYY-MM-DD, for example 2026-12-05."),
        ("to=1.6.2025", "to", "Enter a date as YYYY-MM-DD, for example 2026-12-05."),
        ("to=9999-12-31", "to", "Enter a date from 1900-01-01 to 9998-12-31."),
        ("from=1899-12-31", "from", "Enter a date from 1900-01-01 to 9998-12-31."),
        ("period=week", "period", "Choose this month, this year or all time."),
    ):
        for url in ("/api/players/anna", "/api/players/anna/played", "/api/leaderboard/tichu"):
            answer = api.get(f"{url}?{query}")
            assert (answer.status_code, answer.json) == (422, {"error": message, "field": field})
        for url in ("/players/anna", "/leaderboard"):
            page = anna.get(f"{url}?{query}")
            assert page.status_code == 422
            assert errors_next_to(page.text, field) == [message]
            assert (
                'class="guest-list played"' not in page.text and 'class="leaderboard"' not in page.text
            )  # nothing shown
    german = api.client.get("/api/players/anna?period=week", headers={**api.headers, "Accept-Language": "de"}).json[
        "error"
    ]
    assert german != "Choose this month, this year or all time."


def test_the_chosen_period_shows_in_the_form_and_the_links(csrf_app: Flask, make_user: Any) -> None:
    two_matches(make_user)
    anna = phone_of(csrf_app, "anna")
    page = anna.get("/players/anna?from=2025-01-01&to=2099-12-31")
    assert page.status_code == 200
    html = parse(page.text)
    values = {n.attrs.get("id"): n.attrs.get("value") for n in html.walk() if n.tag == "input"}
    assert (values["from"], values["to"]) == ("2025-01-01", "2099-12-31")
    assert 'href="/players/boris?from=2025-01-01&amp;to=2099-12-31"' in page.text
    board = anna.get("/leaderboard?period=year").text
    assert 'href="/players/anna?period=year"' in board
    assert "The ratings of this period: computed from the matches banked in it alone" in board


def kept_and_summed_pairs(app: Any) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """The kept `pair_totals` beside what they must equal: every two claimed seats of a banked
    match added up here, one pair and role at a time."""
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import PairTotal, Seat, SeatFigure

    with app.app_context():
        kept = {
            (p.user_id, p.other_id, p.partner): (
                p.matches,
                p.won,
                p.ahead,
                p.behind,
                p.score_difference,
                p.calls_made,
                p.calls,
            )
            for p in db.session.execute(db.select(PairTotal)).scalars()
        }
        seats = db.session.execute(
            db.select(Seat.user_id, Seat.seat, SeatFigure).join(
                SeatFigure, (SeatFigure.match_id == Seat.match_id) & (SeatFigure.seat == Seat.seat)
            )
        ).all()
    summed: dict[Any, list[int]] = {}
    for me, my_seat, f in seats:
        for other, other_seat, g in seats:
            if g.match_id != f.match_id or other == me:
                continue
            partner = f.rules == "tichu" and my_seat % 2 == other_seat % 2
            made = f.tichu_made + f.grand_made + f.great_grand_made + g.tichu_made + g.grand_made + g.great_grand_made
            calls = (
                f.tichu_called
                + f.grand_called
                + f.great_grand_called
                + g.tichu_called
                + g.grand_called
                + g.great_grand_called
            )
            row = [1, int(f.won), int(f.place < g.place), int(f.place > g.place), f.score - g.score]
            row += [made, calls] if partner else [0, 0]
            old = summed.setdefault((me, other, partner), [0] * 7)
            summed[(me, other, partner)] = [a + b for a, b in zip(old, row, strict=True)]
    return kept, {k: tuple(v) for k, v in summed.items()}


def latest_ratings(app: Any) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Each account's kept latest rating (`rating_summaries`) beside its last rating row in
    bank order."""
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import Rating, RatingSummary

    with app.app_context():
        kept = {
            (s.user_id, s.game): (s.mu, s.sigma, s.match_id)
            for s in db.session.execute(db.select(RatingSummary)).scalars()
        }
        latest = {
            (r.user_id, r.game): (r.mu, r.sigma, r.match_id)
            for r in db.session.execute(db.select(Rating).order_by(Rating.banked_at, Rating.id)).scalars()
        }
    return kept, latest


def test_kept_pairs_equal_the_sums_after_every_kind_of_write(app: Any, make_user: Any) -> None:
    first, second, anna, boris, vera = two_matches(make_user)

    def check(pairs: int) -> None:
        kept, summed = kept_and_summed_pairs(app)
        assert kept == summed and len(kept) == pairs  # so an empty table cannot pass
        kept_latest, latest = latest_ratings(app)
        assert kept_latest == latest and latest

    check(pairs=6)  # banked: anna–boris, anna–vera, boris–vera, each both ways
    claim(vera, second, 2)  # a claim after banking
    check(pairs=6)
    url = f"/api/matches/{second['id']}/seats"
    assert vera.delete(f"{url}/2").status_code == 200  # release
    check(pairs=6)
    assert anna.delete(f"/api/matches/{first['id']}/seats/2").status_code == 200  # the creator releases Vera's
    check(pairs=2)  # vera has no banked seat left
    assert anna.put(f"/api/matches/{first['id']}/seats/2", json={"username": "vera"}).status_code == 200  # assign
    check(pairs=6)
    assert boris.delete("/api/users/me", json={"password": "correct horse"}).status_code == 204
    check(pairs=2)  # account deletion: anna–vera both ways


def test_migration_0017_fills_scores_pairs_and_latest_ratings(app: Any, make_user: Any) -> None:
    from scoresheet.storage.database import downgrade, foreign_keys_off, upgrade
    from scoresheet.storage.extensions import db
    from scoresheet.storage.models import RatingSummary

    _first, _second, anna, _boris, _vera = two_matches(make_user)
    before = kept_and_summed_pairs(app)
    with app.app_context():
        latest = {
            (s.user_id, s.game): (s.mu, s.sigma, s.match_id)
            for s in db.session.execute(db.select(RatingSummary)).scalars()
        }
        db.session.remove()
        with db.engine.connect() as conn, foreign_keys_off(conn), conn.begin():
            downgrade(conn, "0016")
            upgrade(conn, "head")
        assert {
            (s.user_id, s.game): (s.mu, s.sigma, s.match_id)
            for s in db.session.execute(db.select(RatingSummary)).scalars()
        } == latest
    after = kept_and_summed_pairs(app)
    assert after == before and after[0] == after[1] and len(after[0]) == 6
    # the scores came back from each match's summary: 990 and −980 as before
    assert rows(anna.get("/api/players/anna/played"))[("boris", False)] == (2, 1, 1, 1, 5.0, 0, 0)
