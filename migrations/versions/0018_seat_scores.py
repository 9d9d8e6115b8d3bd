"""seat_figures.lowest: a player's records (biggest comeback; the highest final score reads 0017's score)

Adds the lowest score each banked seat had during the match (Tichu: its team's), kept with its
figures when a match is banked, and fills it for the matches banked so far by replaying each
one once (with the final score again, where 0017 found no summary; the figures' other columns
stand).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-05 04:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTERs (no batch copy of `seat_figures`, see 0010).
    op.add_column("seat_figures", sa.Column("lowest", sa.Integer(), nullable=True))
    _fill_scores(op.get_bind())


def downgrade() -> None:
    op.drop_column("seat_figures", "lowest")  # SQLite 3.35+ drops a column in place


def _fill_scores(conn: sa.Connection) -> None:
    """Replay each banked match once and write its seats' lowest scores (and final scores again,
    as the replay says them, where 0017 found no summary to read)."""
    from scoresheet.rules import record_from_dict, replay, setup_from_dict
    from scoresheet.rules.figures import seat_scores

    matches = sa.table("matches", sa.column("id", sa.String), sa.column("setup", sa.JSON))
    hands = sa.table(
        "hands", sa.column("match_id", sa.String), sa.column("number", sa.Integer), sa.column("record", sa.JSON)
    )
    figures = sa.table(
        "seat_figures",
        sa.column("match_id", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("score", sa.Integer),
        sa.column("lowest", sa.Integer),
    )
    banked = sa.select(figures.c.match_id).distinct()
    for match_id, setup in conn.execute(sa.select(matches.c.id, matches.c.setup).where(matches.c.id.in_(banked))).all():
        records = conn.execute(
            sa.select(hands.c.record).where(hands.c.match_id == match_id).order_by(hands.c.number)
        ).scalars()
        engine_setup = setup_from_dict(setup)
        sheet = replay(engine_setup, [record_from_dict(r, engine_setup.rules) for r in records])
        for s in seat_scores(sheet):
            conn.execute(
                figures.update()
                .where(figures.c.match_id == match_id, figures.c.seat == s.seat)
                .values(score=s.score, lowest=s.lowest)
            )
