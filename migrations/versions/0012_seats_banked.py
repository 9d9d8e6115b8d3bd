"""seats.banked: a player's page counts the matches not banked yet from the seats alone

Adds `seats.banked` (the seat's match is banked), fills it from `matches.status`, and replaces
the index on `seats.user_id` with one on (`user_id`, `banked`): a player's page then finds the
seats of matches not banked yet without reading every banked match.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 12:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTERs (no batch copy of `seats`, see 0010).
    op.add_column("seats", sa.Column("banked", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute("UPDATE seats SET banked = TRUE WHERE match_id IN (SELECT id FROM matches WHERE status = 'banked')")
    op.drop_index("ix_seats_user_id", table_name="seats")
    op.create_index("ix_seats_user_id_banked", "seats", ["user_id", "banked"])


def downgrade() -> None:
    op.drop_index("ix_seats_user_id_banked", table_name="seats")
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.drop_column("seats", "banked")  # SQLite 3.35+ drops a column in place
