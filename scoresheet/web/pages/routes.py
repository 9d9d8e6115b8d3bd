"""Pages for people: thin views that read a form, call a service, and render or redirect.

Every successful form ends in a redirect with a flash (post/redirect/get); every refusal is
shown next to the field it names and stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from ...rules import HandResult, MatchState, RuleError, SeatResult, TichuRound, setup_from_dict
from ...rules.tichu import TICHU
from ...services import accounts
from ...services.club import progress
from ...services.errors import AlreadyRecorded, Conflict, HandGone, NotFound
from ...services.matches import commands, members, queries, seats, serialize
from ...services.matches.replay_cache import hand_uids
from ...storage.database import form_page, reads_only
from ...storage.models import Match, User, fold, new_start_key
from ...words.house_rules import TYPED
from ...words.values import figure, signed
from ...words.vocabulary import FORFEIT_WORDS, RULESET_LABELS, WORDS
from .. import downloads, i18n, limits, request_bodies, security
from ..forms import ButtonForm, ConfirmForm, StartForm
from ..match_view import back_to, match_context, refused_form
from ..offline import queued
from ..security import ascii_number
from ..template_globals import session_ended
from . import news
from .forms import (
    JoinForm,
    LoginForm,
    MatchForm,
    RegisterForm,
    bid_step,
    entry_form,
    lowest_bid,
    record_to_form_data,
    round_to_form_data,
)

bp = Blueprint("pages", __name__)
ALREADY_STARTED = _l("This match had already started: here it is.")
"""A form that starts a match, sent again (`StartForm`)."""
bp.after_request(refused_form)  # a refused form comes back with its errors, as 422


@bp.route("/register", methods=["GET", "POST"])
@limits.register_limits
def register() -> Any:
    """Make an account and log in."""
    form = RegisterForm()
    if form.validate_on_submit():
        try:
            user = accounts.register(form.username.data, form.password.data, i18n.chosen())
        except (RuleError, Conflict) as err:
            form.refuse(err.field, err.message)
        else:
            # With a page to go on to (a join link's, above all) the welcome leaves the next
            # step to that page; on the home page it says what to do there.
            welcome = (
                _("Welcome, %(name)s: your account is ready.", name=user.username)
                if request.args.get("next")
                else _("Welcome, %(name)s. Start a match or join your table's.", name=user.username)
            )
            return _logged_in(user, form.remember.data, welcome)
    with form_page():
        return render_template("pages/register.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
@limits.login_limits
def login() -> Any:
    """Log in with a username and password."""
    form = LoginForm()
    if form.validate_on_submit():
        user = accounts.authenticate(form.username.data, form.password.data)
        if user is None:
            form.refuse("password", _("That username and password do not match."))
        else:
            return _logged_in(user, form.remember.data, _("Logged in as %(name)s.", name=user.username))
    with form_page():
        return render_template("pages/login.html", form=form)


def _logged_in(user: User, remember: bool, welcome: str) -> Response:
    """Log the user in (the language chosen before becomes the account's), say `welcome`, and
    go on to the page asked for (`next`) or home; this phone is remembered as the user's.
    The session starts anew: nothing of it from before the log-in (its CSRF token above all)
    is good after it."""
    session.clear()
    g.pop(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), None)  # this request's, from before
    generate_csrf()  # the new session's own token
    login_user(user, remember=remember)
    i18n.adopt_choice(user)
    flash(welcome)
    response = redirect(security.local_path(request.args.get("next"), url_for("pages.index")))
    limits.remember_device(response, user.username)
    return response


@bp.route("/logout", methods=["GET", "POST"])
def logout() -> Any:
    """Log out after a confirmation (a POST, so no link or image can do it) on every browser
    of this user: the session version moves on, so a copied session or remember-me cookie
    stops working (API tokens stay)."""
    if request.method == "GET":  # the question; CSRFProtect guards the POST
        return render_template("pages/logout.html")
    if current_user.is_authenticated:
        accounts.end_sessions(current_user)
    logout_user()
    session.clear()
    flash(_("Logged out."))
    return redirect(url_for("pages.login"))


@bp.get("/")
def index() -> Any:
    """Home: your matches, start one, join one; logged out, the welcome page."""
    if not current_user.is_authenticated:
        return redirect(url_for("pages.welcome"))  # a first visit: what this is, not "log in"
    return _home(JoinForm(formdata=None))


@bp.get("/welcome")
def welcome() -> Any:
    """What the app is, with Make an account and Log in (logged in: the home page). A phone
    whose session the server ended goes to the log-in page instead, which says so and drops
    that account's kept sheets and waiting hands (docs/offline.md)."""
    if current_user.is_authenticated:
        return redirect(url_for("pages.index"))
    if session_ended():
        return redirect(url_for("pages.login"))
    return render_template("pages/welcome.html")


def _home(join_form: JoinForm) -> str:
    """The home page: matches in progress first, then banked and ended ones (one query, from
    their stored summaries: nothing is replayed)."""
    matches = [serialize.match_brief(m) for m in queries.listed_matches(current_user)]
    # One url_for for every row (match ids are URL-safe): a list of 100 costs 100 fewer.
    match_url = url_for("pages.match", match_id="-").removesuffix("-")
    nights = [(e, progress.my_seat(e, current_user)) for e in progress.running_events(current_user)]
    return render_template(
        "pages/index.html",
        matches=matches,
        match_url=match_url,
        join_form=join_form,
        nights=nights,
        start_key=new_start_key(),  # the usual rules' button (`StartForm`)
    )


@bp.post("/join")
@login_required
@limits.join_limits
def join() -> Any:
    """Join a match with its code."""
    form = JoinForm()
    if form.validate_on_submit():
        try:
            m = commands.join(current_user, form.code.data)
        except (NotFound, Conflict) as err:
            form.refuse("code", err.message)
        else:
            flash(_("You joined the match: its sheet is on your phone too."))
            return back_to(m)
    with form_page():
        return _home(form)


@bp.route("/matches/new", methods=["GET", "POST"])
@login_required
def new_match() -> Any:
    """Start a match."""
    form = MatchForm()
    if form.validate_on_submit():
        try:
            match, started = commands.start_match(current_user, setup_from_dict(form.to_data()), form.start_key())
        except RuleError as err:
            form.refuse_rule(err)
        else:
            flash(
                _("Match started. Invite the table: share the link or let them scan the code.")
                if started
                else str(ALREADY_STARTED)
            )
            return back_to(match)
    form.name_dealers()
    with form_page():
        return render_template(
            "pages/match_new.html",
            form=form,
            typed=TYPED,
            rulesets=RULESET_LABELS.values(),
            known_names=queries.known_names(current_user),
        )


@bp.post("/matches/<match_id>/rematch")
@login_required
def rematch(match_id: str) -> Response:
    """Start the table's next match (same players and rules) with one tap; a second tap, on
    any phone, opens the one already started."""
    m = queries.get_match(match_id, current_user)
    if ButtonForm().validate_on_submit():
        try:
            new, started = commands.rematch(m, current_user)
        except Conflict as err:
            flash(err.message, "warning")
            return back_to(m)
        flash(
            _("Rematch started: the same players and rules, the deal one seat on.")
            if started
            else _("The rematch had already started: here it is.")
        )
        return back_to(new)
    return back_to(m)


@bp.post("/matches/<match_id>/usual")
@login_required
def save_usual(match_id: str) -> Response:
    """Keep this match's players, ruleset and options as the player's usual rules."""
    m = queries.get_match(match_id, current_user)
    if ButtonForm().validate_on_submit():
        commands.save_usual_rules(current_user, m)
        flash(_("Saved as your table's usual rules: your home page starts the next match with them in one tap."))
    return back_to(m)


@bp.post("/matches/usual")
@login_required
def start_usual() -> Response:
    """Start a match with the player's usual rules, in one tap."""
    form = StartForm()
    if not form.validate_on_submit():
        for message in form.top_errors:
            flash(message, "warning")
        return redirect(url_for("pages.index"))
    m, started = commands.start_usual(current_user, form.start_key())
    flash(
        _("Match started with your usual rules. Invite the table: share the link or let them scan the code.")
        if started
        else str(ALREADY_STARTED)
    )
    return back_to(m)


@bp.get("/matches/<match_id>")
@login_required
def match(match_id: str) -> str:
    """The running sheet of a match."""
    m, member_names = queries.get_match_and_members(match_id, current_user)
    live = _live_context(m)
    return render_template("pages/match.html", seat_list=seats.seats_of(m), member_list=member_names, **live)


@bp.get("/matches/<match_id>/live")
@login_required
def live_part(match_id: str) -> str:
    """The match page's live part alone (`pages/_live.html`): what a phone fetches to swap its
    sheet in after a change, without the page around it (static/app.js)."""
    m, _names = queries.get_match_and_members(match_id, current_user)  # its club night table's id with it
    return render_template("pages/_live.html", **_live_context(m))


def _live_context(m: Match) -> dict[str, Any]:
    """What the match page's live part shows: the sheet, its newest change, the Undo offer,
    the rematch."""
    sheet = queries.sheet_of(m)
    change = news.latest_change(m)
    context = match_context(m, sheet)
    next_match = queries.rematch_of(m, current_user)
    return dict(
        match=m,
        sheet=sheet,
        change=change,
        offer=news.offer(m, current_user, sheet, change),
        news=news.news(change, context["tichu"], m),
        uids=hand_uids(m.id, sheet),
        place=progress.place_of(m),
        next_match=next_match,
        rematch_started=next_match is not None or queries.rematch_of(m) is not None,
        **context,
    )


@bp.post("/matches/<match_id>/members/<username>/remove")
@login_required
def remove_member(match_id: str, username: str) -> Response:
    """Remove a member (the creator), or leave the match (a member, their own name)."""
    m = queries.get_match(match_id, current_user)
    if not ButtonForm().validate_on_submit():
        return back_to(m)
    leaving = fold(username) == fold(current_user.username)
    members.remove_member(m, current_user, username)
    if leaving:
        flash(_("You left the match: it is no longer on your list."))
        return redirect(url_for("pages.index"))
    flash(_("%(name)s is no longer a member of this match.", name=username))
    return back_to(m)


@bp.get("/matches/<match_id>/sheet.csv")
@login_required
def sheet_download(match_id: str) -> Response:
    """Download the sheet of one of your matches."""
    return downloads.csv_response(queries.get_match(match_id, current_user))


@bp.get("/matches/<match_id>/sheet.xlsx")
@login_required
def sheet_workbook(match_id: str) -> Response:
    """Download the sheet of one of your matches as a workbook in your language."""
    return downloads.xlsx_response(queries.get_match(match_id, current_user))


@bp.route("/matches/<match_id>/hands/new", methods=["GET", "POST"])
@login_required
def new_hand(match_id: str) -> Any:
    """Enter the next hand (Tichu: the next round)."""
    m = queries.get_match(match_id, current_user, for_update=request.method == "POST")
    sheet = queries.sheet_of(m)
    nxt = sheet.next
    if m.status != "open" or nxt is None:
        refusal = _("No more hands can be entered in this match.")
        if queued.wanted():
            return queued.conflict(refusal, None, closed=True)
        flash(refusal, "warning")
        return back_to(m)
    tichu = sheet.setup.rules == TICHU
    form = entry_form(sheet, {"expected_hand": str(nxt.hand)})
    if form.validate_on_submit():
        number = nxt.hand
        try:
            record, expected, _version = request_bodies.hand_body(form.to_data(), sheet.setup.rules)
            commands.add_hand(m, current_user, record, expected)
        except AlreadyRecorded as err:
            number = err.number  # this very hand sent again (its answer was lost): it is recorded
        except Conflict as err:
            if queued.wanted():
                return queued.conflict(err.message, nxt.hand)
            flash(err.message, "warning")
            return back_to(m)
        except RuleError as err:
            form.refuse_rule(err, nxt.hand)
            return _entry_page(form, m, sheet, nxt, nxt.hand, editing=False)
        flash(_("Round %(num)d recorded.", num=number) if tichu else _("Hand %(num)d recorded.", num=number))
        return queued.recorded(number) if queued.wanted() else back_to(m)
    return _entry_page(form, m, sheet, nxt, nxt.hand, editing=False)


@bp.route("/matches/<match_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@login_required
def edit_hand(match_id: str, number: int) -> Any:
    """Correct a hand (Tichu: a round); every later one is recomputed. Asked for with the
    hand's `?uid=` (the phone's queue: "Correct it again"), the form is that hand's wherever
    the sheet has moved it since, never the one that took its number."""
    m = queries.get_match(match_id, current_user, for_update=request.method == "POST")
    uid = request.args.get("uid") or None
    if uid is not None and request.method == "GET" and queries.uid_of_hand(m, number) != uid:
        return _to_the_hand(m, number, uid)
    hand = queries.get_hand(m, number)
    if not commands.takes_corrections(m):
        refusal = _("This match is closed: its hands can no longer change.")
        if queued.wanted():
            return queued.conflict(refusal, None, closed=True)
        flash(refusal, "warning")
        return back_to(m)
    sheet = queries.sheet_of(m)
    deal = sheet.hands[number - 1]
    tichu = sheet.setup.rules == TICHU
    data = round_to_form_data(hand.record) if tichu else record_to_form_data(hand.record, len(sheet.setup.players))
    form = entry_form(sheet, {**data, "version": str(hand.version), "uid": hand.uid})
    if form.validate_on_submit():
        version = form.version.data
        try:
            record, _expected, _version = request_bodies.hand_body(form.to_data(), sheet.setup.rules, correction=True)
            version_seen = ascii_number(version) if version else None  # a number (`written_by_the_page`)
            commands.edit_hand(m, current_user, number, record, version_seen, form.uid.data or None)
        except AlreadyRecorded:
            pass  # this very correction sent again (its answer was lost): it is made
        except HandGone:  # another phone deleted it: nothing to correct
            if queued.wanted():
                return queued.deleted(_deleted_meanwhile(tichu))
            flash(_deleted_meanwhile(tichu), "warning")
            return back_to(m)
        except Conflict as err:
            if queued.wanted():
                return queued.conflict(err.message, None)
            flash(err.message, "warning")
            return back_to(m)
        except RuleError as err:
            form.refuse_rule(err, number)
            return _entry_page(form, m, sheet, deal, number, editing=True)
        if number == len(sheet.hands):  # the newest: nothing after it to recompute
            flash(_("Round %(num)d corrected.", num=number) if tichu else _("Hand %(num)d corrected.", num=number))
        elif tichu:
            flash(_("Round %(num)d corrected; the rounds after it are recomputed.", num=number))
        else:
            flash(_("Hand %(num)d corrected; the hands after it are recomputed.", num=number))
        return queued.recorded(number) if queued.wanted() else back_to(m)
    return _entry_page(form, m, sheet, deal, number, editing=True)


def _deleted_meanwhile(tichu: bool) -> str:
    """The words for a correction of a hand (a round) that another phone deleted."""
    if tichu:
        return _("The round you meant was deleted meanwhile: there is nothing to correct.")
    return _("The hand you meant was deleted meanwhile: there is nothing to correct.")


def _to_the_hand(m: Match, number: int, uid: str) -> Response:
    """The correction form of the hand `uid`, which the sheet moved from `number`: to its
    number now, or, deleted meanwhile, back to the sheet; said either way."""
    now = queries.number_of_hand(m, uid)
    tichu = m.setup["rules"] == TICHU
    if now is None:
        flash(_deleted_meanwhile(tichu), "warning")
        return back_to(m)
    flash(
        _("The round you meant is round %(num)d now: the sheet changed meanwhile.", num=now)
        if tichu
        else _("The hand you meant is hand %(num)d now: the sheet changed meanwhile.", num=now),
        "warning",
    )
    return redirect(url_for("pages.edit_hand", match_id=m.id, number=now, uid=uid))


def _entry_page(form: Any, m: Match, sheet: MatchState, deal: Any, number: int, editing: bool) -> Any:
    """The page of the hand (or round) form (a refused hand from the phone's queue: JSON)."""
    with form_page():
        if queued.wanted():
            return queued.refused(form)
        page = {"form": form, "match": m, "sheet": sheet, "deal": deal, "number": number, "editing": editing}
        page["deletes"] = commands.takes_deletions(m)
        if sheet.setup.rules == TICHU:
            return render_template("pages/round_form.html", **page)
        min_bid = lowest_bid(sheet, deal.gold)
        if not editing and not form.is_submitted():
            form.bid.data = min_bid  # a new hand's bid starts at the lowest
        return render_template("pages/hand_form.html", **page, step=bid_step(sheet), min_bid=min_bid)


@bp.route("/matches/<match_id>/hands/<int:number>/delete", methods=["GET", "POST"])
@login_required
def delete_hand(match_id: str, number: int) -> Any:
    """Delete a hand after a confirmation; later hands move up and are recomputed. The link,
    the form and the Undo toast name the hand (`?uid=`): a tap made before the sheet changed
    deletes nothing once hand `number` is another hand. The Undo toast's (`&last=1`) deletes
    nothing once another hand was recorded after it."""
    m = queries.get_match(match_id, current_user, for_update=request.method == "POST")
    uid = request.args.get("uid") or None
    newest = request.args.get("last") == "1"
    if uid is None:
        queries.get_hand(m, number)
    elif request.method == "GET":  # a link made before the sheet changed asks nothing
        try:
            commands.check_still_the_hand(m, number, uid)
        except Conflict as err:
            flash(err.message, "warning")
            return back_to(m)
    tichu = m.setup["rules"] == TICHU

    def question() -> str:
        """Asked before: the words of the newest hand say nothing of later ones."""
        if queries.uid_of_hand(m, number + 1) is None:
            return _("Round %(num)d is removed.", num=number) if tichu else _("Hand %(num)d is removed.", num=number)
        if tichu:
            return _(
                "Round %(num)d is removed and every later round moves up one number and is recomputed.", num=number
            )
        return _("Hand %(num)d is removed and every later hand moves up one number and is recomputed.", num=number)

    def done(sheet: MatchState) -> str:
        """Said after, from the sheet the deletion left (no read more)."""
        if newest:
            return _("Round %(num)d undone.", num=number) if tichu else _("Hand %(num)d undone.", num=number)
        if number > len(sheet.hands):  # it was the newest
            return _("Round %(num)d deleted.", num=number) if tichu else _("Hand %(num)d deleted.", num=number)
        if tichu:
            return _("Round %(num)d deleted; the rounds after it are recomputed.", num=number)
        return _("Hand %(num)d deleted; the hands after it are recomputed.", num=number)

    title = _("Delete round %(num)d", num=number) if tichu else _("Delete hand %(num)d", num=number)
    return _confirmed(m, title, question, lambda m, user: commands.delete_hand(m, user, number, uid, newest), done)


_CLOSINGS = {
    "bank": (
        _l("Bank the match"),
        _l("The sheet becomes final with its winner: nobody can change it again."),
        commands.bank,
        _l("Match banked."),
    ),
    "end": (
        _l("End the match"),
        _l("The match stops here without a winner and its sheet becomes final."),
        commands.end,
        _l("Match ended."),
    ),
}


@bp.route("/matches/<match_id>/bank", methods=["GET", "POST"], endpoint="bank", defaults={"step": "bank"})
@bp.route("/matches/<match_id>/end", methods=["GET", "POST"], endpoint="end", defaults={"step": "end"})
@login_required
def close(match_id: str, step: str) -> Any:
    """Bank a finished match, or end an unfinished one, after a confirmation."""
    title, question, command, done = _CLOSINGS[step]
    m = queries.get_match(match_id, current_user)
    if step == "bank" and m.event_table_id is not None:  # a club night's table (CLUB.md §4)
        question = _l("The sheet keeps its winner; as at every table of a club night, a hand can still be corrected.")
    return _confirmed(m, title, lambda: question, command, lambda _made: done)


def _confirmed(
    m: Match, title: Any, question: Callable[[], Any], command: Callable[[Match, User], Any], done: Callable[[Any], Any]
) -> Any:
    """A final step: a page with a box to tick (its `question()` asked); the command runs (on
    the match, by this user) only when it is ticked, and `done(what it returned)` is said."""
    form = ConfirmForm()
    if form.validate_on_submit():
        try:
            made = command(m, current_user)
        except (Conflict, RuleError) as err:
            flash(err.message, "warning")
        else:
            flash(str(done(made)))
        return back_to(m)
    with form_page():
        return render_template("shared/confirm.html", form=form, match=m, title=title, question=question())


@bp.post("/matches/<match_id>/hands/preview")
@reads_only
@login_required
def preview(match_id: str) -> Any:
    """The engine's result for the hand form as typed so far (`?number=n`: a correction)."""
    m = queries.get_match(match_id, current_user)
    sheet = queries.sheet_of(m)
    asked = request.args.get("number")
    number = None if asked is None else ascii_number(asked, len(sheet.hands))
    if asked is not None and number is None:
        return {"ok": False, "message": _("There is nothing here.")}, 404
    deal = sheet.next if number is None else sheet.hands[number - 1]
    if deal is None or not (m.status == "open" if number is None else commands.takes_corrections(m)):
        return {"ok": False, "message": _("No more hands can be entered in this match.")}
    form = entry_form(sheet)
    if not form.validate():
        message = next(iter(e for errs in form.errors.values() for e in errs), _("Check the form."))
        return {"ok": False, "message": str(message)}
    try:
        record = request_bodies.hand_body(form.to_data(), sheet.setup.rules).record
        result = commands.preview_hand(m, record, number)
    except RuleError as err:
        return {"ok": False, "field": err.field, "message": err.message}
    return {"ok": True, **_preview_words(sheet, result)}


def _debt_words(s: SeatResult) -> str:
    """Why the sheet writes another number than the score moves: the debt grew, or a gain paid
    some or all of it off."""
    entry = signed(s.entry)
    if s.delta < s.entry:
        return _("(the sheet writes %(entry)s; the debt is now %(owed)d)", entry=entry, owed=s.owed)
    paid = s.delta - s.entry
    if s.owed:
        return _(
            "(the sheet writes %(entry)s; %(paid)d pays off debt, %(owed)d still owed)",
            entry=entry,
            paid=paid,
            owed=s.owed,
        )
    return _("(the sheet writes %(entry)s; %(paid)d pays the debt off)", entry=entry, paid=paid)


def _preview_words(sheet: MatchState, h: HandResult) -> dict[str, Any]:
    """The preview in words: the outcome, then each seat's (Tichu: team's) points this hand."""
    names = [s.name for s in sheet.standings]
    r = h.record
    declarer = names[r.declarer or 0] if not isinstance(r, TichuRound) else ""
    if isinstance(r, TichuRound):
        summary, outcome = _("This round:"), "round"
    elif r.kind == "redeal":
        summary, outcome = _("Redeal: nobody scores; the same dealer deals again."), "redeal"
    elif r.kind == "forfeit":
        summary = _(
            "%(word)s: %(name)s calls %(bid)s off.",
            name=declarer,
            bid=r.bid,
            word=FORFEIT_WORDS.get(sheet.setup.rules, _("Forfeit")),
        )
        outcome = "missed"
    else:
        took = h.took[r.declarer or 0] if h.took else 0
        outcome = "made" if h.made else "missed"
        summary = (
            _("%(name)s made %(bid)s: took %(took)s.", name=declarer, bid=r.bid, took=took)
            if h.made
            else _("%(name)s missed %(bid)s: took %(took)s.", name=declarer, bid=r.bid, took=took)
        )
    seats = []
    for i, s in enumerate(h.results):
        name = _("%(name)s (out)", name=names[i]) if i == h.sitting_out else names[i]
        # What the hand does to the score; the paper sheet's own entry only when it differs: a
        # loss it owes ("Boris: −200 → 220 (the sheet writes 0; the debt is now 200)") or a gain
        # that pays a debt off first (RULES.md §8).
        text = f"{name}: {signed(s.delta)} → {figure(s.score)}"
        if s.delta != s.entry:
            text += " " + _debt_words(s)
        events = [str(WORDS["events"][e]) for e in s.events if e in WORDS["events"]]
        seats.append(text + (f", {', '.join(events)}" if events else ""))
    return {"outcome": outcome, "summary": summary, "seats": seats}
