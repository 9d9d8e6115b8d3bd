"""matches keep scoring as they were created: the old classic and tyzicha rules as options

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 07:30:00

RULES.md §7 corrected two rulesets: a classic miss on the barrel now stays at 880
(classic's default `barrel_miss` is "stays"), and in tyzicha only the dealer's left can be
forced, at exactly 100. A match stored before then keeps its old rule, written into its stored
options: classic `barrel_miss: "costs_bid"`, tyzicha `forced_any_seat: true`. No sheet, no
winner changes. Stepping down removes every house rule from the stored options (the code
before knows none of them).
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

OLD_RULES = {"classic": ("barrel_miss", "costs_bid"), "tyzicha": ("forced_any_seat", True)}
"""Per ruleset: the option, and the value that keeps the rule from before the correction."""
HOUSE_KEYS = (
    "zeros",
    "zero_penalty",
    "dump_555",
    "barrel_knock_off",
    "barrel_miss",
    "barrel_hands",
    "three_falls_reset",
    "declarer_rounding",
    "forfeit_pays",
    "blind_doubles",
    "ace_marriage",
    "forced_any_seat",
)
"""Every option the house rules added (RULES.md §11), written out: a migration does not follow later code."""

MATCHES = sa.table("matches", sa.column("id", sa.String), sa.column("setup", sa.JSON))


def _rewrite(change: Any) -> None:
    """Store `change(setup)` for every match whose set-up it changes."""
    conn = op.get_bind()
    for match_id, setup in conn.execute(sa.select(MATCHES.c.id, MATCHES.c.setup)).all():
        new = change(setup)
        if new is not None:
            conn.execute(MATCHES.update().where(MATCHES.c.id == match_id).values(setup=new))


def _keep_old_rule(setup: dict[str, Any]) -> dict[str, Any] | None:
    """The set-up with its ruleset's old rule written in, or None if it needs none."""
    old = OLD_RULES.get(setup.get("rules", ""))
    options = setup.get("options") or {}
    if old is None or old[0] in options:
        return None
    return {**setup, "options": {**options, old[0]: old[1]}}


def _without_house_rules(setup: dict[str, Any]) -> dict[str, Any] | None:
    """The set-up without any house rule option (RULES.md §11), or None if it has none."""
    options = setup.get("options") or {}
    if not any(key in options for key in HOUSE_KEYS):
        return None
    return {**setup, "options": {k: v for k, v in options.items() if k not in HOUSE_KEYS}}


def upgrade() -> None:
    _rewrite(_keep_old_rule)


def downgrade() -> None:
    _rewrite(_without_house_rules)
