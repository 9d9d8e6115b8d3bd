"""Bringing people to a match: the join link (through log-in or registration, one tap to join,
never a change on a GET), its QR code, and the watch link, which shows its own match's sheet
read-only and nothing else, and stops once replaced or stopped."""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match, Member

from .page_helpers import Phone, live_part, played
from .test_security import table_counts
from .test_strangers import match_routes, url_for_rule

WATCH = re.compile(r'id="watch-link" href="http://localhost(/watch/[A-Za-z0-9_-]+)"')


def _code_of(phone: Phone, match_id: str) -> str:
    """The match's join code, as its page shows it."""
    found = re.search(r'href="http://localhost/join/(\w+)"', phone.get(f"/matches/{match_id}").text)
    assert found
    return found.group(1)


def _code(app: Flask, match_id: str) -> str:
    with app.app_context():
        return db.session.get(Match, match_id).join_code


def _members(app: Flask, match_id: str) -> int:
    with app.app_context():
        return db.session.execute(db.select(db.func.count(Member.id)).where(Member.match_id == match_id)).scalar_one()


def _watch_path(phone: Phone, match_id: str) -> str:
    """Make the match's watch link on its page; the link's path."""
    response = phone.post(f"/matches/{match_id}/watch", {}, form_url=f"/matches/{match_id}")
    assert response.status_code == 302
    found = WATCH.search(phone.get(f"/matches/{match_id}").text)
    assert found
    return found.group(1)


