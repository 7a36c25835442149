"""The read-only view of the heap that the semantics needs; engines implement it.

The semantics reads records and asks for fresh references; it never writes: writes are
returned in outcomes (``Ok.writes``) and applied by the engine to its own heap representation
(one heap per path, or guarded heaps for merged states). Heap models for input references
(lazy initialization, lazier#, path-optimal ite heap) implement this same protocol.
"""

from __future__ import annotations

from typing import Protocol

from pathloom.semantics.values import Record, Ref


class HeapView(Protocol):
    def record(self, ref: Ref) -> Record: ...

    def fresh(self) -> Ref: ...
