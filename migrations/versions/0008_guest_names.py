"""guest names: each banked seat's name on the sheet, so guests' statistics go by it

Adds `seat_figures.name` and fills it from each match's set-up.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 07:50:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_figures", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name", sa.String(length=40), nullable=True))
    conn = op.get_bind()
    matches = sa.table("matches", sa.column("id", sa.String), sa.column("setup", sa.JSON))
    figures = sa.table(
        "seat_figures", sa.column("match_id", sa.String), sa.column("seat", sa.Integer), sa.column("name", sa.String)
    )
    banked = sa.select(figures.c.match_id).distinct()
    for match_id, setup in conn.execute(sa.select(matches.c.id, matches.c.setup).where(matches.c.id.in_(banked))).all():
        for seat, name in enumerate(setup["players"]):
            conn.execute(
                figures.update().where(figures.c.match_id == match_id, figures.c.seat == seat).values(name=name)
            )


def downgrade() -> None:
    with op.batch_alter_table("seat_figures", schema=None) as batch_op:
        batch_op.drop_column("name")
