"""Club nights: the JSON API of CLUB.md §6 and the board behind an event's watch link."""
