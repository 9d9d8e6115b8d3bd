"""What a backup import checks (docs/backup.schema.json, then what a schema cannot say): each
crafted backup of an attack on the import is refused with its place in the document and stores
nothing; whatever an import accepts reads, backs up and imports again without a fault."""

from __future__ import annotations

import copy
import json
import os
import random
import stat
from pathlib import Path
from typing import Any

import pytest
from conftest import ApiUser
from flask import Flask
from jsonschema import Draft202012Validator

from scoresheet.services import database_backup
from scoresheet.services.matches import backup
from scoresheet.storage.extensions import db
from scoresheet.storage.models import User

from .helpers import WINNING_HAND, WINNING_START, played
from .test_hostile_input import HOSTILE_VALUES, mutate
from .test_recovery import fresh_app
from .test_security import table_counts

ROOT = Path(__file__).parents[2]
TICHU_ROUND = {
    "calls": ["tichu", "grand", None, None],
    "first_out": 0,
    "double_victory": False,
    "card_points": [35, 65],
}


def test_the_published_schema_is_the_one_the_code_checks() -> None:
    published = ROOT / "docs" / "backup.schema.json"
    assert published.read_bytes() == (ROOT / "scoresheet" / "services" / "matches" / "backup.schema.json").read_bytes()
    Draft202012Validator.check_schema(backup.SCHEMA)
    assert json.loads(published.read_text("utf-8")) == backup.SCHEMA


@pytest.fixture
def rich(make_user: Any) -> tuple[ApiUser, dict[str, Any]]:
    """anna and a backup of her matches (banked, ended, open, each also imported once) that
    hold every kind of history entry."""
    anna, boris = make_user("anna"), make_user("boris")
    match = anna.new_match(start_scores=WINNING_START)
    url = f"/api/matches/{match['id']}"
    for who, method, path, body in [
        (boris, "POST", "/api/matches/join", {"code": match["join_code"]}),
        (anna, "POST", f"{url}/hands", played(1, 120, [20, None, 20])),
        (boris, "POST", f"{url}/hands", played(2, 100, [20, 20, None])),
        (boris, "PUT", f"{url}/hands/1", played(1, 140, [25, None, 20])),
        (boris, "DELETE", f"{url}/hands/2", None),
        (anna, "RESTORE", "", None),
        (anna, "POST", f"{url}/hands", WINNING_HAND),
        (anna, "POST", f"{url}/bank", {}),
    ]:
        if method == "RESTORE":  # the hand just deleted comes back
            method, path = "POST", f"{url}/history/{anna.get(url + '/history').json['history'][0]['id']}/restore"
        answer = who.client.open(path, method=method, json=body, headers=who.headers)
        assert answer.status_code in (200, 201), answer.json
    ended = anna.new_match()["id"]
    anna.add_hand(ended, played(0, 100, [None, 20, 20]))
    assert anna.post(f"/api/matches/{ended}/end").status_code == 200
    still_open = anna.new_match()["id"]  # with a deleted hand that can come back
    anna.add_hand(still_open, played(0, 100, [None, 20, 20]))
    anna.add_hand(still_open, played(1, 100, [20, None, 20]))
    assert anna.delete(f"/api/matches/{still_open}/hands/1").status_code == 200
    doc = anna.get("/api/backup").json
    assert anna.post("/api/matches/import", json=doc).status_code == 201  # match_imported too
    doc = anna.get("/api/backup").json
    doc["matches"].sort(key=lambda m: -len(m["audit"]))  # 0: the banked copy, 5: the ended one
    return anna, doc


