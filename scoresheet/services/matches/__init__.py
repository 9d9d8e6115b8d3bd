"""A match: its commands (`commands`: create, join, add, edit, delete and restore a hand, bank,
end), its reading (`queries`, `versions`), the replay kept per revision (`replay_cache`), its
seats, links, history (`audit`), backups, CSV and chart."""
