"""sqlnb's exceptions. Library code raises them; only the CLI turns them into exit code 1."""

from __future__ import annotations

# What the command line prints on a Ctrl-C before a commit (exit code 130): here, where
# importing it can neither fail nor cost anything while a Ctrl-C unwinds a starting command.
INTERRUPTED = "Interrupted: the database is as it was.\n"


class SqlnbError(Exception):
    """Something the user can fix: the message names the table, column or value at fault."""

    def __init__(self, message: str, *, sql: str | None = None) -> None:
        super().__init__(" ".join(message.split()))
        self.sql = sql


class MissingTable(SqlnbError):
    """A table or view that does not exist (as opposed to one the role may not read)."""
