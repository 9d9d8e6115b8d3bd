"""matches.watch_token and matches.rematch_id: watch links and rematches

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 07:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN and CREATE INDEX, never a batch copy of `matches`: on SQLite
    # a copy drops the old table, and with foreign keys on that deletes every match's hands,
    # members and figures (ON DELETE CASCADE). So rematch_id is a plain column, no reference
    # (SQLite cannot add one without that copy); the app reads a missing match as none.
    op.add_column("matches", sa.Column("watch_token", sa.String(length=64), nullable=True))
    op.add_column("matches", sa.Column("rematch_id", sa.String(length=16), nullable=True))
    op.create_index("ix_matches_watch_token", "matches", ["watch_token"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_matches_watch_token", table_name="matches")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("rematch_id")
        batch_op.drop_column("watch_token")
