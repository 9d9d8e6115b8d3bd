"""The two ways a set-up or a hand can be turned away (python-chess style: both ValueErrors)."""

from __future__ import annotations

from collections.abc import Mapping


class RuleError(ValueError):
    """A refused input: `field` names the request key at fault, the message says what is wrong.

    Built by `messages.refuse` / `messages.malformed` from the table of sentences there.
    """

    def __init__(self, field: str | None, message: str, hand: int | None = None, *,
                 code: str = "", params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.hand = hand
        """The 1-based number of the hand at fault, when a replay refused one."""
        self.code = code
        """The kind of refusal: its key in `messages.MESSAGES`."""
        self.params = dict(params or {})
        """The values filled into the sentence, by name."""


class Malformed(RuleError):
    """The input is not of the right shape or type (a string where a number belongs)."""


class Refused(RuleError):
    """The input is well-formed but the rules do not allow it (RULES.md §2, §6)."""