def test_every_backup_the_app_writes_fits_the_schema(app: Flask, rich: Any, tmp_path: Path) -> None:
    _, doc = rich
    actions = {e["action"] for m in doc["matches"] for e in m["audit"]}
    assert actions == {
        "match_created",
        "member_joined",
        "hand_added",
        "hand_edited",
        "hand_deleted",
        "hand_restored",
        "match_banked",
        "match_ended",
        "match_imported",
    }
    assert list(backup.VALIDATOR.iter_errors(doc)) == []
    with app.app_context():
        assert backup.check_document(doc) == doc["matches"]
    file = tmp_path / "everything.json"
    assert app.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    whole = json.loads(file.read_text("utf-8"))
    assert list(backup.VALIDATOR.iter_errors(whole)) == []


def first(doc: dict[str, Any], action: str) -> dict[str, Any]:
    """The first history entry of the first match with this action."""
    return next(e for e in doc["matches"][0]["audit"] if e["action"] == action)


def nested(depth: int) -> Any:
    """A list nested `depth` deep."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


M = "/matches/0"
# (name, change to the backup, the field named in the refusal; a field ending in "/" names
# anything below that place)
CRAFTED: list[tuple[str, Any, str]] = [
    ("a time in year 9999", lambda d: first(d, "hand_added").update(at="9999-12-31T23:59:59-14:00"), f"{M}/audit/"),
    (
        "a hand's time in 1900",
        lambda d: d["matches"][0]["hands"][0].update(created_at="1900-01-01T00:00:00+00:00"),
        f"{M}/hands/0/created_at",
    ),
    (
        "a time without its offset",
        lambda d: d["matches"][0].update(created_at="2026-11-30T04:42:08"),
        f"{M}/created_at",
    ),
    (
        "a time that is no time",
        lambda d: d["matches"][0].update(created_at="2026-13-45T99:00:00+00:00"),
        f"{M}/created_at",
    ),
    ("setup null", lambda d: d["matches"][0].update(setup=None), f"{M}/setup"),
    ("a hand record null", lambda d: d["matches"][0]["hands"][0].update(record=None), f"{M}/hands/0/record"),
    ("an audit id a list", lambda d: first(d, "hand_added").update(id=[1]), f"{M}/audit/"),
    ("restores an object", lambda d: first(d, "hand_restored").update(restores={}), f"{M}/audit/"),
    (
        "restores an entry that deleted nothing",
        lambda d: first(d, "hand_restored").update(restores=first(d, "match_created")["id"]),
        f"{M}/audit/",
    ),
    (
        "two entries with one id",
        lambda d: first(d, "hand_added").update(id=first(d, "match_created")["id"]),
        f"{M}/audit/",
    ),
    ("a version of 2**31", lambda d: d["matches"][0]["hands"][0].update(version=2**31), f"{M}/hands/0/version"),
    ("a version of 2**63", lambda d: d["matches"][0]["hands"][0].update(version=2**63), f"{M}/hands/0/version"),
    ("a version of 1.5", lambda d: d["matches"][0]["hands"][0].update(version=1.5), f"{M}/hands/0/version"),
    ("an audit hand of 2**31", lambda d: first(d, "hand_added").update(hand=2**31), f"{M}/audit/"),
    ("a bid of 2**63", lambda d: d["matches"][0]["hands"][0]["record"].update(bid=2**63), f"{M}/hands/0/record/bid"),
    (
        "a NUL in a player's name",
        lambda d: d["matches"][0]["setup"]["players"].__setitem__(0, "An\x00na"),
        f"{M}/setup/players/0",
    ),
    ("a NUL in an audit user", lambda d: first(d, "hand_added").update(user="an\x00na"), f"{M}/audit/"),
    ("a lone surrogate in a member", lambda d: d["matches"][0]["members"].append("\ud800"), f"{M}/members/"),
    ("a NUL in a key", lambda d: d["matches"][0]["hands"][0]["record"].update({"\x00": 1}), f"{M}/hands/0/record"),
    (
        "900-deep nesting",
        lambda d: d["matches"][0]["hands"][0]["record"].update(points=nested(900)),
        f"{M}/hands/0/record/points/",
    ),
    (
        "an imported hand_deleted without its before",
        lambda d: first(d, "hand_deleted").update(before=None),
        f"{M}/audit/",
    ),
    ("a hand_edited without its after", lambda d: first(d, "hand_edited").pop("after"), f"{M}/audit/"),
    ("a hand_added whose record is a list", lambda d: first(d, "hand_added").update(after=[1, 2]), f"{M}/audit/"),
    (
        "a match_created with junk after",
        lambda d: first(d, "match_created").update(after={"admin": True}),
        f"{M}/audit/",
    ),
    ("a member_joined with a hand", lambda d: first(d, "member_joined").update(hand=3), f"{M}/audit/"),
    ("an audit user of 41 characters", lambda d: first(d, "hand_added").update(user="u" * 41), f"{M}/audit/"),
    ("a status that is not one", lambda d: d["matches"][0].update(status="won"), f"{M}/status"),
    ("a match id with a slash", lambda d: d["matches"][0].update(id="../x"), f"{M}/id"),
    ("an unknown key", lambda d: d["matches"][0].update(admin=True), f"{M}"),
    ("matches null", lambda d: d.update(matches=None), "/matches"),
    ("no match", lambda d: d.update(matches=[]), "/matches"),
    (
        "a hand the rules refuse",
        lambda d: d["matches"][0]["hands"][0]["record"].update(points=[20, None, 120]),
        f"{M}/hands/0/record/points",
    ),
    ("a status that does not fit the sheet", lambda d: d["matches"][5].update(status="banked"), "/matches/5/status"),
]


@pytest.mark.parametrize("name, change, field", CRAFTED, ids=[c[0] for c in CRAFTED])
def test_a_crafted_backup_is_refused_with_its_place_and_stores_nothing(
    app: Flask, rich: Any, name: str, change: Any, field: str
) -> None:
    anna, doc = rich
    change(doc)
    before = table_counts(app)
    answer = anna.client.post(
        "/api/matches/import", data=json.dumps(doc), content_type="application/json", headers=anna.headers
    )
    assert answer.status_code in (400, 422), answer.json
    assert answer.json["field"].startswith(field) and answer.json["error"], answer.json
    assert table_counts(app) == before


def test_times_are_stored_in_utc_with_their_offset_applied(rich: Any) -> None:
    anna, doc = rich
    doc["matches"] = doc["matches"][:1]
    first(doc, "hand_added")["at"] = "2026-11-30T10:00:00+05:00"
    doc["matches"][0]["hands"][0]["created_at"] = "2026-11-30T01:00:00-03:30"
    answer = anna.post("/api/matches/import", json=doc)
    assert answer.status_code == 201, answer.json
    imported = answer.json["matches"][0]["id"]
    history = anna.get(f"/api/matches/{imported}/history").json["history"]
    assert [e["at"] for e in history if e["action"] == "hand_added"][-1] == "2026-11-30T05:00:00+00:00"
    again = anna.get(f"/api/matches/{imported}/backup").json["matches"][0]
    assert again["hands"][0]["created_at"] == "2026-11-30T04:30:00+00:00"


BACKUP_VALUES = [
    *HOSTILE_VALUES,
    2**31,
    2**63,
    -(2**31),
    "9999-12-31T23:59:59-14:00",
    "2026-11-30T10:00:00+05:00",
    "1999-12-31T23:59:59+00:00",
    "hand_deleted",
    "hand_restored",
    "banked",
    "anna",
    nested(50),
    {"status": "open"},
]
PLAUSIBLE = [
    None,
    "anna",
    "boris",
    "x",
    "",
    1,
    2,
    3,
    2**31 - 1,
    True,
    False,
    [],
    {},
    "2000-01-01T00:00:00Z",
    "2100-12-31T23:59:59+14:00",
    "2026-11-30T10:00:00+05:00",
]
"""Values of the right kind often enough that some mutated backups are imported and read."""
FUZZ_CASES = 120


def test_mutated_backups_never_fault_and_what_is_imported_reads_and_backs_up(
    app: Flask, rich: Any, database_url: str, tmp_path: Path
) -> None:
    anna, doc = rich
    rng = random.Random(20261201)
    imported = refused = restores = 0
    for case in range(FUZZ_CASES):
        values = rng.choice([BACKUP_VALUES, PLAUSIBLE])
        match = copy.deepcopy(rng.choice(doc["matches"]))  # mostly inside one match
        match["id"] = f"fuzz{case}"  # each its own: a match imported once is not imported again
        hostile = (
            {**doc, "matches": [mutate(match, rng, values)]}
            if rng.random() < 0.9
            else mutate(copy.deepcopy(doc), rng, values)
        )
        before = table_counts(app)
        answer = anna.client.post(
            "/api/matches/import", data=json.dumps(hostile), content_type="application/json", headers=anna.headers
        )
        assert answer.status_code in (201, 400, 422), (hostile, answer.json)
        if answer.status_code != 201:
            refused += 1
            assert table_counts(app) == before, hostile
            continue
        imported += 1
        for match in answer.json["matches"]:
            url = f"/api/matches/{match['id']}"
            assert anna.get(url).status_code == 200
            assert anna.get(f"{url}/sheet.csv").status_code == 200
            history = anna.get(f"{url}/history")
            assert history.status_code == 200
            for entry in history.json["history"]:  # every deleted hand it imported can come back
                if entry["restorable"]:
                    restored = anna.post(f"{url}/history/{entry['id']}/restore")
                    assert restored.status_code in (200, 409, 422), restored.json
                    restores += restored.status_code == 200
    assert refused > FUZZ_CASES // 2 and imported > 0 and restores > 0
    again = anna.get("/api/backup")
    assert again.status_code == 200
    everything = anna.post("/api/matches/import", json=again.json)  # what was imported imports again
    assert everything.status_code == 201, everything.json
    assert everything.json["imported_before"]  # (but the matches imported before: left out)

    file = tmp_path / "everything.json"  # and the whole database restores elsewhere
    assert app.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    fresh = fresh_app(app, database_url, tmp_path)
    restored = fresh.test_cli_runner().invoke(args=["restore", str(file)])
    assert restored.exit_code == 0, restored.output
    close(fresh)


def close(app: Flask) -> None:
    """Close the app's connections (the test's database is emptied for the next test)."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda d: d["users"].append({**d["users"][0], "username": d["users"][0]["username"].upper()}),
            "/users/2/username",
        ),
        (lambda d: d["matches"].append(d["matches"][0]), "/matches/"),
        (lambda d: first(d, "hand_added").update(at="9999-12-31T23:59:59-14:00"), "/matches/0/audit/"),
        (lambda d: d.pop("users"), "/users"),
    ],
    ids=["users differing only in case", "a match twice", "a time in year 9999", "no users"],
)
def test_a_crafted_database_backup_is_not_restored(
    app: Flask, rich: Any, database_url: str, tmp_path: Path, change: Any, message: str
) -> None:
    file = tmp_path / "everything.json"
    assert app.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    doc = json.loads(file.read_text("utf-8"))
    change(doc)
    file.write_text(json.dumps(doc), "utf-8")
    fresh = fresh_app(app, database_url, tmp_path)
    result = fresh.test_cli_runner().invoke(args=["restore", str(file)])
    assert result.exit_code != 0 and f"({message}" in result.output, result.output
    with fresh.app_context():
        assert backup.is_empty()
    close(fresh)


