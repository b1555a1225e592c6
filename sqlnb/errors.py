"""sqlnb's one exception. Library code raises it; only the CLI turns it into exit code 1."""

from __future__ import annotations


class SqlnbError(Exception):
    """Something the user can fix: the message names the table, column or value at fault."""

    def __init__(self, message: str, *, sql: str | None = None) -> None:
        super().__init__(" ".join(message.split()))
        self.sql = sql
