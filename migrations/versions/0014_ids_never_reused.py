"""ids never handed out again, and a session secret per account

SQLite gives a new row the highest id plus one, so after the newest account was deleted the
next one registered got its id, and with it the deleted account's cookies (they named the
account by id and a session version that started at 0 again). Now:

- `users` and `audit_entries` are rebuilt on SQLite with `AUTOINCREMENT` (batch mode: copy,
  drop, rename, with foreign keys off as every migration here runs): an id is never used
  twice. PostgreSQL's sequences never reuse one already; nothing changes there but the columns.
- `users.session_secret` (random, one per account) replaces `users.session_version`: every
  session and remember-me cookie carries it; log out everywhere and a password change make a
  new one. Existing sessions end once (they carried a version, not a secret).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 21:20:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def upgrade() -> None:
    conn = op.get_bind()
    op.add_column("users", sa.Column("session_secret", sa.String(length=32), nullable=True))
    for (user_id,) in conn.execute(sa.text("SELECT id FROM users")).all():
        conn.execute(
            sa.text("UPDATE users SET session_secret = :secret WHERE id = :id"),
            {"secret": secrets.token_urlsafe(24), "id": user_id},
        )
    sqlite = _sqlite()
    with op.batch_alter_table(
        "users", recreate="always" if sqlite else "auto", table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.alter_column("session_secret", existing_type=sa.String(length=32), nullable=False)
        batch_op.drop_column("session_version")
    if sqlite:
        with op.batch_alter_table("audit_entries", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
            pass


def downgrade() -> None:
    sqlite = _sqlite()
    if sqlite:
        with op.batch_alter_table("audit_entries", recreate="always"):
            pass
    with op.batch_alter_table("users", recreate="always" if sqlite else "auto") as batch_op:
        batch_op.add_column(sa.Column("session_version", sa.Integer(), nullable=False, server_default="0"))
        batch_op.drop_column("session_secret")
