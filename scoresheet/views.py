"""Pages for people: thin views that read a form, call a service, and render or redirect.

Every successful form ends in a redirect with a flash (post/redirect/get); every refusal is
shown next to the field it names and stores nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.urls import iri_to_uri
from werkzeug.wrappers import Response

from . import accounts, errors, limits, services
from .forms import (
    FORFEIT_WORDS,
    RULESET_LABELS,
    ConfirmForm,
    JoinForm,
    LoginForm,
    MatchForm,
    RegisterForm,
    bid_step,
    hand_form,
    lowest_bid,
    record_to_form_data,
)
from .models import Match
from .rules import RULESETS, RuleError
from .services import Conflict

bp = Blueprint("pages", __name__)

WORDS = {
    "status": {"in_progress": "in progress", "finished": "finished: bank it",
               "banked": "banked", "ended": "ended"},
    "events": {"zero": "zero", "zero_penalty": "3rd zero −120", "forfeit_penalty": "−120",
               "barrel_on": "on the barrel", "barrel_ignored": "barrel: not counted",
               "barrel_fall": "fell off the barrel", "barrel_off": "off the barrel",
               "locked": "locked", "unlocked": "unlocked", "capped": "capped", "win": "wins"},
}


@bp.app_context_processor
def page_words() -> dict[str, Any]:
    """Words the templates show for the engine's codes."""
    return {"words": WORDS}


@bp.errorhandler(HTTPException)
def http_error(e: HTTPException) -> Any:
    """An error page a player can act on (a stranger's match is simply not there)."""
    return errors.http_error(e)


@bp.after_request
def refused_form(response: Response) -> Response:
    """A form post that did not redirect was refused: it comes back with its errors, as 422."""
    if request.method == "POST" and response.status_code == 200:
        response.status_code = 422
    return response


def back_to(match: Match) -> Response:
    """Redirect to the match page."""
    return redirect(url_for("pages.match", match_id=match.id))


def safe_next(target: str | None) -> str:
    """Where to go after logging in: only a path on this site, judged as the Location header
    will carry it (`iri_to_uri` drops tabs and newlines: "/\\t/evil" would become "//evil").
    Anything else, or anything holding a control, space, invisible character or backslash,
    goes home."""
    if target and target.isprintable() and " " not in target and "\\" not in target and \
            _on_site(target) and _on_site(iri_to_uri(target)):
        return target
    return url_for("pages.index")


def _on_site(url: str) -> bool:
    """A path of this site: one slash first, never two (a browser reads "//host" as a host)."""
    return url.startswith("/") and not url.startswith("//")


