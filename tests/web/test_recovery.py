"""The audit trail, restoring deleted hands, match backups and the whole-database CLI."""

from __future__ import annotations

import io
import json
import threading
from typing import Any

import pytest
from conftest import app_config, empty_database
from flask import Flask
from sqlalchemy import func

from scoresheet import create_app
from scoresheet.services.matches import backup
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .helpers import WINNING_HAND, WINNING_START, missing_at_first, played
from .page_helpers import Phone, errors_next_to, flashes, parse

MISSED = played(1, 100, [20, None, 20])


def hand(i: int) -> dict[str, Any]:
    """A legal hand, different for each i (the declarer misses; nobody wins)."""
    points: list[int | None] = [21 + i, 30]
    points.insert(i % 3, None)
    return played(i % 3, 100, points)


def computed(match: dict[str, Any]) -> dict[str, Any]:
    """What a sheet shows, without the match's identity."""
    return {k: match[k] for k in ("players", "rules", "options", "status", "winner", "standings", "next")} | {
        "hands": [{k: v for k, v in h.items() if k not in ("version", "uid")} for h in match["hands"]]
    }


def without_uids(match: dict[str, Any]) -> dict[str, Any]:
    """The match object without its hands' uids."""
    return match | {"hands": [{k: v for k, v in h.items() if k != "uid"} for h in match["hands"]]}


# --- the audit trail -------------------------------------------------------------------------


def test_every_change_is_in_the_history_newest_first_in_plain_words(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match(start_scores=WINNING_START)
    mid = match["id"]
    boris.post("/api/matches/join", json={"code": match["join_code"]})
    anna.add_hand(mid, played(1, 120, [20, None, 20]))
    boris.add_hand(mid, played(2, 100, [20, 20, None]))
    assert boris.put(f"/api/matches/{mid}/hands/1", json=played(1, 140, [25, None, 20])).status_code == 200
    assert boris.delete(f"/api/matches/{mid}/hands/2").status_code == 200
    anna.add_hand(mid, WINNING_HAND)
    finished = anna.get(f"/api/matches/{mid}/history").json["history"]
    assert finished[1]["restorable"], "won, but the hand would come back inside the sheet"
    assert anna.post(f"/api/matches/{mid}/bank").status_code == 200
    history = anna.get(f"/api/matches/{mid}/history").json["history"]
    assert [e["words"] for e in history] == [
        "anna banked the match",
        "anna recorded hand 2: Anna bid 140",
        "boris deleted hand 2 (Vera bid 100)",
        "boris corrected hand 1: bid 120 → 140; Anna's points 20 → 25",
        "boris recorded hand 2: Vera bid 100",
        "anna recorded hand 1: Boris bid 120",
        "boris joined the match",
        "anna started the match: Anna, Boris, Vera",
    ]
    edit = history[3]
    assert edit["user"] == "boris" and edit["action"] == "hand_edited" and edit["hand"] == 1
    assert edit["before"]["bid"] == 120 and edit["after"]["bid"] == 140
    assert history[2]["before"] == {
        **MISSED,
        "declarer": 2,
        "points": [20, 20, None],
        "made": None,
        "blind": False,
        "sitter_points": 0,
        "forced": False,
    }
    assert not any(e["restorable"] for e in history), "a banked match takes no hand back"


def test_times_carry_their_utc_offset_on_every_database(api_user: Any) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], MISSED)
    times = [e["at"] for e in api_user.get(f"/api/matches/{match['id']}/history").json["history"]]
    times += [m["created_at"] for m in api_user.get("/api/matches").json["matches"]]
    backup = api_user.get(f"/api/matches/{match['id']}/backup").json["matches"][0]
    times += [backup["created_at"], backup["hands"][0]["created_at"], backup["hands"][0]["updated_at"]]
    assert len(times) == 6 and all(t.endswith("+00:00") for t in times), times


def test_a_refused_change_leaves_no_trace_in_the_history(api_user: Any) -> None:
    mid = api_user.new_match()["id"]
    api_user.add_hand(mid, played(1, 100, [20, None, 120]), status=422)
    api_user.add_hand(mid, {**MISSED, "expected_hand": 2}, status=409)
    actions = [e["action"] for e in api_user.get(f"/api/matches/{mid}/history").json["history"]]
    assert actions == ["match_created"]


