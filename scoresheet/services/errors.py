"""What the service layer refuses with, besides the engine's `Malformed` and `Refused`: each
error carries the sentence for the player, and the web layer (web/errors.py) answers it in kind.

Every one is raised before anything is stored, or after the transaction was rolled back.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A command or query that cannot be done as asked; `message` says why, in the player's
    words, and `field` names the request key at fault, if one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NotFound(ServiceError):
    """What was asked for is not there, or not for this user to see (HTTP 404: the same answer
    for both, so a stranger learns nothing)."""


class Forbidden(ServiceError):
    """The user may see this but not do that (HTTP 403)."""


class Conflict(ServiceError):
    """The change clashes with the match's current state (HTTP 409); nothing was stored."""


class AlreadyRecorded(Conflict):
    """The hand sent for number `number` is that hand already, exactly as sent, recorded by the
    same player: a send repeated after its answer was lost, or a double tap. Nothing was stored
    again; the API answers it as any conflict (409), the pages as the hand recorded."""

    def __init__(self, message: str, number: int) -> None:
        super().__init__(message)
        self.number = number


class HandGone(Conflict):
    """A change aimed at a hand (by its uid) that is no longer in the match at all: another
    phone deleted it. Refused as any change to a hand that moved (the same sentence); a
    correction's page and the phone's queue say instead that there is nothing to correct."""


class WrongPassword(Conflict):
    """A password asked for again (to change it, to delete the account) is not the user's:
    answered 403, not 409; nothing changed."""


class Invalid(ServiceError):
    """A value the request may send but not this one (a club night's rounds, limits, names:
    HTTP 422 with its `field`); nothing was stored."""
