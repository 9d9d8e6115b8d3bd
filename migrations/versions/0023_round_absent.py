"""event_rounds.absent: who was marked absent for a round

A roster entry marked absent misses the next round only (CLUB.md §1): seating the round now
keeps the names it left out as absent on the round and puts them back to present; taking the
round back marks them absent again. Rounds seated so far name none.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07 06:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER (no batch copy of `event_rounds`, see 0010).
    op.add_column("event_rounds", sa.Column("absent", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    op.drop_column("event_rounds", "absent")  # SQLite 3.35+ drops a column in place
