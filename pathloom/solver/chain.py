"""Build the solver chain from the options, outermost first:
independence slicing -> (validation ->) query cache -> counterexample cache -> pinned-value
propagation -> Z3."""

from __future__ import annotations

from pathloom.solver.base import Solver, SolverStats
from pathloom.solver.caching import CachingSolver
from pathloom.solver.cex_cache import CexCachingSolver
from pathloom.solver.independence import IndependenceSolver
from pathloom.solver.pinning import PinningSolver
from pathloom.solver.validating import ValidatingSolver
from pathloom.solver.z3_core import Z3Solver


def build_chain(stats: SolverStats, timeout_ms: int, layers: tuple[str, ...] = ("independence", "cache", "cex")) -> tuple[Solver, Z3Solver]:
    """The chain and its Z3 core (the engine sets the core's global deadline)."""
    core = Z3Solver(stats, timeout_ms)
    solver: Solver = PinningSolver(core)
    if "cex" in layers:
        solver = CexCachingSolver(solver, stats)
    if "cache" in layers:
        solver = CachingSolver(solver, stats)
    if "validate" in layers:
        solver = ValidatingSolver(solver, stats)
    if "independence" in layers:
        solver = IndependenceSolver(solver, stats)
    return solver, core