def test_the_match_page_offers_the_join_link_and_its_qr_code_drawn_here(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    page = phone.get(f"/matches/{match_id}").text
    link = f"http://localhost/join/{_code(csrf_app, match_id)}"
    assert f'data-share-url="{link}"' in page and f'id="join-link" href="{link}"' in page
    svg = re.search(r'<figure class="qr"><svg aria-hidden="true"[^>]*class="qr".*?</svg>', page, re.S)
    assert svg and "http" not in svg.group(0).split(">", 1)[1]  # drawn here, nothing fetched


def test_a_join_link_opened_logged_out_leads_through_log_in_into_the_match(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    path = f"/join/{_code(csrf_app, match_id)}"
    boris = Phone(csrf_app.test_client())
    boris.register("boris")
    boris.post("/logout", {}, form_url="/logout")
    page = boris.get(path)  # logged out: the table's match, and the way in, in its words
    assert page.status_code == 200 and "Anna · Boris · Vera" in page.text
    assert "Make an account or log in to join the match of Anna · Boris · Vera." in page.text
    assert f'href="/register?next={path}"' in page.text and f'href="/login?next={path}"' in page.text
    assert "Log in to see that page" not in page.text and ">Join</button>" not in page.text
    assert boris.get("/join/ABCDEFGHJK").status_code == 404  # a wrong code says so (and counts)
    login = f"/login?next={path}"
    response = boris.post(login, {"username": "boris", "password": "correct horse"})
    assert response.location == path
    page = boris.get(path)
    assert page.status_code == 200 and "Join this match?" in page.text and "Anna · Boris · Vera" in page.text
    assert _members(csrf_app, match_id) == 1  # looking never joins
    response = boris.post(path, {})  # the one tap
    assert response.status_code == 302 and response.location == f"/matches/{match_id}"
    assert _members(csrf_app, match_id) == 2
    assert boris.get(path).location == f"/matches/{match_id}"  # a member goes straight in


def test_a_join_link_leads_a_newcomer_through_registration_into_the_match(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    path = f"/join/{_code(csrf_app, match_id)}"
    vera = Phone(csrf_app.test_client())
    login_page = vera.get(f"/login?next={path}").text
    assert f'href="/register?next={path}"' in login_page
    response = vera.post(f"/register?next={path}", {"username": "vera", "password": "correct horse"})
    assert response.location == path
    page = vera.get(path).text  # the welcome fits the join page it lands on
    assert "Welcome, vera: your account is ready." in page and "Start a match" not in page
    assert vera.post(path, {}).location == f"/matches/{match_id}"


def test_joining_by_link_needs_the_csrf_token_and_a_real_code(phone: Phone, csrf_app: Flask, make_phone: Any) -> None:
    match_id = phone.new_match()
    boris = make_phone("boris")
    path = f"/join/{_code(csrf_app, match_id)}"
    assert boris.client.post(path, data={}).status_code == 400
    assert _members(csrf_app, match_id) == 1
    response = boris.get("/join/ABCDEFGHJK")
    assert response.status_code == 404 and "No match has that join code" in response.text
    assert boris.get("/join/%00%27").status_code == 404
    assert boris.get(path.lower()).status_code == 200  # forgiving, as typed codes are


def test_the_watch_link_shows_the_sheet_read_only_without_an_account(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    path = _watch_path(phone, match_id)
    watcher = csrf_app.test_client()
    response = watcher.get(path)
    assert response.status_code == 200
    page = response.text
    assert "Anna · Boris · Vera" in page and "Watching" in page and "Hand 2: Boris deals." in page
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response.headers["Cache-Control"]
    assert f"/matches/{match_id}" not in page  # no way to the match's own pages
    assert re.findall(r"<form[^>]*action=\"([^\"]*)\"", page) == ["/language"]
    version = watcher.get(f"{path}/version")
    assert version.status_code == 200 and version.json["version"] == "1-1"
    assert watcher.get(f"{path}/version", headers={"If-None-Match": '"1-1"'}).status_code == 304
    csv = watcher.get(f"{path}/sheet.csv")
    assert csv.status_code == 200 and "Boris total" in csv.text
    phone.hand(match_id, 2, **played(2, 100, [20, 40, None]))
    assert watcher.get(f"{path}/version").json["version"] == "2-2"
    # What the page fetches after a change: its live part alone, as the page now has it.
    part = watcher.get(f"{path}/live")
    assert part.status_code == 200 and f'data-live-url="{path}/live"' in part.text
    assert part.headers["Referrer-Policy"] == "no-referrer" and "no-store" in part.headers["Cache-Control"]
    assert live_part(part.text) == live_part(watcher.get(path).text)
    assert "Hand 3: Vera deals." in part.text and "<html" not in part.text and "Scoreboard" not in part.text


def test_the_watch_link_reaches_nothing_else_and_changes_nothing(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    other = phone.new_match(["Gleb", "Dana", "Ira"])
    path = _watch_path(phone, match_id)
    watcher = csrf_app.test_client()
    assert "Gleb" not in watcher.get(path).text
    before = table_counts(csrf_app)
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for url in (path, f"{path}/version", f"{path}/sheet.csv"):
            assert watcher.open(url, method=method).status_code == 405, (method, url)
    token = path.rsplit("/", 1)[1]
    for rule, method in match_routes(csrf_app):
        for match in (match_id, other):
            url = url_for_rule(rule, match)
            response = watcher.open(
                url, method=method, json={"kind": "redeal"}, headers={"Authorization": f"Bearer {token}"}
            )
            assert response.status_code in (302, 400, 401, 404), (rule, method, response.status_code)
            if response.status_code == 302:
                assert response.location.startswith("/login"), rule
    assert table_counts(csrf_app) == before


def test_a_replaced_or_stopped_watch_link_stops_working(phone: Phone, csrf_app: Flask, make_phone: Any) -> None:
    match_id = phone.new_match()
    old = _watch_path(phone, match_id)
    boris = make_phone("boris")
    boris.post(f"/join/{_code(csrf_app, match_id)}", {})
    new = _watch_path(boris, match_id)  # any member replaces it
    watcher = csrf_app.test_client()
    assert new != old and watcher.get(old).status_code == 404
    assert watcher.get(f"{old}/version").status_code == 404
    assert watcher.get(new).status_code == 200
    response = phone.post(f"/matches/{match_id}/watch/stop", {}, form_url=f"/matches/{match_id}")
    assert response.status_code == 302
    gone = watcher.get(new)
    assert gone.status_code == 404 and "This watch link does not work" in gone.text
    assert watcher.get(f"{new}/sheet.csv").status_code == 404
    assert watcher.get(f"{new}/live").status_code == 404
    assert 'id="watch-link"' not in phone.get(f"/matches/{match_id}").text
    assert watcher.get("/watch/short").status_code == 404


def test_the_api_makes_replaces_and_stops_watch_links(api_user: Any, stranger: Any, client: Any) -> None:
    match = api_user.new_match()
    links = api_user.get(f"/api/matches/{match['id']}/links").json
    assert links == {"join_url": f"http://localhost/join/{match['join_code']}", "watch_url": None}
    made = api_user.post(f"/api/matches/{match['id']}/watch")
    assert made.status_code == 201 and made.json["watch_url"].startswith("http://localhost/watch/")
    path = made.json["watch_url"].removeprefix("http://localhost")
    assert len(path.rsplit("/", 1)[1]) >= 32
    assert client.get(path).status_code == 200
    assert stranger.post(f"/api/matches/{match['id']}/watch").status_code == 404
    assert stranger.delete(f"/api/matches/{match['id']}/watch").status_code == 404
    assert api_user.delete(f"/api/matches/{match['id']}/watch").status_code == 204
    assert client.get(path).status_code == 404
    assert api_user.get(f"/api/matches/{match['id']}/links").json["watch_url"] is None


def _won_match(api_user: Any, before_the_win: Any = None) -> dict[str, Any]:
    """A GGTables match to 500 that Anna has won with her first hand."""
    match = api_user.new_match(rules="ggtables", options={"target": 500}, start_scores=[490, 0, 0], first_dealer=2)
    if before_the_win is not None:  # a won match takes no new member
        assert before_the_win.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    api_user.add_hand(
        match["id"], {"declarer": 0, "bid": 100, "points": [None, 20, 20], "marriages": [["hearts"], [], []]}
    )
    return match


def test_a_rematch_has_the_same_players_rules_and_members_and_the_next_dealer(
    api_user: Any, make_user: Any, app: Flask
) -> None:
    boris = make_user("boris")
    match = _won_match(api_user, before_the_win=boris)
    response = boris.post(f"/api/matches/{match['id']}/rematch")
    assert response.status_code == 201
    new = response.json
    assert new["id"] != match["id"] and new["players"] == ["Anna", "Boris", "Vera"]
    assert new["rules"] == "ggtables" and new["options"] == match["options"]
    assert new["hands"] == [] and new["next"]["dealer"] == 0  # one seat on from seat 2
    assert [s["score"] for s in new["standings"]] == [0, 0, 0]
    assert sorted(new["members"]) == ["anna", "boris"]
    again = api_user.post(f"/api/matches/{match['id']}/rematch")  # the other phone's tap
    assert again.status_code == 200 and again.json["id"] == new["id"]
    with app.app_context():
        assert db.session.get(Match, match["id"]).rematch_id == new["id"]


def test_who_joins_after_the_rematch_started_does_not_reach_it(api_user: Any, make_user: Any, make_phone: Any) -> None:
    match = _won_match(api_user)
    new = api_user.post(f"/api/matches/{match['id']}/rematch").json
    mallory = make_user("mallory")  # tries the old match's code, afterwards: a won match takes nobody
    refused = mallory.post("/api/matches/join", json={"code": match["join_code"]})
    assert refused.status_code == 409 and "join_code" not in refused.json
    late = mallory.post(f"/api/matches/{match['id']}/rematch")
    assert late.status_code == 404 and "join_code" not in late.json
    assert mallory.get(f"/api/matches/{new['id']}").status_code == 404
    vera = make_phone("vera")
    page = vera.post("/join", {"code": match["join_code"]}, form_url="/").text
    assert new["id"] not in page and "This match is over" in page
    assert vera.get(f"/matches/{match['id']}").status_code == 404


def test_a_match_still_being_played_has_no_rematch(api_user: Any, stranger: Any, app: Flask) -> None:
    match = api_user.new_match()
    before = table_counts(app)
    response = api_user.post(f"/api/matches/{match['id']}/rematch")
    assert response.status_code == 409 and "still being played" in response.json["error"]
    assert stranger.post(f"/api/matches/{match['id']}/rematch").status_code == 404
    assert table_counts(app) == before
    api_user.post(f"/api/matches/{match['id']}/end")
    assert api_user.post(f"/api/matches/{match['id']}/rematch").status_code == 201


def test_the_rematch_button_starts_the_next_match_and_the_old_sheet_points_to_it(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    assert "Rematch" not in phone.get(f"/matches/{match_id}").text
    phone.post(f"/matches/{match_id}/end", {"confirm": "y"})
    page = phone.get(f"/matches/{match_id}").text
    assert f'action="/matches/{match_id}/rematch"' in page
    response = phone.post(f"/matches/{match_id}/rematch", {}, form_url=f"/matches/{match_id}")
    new_id = response.location.rsplit("/", 1)[1]
    assert new_id != match_id
    assert "Hand 1: Boris deals." in phone.get(response.location).text
    assert f'href="/matches/{new_id}"' in phone.get(f"/matches/{match_id}").text


def test_a_rematch_seats_each_player_where_they_sat(api_user: Any, make_user: Any) -> None:
    boris, vera = make_user("boris"), make_user("vera")
    match = api_user.new_match()
    for player in (boris, vera):
        assert player.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    assert api_user.post(f"/api/matches/{match['id']}/seats/0/claim").status_code == 200
    assert boris.post(f"/api/matches/{match['id']}/seats/1/claim").status_code == 200  # vera stays a guest
    api_user.post(f"/api/matches/{match['id']}/end")
    new = vera.post(f"/api/matches/{match['id']}/rematch").json
    seats = api_user.get(f"/api/matches/{new['id']}/seats").json["seats"]
    assert [(s["name"], s["username"]) for s in seats] == [("Anna", "anna"), ("Boris", "boris"), ("Vera", None)]
    old = api_user.get(f"/api/matches/{match['id']}/seats").json["seats"]
    assert [s["username"] for s in old] == ["anna", "boris", None]  # the old match keeps its own


def test_a_banked_sheet_keeps_listening_until_its_rematch_starts(phone: Phone, make_phone: Any) -> None:
    match_id = phone.new_match(**{"start_scores-0": "870"})
    boris = make_phone("boris")
    boris.post("/join", {"code": _code_of(phone, match_id)}, form_url="/")
    phone.hand(match_id, 1, **played(0, 140, [None, 20, 20], {0: ["hearts"]}))  # Anna wins
    assert phone.post(f"/matches/{match_id}/bank", {"confirm": "y"}).status_code == 302
    live = f'data-version-url="/matches/{match_id}/version"'
    assert live in boris.get(f"/matches/{match_id}").text  # another phone may start the rematch
    phone.post(f"/matches/{match_id}/rematch", {}, form_url=f"/matches/{match_id}")
    page = boris.get(f"/matches/{match_id}").text  # what the live update swaps in
    assert "Open the rematch" in page and live not in page  # nothing more to wait for


def test_the_start_form_offers_names_played_with_and_names_the_dealers(phone: Phone) -> None:
    assert "<datalist" not in phone.get("/matches/new").text
    phone.new_match(["Anna", "Boris", "Vera"])
    phone.new_match(["Łukasz", "boris", "Gleb"])
    page = phone.get("/matches/new").text
    names = re.findall(r'<option value="([^"]+)">', page.split('<datalist id="known-names">')[1])
    assert names[:3] == ["Łukasz", "boris", "Gleb"] and "Anna" in names and "Boris" not in names
    assert 'list="known-names"' in page
    refused = phone.post(
        "/matches/new",
        {"players-0": "Anna", "players-1": "Boris", "players-2": "Anna", "rules": "squarescores", "first_dealer": "1"},
    )
    dealers = refused.text.split('id="first_dealer"')[1].split("</select>")[0]
    assert re.findall(r"<option[^>]*>([^<]*)</option>", dealers) == ["Anna", "Boris", "Anna", "Player 4"]
    assert 'data-dealer-names="Player 9999"' in refused.text


# --- The scoreboard: the watch link's big-number view ----------------------------


def _board_sides(page: str) -> list[dict[str, str]]:
    """Each side on the board: its name, score, last change and marks, as the page writes them."""
    sides = []
    for li in re.findall(r'<li class="board-side[^"]*">(.*?)</li>', page, re.S):
        found = {k: re.search(rf'class="board-{k}">(.*?)</span>', li, re.S) for k in ("name", "score", "change")}
        sides.append(
            {k: html.unescape(v.group(1).strip()) if v else "" for k, v in found.items()}
            | {"marks": " ".join(re.findall(r'class="mark [a-z]+">([^<]*)<', li))}
        )
    return sides


def test_the_scoreboard_shows_each_side_its_score_the_next_dealer_and_the_barrel(api_user: Any, client: Any) -> None:
    match = api_user.new_match(start_scores=[760, 0, 0])
    api_user.add_hand(
        match["id"], {"declarer": 0, "bid": 120, "points": [None, 10, 20], "marriages": [["hearts"], [], []]}
    )
    path = api_user.post(f"/api/matches/{match['id']}/watch").json["watch_url"].removeprefix("http://localhost")
    response = client.get(f"{path}/board")
    assert response.status_code == 200
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response.headers["Cache-Control"]
    page = response.text
    assert _board_sides(page) == [
        {"name": "Anna", "score": "880", "change": "hand 1: +120", "marks": "on the barrel: 3 hands left"},
        {"name": "Boris", "score": "10", "change": "hand 1: +10", "marks": "deals next"},
        {"name": "Vera", "score": "20", "change": "hand 1: +20", "marks": ""},
    ]
    assert '<p class="board-status" role="status">Hand 2: Boris deals.</p>' in page
    assert f'data-version-url="{path}/version"' in page  # live, as the watch page
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in page
    forms = re.findall(r'<form [^>]*action="([^"]*)"', page)
    assert forms == ["/language"] and f"/matches/{match['id']}" not in page  # nothing to change
    assert f'href="{path}/board"' in client.get(path).text  # the watch page links to it
    api_user.add_hand(match["id"], {"declarer": 1, "bid": 100, "points": [40, None, 0]})
    after = _board_sides(client.get(f"{path}/board").text)
    assert [s["change"] for s in after] == ["hand 2: 0", "hand 2: −100", "hand 2: 0"]
    assert after[0]["marks"] == "on the barrel: 2 hands left"
    assert after[2]["marks"] == "deals next"


def test_a_tichu_scoreboard_shows_the_teams_and_marks_the_dealing_team(api_user: Any, client: Any) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera", "Gleb"], rules="tichu", first_dealer=1)
    path = api_user.post(f"/api/matches/{match['id']}/watch").json["watch_url"].removeprefix("http://localhost")
    page = client.get(f"{path}/board").text
    sides = _board_sides(page)
    assert [s["name"] for s in sides] == ["Anna & Vera", "Boris & Gleb"]
    assert [s["marks"] for s in sides] == ["", "deals next"]  # Boris deals: his team's side
    assert "Round 1: Boris deals." in page and 'class="board-change"' not in page


def test_the_scoreboard_answers_only_for_a_live_token_and_changes_nothing(
    phone: Phone, csrf_app: Flask, make_phone: Any
) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    path = _watch_path(phone, match_id)
    watcher = csrf_app.test_client()
    assert watcher.get(f"{path}/board").status_code == 200
    before = table_counts(csrf_app)
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert watcher.open(f"{path}/board", method=method).status_code == 405, method
    assert table_counts(csrf_app) == before
    missing = watcher.get("/watch/" + "A" * 32 + "/board")
    assert missing.status_code == 404
    assert watcher.get("/watch/short/board").status_code == 404
    new = _watch_path(phone, match_id)  # replaced: the old board is gone at once
    assert watcher.get(f"{path}/board").status_code == 404
    phone.post(f"/matches/{match_id}/watch/stop", {}, form_url=f"/matches/{match_id}")
    stopped = watcher.get(f"{new}/board")
    assert stopped.status_code == 404  # like a missing one, word for word

    def words(page: str, token_path: str) -> str:
        """The page without what differs by request: the path in it and the CSRF token."""
        page = page.replace(token_path, "/watch/<token>")
        return re.sub(r'name="csrf_token" value="[^"]*"', "", page)

    assert words(stopped.text, new) == words(missing.text, "/watch/" + "A" * 32)


def test_a_member_opens_the_scoreboard_in_one_tap_and_a_stranger_cannot(
    phone: Phone, csrf_app: Flask, make_phone: Any
) -> None:
    match_id = phone.new_match()
    page = phone.get(f"/matches/{match_id}").text
    assert f'action="/matches/{match_id}/board"' in page  # no watch link yet: the tap makes one
    stranger = make_phone("stranger")
    assert stranger.post(f"/matches/{match_id}/board", {}, form_url="/").status_code == 404
    assert csrf_app.test_client().post(f"/matches/{match_id}/board").status_code in (302, 400)
    with csrf_app.app_context():
        assert db.session.get(Match, match_id).watch_token is None  # neither made one
    response = phone.post(f"/matches/{match_id}/board", {}, form_url=f"/matches/{match_id}")
    assert response.status_code == 302
    board = response.location
    assert re.fullmatch(r"/watch/[A-Za-z0-9_-]{32}/board", board)
    assert csrf_app.test_client().get(board).status_code == 200
    page = phone.get(f"/matches/{match_id}").text
    assert f'href="{board}"' in page  # from now on a plain link to the same board
    again = phone.post(f"/matches/{match_id}/board", {}, form_url=f"/matches/{match_id}")
    assert again.location == board  # an existing link is kept: boards already open stay open


def test_share_the_result_is_offered_on_a_won_match_only_and_hidden_without_script(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match(rules="ggtables", target="500", **{"start_scores-0": "490"})
    playing = phone.get(f"/matches/{match_id}").text
    assert "data-share-result" not in playing and "result.js" not in playing
    phone.hand(match_id, 1, **played(0, 100, [None, 20, 20], {0: ["hearts"]}))
    page = phone.get(f"/matches/{match_id}").text
    assert "wins with" in page
    button = re.search(r"<button[^>]*data-share-result[^>]*>Share the result</button>", page)
    assert button and " hidden " in button.group(0)
    assert re.search(r'<script src="/static/result\.js\?v=[0-9a-f]+" defer></script>', page)


def test_the_watch_page_and_the_board_carry_the_out_of_date_line_for_the_script(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    path = _watch_path(phone, match_id)
    watcher = csrf_app.test_client()
    for url in (path, f"{path}/board"):
        line = re.search(
            r'<p class="offline-line" role="status" hidden '
            r'data-stale-words="([^"]*)"></p>\s*(?:<!--live-->)?<div id="live"',
            watcher.get(url).text,
        )
        assert line, url
        assert line.group(1) == "The sheet may be out of date: no connection since {time}."


def test_the_scoreboard_installs_as_an_app_of_its_own_while_its_token_lives(
    phone: Phone, csrf_app: Flask, make_phone: Any
) -> None:
    match_id = phone.new_match()
    path = _watch_path(phone, match_id)
    watcher = csrf_app.test_client()
    assert f'<link rel="manifest" href="{path}/board.webmanifest?lang=en">' in watcher.get(f"{path}/board").text
    answer = watcher.get(f"{path}/board.webmanifest?lang=ru")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    assert answer.headers["Cache-Control"] == "no-store" and answer.headers["Referrer-Policy"] == "no-referrer"
    manifest = answer.get_json(force=True)
    board = f"{path}/board"
    assert (manifest["id"], manifest["start_url"], manifest["scope"]) == (board, board, board)
    assert manifest["display"] == "fullscreen" and len(manifest["icons"]) == 2
    assert (manifest["name"], manifest["short_name"]) == ("Табло: Anna · Boris · Vera", "Табло")
    assert watcher.get("/manifest.webmanifest").get_json(force=True)["scope"] == "/"  # the phone's app
    phone.post(f"/matches/{match_id}/watch/stop", {}, form_url=f"/matches/{match_id}")
    assert watcher.get(f"{path}/board.webmanifest").status_code == 404
