"""The rules pages: how each ruleset, and a table's own options, score, in a player's words."""
