"""Ctrl-C that cannot be lost: a request flag beside the ``KeyboardInterrupt``.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be when SIGINT
arrives. If that is a ``__del__`` method (Z3's objects free their native handles in one, many
times per query), Python prints "Exception ignored" and the interrupt is gone: the run goes
on. The CLI therefore installs :func:`handler`, which records the request before raising, and
the engines poll :func:`requested` once per step, so a swallowed interrupt still stops the run
at the next step.

Invariant: :func:`requested` is ``True`` from the first SIGINT under :func:`handler` until
:func:`clear`; it is never set by anything else.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_requested = False


def requested() -> bool:
    """Whether Ctrl-C was pressed since the handler was installed."""
    return _requested


def clear() -> None:
    global _requested
    _requested = False


def handler(signum: int, frame: FrameType | None) -> None:
    global _requested
    _requested = True
    raise KeyboardInterrupt


@contextmanager
def installed() -> Iterator[None]:
    """SIGINT goes to :func:`handler` inside the block (in the main thread only)."""
    clear()
    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