def history_of(user: Any, mid: str) -> list[dict[str, Any]]:
    """The match's history through the API, newest first."""
    response = user.get(f"/api/matches/{mid}/history")
    assert response.status_code == 200, response.json
    return response.json["history"]


def changes(user: Any, mid: str, call: Any, status: int) -> list[dict[str, Any]]:
    """Make one change (`call()` answers `status`); the history entries it wrote."""
    before = len(history_of(user, mid))
    response = call()
    assert response.status_code == status, response.json
    after = history_of(user, mid)
    return after[: len(after) - before]


def test_each_change_of_a_seat_is_one_entry_and_a_refused_one_none(make_user: Any) -> None:
    anna, boris, vera = make_user("anna"), make_user("boris"), make_user("vera")
    match = anna.new_match()
    mid, seats = match["id"], f"/api/matches/{match['id']}/seats"
    for u in (boris, vera):
        assert u.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    steps = [
        (
            lambda: boris.post(f"{seats}/1/claim"),
            200,
            "seat_claimed",
            "boris",
            None,
            {"seat": 1, "user": "boris"},
            "boris is Boris on the sheet now",
        ),
        (
            lambda: boris.delete(f"{seats}/1"),  # the creator cannot give it away while it is his
            200,
            "seat_released",
            "boris",
            {"seat": 1, "user": "boris"},
            None,
            "boris left Boris's seat: Boris is a guest again",
        ),
        (
            lambda: anna.put(f"{seats}/1", json={"username": "vera"}),
            200,
            "seat_assigned",
            "anna",
            None,
            {"seat": 1, "user": "vera"},
            "anna gave Boris's seat to vera",
        ),
        (
            lambda: vera.delete(f"{seats}/1"),
            200,
            "seat_released",
            "vera",
            {"seat": 1, "user": "vera"},
            None,
            "vera left Boris's seat: Boris is a guest again",
        ),
        (
            lambda: anna.put(f"{seats}/2", json={"username": "boris"}),
            200,
            "seat_assigned",
            "anna",
            None,
            {"seat": 2, "user": "boris"},
            "anna gave Vera's seat to boris",
        ),
        (
            lambda: anna.delete(f"{seats}/2"),
            200,
            "seat_released",
            "anna",
            {"seat": 2, "user": "boris"},
            None,
            "anna took Vera's seat from boris: Vera is a guest again",
        ),
    ]
    for call, status, action, user, before, after, words in steps:
        (entry,) = changes(anna, mid, call, status)
        assert (entry["action"], entry["user"], entry["before"], entry["after"], entry["words"]) == (
            action,
            user,
            before,
            after,
            words,
        )
    boris.post(f"{seats}/0/claim")
    for call, status in (
        (lambda: vera.post(f"{seats}/0/claim"), 409),  # boris's seat
        (lambda: boris.post(f"{seats}/0/claim"), 200),  # his already
        (lambda: vera.delete(f"{seats}/0"), 403),  # not hers
        (lambda: vera.put(f"{seats}/1", json={"username": "vera"}), 403),
        (lambda: anna.put(f"{seats}/1", json={"username": "x"}), 422),
        (lambda: anna.delete(f"{seats}/2"), 200),
    ):  # a guest's already
        assert changes(anna, mid, call, status) == []