def test_a_tichu_backup_fits_the_schema_and_imports(api_user: ApiUser) -> None:
    match = api_user.new_match(players=["Anna", "Boris", "Vera", "Gleb"], rules="tichu")
    api_user.add_hand(match["id"], TICHU_ROUND)
    doc = api_user.get(f"/api/matches/{match['id']}/backup").json
    assert list(backup.VALIDATOR.iter_errors(doc)) == []
    answer = api_user.post("/api/matches/import", json=doc)
    assert answer.status_code == 201, answer.json


def edit_first_hand(client: Any, headers: dict[str, str], match_id: str) -> int:
    """Correct hand 1 of a match (with its current version): the version it has after."""
    url = f"/api/matches/{match_id}/hands/1"
    version = client.get(f"/api/matches/{match_id}", headers=headers).json["hands"][0]["version"]
    answer = client.put(url, json={**played(1, 110, [20, None, 20]), "version": version}, headers=headers)
    assert answer.status_code == 200, answer.json
    return int(answer.json["hands"][0]["version"])


def test_an_imported_hand_of_the_highest_version_is_changed_and_its_backup_imports_again(api_user: ApiUser) -> None:
    # A backup may say any version up to 2**31 - 1; one change more and PostgreSQL's integer
    # overflowed (500), SQLite stored 2**31, which the match's own backup then carried and
    # its import refused. An imported match is new: its hands start at version 1.
    match = api_user.new_match()
    api_user.add_hand(match["id"], played(1, 100, [20, None, 20]))
    doc = api_user.get(f"/api/matches/{match['id']}/backup").json
    doc["matches"][0]["hands"][0]["version"] = backup.LARGEST
    answer = api_user.post("/api/matches/import", json=doc)
    assert answer.status_code == 201, answer.json
    imported = answer.json["matches"][0]["id"]
    assert edit_first_hand(api_user.client, api_user.headers, imported) == 2
    again = api_user.get(f"/api/matches/{imported}/backup")
    assert again.status_code == 200
    assert api_user.post("/api/matches/import", json=again.json).status_code == 201


