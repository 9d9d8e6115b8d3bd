"""Reading the bodies of API requests (the pages' forms send the very same body, so a person and
a script are refused with the same words): a hand with its optional counters, a join code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import BadRequest

from ..rules import Malformed, Record, record_from_dict

_HAND_EXTRA = frozenset({"expected_hand"})
_CORRECTION_EXTRA = frozenset({"expected_hand", "version", "uid"})
_MAX_UID = 64


def json_sent() -> Any:
    """The request's JSON body as parsed, or None if it is not JSON or cannot be read: nested
    deeper than Python's parser goes (a RecursionError) is a malformed body, never a 500."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None


def json_object(*keys: str) -> dict[str, Any]:
    """The request body, which must be a JSON object sent as `application/json` (else 400,
    saying whether it could not be read at all or is JSON of another kind); given `keys`,
    holding none but these (another → 400 naming it)."""
    if not request.is_json:
        raise Malformed(None, _("Send the body as JSON, with Content-Type: application/json."))
    try:
        data = request.get_json()
    except (BadRequest, RecursionError):  # not JSON; nested too deep; a number of 5 000 digits
        raise Malformed(
            None, _("The request body is not JSON that can be read: check its brackets, quotes and numbers.")
        ) from None
    if not isinstance(data, dict):
        raise Malformed(None, _("The request body must be a JSON object."))
    for key in data if keys else ():
        if key not in keys:
            raise Malformed(key, _("“%(key)s” is not something this request can hold.", key=key))
    return data


class HandBody(NamedTuple):
    """A hand's body, read: the record and the optional counters that came with it."""

    record: Record
    expected_hand: int | None
    """The number the caller means this hand to get (a new hand only)."""
    version: int | None
    """The hand's version the caller saw (a correction only)."""


def hand_body(data: Mapping[str, Any], rules: str, correction: bool = False) -> HandBody:
    """A new hand's body (API.md) for a match of these `rules` (a Tichu round or a Tysiacha
    hand), or with `correction` a corrected hand's (which may also say the `version` it
    corrects); Malformed names the key at fault."""
    version = _counter(data, "version", _VERSION_REFUSED) if correction else None
    expected = _counter(data, "expected_hand", _EXPECTED_REFUSED)
    record = record_from_dict(data, rules, _CORRECTION_EXTRA if correction else _HAND_EXTRA)
    return HandBody(record, expected, version)


def hand_uid(data: Mapping[str, Any] | None, query: str | None) -> str | None:
    """The `uid` a correction or a delete names its hand by (API.md "Naming what a change is
    about"): the body's, else the query's; None if neither sends one. A body's `uid` must be
    a text: `null` is refused, never read as "no uid" (which would change whatever hand has
    the number now)."""
    sent = data is not None and "uid" in data
    value = data.get("uid") if sent and data is not None else query
    if (sent or value is not None) and (not isinstance(value, str) or not value or len(value) > _MAX_UID):
        raise Malformed("uid", _("The uid names a hand: send it as the match object shows it."))
    return value


def join_code(data: Mapping[str, Any]) -> str:
    """The `code` of a join request."""
    return text_of(data, "code", _("The join code must be text."))


def text_of(data: Mapping[str, Any], key: str, refused: str) -> str:
    """A body's `key`, which must be a text: else 400 naming it, with `refused`."""
    value = data.get(key)
    if not isinstance(value, str):
        raise Malformed(key, refused)
    return value


def optional_text(data: Mapping[str, Any], key: str, refused: str) -> str | None:
    """`text_of` with its spaces trimmed, or None when the key is not sent, `null` or blank (as
    a form's field, which the page trims)."""
    return None if data.get(key) is None else (text_of(data, key, refused).strip() or None)


def _counter(data: Mapping[str, Any], key: str, refused: Any) -> int | None:
    """An optional positive whole number of a body (not a bool); else Malformed(key, refused),
    `refused` a lazy word: looked up only for a refusal (a hand that is taken asks no catalog)."""
    value = data.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise Malformed(key, str(refused))
    return value


_VERSION_REFUSED = _l("The version is the hand's version number: 1, 2, 3 …")
_EXPECTED_REFUSED = _l("The expected hand is a hand number: 1, 2, 3 …")
