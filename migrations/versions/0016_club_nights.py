"""club nights: events, their directors, roster, rounds, tables and byes (CLUB.md §1, §3)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 21:40:00

Adds `events` (game and options, rounds planned, seating, limits, seed, code, watch token),
`event_directors`, `event_players` (the roster: accounts or guest names, with their status and
Tichu team), `event_rounds` (with their byes) and `event_tables` (each with its ordinary
match, or a result entered by hand). Nothing existing changes; standings are never stored.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("game", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("seating", sa.String(length=10), nullable=False),
        sa.Column("hand_limit", sa.Integer(), nullable=True),
        sa.Column("time_limit", sa.Integer(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("watch_token", sa.String(length=64), nullable=False),
        sa.Column("reseats", sa.Integer(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["created_by_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("watch_token"),
    )
    op.create_table(
        "event_directors",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "user_id"),
    )
    with op.batch_alter_table("event_directors") as batch:
        batch.create_index("ix_event_directors_user_id", ["user_id"])
    op.create_table(
        "event_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("team", sa.String(length=40), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "name"),
        sa.UniqueConstraint("event_id", "user_id"),
    )
    with op.batch_alter_table("event_players") as batch:
        batch.create_index("ix_event_players_user_id", ["user_id"])
    op.create_table(
        "event_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("reseats", sa.Integer(), nullable=False),
        sa.Column("repeats", sa.Integer(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number"),
    )
    op.create_table(
        "event_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=True),
        sa.Column("entered_scores", sa.JSON(), nullable=True),
        sa.Column("entered_by", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(["round_id"], ["event_rounds.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id"),
        sa.UniqueConstraint("round_id", "number"),
    )


def downgrade() -> None:
    op.drop_table("event_tables")
    op.drop_table("event_rounds")
    with op.batch_alter_table("event_players") as batch:
        batch.drop_index("ix_event_players_user_id")
    op.drop_table("event_players")
    with op.batch_alter_table("event_directors") as batch:
        batch.drop_index("ix_event_directors_user_id")
    op.drop_table("event_directors")
    op.drop_table("events")
