"""Migration 0006: stored matches keep scoring as they were created. Matches of
every ruleset, stored at revision 0005 with seeded hands that the engine of the time took
(classic misses on the barrel, tyzicha's old forced hands at any seat and bid), one of them
banked, with the sheets that engine computed (commit 11320f9, recorded in
tests/rules/before_house_rules.json by tools/record_before_house_rules.py), are replayed after
the migration by today's engine from what the database then holds: the whole computed sheet
must be the same (every entry, owed, score, event, standing, winner, status and next deal;
tyzicha's corrected first bidder aside, RULES.md §7). On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from scoresheet.rules import Malformed, Refused, record_from_dict, replay, setup_from_dict
from scoresheet.storage import models
from scoresheet.storage.database import foreign_keys_off, upgrade
from scoresheet.storage.extensions import db
from tests.rules.baseline import recorded, said_now, sheet_data

from .helpers import OLD_HANDS


def stored() -> dict[str, Any]:
    """The matches as stored before the migration: per id its set-up, hands, whether it is
    banked, and the sheet of then."""
    return recorded()["migration_0006"]


def migrate(engine: Engine, revision: str) -> None:
    """Upgrade the database to `revision` (SQLite with foreign keys off, as the app does)."""
    with engine.connect() as conn, foreign_keys_off(conn), conn.begin():
        upgrade(conn, revision)


def store(engine: Engine) -> None:
    """Every recorded match written at revision 0005."""
    with engine.begin() as conn:
        for match_id, match in stored().items():
            conn.execute(
                models.Match.__table__.insert().values(
                    id=match_id,
                    setup=match["setup"],
                    status="banked" if match["banked"] else "open",
                    revision=0,
                    join_code=match_id,
                    created_at=models.utcnow(),
                    updated_at=models.utcnow(),
                )
            )
            for number, body in enumerate(match["hands"], start=1):
                conn.execute(
                    OLD_HANDS.insert().values(
                        match_id=match_id,
                        number=number,
                        record=body,
                        version=1,
                        created_at=models.utcnow(),
                        updated_at=models.utcnow(),
                    )
                )


def sheets_now(engine: Engine) -> dict[str, Any]:
    """Every stored match replayed by today's engine from what the database holds."""
    with engine.connect() as conn:
        matches = conn.execute(db.select(models.Match.id, models.Match.setup, models.Match.status)).all()
        hands = conn.execute(
            db.select(models.Hand.match_id, models.Hand.record).order_by(models.Hand.match_id, models.Hand.number)
        ).all()
    sheets = {}
    for match_id, setup, status in matches:
        records = [record_from_dict(r, setup["rules"]) for m, r in hands if m == match_id]
        sheets[match_id] = (replay(setup_from_dict(setup), records), status)
    return sheets


def sheets_now_or_refusal(engine: Engine) -> dict[str, Any]:
    """As `sheets_now`, one match by one; "refused" for a match today's engine refuses."""
    with engine.connect() as conn:
        matches = conn.execute(db.select(models.Match.id, models.Match.setup)).all()
        hands = conn.execute(
            db.select(models.Hand.match_id, models.Hand.record).order_by(models.Hand.match_id, models.Hand.number)
        ).all()
    out: dict[str, Any] = {}
    for match_id, setup in matches:
        records = [record_from_dict(r, setup["rules"]) for m, r in hands if m == match_id]
        try:
            out[match_id] = (replay(setup_from_dict(setup), records), None)
        except (Refused, Malformed):
            out[match_id] = "refused"
    return out


def compared(sheet: Any, rules: str) -> dict[str, Any]:
    """The sheet as the recorded data has it, tyzicha's first bidder left out (RULES.md §7)."""
    return sheet_data(sheet, recorded()["fields"], first_bidder=rules != "tyzicha")


def test_stored_matches_of_every_ruleset_keep_their_whole_sheet_through_0006(engine: Engine) -> None:
    migrate(engine, "0005")
    store(engine)
    then = {match_id: said_now(match["sheet"], recorded()["fields"]) for match_id, match in stored().items()}
    # The test can fail: read with today's defaults, the corrected rulesets score otherwise.
    unmigrated = sheets_now_or_refusal(engine)
    assert unmigrated["tyzicha"] == "refused"
    assert compared(unmigrated["classic-3"][0], "classic") != then["classic-3"]
    migrate(engine, "0006")
    now = sheets_now(engine)
    assert set(now) == set(then)
    for match_id, match in stored().items():
        sheet, status = now[match_id]
        assert compared(sheet, match["setup"]["rules"]) == then[match_id], match_id
        assert status == ("banked" if match["banked"] else "open")
    assert now["banked"][0].winner is not None
    migrate(engine, "head")  # and every migration after it keeps them too
    assert {k: compared(s, stored()[k]["setup"]["rules"]) for k, (s, _) in sheets_now(engine).items()} == then
