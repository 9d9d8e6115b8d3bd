"""event_tables.match_result: each club night's table keeps its match's result

Adds the final scores of a table's match once they count (won, banked or ended), kept with
every change of the match as `matches.summary` is, so that the standings read no match; fills
it for the tables seated so far by replaying each table's match once (the same `summary_of`
and `result_of` the app keeps it with).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-05 21:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER (no batch copy of `event_tables`, see 0010).
    op.add_column("event_tables", sa.Column("match_result", sa.JSON(), nullable=True))
    _fill_results(op.get_bind())


def downgrade() -> None:
    op.drop_column("event_tables", "match_result")  # SQLite 3.35+ drops a column in place


def _fill_results(conn: sa.Connection) -> None:
    """Replay each table's match once and keep its result on the table."""
    from scoresheet.rules import record_from_dict, replay, setup_from_dict
    from scoresheet.services.club.tables import result_of
    from scoresheet.services.matches.replay_cache import summary_of

    tables = sa.table(
        "event_tables",
        sa.column("id", sa.Integer),
        sa.column("match_id", sa.String),
        sa.column("match_result", sa.JSON),
    )
    matches = sa.table(
        "matches", sa.column("id", sa.String), sa.column("setup", sa.JSON), sa.column("status", sa.String)
    )
    hands = sa.table(
        "hands", sa.column("match_id", sa.String), sa.column("number", sa.Integer), sa.column("record", sa.JSON)
    )
    seated = sa.select(tables.c.id, matches.c.id, matches.c.setup, matches.c.status).join(
        matches, matches.c.id == tables.c.match_id
    )
    for table_id, match_id, setup, status in conn.execute(seated).all():
        records = conn.execute(
            sa.select(hands.c.record).where(hands.c.match_id == match_id).order_by(hands.c.number)
        ).scalars()
        engine_setup = setup_from_dict(setup)
        sheet = replay(engine_setup, [record_from_dict(r, engine_setup.rules) for r in records])
        result = result_of(status, summary_of(sheet))
        if result is not None:
            conn.execute(tables.update().where(tables.c.id == table_id).values(match_result=result))
