"""The errors a user can meet, each rendered as one line by the CLI.

``Unsupported`` is raised for any construct outside the supported subset, with the source
location; ``UsageError`` for a bad command line, a missing file or target. ``EngineBug`` is an
internal inconsistency (for example a replay mismatch), exit code 3.
"""

from __future__ import annotations


class PathloomError(Exception):
    exit_code = 2

    def one_line(self) -> str:
        return str(self)


class UsageError(PathloomError):
    pass


class Unsupported(PathloomError):
    def __init__(self, filename: str, line: int, col: int, what: str) -> None:
        super().__init__(f"{filename}:{line}:{col}: unsupported: {what}")
        self.filename = filename
        self.line = line
        self.col = col
        self.what = what


class EngineBug(PathloomError):
    exit_code = 3
