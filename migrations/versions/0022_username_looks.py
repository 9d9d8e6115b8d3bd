"""users.username_looks: a new username may not look exactly like another account's

Adds how each username looks, whatever its case (`models.looks_of`: letter by letter, a
letter of another alphabet read as the Latin letter it looks like, then case folded),
indexed, and fills it for every account. Registration refuses a name that looks like an
account's ("Норе" or "НОРЕ", all in Cyrillic, beside Hope). Accounts that look alike
already stay as they are: the index is not unique.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07 03:30:00

"""

import unicodedata

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

INVISIBLE = frozenset(
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u200b\u200c\u200d\u200e\u200f"
    "\u2028\u2029\u2060\u2061\u2062\u2063\u2064\u2800\u3164\ufeff\uffa0"
) | frozenset(map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))
"""`rules.setup.INVISIBLE` as of this revision (a migration keeps its own copy)."""


def fold(username: str) -> str:
    """`models.fold` as of this revision."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", username).casefold())


def look_alike_key(name: str) -> str:
    """`models.look_alike_key` as of this revision."""
    from confusable_homoglyphs import confusables  # its 1 MB table: not when a worker starts and reads every migration

    shown = "".join(c for c in unicodedata.normalize("NFD", name) if c not in INVISIBLE)
    shown = "".join(
        c if c.isascii() else next((g["c"] for g in confusables.confusables_data.get(c, ()) if g["c"].isascii()), c)
        for c in shown
    )
    return unicodedata.normalize("NFD", shown.replace("I", "l"))


def upgrade() -> None:
    op.add_column("users", sa.Column("username_looks", sa.String(length=160), nullable=True))
    op.create_index("ix_users_username_looks", "users", ["username_looks"])
    conn = op.get_bind()
    for user_id, name in conn.execute(sa.text("SELECT id, username FROM users ORDER BY id")).all():
        conn.execute(
            sa.text("UPDATE users SET username_looks = :looks WHERE id = :id"),
            {"looks": fold(look_alike_key(name)), "id": user_id},
        )


def downgrade() -> None:
    op.drop_index("ix_users_username_looks", table_name="users")
    op.drop_column("users", "username_looks")  # SQLite 3.35+ drops a column in place
