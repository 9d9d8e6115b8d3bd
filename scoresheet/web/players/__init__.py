"""Players' pages: claiming and giving seats, a player's page, the leaderboard, head to head."""
