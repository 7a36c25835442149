"""The Ctrl-C handler: never raised where it would leave the run broken.

Inside ``deferred`` (a report being written, imports, the engine's set-up) it only records the
request. In Z3's own Python code (a native object created, its reference count not yet taken)
it records the request and raises it again a moment later, outside that code.
"""

from __future__ import annotations

import os
import time
from types import SimpleNamespace

import pytest
import z3

from pathloom import interrupt


def _frame(filename: str, back: object = None) -> object:
    return SimpleNamespace(f_code=SimpleNamespace(co_filename=filename), f_back=back)


def test_a_second_ctrl_c_while_the_report_is_written_is_deferred() -> None:
    with interrupt.installed():
        with interrupt.deferred():  # noqa: SIM117 - the asserts below run after the deferred block
            interrupt.handler(2, None)  # what SIGINT calls: records, does not raise here
        assert interrupt.requested()
        with pytest.raises(KeyboardInterrupt):
            interrupt.raise_if_requested()
        with pytest.raises(KeyboardInterrupt):
            interrupt.handler(2, None)


def test_ctrl_c_inside_z3_is_raised_again_outside_it() -> None:
    z3_file = os.path.join(os.path.dirname(z3.__file__), "z3.py")
    in_z3 = _frame(z3_file, back=_frame(__file__))
    with interrupt.installed():
        interrupt.handler(2, in_z3)  # type: ignore[arg-type]  # returns: Z3's objects stay whole
        assert interrupt.requested()
        with pytest.raises(KeyboardInterrupt):
            time.sleep(5)  # the signal comes again REDELIVERY_S later, here
        assert interrupt.REDELIVERY_S < 0.5


def test_frames_outside_the_protected_libraries_are_interrupted() -> None:
    with interrupt.installed():
        with pytest.raises(KeyboardInterrupt):
            interrupt.handler(2, _frame(__file__, back=_frame("/usr/lib/python3.11/functools.py")))  # type: ignore[arg-type]


def test_a_pending_redelivery_is_cancelled_when_the_run_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C met in Z3's code just before the run ends must not reach Python's own handler
    (a KeyboardInterrupt traceback on the way out)."""
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(interrupt.os, "kill", lambda pid, sig: sent.append((pid, sig)))
    z3_file = os.path.join(os.path.dirname(z3.__file__), "z3.py")
    with interrupt.installed():
        interrupt.handler(2, _frame(z3_file))  # type: ignore[arg-type]
    time.sleep(5 * interrupt.REDELIVERY_S)
    assert sent == []
    with interrupt.installed():
        interrupt.handler(2, _frame(z3_file))  # type: ignore[arg-type]
        time.sleep(5 * interrupt.REDELIVERY_S)
    assert sent == [(os.getpid(), 2)]  # while the run goes on, it is sent again
