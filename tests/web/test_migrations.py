"""Schema migrations: they make exactly the models' schema, step down and up, and run on start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from conftest import app_config
from sqlalchemy import Engine, create_engine, event, inspect, text

from scoresheet import create_app
from scoresheet.club import Round, Table, standings_after
from scoresheet.rules import Refused, hand_from_dict, hand_to_dict, record_from_dict, replay, setup_from_dict
from scoresheet.services.club.results import kept_form
from scoresheet.services.matches.replay_cache import summary_of
from scoresheet.storage import models
from scoresheet.storage.database import MIGRATIONS, downgrade, foreign_keys_off, upgrade
from scoresheet.storage.extensions import db

from .helpers import OLD_HANDS, WINNING_HAND, WINNING_START, played

assert models  # imported for its tables
SCRIPTS = ScriptDirectory(MIGRATIONS)
REVISIONS = [s.revision for s in reversed(list(SCRIPTS.walk_revisions()))]
"""Every revision, oldest first."""
ROOT = Path(__file__).resolve().parents[2]


def differences(engine: Engine) -> list[Any]:
    """What autogenerate would change to make the database match the models."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, db.metadata))


def current(engine: Engine) -> set[str]:
    """The database's revision(s)."""
    with engine.connect() as conn:
        return set(MigrationContext.configure(conn).get_current_heads())


def migrate(engine: Engine, revision: str, down: bool = False) -> None:
    """Upgrade (or downgrade) the database to `revision` in one transaction (SQLite: with
    foreign keys off, as the app migrates)."""
    with engine.connect() as conn, foreign_keys_off(conn), conn.begin():
        (downgrade if down else upgrade)(conn, revision)


def test_there_is_one_line_of_revisions() -> None:
    assert len(SCRIPTS.get_heads()) == 1, "two heads: run `flask --app scoresheet db merge`"


def test_migrations_make_exactly_the_models_schema(engine: Engine) -> None:
    migrate(engine, "head")
    assert differences(engine) == [], (
        "models.py and migrations/ differ: run `flask --app scoresheet db migrate -m '…'` (migrations/README.md)"
    )
    assert current(engine) == set(SCRIPTS.get_heads())


def test_every_migration_steps_down_and_up_again(engine: Engine) -> None:
    for revision in REVISIONS:
        migrate(engine, revision)
        migrate(engine, "-1", down=True)
        migrate(engine, revision)
        assert current(engine) == {revision}
    migrate(engine, "base", down=True)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    migrate(engine, "head")
    assert differences(engine) == []


def test_the_app_migrates_an_empty_database_on_start(app: Any) -> None:
    with app.app_context():
        assert current(db.engine) == set(SCRIPTS.get_heads())
        assert differences(db.engine) == []


