"""usernames in any alphabet: folded by Unicode case folding, with room for what folding writes

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04 21:00:00

A username may now hold letters of any alphabet (`accounts.username_allowed`), and
`users.username_folded` is `models.fold` (NFC, then Unicode case folding) where it was
`lower()`: the same for the ASCII names allowed until now, not for a name a backup brought in
(`Straße` folds to `strasse`, `ΣΟΦΙΑ` to `σοφια`). Every row is folded again, and the column
grows to 120 characters (folding may write one letter as three: `ß` → `ss`). Stops, naming
them, if two existing usernames would become one, as 0005 does.
"""

import unicodedata
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def fold(username: str) -> str:
    """`models.fold` as of this revision (a migration keeps its own copy)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", username).casefold())


def collisions(names: list[str]) -> list[list[str]]:
    """Groups of usernames that fold to one name."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(fold(name), []).append(name)
    return [group for group in groups.values() if len(group) > 1]


def _refold(conn: sa.Connection, folding: Callable[[str], str]) -> None:
    """Write `folding(username)` wherever the stored folded name differs."""
    rows = conn.execute(sa.text("SELECT id, username, username_folded FROM users ORDER BY id")).all()
    for user_id, name, folded in rows:
        if folding(name) != folded:
            conn.execute(
                sa.text("UPDATE users SET username_folded = :folded WHERE id = :id"),
                {"folded": folding(name), "id": user_id},
            )


def upgrade() -> None:
    conn = op.get_bind()
    clashes = collisions(list(conn.execute(sa.text("SELECT username FROM users ORDER BY id")).scalars()))
    if clashes:
        named = "; ".join(", ".join(f"“{n}”" for n in group) for group in clashes)
        raise RuntimeError(
            "These accounts' usernames are one name once case is folded: "
            + named
            + ". Rename all but one of each group (UPDATE users SET username = … WHERE id = …), "
            "then run the upgrade again. Nothing was changed."
        )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column(
            "username_folded", existing_type=sa.String(length=40), type_=sa.String(length=120), existing_nullable=False
        )
    _refold(conn, fold)


def downgrade() -> None:
    _refold(op.get_bind(), str.lower)
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column(
            "username_folded", existing_type=sa.String(length=120), type_=sa.String(length=40), existing_nullable=False
        )