@bp.route("/register", methods=["GET", "POST"])
@limits.register_limits
def register() -> Any:
    """Make an account and log in."""
    form = RegisterForm()
    if form.validate_on_submit():
        try:
            user = accounts.register(form.username.data, form.password.data)
        except (RuleError, Conflict) as err:
            form.refuse(err.field, err.message)
        else:
            login_user(user)
            flash(f"Welcome, {user.username}. Start a match or join your table's.")
            response = redirect(url_for("pages.index"))
            limits.remember_device(response, user.username)
            return response
    return render_template("register.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
@limits.login_limits
def login() -> Any:
    """Log in with a username and password."""
    form = LoginForm()
    if form.validate_on_submit():
        user = accounts.authenticate(form.username.data, form.password.data)
        if user is None:
            form.refuse("password", "That username and password do not match.")
        else:
            login_user(user)
            flash(f"Logged in as {user.username}.")
            response = redirect(safe_next(request.args.get("next")))
            limits.remember_device(response, user.username)
            return response
    return render_template("login.html", form=form)


@bp.post("/logout")
def logout() -> Response:
    """Log out (a POST, so no link or image can do it) on every browser of this user: the
    session version moves on, so a copied session cookie stops working (API tokens stay)."""
    if current_user.is_authenticated:
        accounts.end_sessions(current_user)
    logout_user()
    session.clear()
    flash("Logged out.")
    return redirect(url_for("pages.login"))


@bp.get("/")
@login_required
def index() -> str:
    """Home: your matches, start one, join one."""
    return home(JoinForm(formdata=None))


def home(join_form: JoinForm) -> str:
    """The home page: matches in progress first, then banked and ended ones."""
    rows = []
    for m in services.user_matches(current_user):
        sheet = services.sheet_of(m)
        rows.append((m, sheet, services.match_status(m, sheet)))
    return render_template("index.html", rows=rows, join_form=join_form)


@bp.post("/join")
@login_required
@limits.join_limits
def join() -> Any:
    """Join a match with its code."""
    form = JoinForm()
    if form.validate_on_submit():
        try:
            m = services.join(current_user, form.code.data)
        except NotFound as err:
            form.refuse("code", str(err.description))
        else:
            flash("You joined the match: its sheet is on your phone too.")
            return back_to(m)
    return home(form)


@bp.route("/matches/new", methods=["GET", "POST"])
@login_required
def new_match() -> Any:
    """Start a match."""
    form = MatchForm()
    if form.validate_on_submit():
        try:
            match = services.create_match(current_user, form.to_data())
        except RuleError as err:
            form.refuse_rule(err)
        else:
            flash("Match started. Share the join code with the table.")
            return back_to(match)
    return render_template("match_new.html", form=form)


@bp.get("/matches/<match_id>")
@login_required
def match(match_id: str) -> str:
    """The running sheet of a match."""
    m = services.get_match(match_id, current_user)
    sheet = services.sheet_of(m)
    return render_template("match.html", match=m, sheet=sheet, **match_context(m, sheet))


def match_context(m: Match, sheet: Any) -> dict[str, Any]:
    """What every match template needs besides the sheet."""
    rules = sheet.setup.rules
    return {"status": services.match_status(m, sheet), "ruleset": RULESETS[rules],
            "rules_label": RULESET_LABELS.get(rules, rules),
            "forfeit_word": FORFEIT_WORDS.get(rules, "forfeit")}


@bp.route("/matches/<match_id>/hands/new", methods=["GET", "POST"])
@login_required
def new_hand(match_id: str) -> Any:
    """Enter the next hand."""
    m = services.get_match(match_id, current_user)
    sheet = services.sheet_of(m)
    nxt = sheet.next
    if m.status != "open" or nxt is None:
        flash("No more hands can be entered in this match.", "warning")
        return back_to(m)
    form = hand_form(sheet, nxt.sitting_out, data={"expected_hand": str(nxt.hand)})
    if form.validate_on_submit():
        try:
            services.add_hand(m, current_user, form.to_data())
        except Conflict as err:
            flash(err.message, "warning")
            return back_to(m)
        except RuleError as err:
            form.refuse_rule(err, nxt.hand)
        else:
            flash(f"Hand {nxt.hand} recorded.")
            return back_to(m)
    return render_template("hand_form.html", form=form, match=m, sheet=sheet, deal=nxt,
                           number=nxt.hand, editing=False, step=bid_step(sheet),
                           min_bid=lowest_bid(sheet, nxt.gold))


@bp.route("/matches/<match_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@login_required
def edit_hand(match_id: str, number: int) -> Any:
    """Correct a hand; every later hand is recomputed."""
    m = services.get_match(match_id, current_user)
    hand = services.get_hand(m, number)
    if m.status != "open":
        flash("This match is closed: its hands can no longer change.", "warning")
        return back_to(m)
    sheet = services.sheet_of(m)
    deal = sheet.hands[number - 1]
    data = record_to_form_data(hand.record, len(sheet.setup.players))
    form = hand_form(sheet, deal.sitting_out, data={**data, "version": str(hand.version)})
    if form.validate_on_submit():
        version = form.version.data
        try:
            services.edit_hand(m, current_user, number, form.to_data(),
                               (int(version) if version.isdecimal() else -1) if version else None)
        except Conflict as err:
            flash(err.message, "warning")
            return back_to(m)
        except RuleError as err:
            form.refuse_rule(err, number)
        else:
            flash(f"Hand {number} corrected; the hands after it are recomputed.")
            return back_to(m)
    return render_template("hand_form.html", form=form, match=m, sheet=sheet, deal=deal,
                           number=number, editing=True, step=bid_step(sheet),
                           min_bid=lowest_bid(sheet, deal.gold))


@bp.route("/matches/<match_id>/hands/<int:number>/delete", methods=["GET", "POST"])
@login_required
def delete_hand(match_id: str, number: int) -> Any:
    """Delete a hand after a confirmation; later hands move up and are recomputed."""
    m = services.get_match(match_id, current_user)
    services.get_hand(m, number)
    return confirmed(m, f"Delete hand {number}",
                     f"Hand {number} is removed and every later hand moves up one number "
                     "and is recomputed.",
                     lambda: services.delete_hand(m, current_user, number),
                     f"Hand {number} deleted; the hands after it are recomputed.")


@bp.route("/matches/<match_id>/bank", methods=["GET", "POST"])
@login_required
def bank(match_id: str) -> Any:
    """Bank a finished match after a confirmation."""
    m = services.get_match(match_id, current_user)
    return confirmed(m, "Bank the match",
                     "The sheet becomes final with its winner: nobody can change it again.",
                     lambda: services.bank(m, current_user), "Match banked.")


@bp.route("/matches/<match_id>/end", methods=["GET", "POST"])
@login_required
def end(match_id: str) -> Any:
    """End an unfinished match after a confirmation."""
    m = services.get_match(match_id, current_user)
    return confirmed(m, "End the match",
                     "The match stops here without a winner and its sheet becomes final.",
                     lambda: services.end(m, current_user), "Match ended.")


def confirmed(m: Match, title: str, question: str, action: Any, done: str) -> Any:
    """A final step: a page with a box to tick; the action runs only when it is ticked."""
    form = ConfirmForm()
    if form.validate_on_submit():
        try:
            action()
        except (Conflict, RuleError) as err:
            flash(err.message, "warning")
        else:
            flash(done)
        return back_to(m)
    return render_template("confirm.html", form=form, match=m, title=title, question=question)
