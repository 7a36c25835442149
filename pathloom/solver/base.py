"""The solver interface shared by every layer of the chain.

A ``Query`` asks whether the conjunction of ``constraints`` is satisfiable; ``focus`` names the
constraint the caller cares about (independence slicing keeps only what is connected to it).
A ``Result`` is ``sat`` with a model (symbol name -> Python value) covering at least the
symbols of the constraints it was asked about, ``unsat``, or ``unknown`` (a timeout or a
solver give-up: never to be read as unsat). Every layer counts its calls and time in
``SolverStats``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pathloom.terms.expr import Concrete, Term

SAT = "sat"
UNSAT = "unsat"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Query:
    constraints: frozenset[Term]
    focus: Term | None = None
    # Formulas already in Z3's form (MultiSE's guards, encoded node by node once and for all)
    # and the input symbols they mention. Only the Z3 core reads them: a query with extras
    # goes straight to it, past the caches keyed on ``constraints``.
    extras: tuple[object, ...] = ()
    extra_symbols: frozenset[Term] = frozenset()
    # False when the caller knows no recent model can satisfy the query (MultiSE's results
    # have disjoint guards): the counterexample cache then skips its lookup.
    reuse_models: bool = True
    # True when the constraints are one independent component already (MultiSE slices its
    # model-guided queries itself): independence slicing passes the query on as it is.
    sliced: bool = False


@dataclass(frozen=True)
class Result:
    status: str
    model: dict[str, Concrete] = field(default_factory=dict)


@dataclass
class SolverStats:
    queries: int = 0  # queries that reached the chain
    z3_calls: int = 0
    z3_time_s: float = 0.0
    cache_hits: int = 0
    cex_hits: int = 0
    sliced_constraints: int = 0
    unknowns: int = 0
    small_model_hits: int = 0  # unknowns of Z3 answered by the small-model search (small_models)

    def as_dict(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


class Solver(Protocol):
    def check(self, query: Query) -> Result: ...
