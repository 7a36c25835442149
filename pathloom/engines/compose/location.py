"""Where the summary store lives by default: ``.pathloom/summaries.sqlite`` beside the project
(imports only ``pathlib``: the command line resolves it before loading any engine)."""

from __future__ import annotations

from pathlib import Path

DEFAULT_DIR = ".pathloom"
DEFAULT_NAME = "summaries.sqlite"
PROJECT_MARKERS = ("pyproject.toml", "setup.py", ".git")


def default_store_path(analysed: str | Path) -> Path:
    """The store of the project of ``analysed`` (a file or a directory): in the nearest
    directory at or above it with a ``pyproject.toml``, ``setup.py`` or ``.git``; else beside it."""
    path = Path(analysed).resolve()
    start = path if path.is_dir() else path.parent
    for directory in (start, *start.parents):
        if any((directory / marker).exists() for marker in PROJECT_MARKERS):
            return directory / DEFAULT_DIR / DEFAULT_NAME
    return start / DEFAULT_DIR / DEFAULT_NAME
