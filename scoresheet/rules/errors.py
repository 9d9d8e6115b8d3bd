"""The two ways a set-up or a hand can be turned away (python-chess style: both ValueErrors)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

translator: Callable[[str, Mapping[str, object]], str] | None = None
"""Set by the web layer (scoresheet/i18n.py): a refusal's sentence in the language of the
request, looked up by its kind (`code`) and filled with its `params`; None: English."""


class RuleError(ValueError):
    """A refused input: `field` names the request key at fault, the message says what is wrong.

    Built by `messages.refuse` / `messages.malformed` from the table of sentences there.
    """

    def __init__(
        self,
        field: str | None,
        message: str,
        hand: int | None = None,
        *,
        code: str = "",
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self._english = message
        self._said: str | None = None
        self.hand = hand
        """The 1-based number of the hand at fault, when a replay refused one."""
        self.code = code
        """The kind of refusal: its key in `messages.MESSAGES`."""
        self.params = dict(params or {})
        """The values filled into the sentence, by name."""

    @property
    def message(self) -> str:
        """The sentence for the player: in the request's language where the web layer
        translates (`translator`), else English."""
        if self._said is not None:
            return self._said
        if self.code and translator is not None:
            return translator(self.code, self.params)
        return self._english

    @message.setter
    def message(self, text: str) -> None:
        """Replace the sentence (a caller that says more, already in the player's words)."""
        self._said = text
        self.args = (text,)


class Malformed(RuleError):
    """The input is not of the right shape or type (a string where a number belongs)."""


class Refused(RuleError):
    """The input is well-formed but the rules do not allow it (RULES.md §2, §6)."""
