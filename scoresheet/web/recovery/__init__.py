"""Recovery: a match's history with its restore, backups and imports, and the backup and restore
commands of the whole database."""
