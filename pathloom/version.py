"""pathloom's version as installed (``--version``, SARIF's ``tool.driver.version``, the cache key).

Invariant: one answer for the whole process, read from the installed distribution's metadata."""

from __future__ import annotations

import functools
from importlib.metadata import PackageNotFoundError, version


@functools.cache
def installed_version() -> str:
    """The installed distribution's version; ``unknown`` for a source tree never installed."""
    try:
        return version("pathloom")
    except PackageNotFoundError:
        return "unknown"
