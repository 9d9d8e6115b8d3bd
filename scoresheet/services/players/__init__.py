"""Players: who may see whom and their page's figures (`profiles`), the figures kept at banking
(`statistics`), and openskill ratings (`ratings`)."""
