"""Club nights' pages: the director's phone (make a night, its roster, its rounds), the table
cards, and each player's "my table" (CLUB.md §1, §3, §4)."""
