"""player totals and rating summaries: what a player's page reads, kept at write time

Adds `player_totals` (each account's seat figures per ruleset added up over its claimed seats
of banked matches) and `rating_summaries` (each account's latest rating per game and its
history thinned to what the chart draws), and fills both from the rows kept so far. Before
that, it replays once every banked match played with `barrel_knock_off`, so that its seats'
`barrel_fell` counts the knock-offs (a knock-off is a fall, RULES.md §11.6; the figures kept
before did not count them).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 21:50:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
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
_HISTORY_POINTS = 120  # ratings.HISTORY_POINTS as this was written


def upgrade() -> None:
    op.create_table(
        "player_totals",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("banked", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("places", sa.Integer(), nullable=False),
        *[sa.Column(name, sa.Integer(), nullable=False) for name in _COUNTS],
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "rules"),
    )
    op.create_table(
        "rating_summaries",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=10), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game"),
    )
    conn = op.get_bind()
    _count_knock_offs(conn)
    _fill_totals(conn)
    _fill_summaries(conn)


def downgrade() -> None:
    op.drop_table("rating_summaries")
    op.drop_table("player_totals")


def _count_knock_offs(conn: sa.Connection) -> None:
    """Replay each banked match with knock-offs on and write its seats' counts again."""
    from scoresheet.rules import record_from_dict, replay, setup_from_dict
    from scoresheet.rules.figures import seat_figures

    matches = sa.table(
        "matches", sa.column("id", sa.String), sa.column("setup", sa.JSON), sa.column("status", sa.String)
    )
    hands = sa.table(
        "hands", sa.column("match_id", sa.String), sa.column("number", sa.Integer), sa.column("record", sa.JSON)
    )
    figures = sa.table(
        "seat_figures",
        sa.column("match_id", sa.String),
        sa.column("seat", sa.Integer),
        *[sa.column(name, sa.Integer) for name in _COUNTS],
    )
    banked = sa.select(figures.c.match_id).distinct()
    for match_id, setup in conn.execute(sa.select(matches.c.id, matches.c.setup).where(matches.c.id.in_(banked))).all():
        if not (setup.get("options") or {}).get("barrel_knock_off"):
            continue
        records = conn.execute(
            sa.select(hands.c.record).where(hands.c.match_id == match_id).order_by(hands.c.number)
        ).scalars()
        engine_setup = setup_from_dict(setup)
        sheet = replay(engine_setup, [record_from_dict(r, engine_setup.rules) for r in records])
        for f in seat_figures(sheet):
            conn.execute(
                figures.update()
                .where(figures.c.match_id == match_id, figures.c.seat == f.seat)
                .values(**{name: getattr(f, name) for name in _COUNTS})
            )


def _fill_totals(conn: sa.Connection) -> None:
    """Every account's totals per ruleset, summed in the database."""
    seats = sa.table(
        "seats", sa.column("match_id", sa.String), sa.column("seat", sa.Integer), sa.column("user_id", sa.Integer)
    )
    figures = sa.table(
        "seat_figures",
        sa.column("match_id", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("rules", sa.String),
        sa.column("place", sa.Integer),
        sa.column("won", sa.Boolean),
        *[sa.column(name, sa.Integer) for name in _COUNTS],
    )
    totals = sa.table(
        "player_totals",
        sa.column("user_id", sa.Integer),
        sa.column("rules", sa.String),
        sa.column("banked", sa.Integer),
        sa.column("won", sa.Integer),
        sa.column("places", sa.Integer),
        *[sa.column(name, sa.Integer) for name in _COUNTS],
    )
    sums = [
        sa.func.max(figures.c[name]) if name == "bid_made_max" else sa.func.sum(figures.c[name]) for name in _COUNTS
    ]
    select = (
        sa.select(
            seats.c.user_id,
            figures.c.rules,
            sa.func.count(),
            sa.func.sum(sa.case((figures.c.won, 1), else_=0)),
            sa.func.sum(figures.c.place),
            *sums,
        )
        .join(seats, (seats.c.match_id == figures.c.match_id) & (seats.c.seat == figures.c.seat))
        .group_by(seats.c.user_id, figures.c.rules)
    )
    conn.execute(totals.insert().from_select(["user_id", "rules", "banked", "won", "places", *_COUNTS], select))


def _fill_summaries(conn: sa.Connection) -> None:
    """Every account's rating history per game, thinned as `ratings.thinned` does."""
    ratings = sa.table(
        "ratings",
        sa.column("id", sa.Integer),
        sa.column("user_id", sa.Integer),
        sa.column("game", sa.String),
        sa.column("match_id", sa.String),
        sa.column("banked_at", sa.DateTime(timezone=True)),
        sa.column("mu", sa.Float),
        sa.column("sigma", sa.Float),
    )
    summaries = sa.table(
        "rating_summaries",
        sa.column("user_id", sa.Integer),
        sa.column("game", sa.String),
        sa.column("matches", sa.Integer),
        sa.column("points", sa.JSON),
    )
    histories: dict[tuple[int, str], list[tuple[str, float]]] = {}
    for user_id, game, match_id, mu, sigma in conn.execute(
        sa.select(ratings.c.user_id, ratings.c.game, ratings.c.match_id, ratings.c.mu, ratings.c.sigma).order_by(
            ratings.c.banked_at, ratings.c.id
        )
    ):
        histories.setdefault((user_id, game), []).append((match_id, round(mu - 3 * sigma, 1)))
    for (user_id, game), history in histories.items():
        total = len(history)
        step = (total + _HISTORY_POINTS - 1) // _HISTORY_POINTS
        points = [
            [n, match_id, rating]
            for n, (match_id, rating) in enumerate(history, start=1)
            if n % step == 0 or n == total
        ]
        conn.execute(summaries.insert().values(user_id=user_id, game=game, matches=total, points=points))
