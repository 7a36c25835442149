"""Ctrl-C that cannot be lost: a request flag beside the ``KeyboardInterrupt``.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be when SIGINT
arrives. If that is a ``__del__`` method (Z3's objects free their native handles in one, many
times per query), Python prints "Exception ignored" and the interrupt is gone: the run goes
on. The CLI therefore installs :func:`handler`, which records the request before raising, and
the engines poll :func:`requested` once per step, so a swallowed interrupt still stops the run
at the next step.

Inside :func:`deferred` the handler only records the request, and :func:`raise_if_requested`
raises it after: a report being written is never cut in half, and imports and object
construction (a Z3 context half built, a dataclass's methods half made) are never interrupted.
While the handler is installed, errors of ``__del__`` methods after Ctrl-C are not printed:
they come from objects that Ctrl-C left half built (Z3's ``Context`` without ``owner``).

Invariant: :func:`requested` is ``True`` from the first SIGINT under :func:`handler` until
:func:`clear`; it is never set by anything else.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sys import UnraisableHookArgs

_requested = False
_deferring = 0  # depth of nested ``deferred`` blocks
_redelivery: threading.Timer | None = None  # the pending re-raise of a Ctrl-C met in Z3's code


def requested() -> bool:
    """Whether Ctrl-C was pressed since the handler was installed."""
    return _requested


def clear() -> None:
    global _requested
    _requested = False


#: Libraries whose Python code must not be interrupted: Z3's wrappers pair a native call with
#: a reference count (``Z3_mk_solver`` then ``Z3_solver_inc_ref``), and an object left between
#: the two is freed twice later (glibc: "corrupted double-linked list"); ctypes converts the
#: arguments of those calls.
PROTECTED = ("z3", "ctypes")
REDELIVERY_S = 0.02  # Ctrl-C met in protected code is raised again this much later


def handler(signum: int, frame: FrameType | None) -> None:
    global _requested
    _requested = True
    if _deferring:
        return
    if _in_protected_code(frame):
        global _redelivery
        _redelivery = threading.Timer(REDELIVERY_S, os.kill, (os.getpid(), signum))
        _redelivery.daemon = True
        _redelivery.start()
        return
    raise KeyboardInterrupt


def _in_protected_code(frame: FrameType | None) -> bool:
    folders = []
    for name in PROTECTED:
        file = getattr(sys.modules.get(name), "__file__", None)
        if file:
            folders.append(os.path.dirname(file) + os.sep)
    prefixes = tuple(folders)
    while frame is not None and prefixes:
        if frame.f_code.co_filename.startswith(prefixes):
            return True
        frame = frame.f_back
    return False


@contextmanager
def deferred() -> Iterator[None]:
    """Inside the block, Ctrl-C only sets :func:`requested` (the caller checks it after)."""
    global _deferring
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1


def raise_if_requested() -> None:
    """Raise the ``KeyboardInterrupt`` a :func:`deferred` block held back, if any."""
    if _requested:
        raise KeyboardInterrupt


@contextmanager
def installed() -> Iterator[None]:
    """SIGINT goes to :func:`handler` inside the block (in the main thread only); the request
    flag is cleared on entry and on exit, so a later run in the same process is not stopped."""
    clear()
    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    default_hook = sys.unraisablehook

    def hook(unraisable: UnraisableHookArgs) -> None:
        if not _requested:
            default_hook(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        if _redelivery is not None:
            _redelivery.cancel()  # not to Python's own handler, after the run
        sys.unraisablehook = default_hook
        signal.signal(signal.SIGINT, previous)
        clear()
