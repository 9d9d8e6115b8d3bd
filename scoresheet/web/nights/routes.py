"""Club nights' pages: the night's page (the director's controls, a player's "my table", every
table as it stands, the standings), its version for live updates, the check-in link, the
table cards, and the director's forms. Thin views over `services.club`: a refusal is shown next
to the field it names, nothing stored; success redirects back with a flash (post/redirect/get).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from ...club import ClubError
from ...rules import RuleError
from ...rules.tichu import team_names
from ...services.club import events, progress, results, serialize
from ...services.errors import Conflict, Invalid, NotFound, ServiceError
from ...storage.database import form_page
from ...storage.models import Event, utcnow
from ...words.house_rules import TYPED
from ...words.vocabulary import CHECKED_IN
from .. import limits
from ..errors import club_message
from ..forms import ButtonForm, ConfirmForm, RefusableForm
from ..match_view import refused_form
from .forms import DirectorForm, EventForm, JoinEventForm, RosterForm, StatusForm, result_form

bp = Blueprint("nights", __name__)
bp.after_request(refused_form)  # a refused form comes back with its errors, as 422


def _refuse(form: RefusableForm, err: Exception, field: str | None = None) -> None:
    """Put a service's or engine's refusal next to its field (or `field`, or the form's top)."""
    if isinstance(err, ClubError):
        form.refuse(field or err.field, club_message(err))
    elif isinstance(err, RuleError):
        form.refuse_rule(err)
    elif isinstance(err, ServiceError):
        form.refuse(field or err.field, err.message)


def _back(event: Event, anchor: str = "") -> Response:
    return redirect(url_for("nights.event_page", event_id=event.id) + anchor)


@bp.route("/events/new", methods=["GET", "POST"])
@login_required
def new_event() -> Any:
    """Make a club night; its maker directs it."""
    form = EventForm()
    if form.validate_on_submit():
        try:
            event, made = events.make_event_once(current_user, form.to_data(), form.start_key())
        except Invalid as err:
            _refuse(form, err, "rules" if err.field == "game" else None)
        except RuleError as err:  # the game's set-up, judged as a match's (RULES.md §1, §11)
            form.refuse_rule(err)
        else:
            flash(
                _("Club night made. Let the players check in with its code or QR.")
                if made
                else _("This club night had already been made: here it is.")
            )
            return _back(event)
    with form_page():
        return render_template("nights/new.html", form=form, typed=TYPED)


@bp.get("/events/<event_id>/rounds/<int:number>")
@login_required
def round_page(event_id: str, number: int) -> Any:
    """A round of the night as it stands or ended: its tables, their players, scores and results
    (an earlier round's, to look back or correct a paper result)."""
    event = events.event_for_member(event_id, current_user)
    round_ = events.get_round(event, number)  # 404 for a round not seated
    return render_template(
        "nights/round.html",
        event=event,
        round=round_,
        tables=progress.table_states(event, round_),
        director=events.is_director(event, current_user),
        teams=results.club_game(event) == "tichu",
        links=events.matches_of(event, current_user),
        minutes_left=None,
    )


@bp.get("/events/<event_id>")
@login_required
def event_page(event_id: str) -> Any:
    """The night's page: a player's table, every table as it stands, the standings; directors
    also see the check-in, the roster and the round's controls."""
    return _event_page(events.event_for_member(event_id, current_user))


def _event_page(event: Event, status: int = 200, **forms: RefusableForm) -> Any:
    """The night's page, with these forms (refused ones show their errors) in place of new ones."""
    with form_page():
        director = events.is_director(event, current_user)
        current = event.seated[-1] if event.seated else None
        now = utcnow()
        tables = progress.table_states(event, current) if current else []
        page = render_template(
            "nights/event.html",
            event=event,
            director=director,
            round=current,
            tables=tables,
            teams=results.club_game(event) == "tichu",
            mine=progress.my_seat(event, current_user),
            links=events.matches_of(event, current_user),
            standings=serialize.standings_data(event)["standings"],
            minutes_left=progress.countdown(event, now),
            version=progress.live_version(event, now),
            board_url=url_for("club.board", token=event.watch_token),
            csv_url=url_for("club.event_csv", event_id=event.id),
            roster_form=forms.get("roster") or RosterForm(formdata=None),
            director_form=forms.get("director") or DirectorForm(formdata=None),
            seat_form=forms.get("seat") or ButtonForm(formdata=None),
        )
    return page, status


@bp.get("/events/<event_id>/version")
@login_required
def version(event_id: str) -> Response:
    """The night's version (its countdown's minute too); 304 while it is what the page already
    shows."""
    v = progress.live_version(events.event_for_member(event_id, current_user), utcnow())
    response = jsonify(version=v)
    response.set_etag(v)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response.make_conditional(request)


@bp.get("/events/<event_id>/cards")
@login_required
def cards(event_id: str) -> Any:
    """Printable table cards of the current round: one a half page (directors only)."""
    event = events.event_for_director(event_id, current_user)
    tables = progress.table_states(event, event.seated[-1]) if event.seated else []
    return render_template("nights/cards.html", event=event, tables=tables, number=len(event.seated))


@bp.get("/events/join/<code>")
@login_required
@limits.join_link_limits
def join_link(code: str) -> Any:
    """The check-in link (the night's QR): asks first, naming the night and its game, then joins
    the roster with one tap. A code no night has is a 404, said next to it (counted against the
    join limit, as a match's join link: guessing codes by URL stays hopeless)."""
    form = JoinEventForm(formdata=None, data={"code": code})
    try:
        night = events.event_by_code(code)
    except NotFound as err:
        _refuse(form, err, "code")
        with form_page():
            return render_template("nights/join.html", form=form, night=None, tichu=False), 404
    tichu = results.club_game(night) == "tichu"
    return render_template("nights/join.html", form=form, night=night, tichu=tichu)


@bp.post("/events/join")
@login_required
@limits.join_limits
def join() -> Any:
    """Check in to a night with its code (typed on the home page or the check-in page)."""
    form = JoinEventForm()
    if form.validate_on_submit():
        event = _join(form)
        if event is not None:
            status = next((p.status for p in event.roster if p.user_id == current_user.id), "present")
            flash(str(CHECKED_IN[status]), "warning" if status != "present" else "message")
            return _back(event)
    with form_page():
        return render_template("nights/join.html", form=form), 422


def _join(form: JoinEventForm) -> Event | None:
    """Check in with the form's code (and team or guest's name); None, with the refusal next to
    its field, if that cannot be."""
    try:
        events.event_by_code(form.code.data)
    except NotFound as err:
        _refuse(form, err, "code")
        return None
    try:
        return events.join(current_user, form.code.data, form.team.data or None, form.name.data or None)
    except (NotFound, Conflict, Invalid) as err:  # the guest's name: not on the roster, or taken
        _refuse(
            form, err, "team" if err.field == "team" else "name" if form.name.data or err.field == "name" else "code"
        )
        return None


@bp.post("/events/<event_id>/roster")
@login_required
def add_player(event_id: str) -> Any:
    """Put a guest or an account on the roster."""
    event = events.event_for_director(event_id, current_user)
    form = RosterForm()
    if form.validate_on_submit():
        username, guest, team = form.to_data()
        try:
            entry = events.add_to_roster(event, username, guest, team)
        except (Invalid, Conflict) as err:
            if err.field == "team" and results.club_game(event) != "tichu":
                form.refuse(None, err.message)  # sent by hand: this night's page has no team box
            else:
                _refuse(form, err, "guest" if err.field == "username" and username is None else None)
        else:
            flash(_("%(name)s is on the roster.", name=entry.name))
            return _back(event, "#roster")
    return _event_page(event, 422, roster=form)


@bp.post("/events/<event_id>/roster/<path:name>")
@login_required
def mark_player(event_id: str, name: str) -> Any:
    """Mark a player present, absent (for the next round) or dropped, or give them a Tichu team
    (a player with none cannot be seated: CLUB.md §1)."""
    event = events.event_for_director(event_id, current_user)
    form = StatusForm()
    if form.validate_on_submit():
        change = {"status": form.status.data} if form.status.data else {"team": form.team.data or None}
        try:
            entry = events.change_roster(event, name, change, current_user)
        except (Invalid, Conflict) as err:
            flash(err.message, "warning")
        else:
            if "team" in change and entry.team:
                flash(_("%(name)s plays in team %(team)s.", name=entry.name, team=entry.team))
            elif "team" in change:
                flash(_("%(name)s plays in no team now.", name=entry.name))
        return _back(event, "#roster")
    return _back(event, "#roster")


@bp.post("/events/<event_id>/directors")
@login_required
def add_director(event_id: str) -> Any:
    """Make an account a co-director."""
    event = events.event_for_director(event_id, current_user)
    form = DirectorForm()
    if form.validate_on_submit():
        try:
            user = events.add_director(event, form.director.data)
        except Invalid as err:
            _refuse(form, err, "director")
        else:
            flash(_("%(name)s directs the night too.", name=user.username))
            return _back(event)
    return _event_page(event, 422, director=form)


@bp.post("/events/<event_id>/rounds")
@login_required
def seat_round(event_id: str) -> Any:
    """Seat the next round."""
    event = events.event_for_director(event_id, current_user)
    form = ButtonForm()
    if form.validate_on_submit():
        try:
            round_ = events.seat_round(event, current_user)
        except (Conflict, ClubError) as err:
            _refuse(form, err, "seat")
            return _event_page(event, 409 if isinstance(err, Conflict) else 422, seat=form)
        flash(_("Round %(num)d is seated: every phone shows its table.", num=round_.number))
    return _back(event)


@bp.route("/events/<event_id>/rounds/<int:number>/reseat", methods=["GET", "POST"])
@login_required
def reseat(event_id: str, number: int) -> Any:
    """Seat the current round again before any hand (a new draw), from a page of its own that
    also offers to take it back: one stray tap on the night's page never moves a seated room."""
    event = events.event_for_director(event_id, current_user)
    events.get_round(event, number)  # 404 for a round not seated
    form = ButtonForm()
    if form.validate_on_submit():
        try:
            events.reseat_round(event, number, current_user)
        except (Conflict, NotFound, ClubError) as err:
            _refuse(form, err)
            return _reseat_page(event, number, 422 if isinstance(err, ClubError) else 409, again=form)
        flash(_("Round %(num)d is seated again.", num=number))
        return _back(event)
    return _reseat_page(event, number, again=form)


@bp.post("/events/<event_id>/rounds/<int:number>/unseat")
@login_required
def unseat(event_id: str, number: int) -> Any:
    """Take the current round back before any hand: no tables until a director seats it."""
    event = events.event_for_director(event_id, current_user)
    form = ButtonForm()
    if form.validate_on_submit():
        try:
            events.unseat_round(event, number)
        except (Conflict, NotFound) as err:
            _refuse(form, err)
            return _reseat_page(event, number, 409, back=form)
        flash(_("Round %(num)d is taken back: seat it when the room is ready.", num=number))
    return _back(event)


def _reseat_page(event: Event, number: int, status: int = 200, **forms: RefusableForm) -> Any:
    """The page that seats a round again or takes it back, a refused form showing why; once a
    table of the round has played (the page opened late), only why, and the way back."""
    round_ = next((r for r in event.seated if r.number == number), None)
    refused = [m for f in forms.values() for m in f.top_errors]
    played = round_ is not None and events.round_played(round_)
    with form_page():
        page = render_template(
            "nights/reseat.html",
            event=event,
            number=number,
            played=(refused or [str(events.PLAYED)]) if played else [],
            again=forms.get("again", ButtonForm()),
            back=forms.get("back", ButtonForm()),
        )
    return page, status


@bp.post("/events/<event_id>/rounds/more")
@login_required
def add_round(event_id: str) -> Any:
    """Plan one round more."""
    event = events.event_for_director(event_id, current_user)
    form = ButtonForm()
    if form.validate_on_submit():
        try:
            events.add_rounds(event, event.rounds + 1)
        except Invalid as err:
            _refuse(form, err, "seat")
            return _event_page(event, 422, seat=form)
        flash(_("The night now plans %(num)d rounds.", num=event.rounds))
    return _back(event)


@bp.route("/events/<event_id>/rounds/<int:number>/close", methods=["GET", "POST"])
@login_required
def close_round(event_id: str, number: int) -> Any:
    """Close the round, after a confirmation: every unfinished table ends where it stands."""
    event = events.event_for_director(event_id, current_user)
    round_ = events.get_round(event, number)  # 404 for a round not seated
    form = ConfirmForm()
    if form.validate_on_submit():
        events.close_round(event, number, current_user)
        flash(_("Round %(num)d is closed: every table's result counts.", num=number))
        return _back(event)
    # Closed with no hand, a table is a tie of all its players (CLUB.md §2): said before the tick.
    unplayed = [t.table.number for t in progress.table_states(event, round_) if not t.done and not t.hands]
    with form_page():
        return render_template("nights/close.html", event=event, number=number, form=form, unplayed=unplayed)


@bp.route("/events/<event_id>/rounds/<int:number>/tables/<int:table>/result", methods=["GET", "POST"])
@login_required
def enter_result(event_id: str, number: int, table: int) -> Any:
    """A paper table's final scores, entered by a director."""
    event = events.event_for_director(event_id, current_user)
    found = next((t for t in events.get_round(event, number).tables if t.number == table), None)
    if found is None:
        raise NotFound(_("Round %(r)d has no table %(t)d.", r=number, t=table))
    tichu = results.club_game(event) == "tichu"
    names = list(team_names(found.players)) if tichu else list(found.players)
    entered = {f"score_{i}": score for i, score in enumerate(found.entered_scores or [])}
    form = result_form(names, data=entered)  # a result entered before, to correct
    if form.validate_on_submit():
        try:
            events.enter_result(event, number, table, [f.data for f in form.scores()], current_user)
        except (Invalid, ClubError) as err:
            _refuse(form, err, "scores")
        else:
            flash(_("Table %(num)d's result is in.", num=table))
            return _back(event)
    with form_page():
        return render_template("nights/result.html", event=event, number=number, table=found, form=form)
