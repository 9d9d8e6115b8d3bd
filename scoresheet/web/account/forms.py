"""The account page's forms: change the password, log out everywhere, delete the account."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from ..forms import RefusableForm, password_field


class ChangePasswordForm(RefusableForm):
    """A new password, after the current one."""

    current_password = password_field(_l("Current password"), _l("Enter your current password."))
    new_password = password_field(_l("New password"), _l("Choose a new password."), new=True)


class LogOutEverywhereForm(RefusableForm):
    """End every session and token (a button: the CSRF token is the whole form)."""


class DeleteAccountForm(RefusableForm):
    """Delete the account: the password typed again."""

    password = password_field(_l("Your password"), _l("Enter your password to confirm."))
