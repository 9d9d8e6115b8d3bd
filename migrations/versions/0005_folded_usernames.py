"""usernames unique ignoring case: a folded copy with a unique index

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

Stops, naming them, if existing users' names differ only in case: which account keeps the
name is for a person to decide (rename one, e.g. `UPDATE users SET username = 'anna2' …`,
then run the upgrade again).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def collisions(conn: sa.Connection) -> list[list[str]]:
    """Groups of existing usernames that are one name ignoring case."""
    rows = conn.execute(
        sa.text(
            "SELECT username FROM users WHERE lower(username) IN "
            "(SELECT lower(username) FROM users GROUP BY lower(username) HAVING count(*) > 1) "
            "ORDER BY lower(username), id"
        )
    ).scalars()
    groups: dict[str, list[str]] = {}
    for name in rows:
        groups.setdefault(name.lower(), []).append(name)
    return list(groups.values())


def upgrade() -> None:
    clashes = collisions(op.get_bind())
    if clashes:
        named = "; ".join(", ".join(f"“{n}”" for n in group) for group in clashes)
        raise RuntimeError(
            "These accounts' usernames differ only in case and would become one: "
            + named
            + ". Rename all but one of each group (UPDATE users SET username = … WHERE id = …), "
            "then run the upgrade again. Nothing was changed."
        )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("username_folded", sa.String(length=40), nullable=True))
    op.execute("UPDATE users SET username_folded = lower(username)")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column("username_folded", existing_type=sa.String(length=40), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_users_username_folded"), ["username_folded"])


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_users_username_folded"), type_="unique")
        batch_op.drop_column("username_folded")
