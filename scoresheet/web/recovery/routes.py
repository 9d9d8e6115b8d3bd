"""Pages and commands for recovery: a match's history (and restoring a deleted hand), backups
of one match or all of mine, importing a backup as a new match, and the whole-database CLI."""

from __future__ import annotations

import json
import os
from typing import Any

import click
from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from sqlalchemy.exc import DBAPIError

from ...rules import RuleError
from ...rules.tichu import TICHU
from ...services import database_backup
from ...services.club import exports
from ...services.errors import Conflict, Invalid, ServiceError
from ...services.matches import audit, backup, commands, queries, seats
from ...storage import database, which_database
from ...storage.extensions import db
from .. import security
from ..forms import ConfirmForm
from ..match_view import back_to, refused_form

bp = Blueprint("recovery", __name__, cli_group=None)
bp.after_request(refused_form)  # a refused import or restore form answers 422, as on every page


class ImportForm(FlaskForm):
    """Upload a backup file."""

    file = FileField(_l("Backup file (.json)"), validators=[FileRequired(_l("Choose the backup file."))])


@bp.get("/matches/<match_id>/history")
@login_required
def history(match_id: str) -> str:
    """Every change to the match in plain words, newest first; deleted hands can come back."""
    m = queries.get_match(match_id, current_user)
    entries = audit.entries(m)
    players = list(m.setup["players"])
    restorable = commands.restorable_ids(m, entries)
    names = seats.table_names(m)
    rows = [(e, audit.describe(e, players, names), e.id in restorable) for e in entries]
    return render_template("recovery/history.html", match=m, rows=rows, players=players)


def _hands_seen() -> int | None:
    """The toast's `&hands=` (0 too), None without one; -1 for one the page did not write (it
    matches no sheet: refused as a sheet that changed)."""
    text = request.args.get("hands")
    if text is None:
        return None
    return 0 if text == "0" else security.ascii_number(text) or -1


@bp.route("/matches/<match_id>/history/restore", methods=["GET", "POST"])
@login_required
def restore(match_id: str) -> Any:
    """Restore a deleted hand (`?entry=<id of its history entry>`) after a confirmation; the
    "Take it back" toast names the sheet's hands when it was shown (`&hands=`): restored only
    onto that sheet."""
    m = queries.get_match(match_id, current_user)
    entry = commands.deleted_entry(m, security.ascii_number(request.args.get("entry")))
    words = audit.hand_words(entry.before, list(m.setup["players"]))
    tichu = m.setup["rules"] == TICHU
    form = ConfirmForm()
    if form.validate_on_submit():
        try:
            number, sheet = commands.restore_hand(m, current_user, entry.id, _hands_seen())
        except (Conflict, RuleError) as err:
            flash(err.message, "warning")
            return redirect(url_for("recovery.history", match_id=m.id))
        if number == len(sheet.hands):  # the newest: nothing after it to recompute
            flash(
                _("The deleted round is back as round %(num)d.", num=number)
                if tichu
                else _("The deleted hand is back as hand %(num)d.", num=number)
            )
        elif tichu:
            flash(_("The deleted round is back as round %(num)d; the rounds after it are recomputed.", num=number))
        else:
            flash(_("The deleted hand is back as hand %(num)d; the hands after it are recomputed.", num=number))
        return back_to(m)
    with database.form_page():
        return render_template(
            "shared/confirm.html",
            form=form,
            match=m,
            title=_("Restore deleted round %(num)d", num=entry.hand_number or 0)
            if tichu
            else _("Restore deleted hand %(num)d", num=entry.hand_number or 0),
            question=_(
                "The round %(name)s deleted (%(round)s) comes back as round %(num)d if the sheet "
                "is that long (later rounds move down one), otherwise as the next round; every "
                "round after it is recomputed.",
                name=entry.username,
                round=words,
                num=entry.hand_number or 0,
            )
            if tichu
            else _(
                "The hand %(name)s deleted (%(hand)s) comes back as hand %(num)d if the sheet "
                "is that long (later hands move down one), otherwise as the next hand; every "
                "hand after it is recomputed.",
                name=entry.username,
                hand=words,
                num=entry.hand_number or 0,
            ),
        )


@bp.get("/matches/<match_id>/backup.json")
@login_required
def match_backup(match_id: str) -> Response:
    """Download one match as a backup file."""
    m = queries.get_match(match_id, current_user)
    return _download(backup.document([m]), f"tysiacha-{m.id}.json")


@bp.get("/backup.json")
@login_required
def my_backup() -> Response:
    """Download every match of mine as one backup file."""
    return _download(backup.document(queries.user_matches(current_user)), "tysiacha-matches.json")