def test_a_restored_hand_of_the_highest_version_is_changed_and_restores_again(
    app: Flask, api_user: ApiUser, database_url: str, tmp_path: Path
) -> None:
    match = api_user.new_match()
    api_user.add_hand(match["id"], played(1, 100, [20, None, 20]))
    file = tmp_path / "everything.json"
    assert app.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    doc = json.loads(file.read_text("utf-8"))
    doc["matches"][0]["hands"][0]["version"] = backup.LARGEST
    file.write_text(json.dumps(doc), "utf-8")
    for round_ in ("first", "second"):  # restore, change the hand, back up, restore that
        fresh = fresh_app(app, database_url, tmp_path / round_)
        restored = fresh.test_cli_runner().invoke(args=["restore", str(file)])
        assert restored.exit_code == 0, restored.output
        client = fresh.test_client()
        token = client.post("/api/tokens", json={"username": api_user.username, "password": "correct horse"}).json[
            "token"
        ]
        headers = {"Authorization": f"Bearer {token}"}
        assert edit_first_hand(client, headers, match["id"]) == backup.MAX_VERSION + 1
        assert fresh.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
        app = fresh
    close(app)


def test_the_database_backup_file_is_readable_by_its_owner_only(app: Flask, api_user: ApiUser, tmp_path: Path) -> None:
    # It holds every account's password hash. Made under the usual umask (022), the file
    # was readable by every user of the machine (0644); one already there is replaced.
    file = tmp_path / "everything.json"
    file.write_text("{}", "utf-8")
    file.chmod(0o644)
    umask = os.umask(0o022)
    try:
        assert app.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    finally:
        os.umask(umask)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert json.loads(file.read_text("utf-8"))["users"][0]["password_hash"]


def test_a_database_with_accounts_and_no_match_is_backed_up_and_restored(app: Flask, make_user: Any) -> None:
    make_user("anna")
    with app.app_context():
        doc = database_backup.document()
        db.session.execute(db.delete(User))
        db.session.commit()
        assert database_backup.restore(doc) == (1, 0, 0)  # (the matches' rows were written as one empty insert: a 500)
        assert db.session.execute(db.select(User.username)).scalar_one() == "anna"
