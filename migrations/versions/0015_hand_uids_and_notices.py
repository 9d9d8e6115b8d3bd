"""hands.uid: a name for each hand for its whole life; notices: told once, on the next page

- `hands.uid` (random, unique): a delete or a correction names the hand it is about, so a
  stale tap (an Undo toast after another phone deleted a hand and recorded a new one with
  that number) is refused instead of removing someone else's hand. Existing hands get one.
- `notices`: something a player is told once on their next page, in their language (their
  seat claimed, assigned or released by someone else).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 21:30:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    op.add_column("hands", sa.Column("uid", sa.String(length=16), nullable=True))
    for (hand_id,) in conn.execute(sa.text("SELECT id FROM hands")).all():
        conn.execute(
            sa.text("UPDATE hands SET uid = :uid WHERE id = :id"), {"uid": secrets.token_urlsafe(12), "id": hand_id}
        )
    with op.batch_alter_table("hands") as batch_op:
        batch_op.alter_column("uid", existing_type=sa.String(length=16), nullable=False)
        batch_op.create_unique_constraint("uq_hands_uid", ["uid"])
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("values", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_notices_user_id", "notices", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_notices_user_id", table_name="notices")
    op.drop_table("notices")
    with op.batch_alter_table("hands") as batch_op:
        batch_op.drop_constraint("uq_hands_uid", type_="unique")
        batch_op.drop_column("uid")
