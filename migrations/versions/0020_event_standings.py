"""events.standings: each club night keeps its standings

Adds the standings as the engine ranks them (CLUB.md §5), kept on the event by every change
that alters them in its transaction, as `event_tables.match_result` is, so that reading them
ranks nothing; fills them for every event so far by ranking its tables' kept results and its
byes once (the same `standings_after` and `kept_form` the app keeps them with).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-05 22:10:00

"""

from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER (no batch copy of `events`, see 0010).
    op.add_column("events", sa.Column("standings", sa.JSON(), nullable=True))
    _fill_standings(op.get_bind())


def downgrade() -> None:
    op.drop_column("events", "standings")  # SQLite 3.35+ drops a column in place


def _fill_standings(conn: sa.Connection) -> None:
    """Rank each event's standings once from its tables' results and byes, and keep them."""
    from scoresheet.club import ClubError, Round, standings_after
    from scoresheet.rules.figures import game_of
    from scoresheet.services.club.results import kept_form

    events = sa.table(
        "events",
        sa.column("id", sa.String),
        sa.column("game", sa.JSON),
        sa.column("seed", sa.BigInteger),
        sa.column("standings", sa.JSON),
    )
    players = sa.table(
        "event_players", sa.column("id", sa.Integer), sa.column("event_id", sa.String), sa.column("name", sa.String)
    )
    rounds = sa.table(
        "event_rounds",
        sa.column("id", sa.Integer),
        sa.column("event_id", sa.String),
        sa.column("number", sa.Integer),
        sa.column("byes", sa.JSON),
    )
    tables = sa.table(
        "event_tables",
        sa.column("round_id", sa.Integer),
        sa.column("number", sa.Integer),
        sa.column("players", sa.JSON),
        sa.column("match_id", sa.String),
        sa.column("entered_scores", sa.JSON),
        sa.column("match_result", sa.JSON),
    )
    for event_id, game, seed in conn.execute(sa.select(events.c.id, events.c.game, events.c.seed)).all():
        names = conn.execute(
            sa.select(players.c.name).where(players.c.event_id == event_id).order_by(players.c.id)
        ).scalars()
        seated = []
        for round_id, byes in conn.execute(
            sa.select(rounds.c.id, rounds.c.byes).where(rounds.c.event_id == event_id).order_by(rounds.c.number)
        ).all():
            at = conn.execute(
                sa.select(tables.c.players, tables.c.match_id, tables.c.entered_scores, tables.c.match_result)
                .where(tables.c.round_id == round_id)
                .order_by(tables.c.number)
            ).all()
            seated.append(Round(tables=tuple(_table(*t) for t in at), byes=tuple(byes)))
        club_game = "tichu" if game_of(str(game["rules"])) == "tichu" else "tysiacha"
        try:
            ranked = standings_after(list(names), seated, game=club_game, seed=seed)
        except ClubError:  # a table naming a player off its roster: read as before, ranked afresh
            continue
        conn.execute(events.update().where(events.c.id == event_id).values(standings=kept_form(ranked, len(seated))))


def _table(players: list[str], match_id: str | None, entered: list[int] | None, kept: list[int] | None) -> Any:
    """A table as the engine reads it: its result the scores entered, else its match's kept one."""
    from scoresheet.club import Table

    scores = entered if entered is not None else (kept if match_id is not None else None)
    return Table(players=tuple(players), scores=tuple(scores) if scores is not None else None)
