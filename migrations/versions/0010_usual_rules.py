"""users.usual_rules: the table's usual rules a player saved

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 08:10:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (no batch copy of `users`: on SQLite that drops the old table, and with
    # foreign keys on, ON DELETE CASCADE would take every token, membership and figure with it).
    op.add_column("users", sa.Column("usual_rules", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("users", "usual_rules")  # SQLite 3.35+ drops a column in place