def test_making_replacing_and_stopping_the_watch_link_are_entries_without_the_token(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match()
    mid, watch = match["id"], f"/api/matches/{match['id']}/watch"
    assert boris.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    for user, call, status, action, words in (
        (anna, anna.post, 201, "watch_link_made", "anna made a watch link"),
        (boris, boris.post, 201, "watch_link_replaced", "boris made a new watch link: the old one stopped working"),
        (anna, anna.delete, 204, "watch_link_stopped", "anna stopped the watch link"),
    ):
        (entry,) = changes(anna, mid, lambda: call(watch), status)  # noqa: B023
        assert (entry["action"], entry["user"], entry["words"]) == (action, user.username, words)
        assert entry["before"] is None and entry["after"] is None
    assert changes(anna, mid, lambda: anna.delete(watch), 204) == []  # stopped already
    token = anna.post(watch).json["watch_url"].rsplit("/", 1)[1]
    assert token not in json.dumps(history_of(anna, mid))
    assert token not in json.dumps(anna.get(f"/api/matches/{mid}/backup").json)


def test_a_deleted_account_leaves_an_entry_in_each_shared_match(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    shared = anna.new_match()
    own = boris.new_match()["id"]
    assert boris.post("/api/matches/join", json={"code": shared["join_code"]}).status_code == 200
    assert boris.post(f"/api/matches/{shared['id']}/seats/1/claim").status_code == 200
    wrong = lambda: boris.delete("/api/users/me", json={"password": "wrong horse"})  # noqa: E731
    assert changes(anna, shared["id"], wrong, 403) == []
    gone = lambda: boris.delete("/api/users/me", json={"password": "correct horse"})  # noqa: E731
    (entry,) = changes(anna, shared["id"], gone, 204)
    assert (entry["action"], entry["user"], entry["words"]) == (
        "account_deleted",
        "boris",
        "boris deleted their account",
    )
    history = history_of(anna, shared["id"])
    assert [e["user"] for e in history] == ["boris", "boris", "boris", "anna"]  # names kept
    assert anna.get(f"/api/matches/{own}/history").status_code == 404  # nobody left: gone


def test_a_backup_with_every_new_kind_of_entry_imports_with_its_words(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match()
    mid, seats = match["id"], f"/api/matches/{match['id']}/seats"
    assert boris.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    for call in (
        lambda: boris.post(f"{seats}/1/claim"),
        lambda: anna.put(f"{seats}/0", json={"username": "anna"}),
        lambda: anna.put(f"{seats}/2", json={"username": "boris"}),
        lambda: boris.delete(f"{seats}/2"),
        lambda: anna.post(f"/api/matches/{mid}/watch"),
        lambda: anna.post(f"/api/matches/{mid}/watch"),
        lambda: anna.delete(f"/api/matches/{mid}/watch"),
        lambda: boris.delete("/api/users/me", json={"password": "correct horse"}),
    ):
        assert call().status_code < 300
    words = [e["words"] for e in history_of(anna, mid)]
    imported = anna.post("/api/matches/import", json=anna.get(f"/api/matches/{mid}/backup").json)
    assert imported.status_code == 201, imported.json
    again = [e["words"] for e in history_of(anna, imported.json["matches"][0]["id"])]
    assert again[1:] == words and len(set(words)) == len(words) == 10


def test_a_stranger_sees_no_history_and_restores_nothing(api_user: Any, stranger: Any) -> None:
    mid = api_user.new_match()["id"]
    assert stranger.get(f"/api/matches/{mid}/history").status_code == 404
    assert stranger.post(f"/api/matches/{mid}/history/1/restore").status_code == 404
    assert stranger.get(f"/api/matches/{mid}/backup").status_code == 404


def test_the_api_edit_carries_the_hand_version(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match()
    boris.post("/api/matches/join", json={"code": match["join_code"]})
    mid = match["id"]
    assert anna.add_hand(mid, MISSED)["hands"][0]["version"] == 1
    answer = boris.put(f"/api/matches/{mid}/hands/1", json={**played(1, 105, [20, None, 20]), "version": 1})
    assert answer.status_code == 200 and answer.json["hands"][0]["version"] == 2
    stale = anna.put(f"/api/matches/{mid}/hands/1", json={**played(1, 110, [20, None, 20]), "version": 1})
    assert stale.status_code == 409
    assert stale.json["error"].startswith("This hand was changed by boris meanwhile")
    bad = anna.put(f"/api/matches/{mid}/hands/1", json={**MISSED, "version": "1"})
    assert bad.status_code == 400 and bad.json["field"] == "version"
    assert anna.get(f"/api/matches/{mid}").json["hands"][0]["bid"] == 105


# --- restoring a deleted hand ----------------------------------------------------------------


def deleted_entry(user: Any, mid: str) -> int:
    """The id of the newest hand_deleted entry."""
    return next(
        e["id"] for e in user.get(f"/api/matches/{mid}/history").json["history"] if e["action"] == "hand_deleted"
    )


def test_a_deleted_hand_comes_back_at_its_old_number_and_later_hands_move_down(api_user: Any) -> None:
    mid = api_user.new_match()["id"]
    for i in range(4):
        api_user.add_hand(mid, hand(i))
    before = api_user.get(f"/api/matches/{mid}").json
    assert api_user.delete(f"/api/matches/{mid}/hands/2").status_code == 200
    entry = deleted_entry(api_user, mid)
    answer = api_user.post(f"/api/matches/{mid}/history/{entry}/restore")
    assert answer.status_code == 200
    assert computed(answer.json) == computed(before)
    again = api_user.post(f"/api/matches/{mid}/history/{entry}/restore")
    assert again.status_code == 409 and "restored already" in again.json["error"]
    history = api_user.get(f"/api/matches/{mid}/history").json["history"]
    assert history[0]["words"].startswith("anna restored a deleted hand as hand 2")
    assert not any(e["restorable"] for e in history)


def test_a_deleted_hand_beyond_the_end_comes_back_as_the_next_hand(api_user: Any) -> None:
    mid = api_user.new_match()["id"]
    for i in range(3):
        api_user.add_hand(mid, hand(i))
    api_user.delete(f"/api/matches/{mid}/hands/3")
    api_user.delete(f"/api/matches/{mid}/hands/2")
    entry = deleted_entry(api_user, mid)  # hand 2, deleted last; hand 3's entry is older
    older = [
        e["id"] for e in api_user.get(f"/api/matches/{mid}/history").json["history"] if e["action"] == "hand_deleted"
    ][1]
    answer = api_user.post(f"/api/matches/{mid}/history/{older}/restore")
    assert answer.status_code == 200 and len(answer.json["hands"]) == 2
    assert answer.json["hands"][1]["declarer"] == 2  # hand(2) is back, as hand 2
    assert api_user.post(f"/api/matches/{mid}/history/{entry}/restore").status_code == 200


def test_a_restore_the_rules_refuse_is_refused_and_stores_nothing(api_user: Any) -> None:
    mid = api_user.new_match(start_scores=WINNING_START)["id"]
    api_user.add_hand(mid, MISSED)
    api_user.add_hand(mid, played(2, 100, [20, 20, None]))
    api_user.delete(f"/api/matches/{mid}/hands/2")
    entry = deleted_entry(api_user, mid)
    api_user.delete(f"/api/matches/{mid}/hands/1")
    api_user.add_hand(mid, WINNING_HAND)  # won: hand 2 could only come after the winning hand
    before = api_user.get(f"/api/matches/{mid}").json
    answer = api_user.post(f"/api/matches/{mid}/history/{entry}/restore")
    assert answer.status_code == 409, answer.json
    assert answer.json["error"].startswith("The match is over: Anna has won.")
    assert api_user.get(f"/api/matches/{mid}").json == before
    assert api_user.post(f"/api/matches/{mid}/history/99999/restore").status_code == 404


@pytest.mark.parametrize("close", ["finished", "banked", "ended"])
def test_the_page_and_the_api_agree_which_deleted_hands_can_come_back(api_user: Any, close: str) -> None:
    mid = api_user.new_match(start_scores=WINNING_START)["id"]
    api_user.add_hand(mid, MISSED)
    api_user.add_hand(mid, played(2, 100, [20, 20, None]))
    api_user.delete(f"/api/matches/{mid}/hands/2")  # would come back as hand 2
    api_user.delete(f"/api/matches/{mid}/hands/1")  # would come back as hand 1
    if close == "ended":
        assert api_user.post(f"/api/matches/{mid}/end").status_code == 200
    else:
        api_user.add_hand(mid, WINNING_HAND)  # won with one hand: no hand 2 after it
    if close == "banked":
        assert api_user.post(f"/api/matches/{mid}/bank").status_code == 200
    history = api_user.get(f"/api/matches/{mid}/history").json["history"]
    deleted = {e["hand"]: e["id"] for e in history if e["action"] == "hand_deleted"}
    by_api = {e["id"] for e in history if e["restorable"]}
    assert api_user.client.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    page = api_user.client.get(f"/matches/{mid}/history").text
    by_page = {
        int(n.attrs["href"].rpartition("entry=")[2])
        for n in parse(page).walk()
        if n.tag == "a" and "restore" in n.attrs.get("href", "")
    }
    assert by_api == by_page == ({deleted[1]} if close == "finished" else set())
    before = api_user.get(f"/api/matches/{mid}").json
    for entry in sorted(set(deleted.values()) - by_api):
        answer = api_user.post(f"/api/matches/{mid}/history/{entry}/restore")
        assert answer.status_code == 409, answer.json
    assert api_user.get(f"/api/matches/{mid}").json == before
    for entry in by_api:
        assert api_user.post(f"/api/matches/{mid}/history/{entry}/restore").status_code == 200


def test_the_history_page_shows_the_words_and_restores_after_a_confirmation(phone: Phone) -> None:
    mid = phone.new_match()
    phone.hand(mid, 1, **{"declarer": "1", "bid": "100", "points_0": "20", "points_2": "20"})
    phone.post(f"/matches/{mid}/hands/1/delete", {"confirm": "y"})
    page = phone.get(f"/matches/{mid}").text
    assert f'href="/matches/{mid}/history"' in page
    history = phone.get(f"/matches/{mid}/history").text
    items = [n.text() for n in parse(history).walk() if n.tag == "li"]
    assert any("anna deleted hand 1 (Boris bid 100)" in i for i in items)
    assert any("anna started the match: Anna, Boris, Vera" in i for i in items)
    link = next(n.attrs["href"] for n in parse(history).walk() if n.tag == "a" and "restore" in n.attrs.get("href", ""))
    assert phone.get(link).status_code == 200  # the confirmation page
    assert phone.post(link, {}).status_code == 422  # not ticked: asked again, nothing done
    assert "Enter hand 1" in phone.get(f"/matches/{mid}").text
    done = phone.post(link, {"confirm": "y"}, follow_redirects=True)
    assert any("back as hand 1" in f for f in flashes(done.text))
    again = phone.post(link, {"confirm": "y"}, form_url=f"/matches/{mid}", follow_redirects=True)
    assert any("restored already" in f for f in flashes(again.text))


# --- backups ---------------------------------------------------------------------------------


def test_a_match_backup_imports_as_a_new_match_with_an_identical_sheet(make_user: Any) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match(rules="polish", start_scores=[100, 200, 300])
    mid = match["id"]
    for i in range(4):
        anna.add_hand(mid, hand(i))
    anna.put(f"/api/matches/{mid}/hands/2", json=played(1, 110, [22, None, 30]))
    anna.delete(f"/api/matches/{mid}/hands/3")
    assert anna.post(f"/api/matches/{mid}/end").status_code == 200
    original = anna.get(f"/api/matches/{mid}").json
    doc = anna.get(f"/api/matches/{mid}/backup").json
    assert doc["format"] == "tysiacha-scoresheet" and doc["version"] == 1
    [kept] = doc["matches"]
    assert kept["status"] == "ended" and kept["members"] == ["anna"]
    assert [h["record"]["bid"] for h in kept["hands"]] == [100, 110, 100]
    assert [h["version"] for h in kept["hands"]] == [1, 2, 2]  # hand 4 moved to 3: a new version
    assert [e["action"] for e in kept["audit"]][:2] == ["match_created", "hand_added"]

    answer = boris.post("/api/matches/import", json=doc)
    assert answer.status_code == 201, answer.json
    [imported] = answer.json["matches"]
    assert imported["id"] != mid and imported["join_code"] != match["join_code"]
    assert imported["members"] == ["boris"]
    assert computed(imported) == computed(original)
    history = boris.get(f"/api/matches/{imported['id']}/history").json["history"]
    assert history[0]["words"] == "boris imported the match from a backup"
    assert [e["words"] for e in history[1:]] == [
        e["words"] for e in anna.get(f"/api/matches/{mid}/history").json["history"]
    ]
    assert anna.get(f"/api/matches/{imported['id']}").status_code == 404
    everything = boris.get("/api/backup").json
    assert [m["id"] for m in everything["matches"]] == [imported["id"]]


def test_an_import_may_be_larger_than_64_kib_but_not_4_mib(api_user: Any) -> None:
    mid = api_user.new_match()["id"]
    text = json.dumps(api_user.get(f"/api/matches/{mid}/backup").json)
    for padding, status in [(100_000, 201), (4 * 1024 * 1024, 413)]:
        answer = api_user.client.post(
            "/api/matches/import", data=text + " " * padding, content_type="application/json", headers=api_user.headers
        )
        assert answer.status_code == status, answer.json
    assert len(api_user.get("/api/matches").json["matches"]) == 2


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=2), "version"),
        (
            lambda d: d["matches"][0]["hands"][0]["record"].update(points=[20, None, 120]),
            "/matches/0/hands/0/record/points",
        ),
        (lambda d: d["matches"][0].update(status="banked"), "/matches/0/status"),
        (lambda d: d["matches"][0]["hands"][0]["record"].update(bid="lots"), "/matches/0/hands/0/record/bid"),
        (lambda d: d["matches"][0].update(audit=[{"action": "rm -rf", "user": "x"}]), "/matches/0/audit/0"),
    ],
)
def test_a_broken_backup_is_refused_and_imports_nothing(api_user: Any, change: Any, field: str) -> None:
    mid = api_user.new_match()["id"]
    api_user.add_hand(mid, played(1, 100, [20, None, 20]))
    api_user.add_hand(mid, played(2, 100, [20, 21, None]))
    doc = api_user.get(f"/api/matches/{mid}/backup").json
    change(doc)
    answer = api_user.post("/api/matches/import", json=doc)
    assert answer.status_code in (400, 422) and answer.json["field"].startswith(field), answer.json
    assert len(api_user.get("/api/matches").json["matches"]) == 1


