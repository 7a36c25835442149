"""The Z3 watchdog: an interrupt that lands anywhere (in ``check`` or around it) never leaves
the shared context canceled for later queries."""

from __future__ import annotations

import threading

import z3

from pathloom.solver.base import SAT, UNKNOWN, Query, SolverStats
from pathloom.solver.z3_core import Z3Solver
from pathloom.terms import expr as T
from pathloom.terms.expr import INT


def _easy() -> Query:
    x = T.sym("x", INT)
    return Query(frozenset({T.lt(x, 3), T.lt(0, x)}))


def test_an_interrupt_outside_check_does_not_poison_later_queries(monkeypatch) -> None:
    """A timer firing at once lands in push/add (before ``check``): the query is `unknown`,
    and the next one is answered."""
    solver = Z3Solver(SolverStats(), timeout_ms=1000)

    class Immediate(threading.Timer):
        def start(self) -> None:
            self.function()  # fire now, before the query is even pushed
            super().start()

    monkeypatch.setattr("pathloom.solver.z3_core.threading.Timer", Immediate)
    assert solver.check(_easy()).status == UNKNOWN
    monkeypatch.undo()
    for _ in range(3):
        assert solver.check(_easy()).status == SAT


def test_an_interrupt_while_idle_is_cleared_by_renewal() -> None:
    solver = Z3Solver(SolverStats(), timeout_ms=1000)
    solver.solver.ctx.interrupt()  # the context is canceled: a push would raise
    try:
        solver.solver.push()
        raised = False
    except z3.Z3Exception:
        raised = True
    assert raised
    solver._renew()
    assert solver.check(_easy()).status == SAT


def test_max_unfolding_is_unknown_and_other_z3_errors_are_raised(monkeypatch) -> None:
    """Z3 raises "reached max unfolding" (recursive function definitions of the str
    encodings) instead of answering unknown: the query is unknown, never a crash; any other
    Z3 error still surfaces, and the solver answers the next query."""
    solver = Z3Solver(SolverStats(), timeout_ms=1000)
    real_check = z3.Solver.check

    def gives_up(self: z3.Solver, *args: object) -> z3.CheckSatResult:
        raise z3.Z3Exception(b"reached max unfolding")

    monkeypatch.setattr(z3.Solver, "check", gives_up)
    assert solver.check(_easy()).status == UNKNOWN

    def broken(self: z3.Solver, *args: object) -> z3.CheckSatResult:
        raise z3.Z3Exception(b"invalid argument")

    monkeypatch.setattr(z3.Solver, "check", broken)
    try:
        solver.check(_easy())
    except z3.Z3Exception:
        pass
    else:
        raise AssertionError("a Z3 error other than max unfolding was swallowed")
    monkeypatch.setattr(z3.Solver, "check", real_check)
    assert solver.check(_easy()).status == SAT
