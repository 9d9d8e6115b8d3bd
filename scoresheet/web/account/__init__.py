"""Your account: change the password, log out everywhere, delete the account."""