@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_match() -> Any:
    """Upload a backup: each match in it becomes a new match of mine."""
    form = ImportForm()
    if form.validate_on_submit():
        try:
            doc = json.loads(form.file.data.read().decode("utf-8-sig"))
            imported, imported_before = backup.import_matches(current_user, doc)
            matches = [i.match for i in imported]
        except (Conflict, ValueError, RecursionError) as err:
            form.file.errors = [_refusal(err)]
        else:
            flash(
                ngettext(
                    "Imported %(num)d match from the backup, with a new join code.",
                    "Imported %(num)d matches from the backup, each with a new join code.",
                    len(matches),
                )
            )
            if imported_before:
                flash(
                    ngettext(
                        "%(num)d match of the backup was imported before and is not imported again.",
                        "%(num)d matches of the backup were imported before and are not imported again.",
                        len(imported_before),
                    )
                )
            return back_to(matches[0]) if len(matches) == 1 else redirect(url_for("pages.index"))
    with database.form_page():  # (a refused file: nothing of it is kept)
        return render_template("recovery/import.html", form=form)


@bp.route("/events/import", methods=["GET", "POST"])
@login_required
def import_event() -> Any:
    """Upload a club night's backup: it becomes a new event of mine, with the same standings."""
    form = ImportForm()
    if form.validate_on_submit():
        try:
            doc = json.loads(form.file.data.read().decode("utf-8-sig"))
            event = exports.import_event(current_user, doc)
        except (Invalid, Conflict, ValueError, RecursionError) as err:
            form.file.errors = [_refusal(err)]
        else:
            flash(_("The club night is imported as a new event, with its own join code and board."))
            return redirect(url_for("nights.event_page", event_id=event.id))
    with database.form_page():  # (a refused file: nothing of it is kept)
        return render_template("recovery/import_event.html", form=form)


def _refusal(err: Exception) -> str:
    """Why an uploaded backup was refused, with where in the file when the sentence does not
    say it already (the API's `field`, a JSON pointer: /matches/0/hands/1/record/bid is the
    second hand of the first match)."""
    if not isinstance(err, ServiceError | RuleError):
        return _("This file is not a backup of this app (it is not JSON).")
    place = err.field or ""
    if not place.startswith("/") or place in err.message:
        return err.message
    # TRANSLATORS: a refused backup's reason, then where in the file: "… (in the file: /matches/0/hands/1)"
    return _("%(reason)s (in the file: %(place)s)", reason=err.message, place=place)


def _download(doc: dict[str, Any], filename: str) -> Response:
    """A JSON document as a file to keep (<, > and & escaped: no browser ever reads markup)."""
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Response(
        text, mimetype="application/json", headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


@bp.cli.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
def backup_command(file: str) -> None:
    """Write the whole database (users, matches with their hands, history and seats, club
    nights) to FILE as JSON."""
    which_database.require()  # never back up an empty database this command would have made
    with database.snapshot():  # one consistent state of every table, writers never held up
        doc = database_backup.document()
    tmp = f"{file}.{os.getpid()}.tmp"
    # It holds every password hash: readable by its owner only (0600), whatever the umask.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, file)
    click.echo(f"Backed up {_counts(len(doc['users']), len(doc['matches']), len(doc['events']))} to {file}.")


@bp.cli.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--create", is_flag=True, help="Make the SQLite database in the instance folder if it is not there.")
def restore_command(file: str, create: bool) -> None:
    """Load a backup written by `backup` into this database, which must be empty."""
    try:
        with open(file, encoding="utf-8-sig") as f:
            doc = json.load(f)
    except (ValueError, RecursionError):
        raise click.ClickException(f"{file} is not a backup of this app (it is not JSON).") from None
    if create and which_database.held():
        database.create_missing()
    which_database.require()
    if not backup.is_empty():
        raise click.ClickException(
            "This database is not empty: restore only into a new, empty database "
            f"({current_app.config['SQLALCHEMY_DATABASE_URI'].split('@')[-1]})."
        )
    try:
        restored = database_backup.restore(doc)
    except RuleError as err:
        db.session.rollback()
        raise click.ClickException(f"The backup was not restored ({err.field}): {err.message}") from None
    except DBAPIError as err:  # what the checks did not foresee, refused by the database itself
        db.session.rollback()
        raise click.ClickException(f"The backup was not restored: the database refused it ({err.orig}).") from None
    click.echo(f"Restored {_counts(*restored)} from {file}.")


def _count(number: int, one: str, many: str) -> str:
    """A count and its noun ("1 user", "2 users"), in the command line's English: it speaks to
    whoever keeps the server, so its words are not in the players' catalogs."""
    return f"{number} {one if number == 1 else many}"


def _counts(users: int, matches: int, events: int) -> str:
    """What a backup holds ("2 users and 3 matches", "2 users, 3 matches and 1 club night")."""
    parts = [_count(users, "user", "users"), _count(matches, "match", "matches")]
    if events:
        parts.append(_count(events, "club night", "club nights"))
    return ", ".join(parts[:-1]) + " and " + parts[-1]
