"""The read-only view of the heap that the semantics needs; engines implement it.

The semantics reads records and asks for fresh references; it never writes: writes are
returned in outcomes (``Ok.writes``) and applied by the engine to its own heap representation
(one heap per path, or guarded heaps for merged states). For concretization the engine also
answers with models of the current path (``models``). Heap models for input references
(lazy initialization, lazier#, path-optimal ite heap) implement this same protocol.
"""

from __future__ import annotations

from typing import Any, Protocol

from pathloom.domain.values import Record, Ref
from pathloom.terms.expr import Arg, Term


class HeapView(Protocol):
    def record(self, ref: Ref) -> Record: ...

    def fresh(self) -> Ref: ...

    def models(self, terms: list[Term], site: str, where: Arg = True) -> tuple[list[dict[str, Any]], bool]:
        """Up to ``--max-concretizations`` models of the current path and ``where`` (symbol
        name to value) under which ``terms`` take pairwise different values, and whether they
        are all the values there are (the engine proved no other exists). ``site`` names the
        operation, for the statistics (not counted when ``where`` is proved to fail on the
        path: nothing ran). Used by concretization only."""
        ...
