"""pair totals: what "everyone I've played" and head to head read, kept at write time

Adds `seat_figures.score` (the seat's final score, Tichu its team's, filled from each banked
match's summary), `pair_totals` (how each account did beside each other one in the banked
matches where both claimed a seat, Tichu partners apart from opponents, filled from the seat
figures), and the latest `mu`, `sigma` and rated match to `rating_summaries` (a leaderboard
reads one row per player; filled from `ratings`).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05 04:00:00

"""

import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_PAIRS = """
INSERT INTO pair_totals (user_id, other_id, partner, matches, won, ahead, behind, score_difference,
                         calls_made, calls, last_banked_at)
SELECT s1.user_id, s2.user_id, f1.rules = 'tichu' AND s1.seat % 2 = s2.seat % 2, count(*),
       sum(CASE WHEN f1.won THEN 1 ELSE 0 END), sum(CASE WHEN f1.place < f2.place THEN 1 ELSE 0 END),
       sum(CASE WHEN f1.place > f2.place THEN 1 ELSE 0 END), sum(f1.score - f2.score),
       sum(CASE WHEN f1.rules = 'tichu' AND s1.seat % 2 = s2.seat % 2 THEN f1.tichu_made + f1.grand_made
           + f1.great_grand_made + f2.tichu_made + f2.grand_made + f2.great_grand_made ELSE 0 END),
       sum(CASE WHEN f1.rules = 'tichu' AND s1.seat % 2 = s2.seat % 2 THEN f1.tichu_called + f1.grand_called
           + f1.great_grand_called + f2.tichu_called + f2.grand_called + f2.great_grand_called ELSE 0 END),
       max(f1.banked_at)
FROM seats s1
JOIN seats s2 ON s2.match_id = s1.match_id AND s2.user_id != s1.user_id
JOIN seat_figures f1 ON f1.match_id = s1.match_id AND f1.seat = s1.seat
JOIN seat_figures f2 ON f2.match_id = s2.match_id AND f2.seat = s2.seat
GROUP BY s1.user_id, s2.user_id, f1.rules = 'tichu' AND s1.seat % 2 = s2.seat % 2
"""


def upgrade() -> None:
    op.add_column("seat_figures", sa.Column("score", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("rating_summaries", sa.Column("mu", sa.Float(), nullable=False, server_default="0"))
    op.add_column("rating_summaries", sa.Column("sigma", sa.Float(), nullable=False, server_default="0"))
    op.add_column("rating_summaries", sa.Column("match_id", sa.String(length=16), nullable=True))
    op.create_table(
        "pair_totals",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("partner", sa.Boolean(), nullable=False),
        *[
            sa.Column(name, sa.Integer(), nullable=False)
            for name in ("matches", "won", "ahead", "behind", "score_difference", "calls_made", "calls")
        ],
        sa.Column("last_banked_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["other_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "other_id", "partner"),
    )
    conn = op.get_bind()
    _fill_scores(conn)
    conn.execute(sa.text(_PAIRS))
    conn.execute(
        sa.text(
            "UPDATE rating_summaries SET"
            " mu = (SELECT mu FROM ratings WHERE id = (SELECT max(id) FROM ratings r"
            " WHERE r.user_id = rating_summaries.user_id AND r.game = rating_summaries.game)),"
            " sigma = (SELECT sigma FROM ratings WHERE id = (SELECT max(id) FROM ratings r"
            " WHERE r.user_id = rating_summaries.user_id AND r.game = rating_summaries.game)),"
            " match_id = (SELECT match_id FROM ratings WHERE id = (SELECT max(id) FROM ratings r"
            " WHERE r.user_id = rating_summaries.user_id AND r.game = rating_summaries.game))"
        )
    )


def _fill_scores(conn: sa.Connection) -> None:
    """Each banked seat's final score from its match's summary (Tichu: the team's, seat % 2)."""
    rows = conn.execute(
        sa.text(
            "SELECT id, (SELECT rules FROM seat_figures WHERE match_id = matches.id LIMIT 1), summary"
            " FROM matches WHERE id IN (SELECT match_id FROM seat_figures)"
        )
    ).all()
    update = sa.text("UPDATE seat_figures SET score = :score WHERE match_id = :match_id AND seat = :seat")
    for match_id, rules, summary in rows:
        found = json.loads(summary) if isinstance(summary, str) else summary
        scores = (found or {}).get("scores") or []
        seats = 4 if rules == "tichu" else len(scores)
        params = [
            {"match_id": match_id, "seat": seat, "score": scores[seat % 2 if rules == "tichu" else seat]}
            for seat in range(seats)
            if scores
        ]
        if params:
            conn.execute(update, params)


def downgrade() -> None:
    op.drop_table("pair_totals")
    op.drop_column("rating_summaries", "match_id")  # SQLite 3.35+ drops a column in place
    op.drop_column("rating_summaries", "sigma")
    op.drop_column("rating_summaries", "mu")
    op.drop_column("seat_figures", "score")
