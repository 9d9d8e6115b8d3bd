"""How the engine of a club night turns an input away: a `ValueError` naming the field at fault.

Like the match engine's refusals (`scoresheet.rules.errors`), each carries its kind (`code`)
and the values filled into its sentence (`params`), so the web layer can say it in the
reader's language; the sentences live in `MESSAGES`, never at the raise, marked for the
catalogs (`N_`): web/errors.py looks each one up by its English and fills it in.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rules.messages import N_

MESSAGES: dict[str, str] = {
    "unknown_game": N_("“{game}” is not a game a club night plays: “tysiacha” or “tichu”."),
    "unknown_seating": N_("Seating is “fours” or “byes”, not “{seating}”."),
    "too_few_players": N_("A round needs at least {least} present players, not {n}."),
    "too_few_teams": N_("A Tichu round needs at least {least} present teams, not {n}."),
    "tichu_odd": N_("Tichu is played in teams of two: {n} present players make no whole teams."),
    "no_team": N_("{name} plays Tichu in no team: give every player a team of two."),
    "team_not_two": N_("The team “{team}” has {n} present players: a Tichu team is two."),
    "player_twice": N_("{name} is in the list twice."),
    "not_on_roster": N_("{name} is not on the roster."),
    "table_size": N_("A {game} table seats {allowed} players, not {n}."),
    "score_count": N_("A {game} table of {players} has {expected} scores, not {n}."),
}
"""Every sentence an engine refusal says, by its kind (CLUB.md §3, §5, §6)."""


class ClubError(ValueError):
    """A refused input of a club night: `field` names the request key at fault (CLUB.md §6)."""

    def __init__(self, field: str | None, code: str, **params: object) -> None:
        self.field = field
        """The request key at fault (`roster`, `seating`, `scores`, …), or None."""
        self.code = code
        """The kind of refusal: its key in `MESSAGES`."""
        self.params: Mapping[str, object] = dict(params)
        """The values filled into the sentence, by name."""
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The sentence for the player, in English."""
        return MESSAGES[self.code].format(**self.params)


class TooFewPlayers(ClubError):
    """Fewer present players (Tichu: teams) than one table needs (CLUB.md §6: 422, `roster`)."""


class BadResult(ClubError):
    """A table's players or scores do not fit its game (CLUB.md §2)."""