def test_a_backup_imported_again_imports_nothing_and_says_which_match(make_user: Any, app: Flask) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    first, second = anna.new_match()["id"], anna.new_match(players=["Gleb", "Dasha", "Ira"])["id"]
    doc = anna.get("/api/backup").json  # both matches: a copy of each, once
    assert anna.post("/api/matches/import", json=doc).status_code == 201
    again = anna.post("/api/matches/import", json=doc)  # a second tap on Import, the same file again
    assert again.status_code == 409
    assert again.json["field"].startswith("/matches/")
    assert again.json["error"].endswith("in this backup was imported already: nothing was imported again.")
    with app.app_context():
        assert db.session.execute(db.select(func.count(Match.id))).scalar_one() == 4
    assert boris.post("/api/matches/import", json=doc).status_code == 201  # another player's copy
    # A later backup holding them and a new match imports the new one and names the others.
    third = anna.new_match(players=["Oleg", "Pasha", "Rita"])["id"]
    later = anna.get("/api/backup").json
    later["matches"] = [m for m in later["matches"] if m["id"] in (first, second, third)]
    news = anna.post("/api/matches/import", json=later)
    assert news.status_code == 201, news.json
    assert [m["players"] for m in news.json["matches"]] == [["Oleg", "Pasha", "Rita"]]
    assert sorted(news.json["imported_before"]) == sorted([first, second])
    # The copy's own backup is another match's: it imports (as a backup from another server would).
    copy_id = next(m["id"] for m in anna.get("/api/matches").json["matches"] if m["id"] not in (first, second, third))
    assert anna.post("/api/matches/import", json=anna.get(f"/api/matches/{copy_id}/backup").json).status_code == 201


