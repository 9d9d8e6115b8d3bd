"""Your account's pages: change the password, log out everywhere, delete the account."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response

from ...rules import RuleError
from ...services import accounts
from ...services.errors import WrongPassword
from ...storage.database import form_page
from .. import limits
from ..match_view import refused_form
from .forms import ChangePasswordForm, DeleteAccountForm, LogOutEverywhereForm

bp = Blueprint("account", __name__)
bp.after_request(refused_form)  # a refused form comes back with its errors, as 422


def _account_page(password_form: ChangePasswordForm | None = None, delete_form: DeleteAccountForm | None = None) -> str:
    """The account page with its three forms (the refused one with its errors)."""
    with form_page():
        return render_template(
            "account/account.html",
            password_form=password_form or ChangePasswordForm(formdata=None),
            everywhere_form=LogOutEverywhereForm(formdata=None),
            delete_form=delete_form or DeleteAccountForm(formdata=None),
        )


@bp.get("/account")
@login_required
def account() -> str:
    """Your account: change the password, log out everywhere, delete the account."""
    return _account_page()


@bp.post("/account/password")
@login_required
@limits.password_check_limits
def change_password() -> Any:
    """Change the password: every other session, remember-me cookie and token ends."""
    form = ChangePasswordForm()
    if form.validate_on_submit():
        try:
            accounts.change_password(current_user, form.current_password.data, form.new_password.data)
        except (WrongPassword, RuleError) as err:
            form.refuse(err.field, err.message)
        else:
            _stay_logged_in()
            flash(_("Your password is changed. Every other phone and app is logged out."))
            return redirect(url_for("account.account"))
    return _account_page(password_form=form)


def _stay_logged_in() -> None:
    """After the session version moved on, keep this browser logged in (with a new
    remember-me cookie if it had one)."""
    remembered = current_app.config["REMEMBER_COOKIE_NAME"] in request.cookies
    login_user(current_user._get_current_object(), remember=remembered)


@bp.post("/account/logout-everywhere")
@login_required
def logout_everywhere() -> Response:
    """End every session, remember-me cookie and API token of this user, this one too."""
    if LogOutEverywhereForm().validate_on_submit():
        accounts.logout_everywhere(current_user)
        logout_user()
        session.clear()
        flash(_("You are logged out on every phone and app."))
    return redirect(url_for("pages.login"))


@bp.post("/account/delete")
@login_required
@limits.password_check_limits
def delete_account() -> Any:
    """Delete the account after the password is typed again."""
    form = DeleteAccountForm()
    if form.validate_on_submit():
        try:
            accounts.delete_account(current_user, form.password.data)
        except WrongPassword as err:
            form.refuse(err.field, err.message)
        else:
            logout_user()
            session.clear()
            flash(_("Your account is deleted. The matches you played stay with the other players."))
            return redirect(url_for("pages.login"))
    return _account_page(delete_form=form)
