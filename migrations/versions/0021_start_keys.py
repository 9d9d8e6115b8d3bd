"""matches.start_key, events.start_key, matches.imported_from: made once, imported once

Adds the key of the page's form that started a match or made a club night, unique per
creator: the same form sent twice (a double tap, or a tap again after an answer lost on a bad
connection) opens the match or night the first one made. Those made so far have none. Adds the
id a match had in the backup it was imported from, unique per importer: a backup imported
again imports nothing. Those imported so far are not known as such.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06 13:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER (no batch copy of `matches`, see 0010).
    for table in ("matches", "events"):
        op.add_column(table, sa.Column("start_key", sa.String(length=16), nullable=True))
        op.create_index(f"ix_{table}_start_key", table, ["created_by_id", "start_key"], unique=True)
    op.add_column("matches", sa.Column("imported_from", sa.String(length=16), nullable=True))
    op.create_index("ix_matches_imported_from", "matches", ["created_by_id", "imported_from"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_matches_imported_from", table_name="matches")
    op.drop_column("matches", "imported_from")
    for table in ("matches", "events"):
        op.drop_index(f"ix_{table}_start_key", table_name=table)
        op.drop_column(table, "start_key")  # SQLite 3.35+ drops a column in place