def test_one_backup_imported_twice_at_the_same_moment_is_stored_once(make_user: Any, app: Flask) -> None:
    anna = make_user("anna")
    anna.new_match()
    doc = anna.get("/api/backup").json
    twin = app.test_client()
    ready = threading.Barrier(2)
    answers: list[int] = []

    def send(client: Any) -> None:
        ready.wait()
        answers.append(client.post("/api/matches/import", json=doc, headers=anna.headers).status_code)

    threads = [threading.Thread(target=send, args=(c,)) for c in (anna.client, twin)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(answers) == [201, 409]
    with app.app_context():
        assert db.session.execute(db.select(func.count(Match.id))).scalar_one() == 2


def test_an_import_that_missed_the_same_import_stored_meanwhile_is_refused_by_the_database(
    make_user: Any, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two workers importing one file at the same moment both check before either stores: the
    # second one's rows are refused by the unique index, and its import looks again.
    anna = make_user("anna")
    anna.new_match()
    doc = anna.get("/api/backup").json
    assert anna.post("/api/matches/import", json=doc).status_code == 201
    checks = missing_at_first(monkeypatch, backup, "_imported_before", 1, set())
    again = anna.post("/api/matches/import", json=doc)
    assert (again.status_code, len(checks)) == (409, 2), again.json
    with app.app_context():
        assert db.session.execute(db.select(func.count(Match.id))).scalar_one() == 2


def test_the_backup_pages_download_and_import_a_file(phone: Phone) -> None:
    mid = phone.new_match()
    phone.hand(mid, 1, **{"declarer": "1", "bid": "100", "points_0": "20", "points_2": "20"})
    assert f'href="/matches/{mid}/backup.json"' in phone.get(f"/matches/{mid}").text
    download = phone.get(f"/matches/{mid}/backup.json")
    assert download.headers["Content-Disposition"].startswith("attachment")
    assert phone.get("/backup.json").json["matches"][0]["id"] == mid
    upload = phone.post(
        "/import",
        {"file": (download_file(download.data), "backup.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert any("Imported 1 match" in f for f in flashes(upload.text))
    home = phone.get("/").text
    assert home.count("Anna · Boris · Vera") == 2
    bad = phone.post(
        "/import", {"file": (download_file(b"not json"), "backup.json")}, content_type="multipart/form-data"
    )
    assert bad.status_code == 422 and "not JSON" in bad.text
    doc = download.json
    doc["matches"][0]["hands"][0]["record"]["bid"] = "100"
    wrong = phone.post(
        "/import",
        {"file": (download_file(json.dumps(doc).encode()), "backup.json")},
        content_type="multipart/form-data",
    )
    assert wrong.status_code == 422
    assert any(e.endswith("(in the file: /matches/0/hands/0/record/bid)") for e in errors_next_to(wrong.text, "file"))
    twice = phone.post(
        "/import", {"file": (download_file(download.data), "backup.json")}, content_type="multipart/form-data"
    )
    assert twice.status_code == 422
    phone.new_match(["Gleb", "Dasha", "Ira"])
    everything = phone.get("/backup.json").data  # the first match (imported before), its copy, the new one
    later = phone.post(
        "/import", {"file": (download_file(everything), "backup.json")}, content_type="multipart/form-data"
    )
    said = flashes(phone.get(later.location).text)
    assert "Imported 2 matches from the backup, each with a new join code." in said
    assert "1 match of the backup was imported before and is not imported again." in said
    assert errors_next_to(twice.text, "file") == [
        "The match of Anna · Boris · Vera in this backup was imported already: nothing was imported again."
        " (in the file: /matches/0)"
    ]


def download_file(data: bytes) -> Any:
    """An uploaded file's stream."""
    return io.BytesIO(data)


# --- the whole database ----------------------------------------------------------------------


def fresh_app(app: Flask, database_url: str, tmp_path: Any) -> Flask:
    """The app again on a new, empty database to restore into (`app`'s connections closed)."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    if database_url.startswith("sqlite"):
        database_url = f"sqlite:///{tmp_path / 'restored.sqlite'}"
    empty_database(database_url)
    return create_app(app_config(database_url, tmp_path / "fresh"))


def test_cli_backup_and_restore_round_trip_the_whole_database(
    app: Flask, make_user: Any, database_url: str, tmp_path: Any
) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match()
    boris.post("/api/matches/join", json={"code": match["join_code"]})
    for i in range(3):
        boris.add_hand(match["id"], hand(i))
    boris.delete(f"/api/matches/{match['id']}/hands/1")
    second = boris.new_match(players=["Я", "<b>", "=1+1"])
    boris.add_hand(second["id"], hand(0))
    before = {m: anna.get(f"/api/matches/{m}").json for m in (match["id"],)} | {
        second["id"]: boris.get(f"/api/matches/{second['id']}").json
    }
    history = anna.get(f"/api/matches/{match['id']}/history").json["history"]

    file = tmp_path / "everything.json"
    result = app.test_cli_runner().invoke(args=["backup", str(file)])
    assert result.exit_code == 0, result.output
    assert "2 users and 2 matches" in result.output
    doc = json.loads(file.read_text(encoding="utf-8"))
    assert {u["username"] for u in doc["users"]} == {"anna", "boris"}
    refused = app.test_cli_runner().invoke(args=["restore", str(file)])
    assert refused.exit_code != 0 and "not empty" in refused.output

    fresh = fresh_app(app, database_url, tmp_path)
    result = fresh.test_cli_runner().invoke(args=["restore", str(file)])
    assert result.exit_code == 0, result.output
    client = fresh.test_client()
    for user in ("anna", "boris"):
        token = client.post("/api/tokens", json={"username": user, "password": "correct horse"})
        assert token.status_code == 201  # the password hashes came back
        headers = {"Authorization": f"Bearer {token.json['token']}"}
        for mid, was in before.items():
            now = client.get(f"/api/matches/{mid}", headers=headers)
            if user in was["members"]:
                # same id, join code, members and sheet (its hands named anew: a uid names a
                # hand in one database, and a stale tap from before the restore is refused)
                assert without_uids(now.json) == without_uids(was)
            else:
                assert now.status_code == 404
    headers = {
        "Authorization": "Bearer "
        + client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    }
    restored = client.get(f"/api/matches/{match['id']}/history", headers=headers).json["history"]
    assert [(e["words"], e["at"][:19], e["restorable"]) for e in restored] == [
        (e["words"], e["at"][:19], e["restorable"]) for e in history
    ]
    with fresh.app_context():
        db.session.remove()
        db.engine.dispose()
