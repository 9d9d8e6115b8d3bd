"""players: claimed seats, each banked match's seat figures, ratings

Adds `seats`, `seat_figures` and `ratings`, and fills `seat_figures` for every match banked
already by replaying its hands once through the engine (the same `seat_figures` the app keeps
them with). No seat is claimed yet, so there is no rating to compute.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 07:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_COUNTS = (
    "declared",
    "made",
    "bid_made_sum",
    "bid_made_max",
    "barrel_on",
    "barrel_won",
    "barrel_fell",
    "zeros",
    "forfeits",
    "tichu_called",
    "tichu_made",
    "grand_called",
    "grand_made",
    "great_grand_called",
    "great_grand_made",
    "double_victories",
)


def upgrade() -> None:
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "seat"),
        sa.UniqueConstraint("match_id", "user_id"),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "seat_figures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("banked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        *[sa.Column(name, sa.Integer(), nullable=False) for name in _COUNTS],
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "seat"),
    )
    op.create_index("ix_seat_figures_banked_at", "seat_figures", ["banked_at"])
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=10), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("banked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_ratings_user_id", "ratings", ["user_id"])
    op.create_index("ix_ratings_match_id", "ratings", ["match_id"])
    fill_figures(op.get_bind())


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_table("seat_figures")
    op.drop_table("seats")


def fill_figures(conn: sa.Connection) -> None:
    """Replay every banked match once and store its seats' figures; banked when its history
    says so (else when it last changed)."""
    from datetime import UTC

    from scoresheet.rules import record_from_dict, replay, setup_from_dict
    from scoresheet.rules.figures import COUNTS, seat_figures

    assert tuple(COUNTS) == _COUNTS
    matches = sa.table(
        "matches",
        sa.column("id", sa.String),
        sa.column("setup", sa.JSON),
        sa.column("status", sa.String),
        sa.column("updated_at", sa.DateTime(timezone=True)),
    )
    hands = sa.table(
        "hands", sa.column("match_id", sa.String), sa.column("number", sa.Integer), sa.column("record", sa.JSON)
    )
    audit = sa.table(
        "audit_entries",
        sa.column("match_id", sa.String),
        sa.column("action", sa.String),
        sa.column("at", sa.DateTime(timezone=True)),
    )
    figures = sa.table(
        "seat_figures",
        sa.column("match_id", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("rules", sa.String),
        sa.column("banked_at", sa.DateTime(timezone=True)),
        sa.column("place", sa.Integer),
        sa.column("won", sa.Boolean),
        *[sa.column(name, sa.Integer) for name in _COUNTS],
    )
    banked = conn.execute(
        sa.select(matches.c.id, matches.c.setup, matches.c.updated_at).where(matches.c.status == "banked")
    ).all()
    for match_id, setup, updated_at in banked:
        records = conn.execute(
            sa.select(hands.c.record).where(hands.c.match_id == match_id).order_by(hands.c.number)
        ).scalars()
        engine_setup = setup_from_dict(setup)
        rules = engine_setup.rules
        sheet = replay(engine_setup, [record_from_dict(r, rules) for r in records])
        at = conn.execute(
            sa.select(sa.func.max(audit.c.at)).where(audit.c.match_id == match_id, audit.c.action == "match_banked")
        ).scalar()
        at = at or updated_at
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        for f in seat_figures(sheet):
            conn.execute(
                figures.insert().values(
                    match_id=match_id,
                    seat=f.seat,
                    rules=rules,
                    banked_at=at,
                    place=f.place,
                    won=f.won,
                    **{name: getattr(f, name) for name in _COUNTS},
                )
            )
