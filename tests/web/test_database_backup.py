"""The whole database backed up and restored (`flask backup`, `flask restore`; docs/deploy.md,
"Backups and restores"): a restored server is the server that was backed up, for the players
(their seats, statistics and ratings, their usual rules and language), the tables (watch links,
rematches) and the clubs (every night with its rounds, tables and standings)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ApiUser
from flask import Flask
from sqlalchemy.exc import IntegrityError

from scoresheet.services import database_backup
from scoresheet.services.matches import backup, commands
from scoresheet.services.matches.versions import newer, version_of
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match, User

from .helpers import WINNING_HAND, WINNING_START
from .test_api_club import make_event
from .test_backup_checks import close
from .test_club_exports import _night, _sheets
from .test_recovery import fresh_app


def _banked_match(anna: Any, boris: Any) -> str:
    """A match anna and boris played, each in a seat of their own, won and banked; its rematch
    started and a watch link made. Its id."""
    match = anna.new_match(players=["Аня", "Боря", "Гость"], start_scores=WINNING_START)
    boris.post("/api/matches/join", json={"code": match["join_code"]})
    assert anna.post(f"/api/matches/{match['id']}/seats/0/claim").status_code == 200
    assert boris.post(f"/api/matches/{match['id']}/seats/1/claim").status_code == 200
    anna.add_hand(match["id"], WINNING_HAND)
    assert anna.post(f"/api/matches/{match['id']}/bank").status_code == 200
    assert anna.post(f"/api/matches/{match['id']}/rematch").status_code == 201
    assert anna.post(f"/api/matches/{match['id']}/watch").status_code == 201
    return str(match["id"])


def _everything(director: Any, anna: Any, boris: Any, match_id: str, event_id: str) -> dict[str, Any]:
    """What the players, the table and the club see: anna's and boris's pages, the leaderboard,
    the match with its links and rematch, the night with its rounds, tables, sheets and standings."""
    return {
        "anna": anna.get("/api/players/anna").json,
        "records": anna.get("/api/players/anna/records").json,  # when each was banked
        "played": anna.get("/api/players/anna/played").json,
        "boris": boris.get("/api/players/boris").json,
        "versus": anna.get("/api/players/anna/versus/boris").json,
        "board": anna.get("/api/leaderboard/tysiacha").json,
        "links": anna.get(f"/api/matches/{match_id}/links").json,
        "match": {k: v for k, v in anna.get(f"/api/matches/{match_id}").json.items() if k != "hands"},
        "seats": anna.get(f"/api/matches/{match_id}/seats").json,
        "event": director.get(f"/api/events/{event_id}").json,
        "standings": director.get(f"/api/events/{event_id}/standings").json,
        "sheets": _sheets(director, event_id),
    }


def _versions(app: Flask) -> dict[str, str]:
    """Every match's version, as the phones' live updates ask for it."""
    with app.app_context():
        return {m.id: version_of(m) for m in db.session.execute(db.select(Match)).scalars()}


def _logged_in(app: Flask, username: str) -> ApiUser:
    """`username` (registered with the tests' password) logged in to `app` through the API."""
    client = app.test_client()
    token = client.post("/api/tokens", json={"username": username, "password": "correct horse"})
    assert token.status_code == 201  # the password hash came back
    return ApiUser(client, username, token.json["token"])


def test_a_restored_server_keeps_seats_figures_ratings_nights_links_and_each_players_settings(
    app: Flask, make_user: Any, database_url: str, tmp_path: Path
) -> None:
    director = make_user("director")
    event = _night(director, make_user)  # anna is on its roster
    drawn = make_event(director, name="Saturday")  # its seed drawn: 62 bits
    anna = _logged_in(app, "anna")
    boris = make_user("boris")
    match_id = _banked_match(anna, boris)
    with app.app_context():
        user = db.session.execute(db.select(User).where(User.username == "anna")).scalar_one()
        commands.save_usual_rules(user, db.session.get(Match, match_id))
        user.language = "uk"
        db.session.commit()
    before = _everything(director, anna, boris, match_id, event["id"])
    assert before["anna"]["ratings"] and before["standings"]["standings"]  # something to lose
    before["drawn"] = director.get(f"/api/events/{drawn['id']}").json
    versions = _versions(app)

    file = tmp_path / "everything.json"
    backed_up = app.test_cli_runner().invoke(args=["backup", str(file)])
    assert (
        f"Backed up 3 users, 6 matches and 2 club nights to {file}." in backed_up.output
    )  # 4 tables, 1 banked, its rematch
    fresh = fresh_app(app, database_url, tmp_path)
    restored = fresh.test_cli_runner().invoke(args=["restore", str(file)])
    assert restored.exit_code == 0, restored.output
    assert f"Restored 3 users, 6 matches and 2 club nights from {file}." in restored.output

    director, anna, boris = (_logged_in(fresh, name) for name in ("director", "anna", "boris"))
    after = _everything(director, anna, boris, match_id, event["id"])
    after["drawn"] = director.get(f"/api/events/{drawn['id']}").json
    # An open page's live update fetches the restored sheet (its hands have new uids).
    assert all(newer(now, versions[match]) for match, now in _versions(fresh).items())
    for part, was in before.items():
        assert after[part] == was, part
    watch = before["links"]["watch_url"].split("://", 1)[1].split("/", 1)[1]
    assert fresh.test_client().get(f"/{watch}").status_code == 200  # the watch link still opens
    with fresh.app_context():
        user = db.session.execute(db.select(User).where(User.username == "anna")).scalar_one()
        assert user.language == "uk" and user.usual_rules is not None
        assert user.usual_rules["players"] == ["Аня", "Боря", "Гость"]
        assert db.session.get(Match, match_id).rematch_id is not None  # type: ignore[union-attr]
        db.session.remove()
        db.engine.dispose()


def _backed_up(app: Flask, make_user: Any, tmp_path: Path) -> dict[str, Any]:
    """The whole-database backup of a night and a banked match, as `flask backup` writes it."""
    director = make_user("director")
    _night(director, make_user)
    _banked_match(_logged_in(app, "anna"), make_user("boris"))
    file = tmp_path / "everything.json"
    assert app.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    doc: dict[str, Any] = json.loads(file.read_text("utf-8"))
    return doc


def _restored(app: Flask, database_url: str, tmp_path: Path, doc: dict[str, Any]) -> tuple[Flask, Any]:
    """`doc` written to a file and restored by `flask restore` into a new, empty database: the
    app on that database, and what the command did."""
    file = tmp_path / "restored.json"
    file.write_text(json.dumps(doc), "utf-8")
    fresh = fresh_app(app, database_url, tmp_path)
    return fresh, fresh.test_cli_runner().invoke(args=["restore", str(file)])


def _banked_index(doc: dict[str, Any]) -> int:
    """The place of the banked match (the one with a watch link) among the backup's matches."""
    return next(i for i, m in enumerate(doc["matches"]) if m["watch_token"])


def _stranger_on_a_seat(doc: dict[str, Any]) -> str:
    i = _banked_index(doc)
    doc["matches"][i]["seats"][0]["user"] = "nobody"
    return f"/matches/{i}/seats/0/user"


def _one_player_on_two_seats(doc: dict[str, Any]) -> str:
    i = _banked_index(doc)
    doc["matches"][i]["seats"][1]["user"] = doc["matches"][i]["seats"][0]["user"]
    return f"/matches/{i}/seats/1"


def _a_seat_the_match_has_not(doc: dict[str, Any]) -> str:
    i = _banked_index(doc)
    doc["matches"][i]["seats"][0]["seat"] = 5
    return f"/matches/{i}/seats/0/seat"


def _a_watch_link_twice(doc: dict[str, Any]) -> str:
    i = _banked_index(doc)
    other = 0 if i else 1
    doc["matches"][other]["watch_token"] = doc["matches"][i]["watch_token"]
    return f"/matches/{max(i, other)}/watch_token"


def _a_table_on_a_match_not_in_the_backup(doc: dict[str, Any]) -> str:
    doc["events"][0]["rounds"][0]["tables"][1]["match_id"] = "gone"
    return "/events/0/rounds/0/tables/1/match_id"


def _two_tables_on_one_match(doc: dict[str, Any]) -> str:
    tables = doc["events"][0]["rounds"][0]["tables"]
    tables[1]["match_id"] = tables[0]["match_id"]
    return "/events/0/rounds/0/tables/1/match_id"


def _a_night_twice(doc: dict[str, Any]) -> str:
    doc["events"].append(json.loads(json.dumps(doc["events"][0])))
    return "/events/1/event/id"


def _a_night_id_longer_than_its_column(doc: dict[str, Any]) -> str:
    doc["events"][0]["event"]["id"] = "x" * 17
    return "/events/0/event/id"


def _a_start_key_longer_than_its_column(doc: dict[str, Any]) -> str:
    i = _banked_index(doc)
    doc["matches"][i]["start_key"] = "k" * 17
    return f"/matches/{i}/start_key"


def _a_night_not_in_a_nights_form(doc: dict[str, Any]) -> str:
    doc["events"][0]["format"] = "tysiacha-scoresheet"
    return "/events/0/format"


def _a_night_code_no_one_can_type(doc: dict[str, Any]) -> str:
    doc["events"][0]["event"]["code"] = doc["events"][0]["event"]["code"].lower()  # codes are typed in capitals
    return "/events/0/event/code"


def _a_watch_link_shorter_than_any_the_app_makes(doc: dict[str, Any]) -> str:
    doc["events"][0]["event"]["watch_token"] = "short"
    return "/events/0/event/watch_token"


def _a_language_the_app_does_not_speak(doc: dict[str, Any]) -> str:
    doc["users"][0]["language"] = "fr"
    return "/users/0/language"


def _two_users_one_name_in_two_spellings(doc: dict[str, Any]) -> str:
    doc["users"][0]["username"], doc["users"][1]["username"] = "\u00e9va", "e\u0301va"  # é, and e with its accent
    return "/users/1/username"


def _usual_rules_of_one_player(doc: dict[str, Any]) -> str:
    k = next(k for k, u in enumerate(doc["users"]) if u["username"] == "anna")
    doc["users"][k]["usual_rules"] = {"players": ["Аня"], "rules": "classic", "options": {}}
    return f"/users/{k}/usual_rules/players"


@pytest.mark.parametrize(
    "spoil",
    [
        _stranger_on_a_seat,
        _one_player_on_two_seats,
        _a_seat_the_match_has_not,
        _a_watch_link_twice,
        _a_table_on_a_match_not_in_the_backup,
        _two_tables_on_one_match,
        _a_night_twice,
        _a_night_id_longer_than_its_column,
        _a_start_key_longer_than_its_column,
        _usual_rules_of_one_player,
        _a_night_not_in_a_nights_form,
        _a_night_code_no_one_can_type,
        _a_watch_link_shorter_than_any_the_app_makes,
        _a_language_the_app_does_not_speak,
        _two_users_one_name_in_two_spellings,
    ],
)
def test_a_restore_refuses_what_the_database_could_not_hold_naming_its_place_and_stores_nothing(
    app: Flask, make_user: Any, database_url: str, tmp_path: Path, spoil: Any
) -> None:
    doc = _backed_up(app, make_user, tmp_path)
    place = spoil(doc)
    fresh, refused = _restored(app, database_url, tmp_path, doc)
    assert refused.exit_code == 1 and f"The backup was not restored ({place}" in refused.output, refused.output
    assert "Traceback" not in refused.output
    with fresh.app_context():
        assert backup.is_empty()
    close(fresh)


def test_a_backup_written_before_seats_and_nights_were_kept_restores_what_it_holds(
    app: Flask, make_user: Any, database_url: str, tmp_path: Path
) -> None:
    doc = _backed_up(app, make_user, tmp_path)
    del doc["events"]
    for user in doc["users"]:
        del user["language"], user["usual_rules"]
    for match in doc["matches"]:
        for key in ("revision", "banked_at", "watch_token", "rematch", "start_key", "imported_from", "seats"):
            del match[key]
    fresh, restored = _restored(app, database_url, tmp_path, doc)
    assert "Restored 3 users and 6 matches from " in restored.output, restored.output
    close(fresh)


def test_matches_of_accounts_gone_may_share_an_origin_and_a_database_with_a_night_is_not_empty(
    app: Flask, make_user: Any, database_url: str, tmp_path: Path
) -> None:
    # Two players imported one backup, then deleted their accounts: the database holds two
    # matches of no creator from the same origin (its unique index counts no missing creator).
    doc = _backed_up(app, make_user, tmp_path)
    for match in doc["matches"][:2]:
        match["created_by"], match["imported_from"] = None, "abcdefghijkl"
    fresh, restored = _restored(app, database_url, tmp_path, doc)
    assert restored.exit_code == 0, restored.output
    # Its users and matches gone, a database holding a club night is not empty.
    with fresh.app_context():
        db.session.execute(db.delete(Match))
        db.session.execute(db.delete(User))
        db.session.commit()
    again = fresh.test_cli_runner().invoke(args=["restore", str(tmp_path / "restored.json")])
    assert again.exit_code == 1 and "This database is not empty" in again.output, again.output
    close(fresh)


def test_a_refusal_the_checks_did_not_foresee_is_the_databases_said_in_a_sentence_and_nothing_is_stored(
    app: Flask, make_user: Any, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _backed_up(app, make_user, tmp_path)

    def refused(*_args: Any) -> None:  # the last write of a restore, refused by the database
        raise IntegrityError("INSERT INTO ratings …", {}, Exception("duplicate key value"))

    monkeypatch.setattr(database_backup.ratings, "rate_from", refused)
    fresh, result = _restored(app, database_url, tmp_path, doc)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "The backup was not restored: the database refused it (duplicate key value)." in result.output
    with fresh.app_context():
        assert backup.is_empty()
    close(fresh)
