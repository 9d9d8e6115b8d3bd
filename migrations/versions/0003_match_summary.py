"""match summary: what lists show, stored with every change

Adds `matches.summary` and fills it for every existing match by replaying its hands once
through the engine (the same `summary_of` the app keeps it with).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 03:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("summary", sa.JSON(), nullable=True))
    fill_summaries(op.get_bind())


def downgrade() -> None:
    # Not a batch (which rebuilds the table on SQLite, and dropping `matches` there would
    # cascade to its hands): SQLite 3.35+ drops a column in place.
    op.drop_column("matches", "summary")


def fill_summaries(conn: sa.Connection) -> None:
    """Replay every match once and store its summary."""
    from scoresheet.rules import hand_from_dict, replay, setup_from_dict
    from scoresheet.services.matches.replay_cache import summary_of

    matches = sa.table(
        "matches", sa.column("id", sa.String), sa.column("setup", sa.JSON), sa.column("summary", sa.JSON)
    )
    hands = sa.table(
        "hands", sa.column("match_id", sa.String), sa.column("number", sa.Integer), sa.column("record", sa.JSON)
    )
    for match_id, setup in conn.execute(sa.select(matches.c.id, matches.c.setup)).all():
        records = conn.execute(
            sa.select(hands.c.record).where(hands.c.match_id == match_id).order_by(hands.c.number)
        ).scalars()
        sheet = replay(setup_from_dict(setup), [hand_from_dict(r) for r in records])
        conn.execute(matches.update().where(matches.c.id == match_id).values(summary=summary_of(sheet)))