def test_a_sqlite_database_behind_is_brought_up_to_date_on_start(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = create_engine(url)
    migrate(engine, REVISIONS[0])
    app = create_app(app_config(url, tmp_path))
    assert current(engine) == set(SCRIPTS.get_heads())
    engine.dispose()
    with app.app_context():
        db.engine.dispose()


def test_a_postgresql_database_with_tables_is_left_to_db_upgrade(engine: Engine, tmp_path: Any) -> None:
    if engine.dialect.name == "sqlite":
        pytest.skip("PostgreSQL only")
    migrate(engine, REVISIONS[0])
    app = create_app(app_config(engine.url.render_as_string(hide_password=False), tmp_path))
    assert current(engine) == {REVISIONS[0]}
    with app.app_context():
        db.engine.dispose()


def flask_cli(database_url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `flask --app scoresheet …` in a fresh process on this database."""
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scoresheet", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "x", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_flask_db_upgrade_is_the_deployment_step(engine: Engine, database_url: str) -> None:
    if engine.dialect.name == "sqlite":
        pytest.skip("PostgreSQL only (SQLite upgrades itself)")
    migrate(engine, REVISIONS[0])
    done = flask_cli(database_url, "db", "upgrade")
    assert done.returncode == 0, done.stderr
    assert current(engine) == set(SCRIPTS.get_heads())
    assert differences(engine) == []


def test_workers_starting_together_on_an_empty_database_migrate_it_once(engine: Engine, database_url: str) -> None:
    start = (
        "from scoresheet import create_app; from scoresheet.storage.extensions import db\n"
        "with create_app().app_context(): db.engine.dispose()"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-W", "error", "-c", start],
            cwd=ROOT,
            text=True,
            env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "x"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = [worker.communicate(timeout=60) for worker in workers]
    for worker, (out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err
        assert out == "" and err == "", "starting up logs nothing"
    assert current(engine) == set(SCRIPTS.get_heads())
    assert differences(engine) == []


def test_the_summary_migration_fills_every_match_from_its_replay(engine: Engine) -> None:
    migrate(engine, "0002")
    setup = {"players": ["A", "B", "C"], "start_scores": WINNING_START}
    bodies = [played(1, 100, [20, None, 20]), WINNING_HAND]
    records = [hand_from_dict(b) for b in bodies]
    with engine.begin() as conn:
        for match_id, hands in (("won", records), ("new", [])):
            conn.execute(
                models.Match.__table__.insert().values(
                    id=match_id,
                    setup=setup,
                    status="open",
                    revision=0,
                    join_code=match_id,
                    created_at=models.utcnow(),
                    updated_at=models.utcnow(),
                )
            )
            for number, record in enumerate(hands, start=1):
                conn.execute(
                    OLD_HANDS.insert().values(
                        match_id=match_id,
                        number=number,
                        record=hand_to_dict(record),
                        version=1,
                        created_at=models.utcnow(),
                        updated_at=models.utcnow(),
                    )
                )
    migrate(engine, "head")
    with engine.connect() as conn:
        stored = dict(conn.execute(db.select(models.Match.id, models.Match.summary)).all())
    assert stored["won"] == summary_of(replay(setup_from_dict(setup), records))
    assert stored["won"]["winner"] == 0 and stored["won"]["hands"] == 2
    assert stored["new"] == summary_of(replay(setup_from_dict(setup), []))


OLD_OPTIONS = {"gold_set": False, "blind_bids": False, "sitter_bonus": False, "sheet": "deferred"}
"""A Tysiacha match's stored options before the house rules (no house rules)."""
STORED = {
    # Seat 0 mounts the barrel (800 + 100), misses 150 on it (the old classic rule: 880 − 150,
    # off), then defends with 10.
    "classic": (
        [800, 0, 0],
        [played(1, 100, [100, None, 0]), played(0, 150, [None, 20, 20]), played(1, 100, [10, None, 10])],
        [[880, -100, 0], [730, -80, 20], [740, 20, 30]],
    ),
    # The old tyzicha rule: any declarer forced, at 100 or more (seat 0 is the dealer's own seat
    # in hand 1; hand 2 is forced at 120).
    "tyzicha": (
        [0, 0, 0],
        [
            played(0, 100, [None, 30, 30], forced=True),
            played(2, 120, [30, 30, None], forced=True),
            played(2, 110, [40, 40, None]),
        ],
        [[-100, 30, 30], [-70, 60, -90], [-30, 100, -200]],
    ),
    "squarescores": (
        [800, 0, 0],
        [played(1, 100, [100, None, 0]), played(0, 150, [None, 20, 20]), played(1, 100, [0, None, 0])],
        [[880, -100, 0], [730, -80, 20], [730, 20, 20]],
    ),
    "polish": (
        [850, 0, 0],
        [played(1, 100, [60, None, 0]), played(0, 150, [None, 20, 20])],
        [[910, -100, 0], [760, -80, 20]],
    ),
    "ggtables": (
        [0, 0, 0],
        [played(1, 100, [40, None, 20]), {"kind": "forfeit", "declarer": 1, "bid": 100}],
        [[40, -100, 20], [40, -100, 20]],
    ),
    "tichu": ([0, 0], [{"calls": ["tichu", None, None, None], "first_out": 0, "card_points": [35, 65]}], [[135, 65]]),
}
"""Per ruleset: start scores, stored hands, and every hand's scores as the engine of the time
computed them (before RULES.md §7's corrections)."""


def stored_setup(rules: str, start: list[int]) -> dict[str, Any]:
    """A set-up as a match created before the house rules stored it."""
    if rules == "tichu":
        return {
            "players": ["A", "B", "C", "D"],
            "rules": rules,
            "first_dealer": 0,
            "options": {"target": 1000, "great_grand_tichu": False, "sheet": "signed"},
            "start_scores": start,
        }
    return {
        "players": ["A", "B", "C"],
        "rules": rules,
        "first_dealer": 0,
        "options": {"target": 1001 if rules == "tyzicha" else 1000, **OLD_OPTIONS},
        "start_scores": start,
    }


def sheet_scores(setup: dict[str, Any], bodies: list[dict[str, Any]]) -> list[list[int]]:
    """Every hand's scores, replayed by today's engine from the stored set-up and hands."""
    rules = setup["rules"]
    sheet = replay(setup_from_dict(setup), [record_from_dict(b, rules) for b in bodies])
    return [[r.score for r in h.results] for h in sheet.hands]


def test_stored_matches_of_every_ruleset_score_as_they_did_after_the_corrections(engine: Engine) -> None:
    migrate(engine, "0005")
    with engine.begin() as conn:
        for rules, (start, bodies, _) in STORED.items():
            conn.execute(
                models.Match.__table__.insert().values(
                    id=rules,
                    setup=stored_setup(rules, start),
                    status="open",
                    revision=0,
                    join_code=rules,
                    created_at=models.utcnow(),
                    updated_at=models.utcnow(),
                )
            )
            for number, body in enumerate(bodies, start=1):
                conn.execute(
                    OLD_HANDS.insert().values(
                        match_id=rules,
                        number=number,
                        record=body,
                        version=1,
                        created_at=models.utcnow(),
                        updated_at=models.utcnow(),
                    )
                )
    # Read with today's defaults, the two corrected rulesets would score differently.
    assert sheet_scores(stored_setup("classic", [800, 0, 0]), STORED["classic"][1])[1][0] == 880
    with pytest.raises(Refused) as err:
        sheet_scores(stored_setup("tyzicha", [0, 0, 0]), STORED["tyzicha"][1])
    assert err.value.field == "forced"
    migrate(engine, "head")
    with engine.connect() as conn:
        setups = dict(conn.execute(db.select(models.Match.id, models.Match.setup)).all())
    for rules, (_, bodies, before) in STORED.items():
        assert sheet_scores(setups[rules], bodies) == before, rules
    assert setups["classic"]["options"]["barrel_miss"] == "costs_bid"
    assert setups["tyzicha"]["options"]["forced_any_seat"] is True
    assert setups["squarescores"] == stored_setup("squarescores", STORED["squarescores"][0])
    migrate(engine, "0005", down=True)
    with engine.connect() as conn:
        setups = dict(conn.execute(db.select(models.Match.id, models.Match.setup)).all())
    assert setups == {rules: stored_setup(rules, start) for rules, (start, _, _) in STORED.items()}


def test_the_players_migration_keeps_the_figures_of_every_banked_match(engine: Engine) -> None:
    from scoresheet.rules.figures import seat_figures

    players = next(s for s in SCRIPTS.walk_revisions() if s.path.endswith("_players.py"))
    migrate(engine, str(players.down_revision))
    setup = {"players": ["A", "B", "C"], "start_scores": WINNING_START}
    bodies = [played(1, 100, [20, None, 20]), WINNING_HAND]
    records = [hand_from_dict(b) for b in bodies]
    banked_at = models.utcnow().replace(microsecond=0)
    with engine.begin() as conn:
        for match_id, status in (("banked", "banked"), ("open", "open")):
            conn.execute(
                models.Match.__table__.insert().values(
                    id=match_id,
                    setup=setup,
                    status=status,
                    revision=0,
                    join_code=match_id,
                    created_at=models.utcnow(),
                    updated_at=models.utcnow(),
                )
            )
            for number, record in enumerate(records, start=1):
                conn.execute(
                    OLD_HANDS.insert().values(
                        match_id=match_id,
                        number=number,
                        record=hand_to_dict(record),
                        version=1,
                        created_at=models.utcnow(),
                        updated_at=models.utcnow(),
                    )
                )
        conn.execute(
            models.AuditEntry.__table__.insert().values(
                match_id="banked", username="anna", action="match_banked", at=banked_at
            )
        )
    migrate(engine, "head")
    with engine.connect() as conn:
        rows = conn.execute(db.select(models.SeatFigure).order_by(models.SeatFigure.seat)).all()
    expected = seat_figures(replay(setup_from_dict(setup), records))
    assert [(r.match_id, r.seat, r.place, r.won, r.declared, r.made, r.bid_made_max, r.zeros) for r in rows] == [
        ("banked", f.seat, f.place, f.won, f.declared, f.made, f.bid_made_max, f.zeros) for f in expected
    ]
    assert [r.name for r in rows] == ["A", "B", "C"]  # named by migration 0008
    # Filled by migration 0018: A 870 → 880 (held at the barrel) → 1000; B misses 100 (−100),
    # then takes 20 (−80); C 20 + 20.
    assert [(r.score, r.lowest) for r in rows] == [(1000, 870), (-80, -100), (40, 0)]
    stored = rows[0].banked_at
    assert (stored if stored.tzinfo else stored.replace(tzinfo=banked_at.tzinfo)) == banked_at


def test_the_table_results_migration_keeps_each_tables_result_from_its_replay(engine: Engine) -> None:
    results = next(s for s in SCRIPTS.walk_revisions() if s.path.endswith("_table_results.py"))
    migrate(engine, str(results.down_revision))
    setup = {"players": ["A", "B", "C"], "start_scores": WINNING_START}
    won, going = [played(1, 100, [20, None, 20]), WINNING_HAND], [played(1, 100, [20, None, 20])]
    with engine.begin() as conn:
        conn.execute(
            models.Event.__table__.insert().values(
                id="e1", name="Friday", game={"rules": "squarescores", "options": {}}, rounds=1, seating="fours",
                seed=1, code="E1", watch_token="w" * 43, reseats=0, created_at=models.utcnow(),
            )
        )  # fmt: skip
        conn.execute(
            models.EventRound.__table__.insert().values(
                id=1, event_id="e1", number=1, reseats=0, repeats=0, byes=[], seated_at=models.utcnow()
            )
        )
        for number, (match_id, status, bodies) in enumerate(
            (("won", "open", won), ("ended", "ended", going), ("going", "open", going)), start=1
        ):
            conn.execute(
                models.Match.__table__.insert().values(
                    id=match_id, setup=setup, status=status, revision=len(bodies), join_code=match_id,
                    created_at=models.utcnow(), updated_at=models.utcnow(),
                )
            )  # fmt: skip
            for n, body in enumerate(bodies, start=1):
                conn.execute(
                    models.Hand.__table__.insert().values(
                        match_id=match_id, number=n, uid=f"{match_id}{n}", record=body, version=1,
                        created_at=models.utcnow(), updated_at=models.utcnow(),
                    )
                )  # fmt: skip
            conn.execute(
                models.EventTable.__table__.insert().values(
                    round_id=1, number=number, players=["A", "B", "C"], match_id=match_id
                )
            )
    migrate(engine, "head")
    with engine.connect() as conn:
        kept = dict(conn.execute(db.select(models.EventTable.match_id, models.EventTable.match_result)).all())
    final = replay(setup_from_dict(setup), [hand_from_dict(b) for b in won]).standings
    # ended: 870 + 20 held at the barrel; going: open and nobody has won, no result yet
    assert kept == {"won": [s.score for s in final], "ended": [880, -100, 20], "going": None}
    assert kept["won"][0] >= 1000


def test_the_standings_migration_keeps_each_events_standings_as_the_engine_ranks_them(engine: Engine) -> None:
    kept = next(s for s in SCRIPTS.walk_revisions() if s.path.endswith("_event_standings.py"))
    migrate(engine, str(kept.down_revision))
    roster = ["Anna", "Boris", "Vera", "Gleb"]
    with engine.begin() as conn:
        for event_id, players in (("e1", roster), ("e2", []), ("e3", ["Anna"])):
            conn.execute(
                models.Event.__table__.insert().values(
                    id=event_id, name="Friday", game={"rules": "squarescores", "options": {}}, rounds=2,
                    seating="byes", seed=5, code=event_id.upper(), watch_token=event_id * 20, reseats=0,
                    created_at=models.utcnow(),
                )
            )  # fmt: skip
            for name in players:
                conn.execute(
                    models.EventPlayer.__table__.insert().values(event_id=event_id, name=name, status="present")
                )
        for round_id, event_id, number, byes in ((1, "e1", 1, ["Gleb"]), (2, "e1", 2, ["Vera"]), (3, "e3", 1, [])):
            conn.execute(
                models.EventRound.__table__.insert().values(
                    id=round_id, event_id=event_id, number=number, reseats=0, repeats=0, byes=byes,
                    seated_at=models.utcnow(),
                )
            )  # fmt: skip
        tables = (  # round, players, entered, kept (a kept result of a match deleted since: not counted)
            (1, ["Anna", "Boris", "Vera"], None, [1020, 640, 640]),
            (2, ["Gleb", "Anna", "Boris"], [500, 300, 100], None),
            (3, ["Anna", "Boris", "Vera"], [500, 300, 100], None),  # names off e3's roster: ranked as it is read
        )
        for round_id, players, entered, result in tables:
            conn.execute(
                models.EventTable.__table__.insert().values(
                    round_id=round_id, number=1, players=players, entered_scores=entered, match_result=result
                )
            )
    migrate(engine, "head")
    with engine.connect() as conn:
        standings = dict(conn.execute(db.select(models.Event.id, models.Event.standings)).all())
    # e1's table of round 1 has no match (deleted since): only round 2's paper result and two byes
    night = [
        Round(tables=(Table(players=("Anna", "Boris", "Vera")),), byes=("Gleb",)),
        Round(tables=(Table(players=("Gleb", "Anna", "Boris"), scores=(500, 300, 100)),), byes=("Vera",)),
    ]
    expected = kept_form(standings_after(roster, night, game="tysiacha", seed=5), 2)
    assert standings == {"e1": expected, "e2": {"round": 0, "rows": []}, "e3": None}
    assert [row[1:3] for row in expected["rows"]][:2] == [["Gleb", 36], ["Anna", 12]]  # 2 + a bye's 1; 1


def test_the_watch_link_migration_keeps_every_match_its_hands_and_members(engine: Engine) -> None:
    # A batch copy of `matches` on SQLite would drop the table and, with foreign keys on,
    # delete every hand and member with it (ON DELETE CASCADE): 0009 only adds columns.
    watch = next(s for s in SCRIPTS.walk_revisions() if s.path.endswith("_watch_links_and_rematches.py"))
    migrate(engine, str(watch.down_revision))
    with engine.begin() as conn:
        conn.execute(  # as the app of that revision did (the model's columns have moved on)
            text(
                "INSERT INTO users (id, username, username_folded, password_hash, session_version, "
                "created_at) VALUES (1, 'anna', 'anna', 'x', 0, CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            models.Match.__table__.insert().values(
                id="m1",
                setup={"players": ["A", "B", "C"]},
                status="open",
                revision=1,
                join_code="m1",
                created_at=models.utcnow(),
                updated_at=models.utcnow(),
            )
        )
        conn.execute(models.Member.__table__.insert().values(match_id="m1", user_id=1, joined_at=models.utcnow()))
        conn.execute(
            text(
                "INSERT INTO hands (match_id, number, record, version, created_at, updated_at) "
                "VALUES ('m1', 1, :record, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"record": json.dumps(played(1, 100, [20, None, 20]))},
        )
    migrate(engine, "head")
    with engine.connect() as conn:
        counts = [
            conn.execute(db.select(db.func.count()).select_from(t)).scalar_one()
            for t in (models.Match.__table__, models.Member.__table__, models.Hand.__table__)
        ]
        match = conn.execute(db.select(models.Match.watch_token, models.Match.rematch_id)).one()
    assert counts == [1, 1, 1] and tuple(match) == (None, None)


OLD_ROWS = [
    "INSERT INTO users (id, username, password_hash, session_version, created_at) VALUES "
    "(1, 'anna', 'x', 0, CURRENT_TIMESTAMP), (2, 'boris', 'x', 0, CURRENT_TIMESTAMP)",
    "INSERT INTO api_tokens (id, user_id, token_hash, created_at) VALUES "
    "(1, 1, 'hash-of-annas-token', CURRENT_TIMESTAMP)",
    "INSERT INTO matches (id, setup, status, revision, join_code, created_by_id, created_at, "
    "updated_at) VALUES ('m1', :setup, 'open', 2, 'code1', 1, CURRENT_TIMESTAMP, "
    "CURRENT_TIMESTAMP)",
    "INSERT INTO members (id, match_id, user_id, joined_at) VALUES "
    "(1, 'm1', 1, CURRENT_TIMESTAMP), (2, 'm1', 2, CURRENT_TIMESTAMP)",
    "INSERT INTO hands (id, match_id, number, record, version, created_by_id, updated_by_id, "
    "created_at, updated_at) VALUES (1, 'm1', 1, :hand, 2, 1, 2, CURRENT_TIMESTAMP, "
    "CURRENT_TIMESTAMP)",
    "INSERT INTO audit_entries (id, match_id, user_id, username, action, hand_number, at) "
    "VALUES (1, 'm1', 1, 'anna', 'hand_added', 1, CURRENT_TIMESTAMP), "
    "(2, 'm1', 2, 'boris', 'hand_edited', 1, CURRENT_TIMESTAMP)",
    "INSERT INTO audit_entries (id, match_id, user_id, username, action, hand_number, "
    "restores_id, at) VALUES (3, 'm1', 2, 'boris', 'hand_restored', 1, 1, CURRENT_TIMESTAMP)",
]
"""Accounts, a token, a match with members, a hand and its history, as revision 0004 kept
them: every row that refers to `users`, which migration 0005 rebuilds on SQLite."""
KEPT = {
    "SELECT id, username, username_folded FROM users ORDER BY id": [(1, "anna", "anna"), (2, "boris", "boris")],
    "SELECT id, user_id FROM api_tokens": [(1, 1)],
    "SELECT id, created_by_id FROM matches": [("m1", 1)],
    "SELECT match_id, user_id FROM members ORDER BY user_id": [("m1", 1), ("m1", 2)],
    "SELECT number, created_by_id, updated_by_id FROM hands": [(1, 1, 2)],
    "SELECT id, user_id, restores_id FROM audit_entries ORDER BY id": [(1, 1, None), (2, 2, None), (3, 2, 1)],
}
UPGRADE_AS_DEPLOYED = (
    "from flask_migrate import upgrade\n"
    "from scoresheet import create_app\n"
    "from scoresheet.storage.extensions import db\n"
    "app = create_app({'DATABASE_AUTO_UPGRADE': False})\n"
    "with app.app_context():\n"
    "    upgrade()\n"
    "    db.engine.dispose()\n"
)
"""`flask --app scoresheet db upgrade` (Flask-Migrate's own upgrade on the app's engine), on a
SQLite database too: the app's start is kept from upgrading it first."""


@pytest.mark.parametrize("way", ["app start", "flask db upgrade"])
def test_upgrading_keeps_every_account_and_what_refers_to_it(
    engine: Engine, database_url: str, tmp_path: Any, way: str
) -> None:
    # The app's own engine keeps SQLite's foreign keys on: a migration that rebuilds `users`
    # (a batch copy, as 0005 does) would drop the old table and so delete every member and
    # token (ON DELETE CASCADE) and forget every hand's, match's and entry's author (SET NULL).
    sqlite = engine.dialect.name == "sqlite"
    if way == "app start" and not sqlite:
        pytest.skip("SQLite only (a PostgreSQL database with tables is left to db upgrade)")
    migrate(engine, "0004")
    setup = {"players": ["A", "B", "C"], "start_scores": WINNING_START}
    with engine.begin() as conn:
        for statement in OLD_ROWS:
            conn.execute(
                text(statement), {"setup": json.dumps(setup), "hand": json.dumps(played(1, 100, [20, None, 20]))}
            )
    if way == "app start":
        app = create_app(app_config(database_url, tmp_path))
        with app.app_context():
            db.engine.dispose()
    else:
        done = subprocess.run(
            [sys.executable, "-W", "error", "-c", UPGRADE_AS_DEPLOYED],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "x"},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    assert current(engine) == set(SCRIPTS.get_heads())
    with engine.connect() as conn:
        for query, rows in KEPT.items():
            assert [tuple(r) for r in conn.execute(text(query))] == rows, query


def test_a_sqlite_migration_refuses_to_run_with_foreign_keys_on(tmp_path: Any) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'on.sqlite'}")
    event.listen(engine, "connect", lambda conn, _: conn.execute("PRAGMA foreign_keys = ON"))
    with pytest.raises(RuntimeError, match="foreign keys are on"), engine.begin() as conn:
        upgrade(conn, "0004")
    assert inspect(engine).get_table_names() == []
    engine.dispose()


def test_a_sqlite_migration_that_would_leave_a_broken_reference_stops(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'broken.sqlite'}"
    engine = create_engine(url)  # foreign keys off: the member of a user who is not there
    migrate(engine, "0004")
    with engine.begin() as conn:
        conn.execute(text(OLD_ROWS[0]))
        conn.execute(text(OLD_ROWS[2]), {"setup": json.dumps({"players": ["A", "B", "C"]})})
        conn.execute(text("INSERT INTO members (match_id, user_id, joined_at) VALUES ('m1', 99, CURRENT_TIMESTAMP)"))
    with pytest.raises(RuntimeError, match=r"1 broken references \(members row 1 → users\)"):
        migrate(engine, "head")
    assert current(engine) == {"0004"}
    engine.dispose()
