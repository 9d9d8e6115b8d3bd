"""Live updates: the version a phone polls for, the event streams pushed where the server can
hold them (`push`), and the poll answered before Flask (`quick_poll`)."""
