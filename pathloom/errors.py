"""The errors a user can meet, each rendered as one line by the CLI.

``Unsupported`` is raised for any construct outside the supported subset, with the source
location; ``UsageError`` for a bad command line, a missing file or target. ``EngineBug`` is an
internal inconsistency (for example a replay mismatch), exit code 3; ``internal_error`` is the one
line for a crash of pathloom itself, ``EXIT_INTERRUPTED`` the exit code after Ctrl-C.
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


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process ended by Ctrl-C


def worst_exit_code(codes: list[int]) -> int:
    """The exit code of a run of several parts: interrupted, then 3, 1, 2, else 0."""
    for code in (EXIT_INTERRUPTED, 3, 1, 2):
        if code in codes:
            return code
    return 0


def internal_error(exc: BaseException) -> str:
    """The one line that reports a crash of pathloom itself."""
    if isinstance(exc, PathloomError):
        return exc.one_line()
    if isinstance(exc, RecursionError):
        return "pathloom: internal error: recursion too deep in the analyzer"
    return f"pathloom: internal error: {type(exc).__name__}: {exc}"
