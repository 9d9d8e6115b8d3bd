"""Bringing people to a match: the join link, and the watch link with its page and board."""
