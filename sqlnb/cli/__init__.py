"""The ``sqlnb`` command: a thin layer over the Python API.

Results go to stdout. An error is one line on stderr and exit code 1; the database is left as
it was (every change runs in one transaction). ``commands`` holds the commands that write,
``show`` those that read; both register on :data:`app` (``sqlnb.cli.app``).
"""

from __future__ import annotations

from sqlnb.cli import commands, show
from sqlnb.cli.app import app

__all__ = ["app", "commands", "show"]
